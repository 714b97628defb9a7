"""group_array_moving_sum([n])(x) / group_array_moving_avg([n])(x): the running sums (averages)
of the group's values over a window of the last n values (all of them without n), as Databend's
array-moving aggregates: a NULL counts as 0, an average divides by the window size, sums of
integers are Int64 (UInt64), Decimals keep their scale (at least 4 for an average). Collected:
`final` runs once per group on its gathered values."""

from __future__ import annotations

import decimal

from engine.core.errors import BadDataValueType, InvalidArgument
from engine.functions.collected import COLLECTED, Collected
from engine.types import nested as N
from engine.types import sqltype as T


def _window(params):
    if not params:
        return None
    n = params[0]
    if isinstance(n, bool) or not isinstance(n, int | float | decimal.Decimal) or n < 0:
        raise InvalidArgument(f"the window size of group_array_moving must be a non-negative integer, got {n!r}")
    return int(n)


def _element(kind):
    def result(types):
        t = types[0]
        if t.name == "Decimal":
            precision = 38 if t.precision <= 38 else 76
            scale = max(t.scale, 4) if kind == "avg" else t.scale
            return N.array_type(T.SqlType("Decimal", False, precision, scale))
        if kind == "avg" or t.is_float:
            return N.array_type(T.FLOAT64)
        if t.name == "Null" or t.is_int:
            return N.array_type(T.UINT64 if t.name.startswith("U") else T.INT64)
        raise BadDataValueType(f"group_array_moving_{kind} does not support type '{t.display()}'")

    return result


def _prepare(kind):
    def prepare(types, params, position):
        element = _element(kind)(types).args[0]
        return [_window(params), element]

    return prepare


def _moving(kind):
    def final(values, params):
        size, element = params
        zero = decimal.Decimal(0) if element.name == "Decimal" else 0
        xs = [zero if v is None else v for v in values]
        if element.name == "Float64":
            xs = [float(x) for x in xs]
        window = len(xs) if size is None else size
        out, total = [], zero
        for i, x in enumerate(xs):
            total += x
            if i >= window:
                total -= xs[i - window]
            out.append(_average(total, window, element) if kind == "avg" else total)
        return N.ArrayValue(out)

    return final


def _average(total, window, element):
    if element.name != "Decimal":
        return float(total) / window if window else float("nan")
    quantum = decimal.Decimal(1).scaleb(-element.scale)
    return (total / window).quantize(quantum, rounding=decimal.ROUND_DOWN) if window else None


_ENTRIES = [
    Collected("group_array_moving_sum", (1, 1), _element("sum"), _moving("sum"), param_range=(0, 1),
              prepare=_prepare("sum")),
    Collected("group_array_moving_avg", (1, 1), _element("avg"), _moving("avg"), param_range=(0, 1),
              prepare=_prepare("avg")),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)
