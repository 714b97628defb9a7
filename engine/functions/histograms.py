"""Frequency aggregates: histogram([n])(x) / histogram(x, n), an equi-height histogram as
Databend builds it (ported from Doris: at most n buckets, 128 by default; each bucket's lower and
upper value, its distinct values, rows and rows before it, as a JSON text), and mode(x), the most
frequent value. Collected aggregates: `final` runs once per group on its gathered values."""

from __future__ import annotations

import decimal
import json
from collections import Counter

from engine.core.errors import BadDataValueType, InvalidArgument
from engine.functions.collected import COLLECTED, Collected
from engine.types import sqltype as T
from engine.types.render import render_float32, render_value

DEFAULT_BUCKETS = 128
_SEARCH_STEPS = 10  # Databend's bound on the binary search of the bucket size


def _bucket_count(params) -> int:
    """The bucket count of histogram(n)(x) or histogram(x, n): a positive integer (a float is cut)."""
    if not params:
        return DEFAULT_BUCKETS
    n = params[0]
    if isinstance(n, str) or isinstance(n, bool) or not isinstance(n, int | float | decimal.Decimal):
        raise InvalidArgument(f"The argument of aggregate function histogram must be positive int, got {n!r}")
    if int(n) <= 0:
        raise BadDataValueType("The argument of aggregate function histogram must be positive int")
    return int(n)


def _renderer(t: T.SqlType):
    """Databend's display of a scalar of type t: numbers bare, text, dates and timestamps quoted."""
    if t.name == "Float32":
        return render_float32
    if t.is_numeric or t.name == "Null":
        return render_value
    if t.is_string or t.name in ("Date", "Timestamp"):
        return lambda v: "'" + render_value(v).replace("'", "\\'") + "'"
    raise BadDataValueType(f"histogram does not support type '{t.display()}'")


def _prepare_histogram(types, params, position):
    return [_bucket_count(params), _renderer(types[0])]


def _fits(counts, size, buckets) -> bool:
    used, current = 1, 0
    for count in counts:
        current += count
        if current > size:
            used += 1
            current = count
        if used > buckets:
            return False
    return True


def _bucket_size(counts, buckets) -> int:
    total = sum(counts)
    if buckets == 1:
        return total
    upper, lower = 2 * total // (buckets - 1) + 1, 0
    for _ in range(_SEARCH_STEPS):
        if upper <= lower + 1:
            break
        middle = (upper + lower) // 2
        if _fits(counts, middle, buckets):
            upper = middle
        else:
            lower = middle
    return upper


def build_histogram(value_counts, buckets):
    """[(lower, upper, ndv, count, pre_sum)] of the ordered (value, count) pairs."""
    out = []
    if not value_counts:
        return out
    size = _bucket_size([c for _, c in value_counts], buckets)
    distinct = values = cumulative = 0
    remaining = len(value_counts)
    lower = value_counts[0][0]
    for i, (value, count) in enumerate(value_counts):
        distinct += 1
        remaining -= 1
        values += count
        cumulative += count
        has_next = i + 1 < len(value_counts)
        empty_buckets = buckets - len(out) - 1
        if has_next and remaining > empty_buckets and values + value_counts[i + 1][1] <= size:
            continue
        out.append((lower, value, distinct, values, cumulative - values))
        if has_next:
            lower = value_counts[i + 1][0]
        values = distinct = 0
    return out


def _histogram(values, params):
    buckets, render = params
    counts = Counter(v for v in values if v is not None)
    if not counts:
        return None
    rows = build_histogram(sorted(counts.items()), buckets)
    return json.dumps([{"lower": render(lo), "upper": render(hi), "ndv": ndv, "count": count, "pre_sum": pre}
                       for lo, hi, ndv, count, pre in rows], separators=(",", ":"))


def _mode(values, _params):
    counts = Counter(v for v in values if v is not None)
    if not counts:
        return None
    return counts.most_common(1)[0][0]


_ENTRIES = [
    Collected("histogram", (1, 2), lambda ts: T.STRING.as_nullable(True), _histogram, trailing_constant=True,
              param_range=(0, 1), prepare=_prepare_histogram),
    Collected("mode", (1, 1), lambda ts: ts[0].as_nullable(True), _mode),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)
