"""Binding of collected aggregate calls (median, quantile_cont(0.5)(x), string_agg(s, ','),
arg_min(x, y), sum_if(x, cond)...) into AggSpecs, for GROUP BY and window aggregates alike."""

from __future__ import annotations

from dataclasses import replace

from engine.bind.ordered_aggregates import ordered
from engine.bind.scope import Scope
from engine.bind.window_calls import window_calls
from engine.core.errors import SEMANTIC, BadArguments, BadDataValueType, EngineError
from engine.functions.aggregates import AGGREGATES
from engine.functions.collected import COLLECTED
from engine.functions.combinators import decombined
from engine.ir.expr import Const
from engine.ir.plan import AggSpec
from engine.types import nested as N
from engine.types import sqltype as T
from grammar import ast as A


def collected_spec(planner, node: A.FunctionCall, bind) -> AggSpec:
    """The AggSpec of a collected aggregate call; `bind` binds an argument AST."""
    entry = COLLECTED[node.name]
    name = node.name
    low, high = entry.args
    if node.star or not low <= len(node.args) <= high:
        raise BadArguments(f"{name} expects {low}..{high} argument(s), got {len(node.args)}", position=node.pos)
    if entry.param_range is not None:
        fewest, most = entry.param_range
        if not fewest <= len(node.params) <= most:
            raise BadArguments(f"{name} expects {fewest}..{most} parameter(s), got {len(node.params)}",
                               position=node.pos)
    elif entry.params and len(node.params) != entry.params:
        raise BadArguments(f"{name} expects {entry.params} parameter(s): {name}(level)(x)", position=node.pos)
    elif not entry.params and node.params:
        raise BadArguments(f"{name} takes no parameters", position=node.pos)
    args = list(node.args)
    params: list = []
    for p in node.params:
        params.append(_constant(planner, p, name))
    if entry.trailing_constant and len(args) == 2:
        separator = _constant(planner, args.pop(), name)
        if entry.prepare is not None:
            params.append(separator)
        else:
            params.append("" if separator is None else str(separator))
    bound = [bind(a) for a in args]
    types = [b.type for b in bound]
    if entry.prepare is not None:
        params = list(entry.prepare(types, params, node.pos))
    levels = len(params)  # quantile_cont(l1, l2...)(x): an Array of one quantile a level
    if name.startswith(("quantile", "median")):
        for i, level in enumerate(params):
            if not isinstance(level, (int, float)) and not hasattr(level, "as_tuple"):
                raise BadArguments(f"{name} level must be a number", position=node.pos)
            if not 0 <= level <= 1:
                raise BadDataValueType(f"level range between [0, 1], got: {level}", position=node.pos)
            params[i] = float(level)
        if not (types[0].is_numeric or types[0].name == "Null"):
            raise BadArguments(f"{name} does not support {types[0].display()}", position=node.pos)
        params.append(types[0].name == "Decimal")
    if name in ("string_agg", "group_concat", "listagg") and not (types[0].is_string or types[0].name == "Null"):
        # numbers, booleans, VARIANTs... are joined as their text, as Databend casts them
        if types[0].name in T.NESTED_NAMES:
            raise BadArguments(f"{name} expects a String argument, got {types[0].display()}", position=node.pos)
        bound[0] = planner.binder.cast(bound[0], T.STRING, False)
        types[0] = bound[0].type
    if name.endswith("_if"):
        bound[-1] = planner.binder.boolean(bound[-1])
    if name in ("sum_if", "avg_if"):
        params.append(types[0])  # the argument's type: an integer total wraps (engine.types.integer_wrap)
    # a NULL argument: NULL, but array_agg(NULL) is an empty Array(NULL) (the current Databend's type)
    result = entry.result(types) if types[0].name != "Null" or name in ("array_agg", "list") else T.NULL
    if levels > 1 and name.startswith("quantile") and result.name != "Null":
        result = N.array_type(result.as_nullable(False)).as_nullable(True)
    if node.within_group:  # the ORDER BY keys gathered after the arguments, sorted on by the final
        keys = [bind(o.expr) for o in node.within_group]
        entry = ordered(entry, len(bound), [(k.type, o) for k, o in zip(keys, node.within_group, strict=True)])
        bound += keys
    return AggSpec(name, bound[0], node.distinct, result, extra=tuple(bound[1:]), params=tuple(params),
                   collected=entry)


def unfiltered(node: A.FunctionCall) -> A.FunctionCall:
    """An aggregate call checked (no window call inside, as Databend) and with its FILTER
    applied: agg(x, ...) FILTER (WHERE c) is agg(CASE WHEN c THEN x END, ...), the rows c does
    not keep giving the aggregated argument NULL, which every aggregate skips (COUNT(*) counts
    CASE WHEN c THEN 1 END)."""
    for part in (*node.args, *node.params, node.filter, *(o.expr for o in node.within_group)):
        if part is not None and window_calls(part, []):
            raise EngineError("aggregate function calls cannot contain window function calls", code=SEMANTIC,
                              position=node.pos)
    if node.filter is not None and node.distinct:
        raise EngineError("DISTINCT aggregate FILTER is not supported", code=SEMANTIC, position=node.pos)
    node = decombined(AGGREGATES, node)
    if node.filter is None:
        return node
    pos = node.pos
    if node.star:
        first, rest = A.Literal(1, "int", pos=pos), ()
    elif node.args:
        first, rest = node.args[0], node.args[1:]
    else:
        return replace(node, filter=None)
    guarded = A.Case(None, ((node.filter, first),), None, pos=pos)
    return replace(node, args=(guarded, *rest), star=False, filter=None)


def _constant(planner, node, name):
    try:
        e = planner.bind(node, Scope([]))
    except EngineError:
        e = None
    if e is None or not isinstance(e, Const):
        raise BadArguments(f"the parameters of {name} must be constants", position=getattr(node, "pos", None))
    return e.value
