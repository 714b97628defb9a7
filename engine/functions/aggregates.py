"""Aggregate functions: their names and result types (the executor computes them)."""

from __future__ import annotations

# the families of collected aggregates beside engine.functions.collected add theirs on import
from engine.functions import (  # noqa: F401
    bool_aggregates,
    funnels,
    histograms,
    json_aggregates,
    moving_aggregates,
    tdigest,
)
from engine.functions.bitmap_aggregates import BITMAP_AGGREGATES
from engine.functions.collected import COLLECTED
from engine.functions.combinators import AggregateNames
from engine.types import sqltype as T

# the aggregates the executor folds row by row, those it computes from collected values, and
# the BITMAP aggregates (their own folds)
FOLDED = frozenset({"count", "sum", "avg", "min", "max", "any"})
# (`in` also answers for the combined names, sum_distinct, avg_if...: engine.functions.combinators)
AGGREGATES = AggregateNames(FOLDED | frozenset(COLLECTED) | frozenset(BITMAP_AGGREGATES))


def aggregate_type(name: str, arg: T.SqlType | None) -> T.SqlType:
    if name == "count":
        return T.UINT64
    if name == "avg":
        return T.FLOAT64.as_nullable(True)
    if name == "sum":
        if arg.is_int:
            return (T.INT64 if not arg.name.startswith("U") else T.UINT64).as_nullable(True)
        if arg.name == "Decimal":
            return T.SqlType("Decimal", True, 38 if arg.precision <= 38 else 76, arg.scale)
        if arg.name == "Boolean":
            return T.UINT64.as_nullable(True)
        if arg.name == "Interval":  # totals in microseconds (engine.types.intervals)
            return T.INTERVAL.as_nullable(True)
        return T.FLOAT64.as_nullable(True)
    return arg.as_nullable(True)
