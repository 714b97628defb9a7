"""Event-sequence aggregates: window_funnel(window)(timestamp, cond1, ..., condN) and
retention(cond1, ..., condN), as Databend computes them (collected aggregates: the executor
gathers each row's arguments and `final` runs once per group).

window_funnel: the longest chain cond1 → cond2 → ... whose steps each happen within `window` of
the chain's start (timestamps in their own unit: a number as is, a Date in days, a Timestamp in
microseconds); events sorted by time, then by condition; rows with a NULL argument are skipped;
UInt8, 0 without rows. retention: [cond1 held in some row, cond1 and cond2 held, ...] as an
Array(UInt8)."""

from __future__ import annotations

from engine.core.errors import BadArguments, BadDataValueType
from engine.functions.collected import COLLECTED, Collected
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types.datetimes import micros_of

_MAX_CONDITIONS = 32


def _timestamp_reader(t: T.SqlType):
    if t.name == "Date":
        return lambda v: v.toordinal()
    if t.name == "Timestamp":
        return micros_of
    if t.is_int:
        return int
    raise BadDataValueType(f"AggregateWindowFunnelFunction does not support type '{t.display()}'")


def _check_conditions(types, name, first):
    if len(types) - first > _MAX_CONDITIONS:
        raise BadArguments(f"{name} expects at most {_MAX_CONDITIONS} conditions, got {len(types) - first}")
    for i, t in enumerate(types[first:], 1):
        if t.name not in ("Boolean", "Null"):
            raise BadDataValueType(f"Illegal type of the argument {i} in {name}, must be boolean, got: "
                                   f"{t.display()}")


def _prepare_funnel(types, params, position):
    window = params[0]
    if isinstance(window, bool) or not isinstance(window, int) or window < 0:
        raise BadDataValueType(f"window_funnel's window must be a non-negative integer, got {window}")
    _check_conditions(types, "AggregateWindowFunnelFunction", 1)
    return [window, _timestamp_reader(types[0])]


def _funnel(values, params):
    window, read = params
    events = []
    for row in values:
        if any(v is None for v in row):
            continue  # Databend's variadic NULL adaptor skips the row
        ts = read(row[0])
        events.extend((ts, level) for level, hit in enumerate(row[1:]) if hit)
    if not events:
        return 0
    steps = len(values[0]) - 1
    if steps == 1:
        return 1
    events.sort()
    # chain_start[i]: the start time of the latest chain that reached step i + 1
    chain_start = [None] * steps
    for ts, level in events:
        if level == 0:
            chain_start[0] = ts
        elif chain_start[level - 1] is not None and ts - chain_start[level - 1] <= window:
            chain_start[level] = chain_start[level - 1]
    return next((i + 1 for i in range(steps - 1, -1, -1) if chain_start[i] is not None), 0)


def _prepare_retention(types, params, position):
    _check_conditions(types, "retention", 0)
    return [len(types)]


def _retention(values, params):
    (steps,) = params
    held = [False] * steps
    for row in values:
        if steps == 1:
            row = (row,)
        for i, hit in enumerate(row):
            if hit:
                held[i] = True
    first = held[0]
    return N.ArrayValue(1 if first and (i == 0 or h) else 0 for i, h in enumerate(held))


_ENTRIES = [
    Collected("window_funnel", (2, 1 + _MAX_CONDITIONS), lambda ts: T.UINT8, _funnel, params=1,
              prepare=_prepare_funnel),
    Collected("retention", (1, _MAX_CONDITIONS), lambda ts: N.array_type(T.UINT8), _retention,
              prepare=_prepare_retention),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)
