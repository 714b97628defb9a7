"""Databend's aggregate combinators written as name suffixes: `<agg>_distinct(x)` is
`<agg>(DISTINCT x)` and `<agg>_if(x..., cond)` is `<agg>(x...) FILTER (WHERE cond)` (so
`count_if(cond)` counts the rows where cond holds), `<agg>_state`, `<agg>_merge` and
`<agg>_merge_state` are the state combinators (bound by engine.bind.aggregate_state_specs); `uniq(x...)` is `count(DISTINCT x...)`. A
DISTINCT count of several arguments counts their distinct tuples, the rows with a NULL in any of
them left out (Databend's variadic NULL adaptor).

`decombined(call)` rewrites a call of the syntax tree into its plain form before it is bound,
for GROUP BY and window aggregates alike; `AggregateNames` makes `name in AGGREGATES` true for
these names too."""

from __future__ import annotations

from dataclasses import replace

from engine.functions.aggregate_states import STATE_KINDS
from grammar import ast as A

_SUFFIXES = ("_distinct", "_if")
# the -State / -Merge combinators (engine.functions.aggregate_states), longest first
STATE_SUFFIXES = ("_merge_state", "_state", "_merge")
# plain aliases of a DISTINCT aggregate
_DISTINCT_ALIASES = {"uniq": "count"}


class AggregateNames(frozenset):
    """The names of the aggregates, which also contain the combined names (`sum_distinct`,
    `avg_if`, `uniq`...): `in` answers for both; iterating gives the plain names."""

    def __contains__(self, name) -> bool:
        return frozenset.__contains__(self, name) or combined(self, name) is not None


def combined(plain: frozenset, name) -> tuple[str, str] | None:
    """(aggregate, suffix) when `name` is a combined name of an aggregate of `plain`, else None."""
    if not isinstance(name, str) or frozenset.__contains__(plain, name):
        return None
    if name in _DISTINCT_ALIASES:
        return _DISTINCT_ALIASES[name], "_distinct"
    for suffix in STATE_SUFFIXES:
        if name.endswith(suffix) and name[: -len(suffix)] in STATE_KINDS:
            return name[: -len(suffix)], suffix
    for suffix in _SUFFIXES:
        if name.endswith(suffix):
            base = name[: -len(suffix)]
            if frozenset.__contains__(plain, base) or base in _DISTINCT_ALIASES:
                return base, suffix
    return None


def state_call(plain: frozenset, name: str) -> tuple[str, str] | None:
    """(aggregate, suffix) of a -State / -Merge combinator call, else None."""
    parts = combined(plain, name)
    return parts if parts is not None and parts[1] in STATE_SUFFIXES else None


def decombined(plain: frozenset, node: A.FunctionCall) -> A.FunctionCall:
    """`node` with its combinator suffix turned into DISTINCT or FILTER (unchanged otherwise),
    and a DISTINCT count of several arguments into the DISTINCT count of their tuple."""
    parts = combined(plain, node.name)
    if parts is not None and parts[1] not in STATE_SUFFIXES:
        base, suffix = parts
        if suffix == "_distinct":
            node = replace(node, name=base, distinct=True)
        elif node.args:
            condition = node.args[-1]
            if node.filter is not None:
                condition = A.BinaryOp("AND", node.filter, condition, pos=node.pos)
            # count_if(cond) counts rows: COUNT(*) FILTER (WHERE cond)
            node = replace(node, name=base, args=node.args[:-1], filter=condition,
                           star=base == "count" and len(node.args) == 1)
        if node.name in _DISTINCT_ALIASES:  # uniq_if(x, c): count(DISTINCT x) FILTER (WHERE c)
            node = replace(node, name=_DISTINCT_ALIASES[node.name], distinct=True)
    if node.name == "count" and node.distinct and len(node.args) > 1:
        pos = node.pos
        present = None
        for arg in node.args:
            check = A.IsNull(arg, negated=True, pos=pos)
            present = check if present is None else A.BinaryOp("AND", present, check, pos=pos)
        row = A.FunctionCall("tuple_literal", node.args, pos=pos, operator="(...)")
        node = replace(node, args=(A.Case(None, ((present, row),), None, pos=pos),))
    return node
