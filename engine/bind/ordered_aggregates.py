"""WITHIN GROUP (ORDER BY ...): the ordered collected aggregates string_agg, listagg,
group_concat, array_agg and list, as the current Databend has them (Databend 1.2.453 has no such
clause and answers 1005).

The ORDER BY keys are bound as further arguments of the call, so every row gathers
(value, key1, ..., keyN) in the same bounded steps as any collected aggregate (GROUP BY, a whole
table, a window frame); the group's values are sorted by the keys once, when the group's result
is made: stably (equal keys keep the rows' arrival order), ASC unless DESC, and NULL keys LAST
unless NULLS FIRST, in both directions (Databend's default here, unlike a query's ORDER BY).
NULL values are left out, as these aggregates always leave them out."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from engine.codegen.sort_keys import sort_passes, sort_rows
from engine.core.errors import SEMANTIC, SYNTAX, EngineError
from engine.functions.collected import Collected

# The aggregates Databend takes WITHIN GROUP after (its GENERAL_WITHIN_GROUP_FUNCTIONS).
WITHIN_GROUP_AGGREGATES = frozenset({"array_agg", "group_concat", "list", "listagg", "string_agg"})


def check_within_group(node, aggregate: bool) -> None:
    """Databend's errors for a call written with WITHIN GROUP, in its order: DISTINCT with it on an
    aggregate is a syntax error (1005); on any function but the ordered aggregates (sum, median,
    a window function such as rank, a scalar function) it is 1065."""
    if not node.within_group:
        return
    if aggregate and node.distinct:
        raise EngineError("DISTINCT aggregate ORDER BY is not supported", code=SYNTAX, position=node.pos)
    if node.name not in WITHIN_GROUP_AGGREGATES:
        raise EngineError("only aggregate functions allowed in within group syntax", code=SEMANTIC,
                          position=node.pos)


def ordered(entry: Collected, arguments: int, keys) -> Collected:
    """`entry` taking its values in the order of `keys` ([(key type, OrderItem)]): each gathered
    row is (its `arguments` argument values..., the key values...). Refuses keys no sort takes
    (BITMAP), as an ORDER BY does."""
    positions = [(arguments + i, item.desc, bool(item.nulls_first)) for i, (_, item) in enumerate(keys)]
    # the gathered rows as the sort module sees a child's rows: the keys' types (the only ones it
    # reads) by position, none known NOT NULL
    rows = SimpleNamespace(types=[None] * arguments + [t for t, _ in keys],
                           layout=list(range(arguments + len(keys))))
    passes = sort_passes(positions, rows, frozenset())
    inner = entry.final
    first = arguments == 1

    def final(values, params):
        kept = [v for v in values if v[0] is not None]
        sort_rows(kept, passes)  # one stable sort a pass, the last key's first, as ORDER BY sorts
        return inner([v[0] for v in kept] if first else [v[:arguments] for v in kept], params)

    return replace(entry, final=final, sort_keys=len(keys))
