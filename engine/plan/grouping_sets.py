"""GROUP BY ALL and GROUPING SETS / ROLLUP / CUBE: the group keys of a query, the sets that
group by them, GROUPING(...) values, and the plan (one aggregation per set, concatenated)."""

from __future__ import annotations

from engine.bind.scope import has_aggregate
from engine.bind.window_calls import window_calls
from engine.core.errors import SEMANTIC, BadArguments, EngineError
from engine.ir.expr import Const
from engine.ir.plan import Aggregate, SetOp
from engine.types import sqltype as T
from grammar import ast as A


def group_by_items(group_by: tuple, select_asts: list):
    """(the GROUP BY expression ASTs as written, the grouping sets as tuples of indices into
    them, or None for a plain GROUP BY)."""
    if len(group_by) == 1 and isinstance(group_by[0], A.GroupByAll):
        # GROUP BY ALL: every select item without aggregates (nor window functions)
        return [a for a in select_asts if not has_aggregate(a) and not window_calls(a, [])], None
    if len(group_by) == 1 and isinstance(group_by[0], A.GroupingSets):
        items: list = []
        sets = []
        for s in group_by[0].sets:
            indices = []
            for item in s:
                if item not in items:
                    items.append(item)
                indices.append(items.index(item))
            sets.append(tuple(indices))
        return items, sets
    return list(group_by), None


def dedupe_keys(group_asts: list, sets):
    """Resolved keys may repeat (`GROUPING SETS (a, 1)` with `a` the first select item): the
    distinct key ASTs and the sets rewritten over them."""
    unique: list = []
    where = []
    for g in group_asts:
        if window_calls(g, []):
            raise EngineError("GROUP BY items can't contain aggregate functions or window functions", code=SEMANTIC,
                              position=getattr(g, "pos", None))
        if g not in unique:
            unique.append(g)
        where.append(unique.index(g))
    if sets is None:
        return unique, None
    return unique, [frozenset(where[i] for i in s) for s in sets]


def grouping_calls(nodes) -> list:
    """The GROUPING(...) calls in ASTs (outside subqueries), each once, in order."""
    out: list = []

    def walk(node):
        if isinstance(node, A.FunctionCall) and node.name == "grouping":
            if node not in out:
                out.append(node)
            return
        if not isinstance(node, A.Node) or isinstance(node, (A.ScalarSubquery, A.Exists, A.InSubquery)):
            return
        for name in node.__dataclass_fields__:
            v = getattr(node, name)
            if isinstance(v, A.Node):
                walk(v)
            elif isinstance(v, tuple):
                for x in v:
                    walk(x)

    for n in nodes:
        if n is not None:
            walk(n)
    return out


def grouping_positions(call: A.FunctionCall, group_asts: list) -> list[int]:
    """Key indices of GROUPING(args); each argument must be a GROUP BY key."""
    if not call.args:
        raise EngineError("grouping requires at least one argument", code=SEMANTIC, position=call.pos)
    positions = []
    for a in call.args:
        if a not in group_asts:
            raise BadArguments("Arguments of grouping should be group by expressions",
                               position=getattr(a, "pos", call.pos))
        positions.append(group_asts.index(a))
    return positions


def grouping_value(positions: list[int], grouped: frozenset) -> int:
    """GROUPING(a, b, ...) for one set: bit 1 per argument not grouped, the last argument lowest."""
    value = 0
    for p in positions:
        value = (value << 1) | (0 if p in grouped else 1)
    return value


def grouping_sets_plan(layout, types, child, keys, grouping_keys, aggs, sets):
    """One aggregation per grouping set, concatenated (UNION ALL): a key outside the set is a
    NULL constant, each GROUPING(...) a constant of its set. All share layout, types and aggs
    (lists the planner may still extend)."""
    plan = None
    for grouped in sets:
        set_keys = [k if i in grouped else Const(k.type.as_nullable(True), value=None)
                    for i, k in enumerate(keys)]
        set_keys += [Const(T.UINT32, value=grouping_value(positions, grouped))
                     for positions in grouping_keys]
        node = Aggregate(layout, types, child=child, keys=set_keys, aggs=aggs, grouping_set=True)
        plan = node if plan is None else SetOp(layout, types, op="UNION", all=True, left=plan, right=node)
    return plan
