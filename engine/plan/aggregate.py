"""Planning of aggregation (functions the Planner calls, given the planner): GROUP BY keys, the aggregates of
the select list, HAVING and ORDER BY over groups, and the grouped-column rule."""

from __future__ import annotations

from dataclasses import replace

from engine import functions as F
from engine.bind.aggregate_state_specs import state_spec
from engine.bind.collected_specs import collected_spec, unfiltered
from engine.bind.names import display
from engine.bind.ordered_aggregates import check_within_group
from engine.bind.scope import (
    Scope,
    check_grouped,
    has_aggregate,
)
from engine.core.errors import (
    SEMANTIC,
    BadArguments,
    EngineError,
)
from engine.functions.collected import COLLECTED
from engine.functions.combinators import state_call
from engine.ir.expr import Col, Expr, Func
from engine.ir.plan import Aggregate, AggSpec, Plan
from engine.plan.grouping_sets import (
    dedupe_keys,
    group_by_items,
    grouping_calls,
    grouping_positions,
    grouping_sets_plan,
)
from engine.plan.unnest import row_aliases, spread_aggregated_unnest
from engine.types import sqltype as T
from grammar import ast as A


def check_no_aggregate(planner, node):
    if has_aggregate(node):
        raise EngineError("WHERE clause cannot contain aggregate functions", code=SEMANTIC,
                          position=getattr(node, "pos", None))


def _group_keys(planner, q: A.Select, scope: Scope, select_asts, aliases) -> tuple[list, list | None]:
    """(the GROUP BY expressions as ASTs, the grouping sets or None): positions and select aliases
    resolved (an input column of the same name wins over an alias), duplicates removed."""
    group_items, sets = group_by_items(q.group_by, select_asts)
    group_asts = []
    for g in group_items:
        if isinstance(g, A.Literal) and g.kind == "int":
            if not 1 <= g.value <= len(select_asts):
                raise EngineError(f"GROUP BY position {g.value} is not in select list", code=SEMANTIC,
                                  position=g.pos)
            g = select_asts[g.value - 1]
        elif isinstance(g, A.ColumnRef) and len(g.parts) == 1 and g.parts[0].lower() in aliases \
                and not _resolves(planner, g, scope):
            g = aliases[g.parts[0].lower()]
        if has_aggregate(g):
            raise EngineError(f"GROUP BY items can't contain aggregate functions or window functions: "
                              f"{display(g)}", code=SEMANTIC, position=g.pos)
        group_asts.append(g)
    return dedupe_keys(group_asts, sets)


def plan_aggregate(planner, q: A.Select, plan: Plan, scope: Scope, select_asts, aliases, having_aliases):
    """The Aggregate (or grouping sets) node of an aggregating SELECT over `plan`, and the function
    binding its select list, HAVING, QUALIFY and ORDER BY against the groups."""
    group_asts, sets = _group_keys(planner, q, scope, select_asts, aliases)
    keys = [planner.bind(g, scope) for g in group_asts]
    # an aggregate's argument may name a select alias of a row expression, after the input
    # columns (Databend: SELECT number % 3 AS c1, sum(c1) ... GROUP BY number % 3)
    arg_aliases = row_aliases(q.items) or None
    if sets is not None:  # Databend: every key of grouping sets is nullable
        keys = [replace(k, type=k.type.as_nullable(True)) for k in keys]
    key_cids = [planner.cid() for _ in keys]
    grouping_keys, grouping_cols = [], {}  # GROUPING(...) calls: constant keys of each set
    if sets is not None:
        for call in grouping_calls([*select_asts, q.having, q.qualify, *(o.expr for o in q.order_by)]):
            grouping_keys.append(grouping_positions(call, group_asts))
            grouping_cols[call] = Col(T.UINT32, column=planner.cid())
    key_by_ast = {g: (c, k.type) for g, c, k in zip(group_asts, key_cids, keys, strict=False)}
    key_by_col = {k.column: (c, k.type) for c, k in zip(key_cids, keys, strict=False) if isinstance(k, Col)}
    aggs: list[AggSpec] = []
    agg_cids: list[int] = []
    agg_index: dict = {}
    ungrouped: dict = {}  # any() output column id -> the column reference that asked for it
    planner = planner

    def hook(node, sc):
        """Called for each AST node while binding in the aggregated context."""
        if node in key_by_ast:
            c, t = key_by_ast[node]
            return Col(t, column=c)
        if node in grouping_cols:
            return grouping_cols[node]
        if isinstance(node, A.FunctionCall) and node.name in F.AGGREGATES:
            key = node
            if key not in agg_index:
                spec = agg_spec(planner, node, scope, arg_aliases)
                aggs.append(spec)
                agg_cids.append(planner.cid())
                agg_index[key] = len(aggs) - 1
            i = agg_index[key]
            return Col(aggs[i].type, column=agg_cids[i])
        return None

    def column_hook(e: Col, node):
        """A raw input column seen outside aggregates: a group key, or any() of the group. The
        latter is an error (`check_grouped`) unless constant folding leaves it unreachable."""
        if e.column in key_by_col:
            c, t = key_by_col[e.column]
            return Col(t, column=c)
        key = ("any", e.column)
        if key not in agg_index:
            aggs.append(AggSpec("any", e, False, e.type.as_nullable(True)))
            agg_cids.append(planner.cid())
            agg_index[key] = len(aggs) - 1
            ungrouped[agg_cids[-1]] = node
        i = agg_index[key]
        return Col(aggs[i].type, column=agg_cids[i])

    agg_scope = Scope(scope.columns, scope.parent, scope.params, scope.param_keys, (hook, column_hook),
                      scope.ctes)

    def bind_out(node, names=aliases):
        return planner.bind(node, agg_scope, aliases=names)

    # bind everything that may register aggregates before building the node
    for a in select_asts:
        bind_out(a)
    if q.having is not None:
        bind_out(q.having, having_aliases)
    if q.qualify is not None:
        bind_out(q.qualify)
    for o in q.order_by:
        if not (isinstance(o.expr, A.Literal) and o.expr.kind == "int"):
            try:
                bind_out(o.expr)
            except EngineError:
                pass
    plan, keys = spread_aggregated_unnest(plan, keys, aggs, planner.cid)
    layout = key_cids + [e.column for e in grouping_cols.values()] + agg_cids
    types = [k.type for k in keys] + [T.UINT32 for _ in grouping_cols] + [a.type for a in aggs]
    if sets is not None:
        node = grouping_sets_plan(layout, types, plan, keys, grouping_keys, aggs, sets)
    else:
        node = Aggregate(layout, types, child=plan, keys=keys, aggs=aggs)
    # the node is shared: later bind_out calls may still append (e.g. order by); keep lists live
    node.layout = layout
    node.types = types

    def bind_final(n, names=aliases):
        before = len(aggs)
        e = bind_out(n, names)
        for a, c in zip(aggs[before:], agg_cids[before:], strict=False):
            layout.append(c)
            types.append(a.type)
        if ungrouped:
            check_grouped(e, ungrouped)
        return e

    return node, bind_final


def _resolves(planner, ref: A.ColumnRef, scope: Scope) -> bool:
    try:
        planner.binder.lookup(ref, scope.columns)
        return True
    except EngineError:
        return False


def agg_spec(planner, node: A.FunctionCall, scope: Scope, aliases=None) -> AggSpec:
    check_within_group(node, aggregate=True)
    node = unfiltered(node)
    name = node.name
    for a in (*node.args, *(o.expr for o in node.within_group)):
        if has_aggregate(a):
            raise EngineError("aggregate function calls cannot be nested", code=SEMANTIC, position=node.pos)
    state = state_call(F.AGGREGATES, name)  # sum_state(x), sum_merge(s)... (engine.functions.aggregate_states)
    if state is not None:
        return state_spec(planner, node, *state, lambda a: planner.bind(a, scope), lambda p: planner.bind(p, Scope([])))
    if name in COLLECTED:
        return collected_spec(planner, node, lambda a: planner.bind(a, scope))
    if name in F.BITMAP_AGGREGATES:
        return F.bitmap_aggregate_spec(node, lambda a: planner.bind(a, scope), lambda p: planner.bind(p, Scope([])))
    if node.star or (name == "count" and not node.args and not node.distinct):
        if name != "count" or node.distinct:
            raise EngineError(f"{name}(*) is not allowed", code=SEMANTIC, position=node.pos)
        return AggSpec("count", None, False, T.UINT64)  # COUNT() counts rows, as COUNT(*)
    if len(node.args) != 1:
        raise BadArguments(f"{name} expects one argument, got {len(node.args)}", position=node.pos)
    return agg_spec_of(planner, node, planner.bind(node.args[0], scope, aliases=aliases))


def agg_spec_of(planner, node: A.FunctionCall, arg: Expr) -> AggSpec:
    """The aggregate `node` of the bound argument `arg` (its result type as Databend's)."""
    name = node.name
    variant_extreme = F.variant_aggregate(name, arg)  # MIN / MAX in the order of VARIANT values
    if variant_extreme is not None:
        return variant_extreme
    bitmap_extreme = F.bitmap_extreme(name, arg)  # MIN / MAX in Databend's order of bitmaps
    if bitmap_extreme is not None:
        return bitmap_extreme
    if name in ("sum", "avg") and not (arg.type.is_numeric or arg.type.name in ("Boolean", "Null")
                                       or (name == "sum" and arg.type.name == "Interval")):
        if arg.type.is_string:
            arg = planner.binder.cast(arg, T.FLOAT64.as_nullable(True), True)
        else:
            raise BadArguments(f"{name} does not support {arg.type.display()}", position=node.pos)
    if name == "sum" and arg.type.name == "Interval":  # totals in microseconds, even of one row
        arg = Func(arg.type, args=(arg,), fn=F.INTERVAL_TOTAL)
    if arg.type.name == "Null" and name in ("sum", "avg", "min", "max", "any"):
        return AggSpec(name, arg, node.distinct, T.NULL)
    if name == "avg" and arg.type.name == "Decimal":
        # Databend: AVG(x) is SUM(x) / COUNT(x) in decimal arithmetic; AVG(DISTINCT x) keeps
        # at least 4 decimal places
        scale = arg.type.scale
        scale = max(scale, 4) if node.distinct else max(scale, min(scale + 6, 12))
        precision = 38 if arg.type.precision <= 38 else 76
        return AggSpec(name, arg, node.distinct, T.SqlType("Decimal", True, precision, scale))
    return AggSpec(name, arg, node.distinct, F.aggregate_type(name, arg.type))

    # ------------------------------------------------------------ FROM and joins
