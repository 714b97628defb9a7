"""Relational planner: FROM items, joins, grouping, ordering and set operations of a query AST
into a logical plan (expressions are bound by engine.bind.binder)."""

from __future__ import annotations

import dataclasses
import weakref

from engine.bind.binder import Binder
from engine.bind.names import column_name
from engine.bind.scope import (
    AliasesFirst,
    Rel,
    Scope,
    StarColumn,
    and_all,
    has_aggregate,
    split_and,
)
from engine.bind.window_calls import window_calls
from engine.catalog.privileges import check_read
from engine.catalog.system import is_virtual_database, virtual_table
from engine.catalog.users import SHOW_ROLES_COLUMNS, show_roles_rows
from engine.catalog.views import expand_view
from engine.core.errors import (
    SEMANTIC,
    BadArguments,
    EngineError,
    UnknownFunction,
    UnknownTable,
)
from engine.ir.expr import Col, Const, Expr, SubqueryExpr, column_ids, may_be_null
from engine.ir.plan import (
    Distinct,
    Filter,
    Join,
    Limit,
    Materialized,
    OneRow,
    Plan,
    Project,
    Scan,
    SetOp,
    Sort,
    WorkTable,
)
from engine.plan import flatten
from engine.plan.aggregate import check_no_aggregate, plan_aggregate
from engine.plan.clauses import (
    columns_matching,
    json_rows_relation,
    lateral_join,
    numbers_relation,
    plan_values,
    semi_join_relation,
    series_relation,
    star_columns,
    unnest_relation,
    values_relation,
)
from engine.plan.clauses import equi_pair as _equi_pair
from engine.plan.pivot import (
    PlannedRel,
    UnpivotQuery,
    pivot_relation,
    unpivot_columns,
    unpivot_relation,
    unpivot_select,
)
from engine.plan.recursive import RecursiveCte, cte_entry, recursive_relation, work_table_relation
from engine.plan.result_scan import result_scan_relation
from engine.plan.stage_scan import stage_relation
from engine.plan.table_udf import table_udf, table_udf_query
from engine.plan.unnest import has_unnest, refuse_set_returning, row_aliases, spread_arrays
from engine.plan.window import bind_window_call, plan_windows, running_differences, windows_of
from engine.types import sqltype as T
from grammar import ast as A


class Planner:
    """One per statement: plans query ASTs against the catalog of a session context. It holds the
    statement's Binder (expressions) and calls the planning of aggregates, windows, grouping sets,
    lateral joins and recursion (engine.plan.aggregate, .window, .grouping_sets, .clauses, .recursive)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.next_cid = 0
        self.window_columns: dict | None = None  # window call AST -> its output column, once planned
        self.window_prebind = False  # set while an aggregating query registers the aggregates it reads
        self.named_windows: dict = {}  # the WINDOW clause of the query being planned
        # column ids that hold no NULL in this statement's snapshot: generated code skips NULL checks
        self.nonnull: set[int] = set()
        self.nonnan: set[int] = set()  # float column ids whose table column holds no NaN (Table.nan_free)
        # integer column ids that hold no negative value in this statement's snapshot
        self.nonneg: set[int] = set()
        # right-hand columns of JOIN ... USING: `SELECT *` shows the joined column once
        self.star_hidden: set[int] = set()
        # columns no `*` shows, qualified or not: UNPIVOT's listed and appended columns (engine.plan.pivot)
        self.star_excluded: set[int] = set()
        # the binder reaches back through a weak reference: no reference cycle, so a statement's
        # planner (and what it holds, up to a dropped session's transaction) is freed at once
        planner = weakref.ref(self)
        self.binder = Binder(ctx, lambda: planner().cid(),
                             lambda query, scope, ctes: planner().plan_query(query, scope, ctes),
                             lambda node, scope, aliases: bind_window_call(planner(), node, scope, aliases),
                             self.star_hidden, self.star_excluded)

    def bind(self, node, scope: Scope, aliases=None) -> Expr:
        """An expression AST bound in `scope` (engine.bind.binder.Binder.bind)."""
        return self.binder.bind(node, scope, aliases)

    def cid(self) -> int:
        self.next_cid += 1
        return self.next_cid

    # ------------------------------------------------------------ queries

    def plan_query(self, q, parent: Scope | None = None, ctes=None) -> tuple[Plan, list[str]]:
        """A query AST -> (plan, output column names)."""
        ctes = dict(ctes or (parent.ctes if parent else {}))
        if isinstance(q, A.With):
            for cte in q.ctes:
                ctes[cte.name.lower()] = cte_entry(self, cte, q.recursive)
            return self.plan_query(q.query, parent, ctes)
        if isinstance(q, A.SetOperation):
            return self._set_operation(q, parent, ctes)
        if isinstance(q, A.Select):
            return self._select(q, parent, ctes)
        if isinstance(q, A.Values):
            return plan_values(self, q)
        raise EngineError(f"not a query: {type(q).__name__}", code=SEMANTIC, position=getattr(q, "pos", None))

    def _set_operation(self, q: A.SetOperation, parent, ctes):
        left, names = self.plan_query(q.left, parent, ctes)
        right, rnames = self.plan_query(q.right, parent, ctes)
        if len(left.layout) != len(right.layout):
            raise EngineError(f"{q.op} requires both sides to have the same number of columns "
                              f"({len(left.layout)} vs {len(right.layout)})", code=SEMANTIC, position=q.pos)
        types = [T.common_type([a, b]) for a, b in zip(left.types, right.types, strict=False)]
        left = self._coerce(left, types)
        right = self._coerce(right, types)
        layout = [self.cid() for _ in types]
        plan: Plan = SetOp(layout, types, op=q.op, all=q.all_, left=left, right=right)
        if q.order_by:
            cols = [(None, n, c, t) for n, c, t in zip(names, layout, types, strict=False)]
            keys = []
            for item in q.order_by:
                keys.append(self._output_position(item, names, cols, plan))
            plan = Sort(plan.layout, plan.types, child=plan, keys=keys)
        plan = self._limit(plan, q.limit, q.offset)
        return plan, names

    def _coerce(self, plan: Plan, types: list) -> Plan:
        if all(a == b for a, b in zip(plan.types, types, strict=False)):
            return plan
        exprs = []
        for cid, have, want in zip(plan.layout, plan.types, types, strict=False):
            e = Col(have, column=cid)
            exprs.append(e if have.as_nullable(False) == want.as_nullable(False) or want.name == "Null"
                         else self.binder.cast(e, want.as_nullable(have.can_be_null), False))
        return Project([self.cid() for _ in types], [e.type for e in exprs], child=plan, exprs=exprs)

    def _output_position(self, item: A.OrderItem, names, cols, plan):
        e = item.expr
        if isinstance(e, A.Literal) and e.kind == "int":
            if not 1 <= e.value <= len(names):
                raise EngineError(f"ORDER BY position {e.value} is not in select list", code=SEMANTIC,
                                  position=e.pos)
            return (e.value - 1, item.desc, item.nulls_first)
        bound = self.bind(e, Scope(cols))
        if not isinstance(bound, Col):
            raise EngineError("ORDER BY of a set operation must name an output column", code=SEMANTIC,
                              position=e.pos)
        return (plan.layout.index(bound.column), item.desc, item.nulls_first)

    def _limit(self, plan: Plan, limit, offset) -> Plan:
        if limit is None and offset is None:
            return plan
        n = self._const_int(limit, "LIMIT") if limit is not None else None
        off = self._const_int(offset, "OFFSET") if offset is not None else 0
        return Limit(plan.layout, plan.types, child=plan, limit=n, offset=off)

    def _const_int(self, node, what: str) -> int:
        e = self.bind(node, Scope([]))
        if not isinstance(e, Const) or not isinstance(e.value, int) or isinstance(e.value, bool) or e.value < 0:
            raise BadArguments(f"{what} takes a non-negative integer constant",
                               position=getattr(node, "pos", None))
        return e.value

    def _identifier_table(self, node: A.TableFunction) -> A.TableRef:
        """identifier('db.t') / identifier($t) in FROM: the table a constant string names."""
        e = self.bind(node.args[0], Scope([])) if len(node.args) == 1 else None
        if not isinstance(e, Const) or not isinstance(e.value, str) or not e.value:
            raise BadArguments("identifier() takes one constant string, a table's name", position=node.pos)
        return A.TableRef(tuple(e.value.split(".")), alias=node.alias, pos=node.pos)

    # ------------------------------------------------------------ SELECT

    def _select(self, q: A.Select, parent: Scope | None, ctes) -> tuple[Plan, list[str]]:
        if isinstance(q.from_, A.Unpivot):  # Databend's select-list rewrite (engine.plan.pivot)
            q = unpivot_select(q)
        q = running_differences(q)
        with windows_of(self, q):
            return self._select_body(q, parent, ctes)

    def _select_body(self, q: A.Select, parent: Scope | None, ctes) -> tuple[Plan, list[str]]:
        if q.from_ is None:
            rels = [Rel(OneRow([], []), [])]
            pool = []
        else:
            rels, pool = [], []
            self._from_item(q.from_, rels, pool, parent, ctes)
        scope = Scope([c for r in rels for c in r.columns], parent, ctes=ctes)
        if q.where is not None:
            if window_calls(q.where, []):
                raise EngineError("Where clause can't contain aggregate or window functions", code=SEMANTIC,
                                  position=q.where.pos)
            refuse_set_returning(q.where, "WHERE")
            pool.extend(split_and(self.bind_where(q.where, scope, row_aliases(q.items))))
        if q.having is not None:
            refuse_set_returning(q.having, "HAVING")
        plan = self._join_rels(rels, pool)

        appended = unpivot_columns(self, q.from_, rels)  # Databend appends UNPIVOT's two columns
        items = self._expand_items(q.items, scope) + appended
        # HAVING alone does not aggregate: without GROUP BY or aggregates it filters rows like WHERE
        aggregating = bool(q.group_by) or any(has_aggregate(i.expr) for i in items) or any(
            has_aggregate(o.expr) for o in q.order_by) or (q.having is not None and has_aggregate(q.having))
        select_asts = [i.expr for i in items]
        names = [i.alias if i.alias is not None else column_name(i.expr) for i in items]
        aliases = {i.alias.lower(): i.expr for i in items if i.alias is not None}

        # HAVING names select aliases before input columns (Databend: `SELECT a AS b .. HAVING b > 1`)
        having_aliases = AliasesFirst(aliases)
        if aggregating:
            self.window_prebind = True
            try:
                plan, bind_out = plan_aggregate(self, q, plan, scope, select_asts, aliases, having_aliases)
            finally:
                self.window_prebind = False
        else:
            def bind_out(node, names=aliases):
                return self.bind(node, scope, aliases=names)

        if q.having is not None:
            if window_calls(q.having, []):
                raise EngineError("Having clause can't contain window functions", code=SEMANTIC, position=q.having.pos)
            plan = Filter(plan.layout, plan.types, child=plan, predicate=self.binder.boolean(bind_out(q.having, having_aliases)))
        plan = plan_windows(self, plan, q, select_asts, bind_out)  # after HAVING, before QUALIFY
        select_exprs = [bind_out(a) for a in select_asts]
        if q.qualify is not None:
            plan = Filter(plan.layout, plan.types, child=plan, predicate=self.binder.boolean(bind_out(q.qualify)))

        # ORDER BY: ordinals, aliases, select expressions, or extra (hidden) expressions
        sort_keys = []
        extra = []
        for item in q.order_by:
            pos = self._order_target(item.expr, select_asts, names, aliases, q.items)
            if pos is None:
                e = bind_out(item.expr)
                for i, se in enumerate(select_exprs):
                    if isinstance(se, Col) and isinstance(e, Col) and se.column == e.column:
                        pos = i
                        break
                else:
                    if q.distinct:
                        raise EngineError(
                            "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                            code=SEMANTIC, position=item.expr.pos)
                    pos = len(select_exprs) + len(extra)
                    extra.append(e)
            sort_keys.append((pos, item.desc, item.nulls_first))
        all_exprs = select_exprs + extra
        if sort_keys and not q.distinct and all(isinstance(all_exprs[k[0]], Col) for k in sort_keys) \
                and not any(has_unnest(e) for e in select_exprs):
            # sort the input rows and project afterwards: a top-k then projects only k rows
            child_pos = {cid: i for i, cid in enumerate(plan.layout)}
            keys = [(child_pos[all_exprs[pos].column], desc, nf) for pos, desc, nf in sort_keys]
            plan = Sort(plan.layout, plan.types, child=plan, keys=keys)
            plan = self._limit(plan, q.limit, q.offset)
            return self._project(plan, select_exprs), names
        plan = self._project(plan, all_exprs)
        if q.distinct:
            plan = Distinct(plan.layout, plan.types, child=plan)
        if sort_keys:
            plan = Sort(plan.layout, plan.types, child=plan, keys=sort_keys)
        plan = self._limit(plan, q.limit, q.offset)
        if extra:
            n = len(select_exprs)
            keep = [Col(t, column=c) for c, t in zip(plan.layout[:n], plan.types[:n], strict=False)]
            plan = Project([self.cid() for _ in keep], [e.type for e in keep], child=plan, exprs=keep)
        return plan, names

    def _project(self, child: Plan, exprs: list) -> Plan:
        layout = [self.cid() for _ in exprs]
        self.nonnull.update(c for c, e in zip(layout, exprs, strict=False) if not may_be_null(e, self.nonnull))
        if any(has_unnest(e) for e in exprs):  # unnest(arr) in the select list: one row per element
            child, exprs = spread_arrays(child, exprs, self.cid)
        return Project(layout, [e.type for e in exprs], child=child, exprs=exprs)

    def _order_target(self, node, select_asts, names, aliases, items):
        if isinstance(node, A.Literal) and node.kind == "int":
            if not 1 <= node.value <= len(select_asts):
                raise EngineError(f"ORDER BY position {node.value} is not in select list", code=SEMANTIC,
                                  position=node.pos)
            return node.value - 1
        if isinstance(node, A.ColumnRef) and len(node.parts) == 1:
            key = node.parts[0].lower()
            for i, item in enumerate(items):
                if item.alias is not None and item.alias.lower() == key:
                    return i
        for i, a in enumerate(select_asts):
            if a == node:
                return i
        return None

    def _expand_items(self, items, scope: Scope) -> list[A.SelectItem]:
        out = []
        for item in items:
            matching = columns_matching(self, item, scope)
            if matching is not None:
                out.extend(matching)
                continue
            if isinstance(item.expr, A.Star):
                qual = item.expr.table
                cols = scope.columns
                if qual:
                    alias = qual[-1].lower()
                    cols = [c for c in cols if c[0] is not None and c[0].lower() == alias]
                    if not cols:
                        # Databend: an unknown table (1025)
                        raise UnknownTable(f"table `{'.'.join(qual)}` doesn't exist in FROM",
                                           position=item.expr.pos)
                cols = star_columns(self, item.expr, cols)
                for alias, name, cid, t in cols:
                    if (not qual and cid in self.star_hidden) or cid in self.star_excluded:
                        continue
                    parts = (alias, name) if alias is not None else (name,)
                    out.append(A.SelectItem(StarColumn(parts, cid, t, pos=item.pos), None))
                if not cols and not qual and scope.columns == []:
                    raise EngineError("SELECT * with no tables specified is not valid", code=SEMANTIC,
                                      position=item.pos)
                if all((not qual and cid in self.star_hidden) or cid in self.star_excluded for _, _, cid, _ in cols):
                    # as Databend: a `*` that adds no column (all excluded) is an error
                    raise EngineError("SELECT with no columns", code=SEMANTIC, position=item.pos)
            else:
                out.append(item)
        if not out and items:
            raise EngineError("SELECT with no columns", code=SEMANTIC, position=items[0].pos)
        return out

    def _from_item(self, node, rels: list, pool: list, parent, ctes):
        if isinstance(node, A.Join) and isinstance(node.right, A.LateralFunction):
            node = dataclasses.replace(node, right=flatten.lateral_ref(node.right))  # engine.plan.flatten
        elif isinstance(node, A.Join) and isinstance(node.right, A.TableFunction) and flatten.reads_columns(node.right):
            node = dataclasses.replace(node, right=flatten.each_row_ref(node.right))  # FROM t, unnest(t.a)
        if isinstance(node, A.Join) and isinstance(node.right, A.LateralRef):
            return lateral_join(self, node, rels, pool, parent, ctes)
        if isinstance(node, A.Join) and node.kind in ("CROSS", "INNER"):
            self._from_item(node.left, rels, pool, parent, ctes)
            self._from_item(node.right, rels, pool, parent, ctes)
            if node.kind == "INNER":
                cols = [c for r in rels for c in r.columns]
                scope = Scope(cols, parent, ctes=ctes)
                if node.on is not None:
                    pool.extend(split_and(self.binder.boolean(self.bind(node.on, scope))))
                left_cols = [c for r in rels[:-1] for c in r.columns]
                right_cols = rels[-1].columns
                using = _join_using(node, left_cols, right_cols)
                if using:
                    for name in using:
                        lc = self.binder.lookup(A.ColumnRef((name,), pos=node.pos), left_cols)
                        rc = self.binder.lookup(A.ColumnRef((name,), pos=node.pos), right_cols)
                        self.star_hidden.add(rc[2])
                        pool.append(self.binder.compare("=", Col(lc[3], column=lc[2]),
                                                  Col(rc[3], column=rc[2])))
            return
        if isinstance(node, A.Join) and " " in node.kind:  # LEFT|RIGHT SEMI|ANTI
            rels.append(semi_join_relation(self, node, parent, ctes))
            return
        if isinstance(node, A.Join):
            rels.append(self._outer_join(node, parent, ctes))
            return
        rels.append(self._relation(node, parent, ctes))

    def table_relation(self, ref: A.TableRef) -> Rel:
        """The stored table an UPDATE, DELETE or MERGE writes, as a FROM item (its scan reads
        the snapshot taken now). Its write privilege was checked (engine.catalog.privileges), not
        SELECT, as Databend checks a mutation's target."""
        ctx = self.ctx
        access, ctx.access = ctx.access, None
        try:
            return self._relation(ref, None, {})
        finally:
            ctx.access = access

    def bind_where(self, node, scope: Scope, aliases=None) -> Expr:
        """A WHERE condition over `scope` as a Boolean (no aggregates allowed); SELECT, UPDATE
        and DELETE all bind theirs here. A SELECT's WHERE may name its select aliases (after the
        input columns: `SELECT number * 2 AS a ... WHERE (a + 1) % 3 = 0`, as Databend)."""
        where = self.binder.boolean(self.bind(node, scope, aliases=aliases or None))
        check_no_aggregate(self, node)
        return where

    def _session_rows(self, node, columns, produce) -> Rel:
        """A table function whose rows `produce(ctx)` computes from the session's state."""
        layout = [self.cid() for _ in columns]
        plan = Materialized(layout, [t for _, t in columns], produce=produce, label=node.name)
        return Rel(plan, [(node.alias or node.name, n, c, t) for (n, t), c in zip(columns, layout, strict=False)])

    def _relation(self, node, parent, ctes) -> Rel:
        if isinstance(node, A.TableRef):
            record = self.ctx.plan_record  # what the plan cache must check (engine.plan.plan_cache)
            if len(node.name) == 1 and node.name[0].lower() in ctes:
                cte = ctes[node.name[0].lower()]
                if isinstance(cte, RecursiveCte | WorkTable) and record is not None:
                    record.cacheable = False  # its work table holds state while it runs
                if isinstance(cte, RecursiveCte):
                    return recursive_relation(self, cte, node, parent, ctes)
                if isinstance(cte, WorkTable):
                    return work_table_relation(self, cte, node)
                return self._derived(cte.query, node.alias or cte.name, cte.columns, parent, ctes, node.pos)
            database, name = self.ctx.resolve_table_name(node.name)
            if record is not None and not self.ctx.views_expanding:
                record.reads.append((database, name, node.pos))  # checked again on each reuse
            if self.ctx.access is not None and not self.ctx.views_expanding:
                check_read(self.ctx.access, database, name, node.pos, self.ctx.catalog)
            if is_virtual_database(database):
                virtual = virtual_table(database, name, node.pos)
                cols = virtual.columns
                layout = [self.cid() for _ in cols]
                alias = node.alias or name
                plan = Materialized(layout, [t for _, t in cols], produce=virtual.produce,
                                    label=f"{database.lower()}.{name.lower()}")
                return Rel(plan, [(alias, n, c, t) for (n, t), c in zip(cols, layout, strict=False)])
            view = self.ctx.catalog.view(database, name)
            if view is not None:
                if record is not None:
                    record.views.append((database, name, view))
                return expand_view(self, view, node)
            table = self.ctx.catalog.table(database, name, node.pos)
            if record is not None:
                record.scans.append((database, name, table, table.data, len(table.data)))
            layout = [self.cid() for _ in table.columns]
            alias = node.alias or table.name
            plan = Scan(layout, [c.type for c in table.columns], table=table, label=f"{database}.{table.name}",
                        data=table.data, count=len(table.data))
            self.nonnull.update(cid for cid, has_null in zip(layout, table.has_null, strict=False) if not has_null)
            self.nonneg.update(cid for cid, neg in zip(layout, table.has_negative, strict=False) if not neg)
            self.nonnan.update(cid for cid, free in zip(layout, table.nan_free, strict=False) if free)
            return Rel(plan, [(alias, c.name, cid, c.type) for c, cid in zip(table.columns, layout, strict=False)])
        if isinstance(node, A.SubqueryRef):
            return self._derived(node.query, node.alias, node.column_aliases, parent, ctes, node.pos)
        if isinstance(node, PlannedRel):
            return node.rel
        if isinstance(node, A.Pivot):
            return pivot_relation(self, node, parent, ctes)
        if isinstance(node, A.Unpivot | UnpivotQuery):
            return unpivot_relation(self, node, parent, ctes)
        if isinstance(node, A.StageRef):
            return stage_relation(self, node)
        if isinstance(node, A.LateralFunction):  # first in FROM: nothing before it to read
            function = node.function
            return self._derived(flatten.as_query(function), function.alias or function.name,
                                 flatten.column_names(function), parent, ctes, node.pos)
        if isinstance(node, A.ValuesRef):
            return values_relation(self, node)
        if isinstance(node, A.TableFunction):
            if node.name in ("generate_series", "range"):
                return series_relation(self, node, parent, ctes)
            if node.name == "unnest":
                return unnest_relation(self, node, parent, ctes)
            if node.name == "identifier":
                return self._relation(self._identifier_table(node), parent, ctes)
            if node.name == "result_scan":
                return result_scan_relation(self, node)
            if node.name == "show_roles" and not node.args:  # SHOW ROLES as a table
                return self._session_rows(node, SHOW_ROLES_COLUMNS, show_roles_rows)
            udf = table_udf(self.ctx.catalog.routines, node.name)
            if udf is not None:  # a SQL table function (engine.plan.table_udf)
                return self._derived(table_udf_query(udf, node), node.alias or node.name, node.column_aliases,
                                     None, {}, node.pos)
            if node.name in ("json_each", "json_array_elements"):
                return json_rows_relation(self, node)
            if node.name in ("flatten", "jq"):
                return self._derived(flatten.as_query(node), node.alias or node.name, flatten.column_names(node),
                                     parent, ctes, node.pos)
            # numbers_mt / numbers_local: the same rows (Databend's multi-threaded and
            # node-local variants; one process has one of each)
            if node.name not in ("numbers", "numbers_mt", "numbers_local") or len(node.args) != 1:
                raise UnknownFunction(f"Unknown table function {node.name}", position=node.pos)
            return numbers_relation(self, node, self._const_int(node.args[0], "numbers()"))
        raise EngineError(f"unsupported FROM item {type(node).__name__}", code=SEMANTIC,
                          position=getattr(node, "pos", None))

    def _derived(self, query, alias, column_aliases, parent, ctes, pos) -> Rel:
        plan, names = self.plan_query(query, parent, ctes)
        if column_aliases:
            if len(column_aliases) != len(names):
                raise EngineError("column alias count does not match the subquery", code=SEMANTIC, position=pos)
            names = list(column_aliases)
        return Rel(plan, [(alias, n, c, t) for n, c, t in zip(names, plan.layout, plan.types, strict=False)])

    def _outer_join(self, node: A.Join, parent, ctes) -> Rel:
        left_rels, left_pool = [], []
        self._from_item(node.left, left_rels, left_pool, parent, ctes)
        left = Rel(self._join_rels(left_rels, left_pool), [c for r in left_rels for c in r.columns])
        right_rels, right_pool = [], []
        self._from_item(node.right, right_rels, right_pool, parent, ctes)
        right = Rel(self._join_rels(right_rels, right_pool), [c for r in right_rels for c in r.columns])
        kind = node.kind
        if kind == "RIGHT":
            left, right = right, left
            kind = "LEFT"
        scope = Scope(left.columns + right.columns, parent, ctes=ctes)
        conds = []
        if node.on is not None:
            conds = split_and(self.binder.boolean(self.bind(node.on, scope)))
        written_left, written_right = (right, left) if node.kind == "RIGHT" else (left, right)
        for name in _join_using(node, written_left.columns, written_right.columns):
            lc = self.binder.lookup(A.ColumnRef((name,), pos=node.pos), left.columns)
            rc = self.binder.lookup(A.ColumnRef((name,), pos=node.pos), right.columns)
            self.star_hidden.add(rc[2])  # after a RIGHT swap, rc is the written left side
            conds.append(self.binder.compare("=", Col(lc[3], column=lc[2]), Col(rc[3], column=rc[2])))
        lset, rset = set(left.plan.layout), set(right.plan.layout)
        lkeys, rkeys, residual = [], [], []
        for c in conds:
            pair = _equi_pair(c, lset, rset)
            if pair:
                lkeys.append(pair[0])
                rkeys.append(pair[1])
            elif kind == "LEFT" and column_ids(c, set()) <= rset and not isinstance(c, SubqueryExpr):
                right = Rel(Filter(right.plan.layout, right.plan.types, child=right.plan, predicate=c),
                            right.columns)
            else:
                residual.append(c)
        ltypes = left.plan.types
        rtypes = right.plan.types
        if kind in ("LEFT", "FULL"):
            rtypes = [t.as_nullable(True) for t in rtypes]
        if kind == "FULL":
            ltypes = [t.as_nullable(True) for t in ltypes]
        plan = Join(left.plan.layout + right.plan.layout, ltypes + rtypes, left=left.plan, right=right.plan,
                    kind=kind, left_keys=lkeys, right_keys=rkeys, residual=and_all(residual))
        nullable_r = {c[2] for c in right.columns} if kind in ("LEFT", "FULL") else set()
        nullable_l = {c[2] for c in left.columns} if kind == "FULL" else set()
        self.nonnull.difference_update(nullable_r | nullable_l | set(right.plan.layout))
        if kind == "FULL":
            self.nonnull.difference_update(left.plan.layout)
        cols = [(a, n, c, t.as_nullable(True) if c in nullable_l else t) for a, n, c, t in left.columns]
        cols += [(a, n, c, t.as_nullable(True) if c in nullable_r else t) for a, n, c, t in right.columns]
        if node.kind == "RIGHT":
            # restore the written column order (left side first)
            cols = cols[len(left.columns):] + cols[:len(left.columns)]
        return Rel(plan, cols)

    def _join_rels(self, rels: list[Rel], pool: list[Expr]) -> Plan:
        """Greedy join order: push one-table conjuncts down, hash-join along equalities."""
        owner = {}
        for i, r in enumerate(rels):
            for cid in r.plan.layout:
                owner[cid] = i
        pending = []
        plans = [r.plan for r in rels]
        local: dict[int, list[Expr]] = {}  # relation -> its one-table conjuncts, in WHERE order
        for c in pool:
            refs = {owner[x] for x in column_ids(c, set()) if x in owner}
            if len(refs) <= 1:
                local.setdefault(refs.pop() if refs else 0, []).append(c)
            else:
                pending.append((c, refs))
        for i, conds in local.items():
            # one Filter per relation: its conjuncts run as one short-circuit test per row
            plans[i] = Filter(plans[i].layout, plans[i].types, child=plans[i], predicate=and_all(conds))
        joined = {0}
        current = plans[0]
        remaining = list(range(1, len(plans)))
        while remaining:
            choice = None
            for j in remaining:
                keys = []
                for c, refs in pending:
                    if j in refs and refs - {j} <= joined:
                        pair = _equi_pair(c, set(current.layout), set(plans[j].layout))
                        if pair:
                            keys.append((c, pair))
                if keys:
                    choice = (j, keys)
                    break
            if choice is None:
                j, keys = remaining[0], []
            else:
                j, keys = choice
            remaining.remove(j)
            right = plans[j]
            used = {id(c) for c, _ in keys}
            current = Join(current.layout + right.layout, current.types + right.types, left=current,
                           right=right, kind="INNER" if keys else "CROSS",
                           left_keys=[p[0] for _, p in keys], right_keys=[p[1] for _, p in keys])
            joined.add(j)
            ready = [c for c, refs in pending if refs <= joined and id(c) not in used]
            pending = [(c, refs) for c, refs in pending if not refs <= joined]
            if ready:
                current = Filter(current.layout, current.types, child=current, predicate=and_all(ready))
        for c, _ in pending:  # conjuncts on columns of no relation (should not happen)
            current = Filter(current.layout, current.types, child=current, predicate=c)
        return current


def _join_using(node: A.Join, left_cols, right_cols) -> tuple[str, ...]:
    """The USING column names of a join; for NATURAL, every name both sides have (left order)."""
    if not node.natural:
        return node.using or ()
    right_names = {c[1].lower() for c in right_cols}
    names: list[str] = []
    for column in left_cols:
        name = column[1].lower()
        if name in right_names and name not in names:
            names.append(name)
    return tuple(names)

