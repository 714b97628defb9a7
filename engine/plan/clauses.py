"""Planning of Databend's extra query clauses (functions the Planner calls, given the planner): VALUES as a query and a FROM
item, `* EXCLUDE (...)` and COLUMNS('regex') in select lists, the generate_series / range table
functions, and LEFT|RIGHT SEMI|ANTI joins."""

from __future__ import annotations

import datetime
import re

from engine.bind.lambdas import split_lambda
from engine.bind.scope import Rel, Scope, StarColumn, and_all, split_and
from engine.bind.unnest import constant_leaves
from engine.codegen.compile import evaluate_constant
from engine.core.errors import (
    BAD_DATA_VALUE_TYPE,
    NUMBER_ARGUMENTS_NOT_MATCH,
    SEMANTIC,
    BadArguments,
    EngineError,
    UnknownFunction,
)
from engine.functions.json_sets import array_elements, each_field
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Cmp, Col, Const, Expr, Func, SubqueryExpr, column_ids
from engine.ir.plan import Join, LateralJoin, Materialized, Numbers, Plan, Project, Sort
from engine.plan.flatten import as_query, column_names, series_query
from engine.types import cast as casting
from engine.types import sqltype as T
from grammar import ast as A
from grammar.ast_base import map_children

# characters of a COLUMNS('regex') pattern: it is matched against column names only
COLUMNS_PATTERN_CHARS = 1000


def plan_values(planner, q: A.Values) -> tuple[Plan, list[str]]:
    """VALUES rows -> a plan of constant rows; columns col0, col1... of each column's common type."""
    width = len(q.rows[0])
    consts = []
    for row in q.rows:
        if len(row) != width:
            raise EngineError("Values lists must all be the same length", code=SEMANTIC,
                              position=getattr(row[0], "pos", None) if row else q.pos)
        bound = []
        for item in row:
            e = planner.bind(item, Scope([]))
            if not isinstance(e, Const):
                raise BadArguments("VALUES takes constant expressions", position=getattr(item, "pos", None))
            bound.append(e)
        consts.append(bound)
    types = [T.common_type([r[i].type for r in consts]) for i in range(width)]
    casts = [casting.caster(t) for t in types]
    rows = [tuple(None if e.value is None else cast(e.value) for e, cast in zip(r, casts, strict=False))
            for r in consts]
    plan: Plan = Materialized([planner.cid() for _ in types], types, produce=lambda ctx: rows, label="values")
    names = [f"col{i}" for i in range(width)]
    if q.order_by:
        cols = [(None, n, c, t) for n, c, t in zip(names, plan.layout, types, strict=False)]
        keys = [planner._output_position(item, names, cols, plan) for item in q.order_by]
        plan = Sort(plan.layout, plan.types, child=plan, keys=keys)
    return planner._limit(plan, q.limit, q.offset), names


def values_relation(planner, node: A.ValuesRef) -> Rel:
    plan, names = plan_values(planner, node.values)
    if node.column_aliases:
        if len(node.column_aliases) != len(names):
            raise EngineError(f"table has {len(names)} columns available but {len(node.column_aliases)} "
                              "columns specified", code=SEMANTIC, position=node.pos)
        names = list(node.column_aliases)
    return Rel(plan, [(node.alias, n, c, t) for n, c, t in zip(names, plan.layout, plan.types, strict=False)])


def star_columns(planner, star: A.Star, cols: list) -> list:
    """The columns `*` expands to, less its EXCLUDE list (Databend's errors for unknown names)."""
    if not star.exclude:
        return cols
    excluded = {name.lower() for name in star.exclude}
    if len(excluded) != len(star.exclude):  # as Databend: a name twice is an error
        raise EngineError("Duplicate entry in EXCLUDE list", code=SEMANTIC, position=star.pos)
    present = {c[1].lower() for c in cols}
    for name in star.exclude:
        if name.lower() not in present:
            raise EngineError(f"Column `{name}` in EXCLUDE list not found in FROM clause", code=SEMANTIC,
                              position=star.pos)
    return [c for c in cols if c[1].lower() not in excluded]


def columns_matching(planner, item: A.SelectItem, scope: Scope):
    """COLUMNS('regex'), COLUMNS(x -> predicate of the name x) and COLUMNS(* EXCLUDE ...) -> select
    items of the columns chosen; None for any other item."""
    node = item.expr
    if not (isinstance(node, A.FunctionCall) and node.name == "columns" and len(node.args) == 1):
        return None
    chooser = _column_chooser(planner, node.args[0], scope)
    if chooser is not None:
        out = []
        for alias, name, cid, t in chooser:
            parts = (alias, name) if alias is not None else (name,)
            out.append(A.SelectItem(StarColumn(parts, cid, t, pos=item.pos), None))
        return out
    if not (isinstance(node.args[0], A.Literal) and node.args[0].kind == "string"):
        return None
    pattern = node.args[0].value
    if len(pattern) > COLUMNS_PATTERN_CHARS:
        raise BadArguments(f"COLUMNS pattern of {len(pattern)} characters exceeds {COLUMNS_PATTERN_CHARS}",
                           position=node.pos)
    try:
        regex = re.compile(pattern)
    except re.error as exc:
        raise EngineError(f"invalid COLUMNS pattern: {exc}", code=SEMANTIC, position=node.pos) from None
    out = []
    for alias, name, cid, t in scope.columns:
        if cid in planner.star_hidden or cid in planner.star_excluded or not regex.search(name):
            continue
        parts = (alias, name) if alias is not None else (name,)
        out.append(A.SelectItem(StarColumn(parts, cid, t, pos=item.pos), None))
    return out


def _microseconds(moment: datetime.datetime) -> int:
    delta = moment - datetime.datetime(1970, 1, 1, tzinfo=moment.tzinfo)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
def _column_chooser(planner, arg, scope: Scope):
    """The columns COLUMNS(* EXCLUDE ...) or COLUMNS(x -> predicate) chooses (None: neither form)."""
    visible = [c for c in scope.columns if c[2] not in planner.star_hidden and c[2] not in planner.star_excluded]
    if isinstance(arg, A.Star):
        return star_columns(planner, arg, visible)
    found = split_lambda(arg)
    if found is None or len(found[0]) != 1:
        return None
    (param,), body = found

    def named(node, name):  # the body with its parameter replaced by the column's name
        if isinstance(node, A.ColumnRef) and len(node.parts) == 1 and node.parts[0].lower() == param:
            return A.Literal(name, "string", pos=node.pos)
        return map_children(node, lambda child: named(child, name))

    return [c for c in visible if evaluate_constant(planner.bind(named(body, c[1]), Scope([]))) is True]


def numbers_relation(planner, node: A.TableFunction, count: int) -> Rel:
    """numbers(n) (numbers_mt, numbers_local): its column `number`, or the name of `t(n)`."""
    cid = planner.cid()
    column = "number"
    if node.column_aliases:
        if len(node.column_aliases) != 1:
            raise EngineError(f"table has 1 columns available but {len(node.column_aliases)} columns specified",
                              code=SEMANTIC, position=node.pos)
        column = node.column_aliases[0]
    return Rel(Numbers([cid], [T.UINT64], count=count), [(node.alias or node.name, column, cid, T.UINT64)])


def _has_subquery(e: Expr) -> bool:
    return isinstance(e, SubqueryExpr) or any(_has_subquery(a) for a in e.args)


def series_relation(planner, node: A.TableFunction, parent=None, ctes=None) -> Rel:
    """generate_series(start, stop[, step]) (stop included) and range(start, stop[, step]) (stop
    excluded): numbers() streamed through one generated projection `start + number * step`.
    Integer arguments known only when the query runs (scalar subqueries: `(SELECT 1)`) are
    spread by the query LATERAL generate_series stands for (unnest of a range array)."""
    name = node.name
    if name not in ("generate_series", "range"):
        raise UnknownFunction(f"Unknown table function {name}", position=node.pos)
    if not 2 <= len(node.args) <= 3:
        raise EngineError(f"Function `{name}` expect to have [2, 3] arguments, but got {len(node.args)}",
                          code=NUMBER_ARGUMENTS_NOT_MATCH, position=node.pos)
    args = [planner.bind(a, Scope([])) for a in node.args]
    if any(_has_subquery(a) for a in args) and all(a.type.is_int or a.type.name == "Null" for a in args):
        return planner._derived(series_query(node), node.alias or name, tuple(node.column_aliases or ()) or None,
                                parent, ctes, node.pos)
    for a, written in zip(args, node.args, strict=False):
        if not isinstance(a, Const) or a.value is None:
            raise BadArguments(f"{name} takes constant arguments", position=getattr(written, "pos", None))
    start, stop = args[0], args[1]
    step = args[2].value if len(args) == 3 else 1
    is_date = start.type.name == "Date" and stop.type.name == "Date"
    is_timestamp = start.type.name == "Timestamp" and stop.type.name == "Timestamp"  # (step: microseconds)
    if not (is_date or is_timestamp) and not (start.type.is_int and stop.type.is_int):
        raise EngineError(f"Expected same scalar type, but got start is {start.type.display()} and end is "
                          f"{stop.type.display()}", code=BAD_DATA_VALUE_TYPE, position=node.pos)
    if not isinstance(step, int) or isinstance(step, bool):
        raise BadArguments("step must be an integer", position=node.pos)
    if is_timestamp and abs(step) < 1_000_000:
        # a small Timestamp step is seconds (under 1000) or milliseconds (under 1,000,000), as
        # Databend's normalize_series_params reads it
        step *= 1_000_000 if abs(step) < 1000 else 1000
    if step == 0:
        raise BadArguments("step must not be zero", position=node.pos)
    lo, hi = (start.value.toordinal(), stop.value.toordinal()) if is_date else \
        (_microseconds(start.value), _microseconds(stop.value)) if is_timestamp else (start.value, stop.value)
    if len(args) == 3 and step > 0 and lo > hi:  # as Databend: only with a step written
        raise BadArguments("start must be less than or equal to end when step is positive", position=node.pos)
    if len(args) == 3 and step < 0 and lo < hi:
        raise BadArguments("start must be greater than or equal to end when step is negative",
                           position=node.pos)
    span = hi - lo if name == "generate_series" else hi - lo - (1 if step > 0 else -1)
    count = max(0, span // step + 1)
    number = Col(T.UINT64, column=planner.cid())
    source = Numbers([number.column], [T.UINT64], count=count)
    offset = planner.binder.arith("*", planner.binder.cast(number, T.INT64, False), Const(T.INT64, value=step))
    if is_date:
        value = planner.binder.arith("+", Const(T.DATE, value=start.value), offset)
    elif is_timestamp:
        first = start.value
        at = ScalarFunction("generate_series", lambda n: first + datetime.timedelta(microseconds=n), None, 1, 1)
        value = Func(T.TIMESTAMP, args=(offset,), fn=at)
    else:
        value = planner.binder.cast(planner.binder.arith("+", Const(T.INT64, value=lo), offset), T.INT64, False)
    plan = Project([planner.cid()], [value.type.as_nullable(False)], child=source, exprs=[value])
    planner.nonnull.add(plan.layout[0])
    column = name
    if node.column_aliases:
        if len(node.column_aliases) != 1:
            raise EngineError(f"table has 1 columns available but {len(node.column_aliases)} columns specified",
                              code=SEMANTIC, position=node.pos)
        column = node.column_aliases[0]
    return Rel(plan, [(node.alias or name, column, plan.layout[0], plan.types[0])])


def unnest_relation(planner, node: A.TableFunction, parent, ctes) -> Rel:
    """unnest(array): one row per element, in a column named `value` (the element type, nullable)."""
    if len(node.args) != 1:
        raise EngineError(f"Function `unnest` expect to have 1 arguments, but got {len(node.args)}",
                          code=NUMBER_ARGUMENTS_NOT_MATCH, position=node.pos)
    if isinstance(node.args[0], A.FunctionCall) and node.args[0].name.lower() == "range":
        # unnest(range(a, b)): spread lazily by the SELECT list's unnest (engine.exec.unnest), not built here
        return planner._derived(as_query(node), node.alias or "unnest", column_names(node), parent, ctes, node.pos)
    arg = planner.bind(node.args[0], Scope([]))
    if not isinstance(arg, Const) or arg.type.name not in ("Array", "Null"):
        raise BadArguments("unnest takes a constant array", position=node.pos)
    element, values = constant_leaves(arg)  # (nested arrays: their leaves)
    rows = [(x,) for x in values]
    plan = Materialized([planner.cid()], [element.as_nullable(True)], produce=lambda ctx: rows, label="unnest")
    column = (column_names(node) or ("value",))[0]
    return Rel(plan, [(node.alias or "unnest", column, plan.layout[0], plan.types[0])])


def json_rows_relation(planner, node: A.TableFunction) -> Rel:
    """json_each(v) (columns key, value) or json_array_elements(v) (column value) in FROM: one
    row per field or element of a constant VARIANT (engine.functions.json_sets)."""
    if len(node.args) != 1:
        raise EngineError(f"Function `{node.name}` expect to have 1 arguments, but got {len(node.args)}",
                          code=NUMBER_ARGUMENTS_NOT_MATCH, position=node.pos)
    arg = planner.bind(node.args[0], Scope([]))
    if arg.type.name not in ("Variant", "Null"):
        raise EngineError(f"no overload satisfies `{node.name}({arg.type.display()})`.", code=SEMANTIC,
                          position=node.pos)
    if not isinstance(arg, Const):
        raise BadArguments(f"{node.name} in FROM takes a constant VARIANT", position=node.pos)
    variant = T.SqlType("Variant", True)
    if node.name == "json_each":
        rows = [tuple(pair) for pair in (each_field(arg.value) or ())]
        names, types = ["key", "value"], [T.STRING.as_nullable(True), variant]
    else:
        rows = [(x,) for x in (array_elements(arg.value) or ())]
        names, types = ["value"], [variant]
    plan = Materialized([planner.cid() for _ in names], types, produce=lambda ctx: rows, label=node.name)
    names = list(column_names(node) or names)
    return Rel(plan, [(node.alias or node.name, n, c, t) for n, c, t in zip(names, plan.layout, types, strict=True)])


def semi_join_relation(planner, node: A.Join, parent, ctes) -> Rel:
    """LEFT|RIGHT SEMI|ANTI JOIN: the rows of one side that have (SEMI) or have not (ANTI) a
    match on the other; only that side's columns are visible."""
    side, kind = node.kind.split()
    sides = []
    for part in (node.left, node.right):
        rels, pool = [], []
        planner._from_item(part, rels, pool, parent, ctes)
        sides.append(Rel(planner._join_rels(rels, pool), [c for r in rels for c in r.columns]))
    keep, other = sides if side == "LEFT" else sides[::-1]
    scope = Scope(sides[0].columns + sides[1].columns, parent, ctes=ctes)
    conds = split_and(planner.binder.boolean(planner.bind(node.on, scope))) if node.on is not None else []
    for name in node.using or ():
        ref = A.ColumnRef((name,), pos=node.pos)
        kc, oc = planner.binder.lookup(ref, keep.columns), planner.binder.lookup(ref, other.columns)
        conds.append(planner.binder.compare("=", Col(kc[3], column=kc[2]), Col(oc[3], column=oc[2])))
    kset, oset = set(keep.plan.layout), set(other.plan.layout)
    kkeys, okeys, residual = split_equi_keys(conds, kset, oset)
    plan = Join(list(keep.plan.layout), list(keep.plan.types), left=keep.plan, right=other.plan,
                kind=kind, left_keys=kkeys, right_keys=okeys, residual=and_all(residual))
    return Rel(plan, keep.columns)


def equi_pair(c: Expr, left: set, right: set):
    """For `a = b` with a over the left columns and b over the right (or swapped): (a, b)."""
    if not (isinstance(c, Cmp) and c.op == "="):
        return None
    a, b = c.args
    ra, rb = column_ids(a, set()), column_ids(b, set())
    if not ra or not rb:
        return None
    if ra <= left and rb <= right:
        return a, b
    if rb <= left and ra <= right:
        return b, a
    return None


def split_equi_keys(conds, left: set, right: set) -> tuple[list, list, list]:
    """(left keys, right keys, other conditions) of a join's conjuncts: the `a = b` pairs
    equi_pair finds become hash keys, the rest a residual."""
    lkeys, rkeys, residual = [], [], []
    for c in conds:
        pair = equi_pair(c, left, right)
        if pair:
            lkeys.append(pair[0])
            rkeys.append(pair[1])
        else:
            residual.append(c)
    return lkeys, rkeys, residual


def lateral_join(planner, node: A.Join, rels: list, pool: list, parent, ctes) -> None:
    """Joins the FROM items so far with the lateral subquery; `rels` then holds that one join."""
    if node.kind not in ("CROSS", "INNER", "LEFT"):
        raise EngineError(f"{node.kind} JOIN LATERAL is not supported", code=SEMANTIC, position=node.pos)
    planner._from_item(node.left, rels, pool, parent, ctes)
    left_cols = [c for r in rels for c in r.columns]
    left = planner._join_rels(rels, pool)
    rels.clear()
    pool.clear()
    lateral = node.right
    sub_scope = Scope([], Scope(left_cols, parent, ctes=ctes), ctes=ctes)
    sub, names = planner.plan_query(lateral.query, sub_scope, ctes)
    if lateral.column_aliases:
        if len(lateral.column_aliases) != len(names):
            raise EngineError(f"table has {len(names)} columns available but {len(lateral.column_aliases)} "
                              "columns specified", code=SEMANTIC, position=lateral.pos)
        names = list(lateral.column_aliases)
    outer = node.kind == "LEFT"
    sub_types = [t.as_nullable(True) if outer else t for t in sub.types]
    sub_cols = [(lateral.alias, n, c, t) for n, c, t in zip(names, sub.layout, sub_types, strict=False)]
    condition = None
    if node.on is not None:
        condition = planner.binder.boolean(planner.bind(node.on, Scope(left_cols + sub_cols, parent, ctes=ctes)))
        if not outer:
            pool.extend(split_and(condition))
            condition = None
    if outer:
        planner.nonnull.difference_update(sub.layout)
    plan = LateralJoin(left.layout + sub.layout, list(left.types) + sub_types, left=left, sub=sub,
                       params=sub_scope.params, kind="LEFT" if outer else "INNER", condition=condition)
    rels.append(Rel(plan, left_cols + sub_cols))
