"""Collected aggregates: those computed from all of a group's argument values at once (median,
quantiles, moments, covariance, string_agg, arg_min/arg_max, the *_if family...). The executor
appends each row's argument values (a value, or a tuple for several arguments) to the group's
list in generated code and calls `final(values, params)` once per group; results and result
types are Databend's (as Databend 1.2.453 answers, or its current documentation for the
functions 1.2.453 lacks)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.core.memory import ALLOCATION_CHARGE_BYTES, keep, reserve, text_bytes
from engine.functions import geometry_aggregates as GA
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types.integer_wrap import total_wrapper, wrapped_mean
from engine.types.variant import order_key as variant_order_key


@dataclass(frozen=True)
class Collected:
    """name: the function; args: its (min, max) arguments; params: how many constant parameters
    it takes in parentheses before them (quantile_cont(0.5)(x)), or a constant trailing argument
    (string_agg's separator) when `trailing_constant`; result(arg types, params) -> SqlType;
    final(values, params) -> value; sort_keys: how many WITHIN GROUP keys end each gathered row
    (engine.bind.ordered_aggregates), which memory accounting counts."""

    name: str
    args: tuple[int, int]
    result: Any
    final: Any
    params: int = 0
    trailing_constant: bool = False
    sort_keys: int = 0
    # the (fewest, most) parameters when they may vary (histogram(n)(x), quantile_cont(l1, l2)(x))
    param_range: tuple[int, int] | None = None
    # prepare(arg types, params, position) -> params: checks a call and readies its parameters
    # (window_funnel's types, histogram's bucket count...); a trailing constant is then kept as is
    prepare: Any = None


def _numbers(values):
    return [v for v in values if v is not None]


def _float(t):
    return T.FLOAT64.as_nullable(True)


def _same(types):
    return types[0].as_nullable(True)


def _variance(values, sample):
    xs = [float(v) for v in values if v is not None]
    n = len(xs)
    if n == 0:
        return None
    if sample and n == 1:
        return None  # the current Databend: NULL for one value (1.2.453 answered 0)
    mean = math.fsum(xs) / n
    return math.fsum((x - mean) ** 2 for x in xs) / (n - 1 if sample else n)


def _stddev(sample):
    def final(values, _params):
        v = _variance(values, sample)
        return None if v is None else math.sqrt(v)

    return final


def _var(sample):
    return lambda values, _params: _variance(values, sample)


def _pairs(values):
    return [(float(x), float(y)) for x, y in values if x is not None and y is not None]


def _centred(values):
    """(the non-NULL pairs as floats, mean of x, mean of y); the means are 0 without pairs."""
    pairs = _pairs(values)
    n = len(pairs) or 1
    return pairs, math.fsum(x for x, _ in pairs) / n, math.fsum(y for _, y in pairs) / n


def _covariance(sample):
    def final(values, _params):
        pairs, mx, my = _centred(values)
        if not pairs:
            return None
        n = len(pairs)
        total = math.fsum((x - mx) * (y - my) for x, y in pairs)
        if sample:
            return math.inf if n == 1 else total / (n - 1)  # Databend 1.2.453: one pair gives inf
        return total / n

    return final


def _corr(values, _params):
    pairs, mx, my = _centred(values)
    if not pairs:
        return None
    sxy = math.fsum((x - mx) * (y - my) for x, y in pairs)
    sxx = math.fsum((x - mx) ** 2 for x, _ in pairs)
    syy = math.fsum((y - my) ** 2 for _, y in pairs)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def _power_sums(values, highest):
    """(n, sum x, sum x², ..., sum x^highest) in Databend's float arithmetic: added in arrival
    order, powers as Rust's powi multiplies them."""
    n = 0
    s1 = s2 = s3 = s4 = 0.0
    for v in values:
        if v is None:
            continue
        x = float(v)
        sq = x * x
        n += 1
        s1 += x
        s2 += sq
        s3 += sq * x
        if highest == 4:
            s4 += sq * sq
    return n, s1, s2, s3, s4


def _skewness(values, _params):
    """The sample skewness as Databend computes it from power sums (0 below three values or
    without spread, NaN when not finite)."""
    n, s, s2, s3, _ = _power_sums(values, 3)
    if n == 0:
        return None
    if n <= 2:
        return 0.0
    n = float(n)
    temp = 1.0 / n
    spread = temp * (s2 - s * s * temp)
    div = math.sqrt(spread * spread * spread) if spread == spread and spread >= 0 else math.nan
    if div == 0.0:
        return 0.0
    temp1 = math.sqrt(n * (n - 1.0)) / (n - 2.0)
    try:
        value = temp1 * temp * (s3 - 3.0 * s2 * s * temp + 2.0 * (s * s * s) * temp * temp) / div
    except (OverflowError, ZeroDivisionError):
        return math.nan
    return value if math.isfinite(value) else math.nan


def _kurtosis(values, _params):
    """The sample excess kurtosis as Databend computes it from power sums (0 below four values
    or without spread, NaN when not finite)."""
    n, s, s2, s3, s4 = _power_sums(values, 4)
    if n == 0:
        return None
    if n <= 3:
        return 0.0
    n = float(n)
    temp = 1.0 / n
    if s2 - s * s * temp == 0.0:
        return 0.0
    sum_sq = s * s
    m4 = temp * (s4 - 4.0 * s3 * s * temp + 6.0 * s2 * s * s * temp * temp
                 - 3.0 * (sum_sq * sum_sq) * (temp * temp * temp))
    m2 = temp * (s2 - s * s * temp)
    if not m2 > 0.0:
        return math.nan if m2 != m2 else 0.0
    value = (n - 1.0) * ((n + 1.0) * m4 / (m2 * m2) - 3.0 * (n - 1.0)) / ((n - 2.0) * (n - 3.0))
    return value if math.isfinite(value) else math.nan


def _quantile_cont(values, level, decimal_type):
    xs = sorted(_numbers(values))
    if not xs:
        return None
    if decimal_type:  # Databend 1.2.453: a Decimal quantile takes the value below the level
        return xs[math.floor(level * (len(xs) - 1))]
    pos = level * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return float(xs[lo]) + (float(xs[hi]) - float(xs[lo])) * (pos - lo)


def _quantile_result(types):
    t = types[0]
    return t.as_nullable(True) if t.name == "Decimal" else T.FLOAT64.as_nullable(True)


def _median(values, params):
    return _quantile_cont(values, 0.5, params[-1])


def _quantile(values, params):
    levels = params[:-1]
    if len(levels) == 1:
        return _quantile_cont(values, levels[0], params[-1])
    if not _numbers(values):
        return None
    return N.ArrayValue(_quantile_cont(values, level, params[-1]) for level in levels)


def _quantile_disc(values, params):
    xs = sorted(_numbers(values))
    if not xs:
        return None
    picks = [xs[math.floor(level * (len(xs) - 1))] for level in params[:-1]]
    return picks[0] if len(picks) == 1 else N.ArrayValue(picks)


def _arg(pick):
    def final(values, params):
        key = params[0] if params else None  # VARIANTs compare in Databend's order of values
        best = None
        for x, y in values:
            # as Databend 1.2.453: rows with a NULL in either argument are skipped
            if x is not None and y is not None:
                if key is not None:
                    y = key(y)
                if best is None or pick(y, best[1]):
                    best = (x, y)
        return None if best is None else best[0]

    return final


def _arg_order(types, params, position):
    return [variant_order_key] if types[1].name == "Variant" else []


def _string_agg(values, params):
    parts = [v for v in values if v is not None]
    if not parts:
        return None
    separator = params[0] if params else ""
    size = sum(map(len, parts)) + len(separator) * (len(parts) - 1)
    if size >= ALLOCATION_CHARGE_BYTES:
        # the joined copy is charged before it is made (the parts themselves were charged as held)
        reserve(text_bytes(size, separator, *parts))
        return keep(separator.join(parts))
    return separator.join(parts)


def _conditional(kind):
    """sum_if(x, cond) and friends: the aggregate of x over the rows whose cond is true."""

    def final(values, params):
        xs = [x for x, c in values if c and x is not None]
        if kind == "sum":
            total = total_wrapper(params[0] if params else None)
            return None if not xs else total(sum(xs)) if total is not None else sum(xs)
        if kind == "avg":
            mean = wrapped_mean(params[0] if params else None)
            if mean is not None:
                return mean(sum(xs), len(xs))
            return float(sum(xs)) / len(xs) if xs else None
        if kind == "min":
            return min(xs) if xs else None
        return max(xs) if xs else None

    return final


def _count_if(values, _params):
    if values and type(values[0]) is tuple:
        return sum(1 for x, c in values if c and x is not None)
    return sum(1 for c in values if c)


def _array_agg(values, _params):
    """The group's values in arrival order, NULLs left out (as every aggregate here leaves them)."""
    return N.ArrayValue(v for v in values if v is not None)


def _sum_type(types):
    t = types[0]
    if t.is_int:
        return (T.INT64 if not t.name.startswith("U") else T.UINT64).as_nullable(True)
    if t.name == "Decimal":
        return T.SqlType("Decimal", True, 38 if t.precision <= 38 else 76, t.scale)
    return T.FLOAT64.as_nullable(True)


_ENTRIES = [
    Collected("any_value", (1, 1), _same, lambda vs, _p: next((v for v in vs if v is not None), None)),
    # in Databend's order of floats: a NaN beats every value in arg_max, none in arg_min
    Collected("arg_min", (2, 2), _same, _arg(lambda a, b: a < b or (b != b and a == a)), prepare=_arg_order),
    Collected("arg_max", (2, 2), _same, _arg(lambda a, b: a > b or (a != a and b == b)), prepare=_arg_order),
    Collected("string_agg", (1, 2), lambda ts: T.STRING.as_nullable(True), _string_agg, trailing_constant=True),
    Collected("group_concat", (1, 2), lambda ts: T.STRING.as_nullable(True), _string_agg, trailing_constant=True),
    Collected("listagg", (1, 2), lambda ts: T.STRING.as_nullable(True), _string_agg, trailing_constant=True),
    Collected("median", (1, 1), _quantile_result, _median),
    Collected("quantile_cont", (1, 1), _quantile_result, _quantile, params=1, param_range=(1, 64)),
    Collected("quantile_disc", (1, 1), _same, _quantile_disc, params=1, param_range=(1, 64)),
    Collected("stddev", (1, 1), _float, _stddev(True)),
    Collected("stddev_samp", (1, 1), _float, _stddev(True)),
    Collected("stddev_pop", (1, 1), _float, _stddev(False)),
    Collected("std", (1, 1), _float, _stddev(False)),
    Collected("var_samp", (1, 1), _float, _var(True)),
    Collected("var_pop", (1, 1), _float, _var(False)),
    Collected("covar_samp", (2, 2), _float, _covariance(True)),
    Collected("covar_pop", (2, 2), _float, _covariance(False)),
    Collected("corr", (2, 2), _float, _corr),
    Collected("skewness", (1, 1), _float, _skewness),
    Collected("kurtosis", (1, 1), _float, _kurtosis),
    # approx_count_distinct(error)(x): counted exactly, within any error asked for
    Collected("approx_count_distinct", (1, 1), lambda ts: T.UINT64, param_range=(0, 1), final=
              lambda vs, _p: len({v for v in vs if v is not None})),
    # count_if(cond) counts the rows where cond holds, count_if(x, cond) those where x is not NULL too
    Collected("count_if", (1, 2), lambda ts: T.UINT64, _count_if),
    Collected("sum_if", (2, 2), _sum_type, _conditional("sum")),
    Collected("avg_if", (2, 2), _float, _conditional("avg")),
    Collected("min_if", (2, 2), _same, _conditional("min")),
    Collected("max_if", (2, 2), _same, _conditional("max")),
    # an Array of the argument's type, NOT NULL (its NULLs are left out, as the current Databend
    # docs say and its source types it; 1.2.453 kept them in an Array(T NULL)); no rows give []
    Collected("array_agg", (1, 1), lambda ts: N.array_type(ts[0].as_nullable(False)), _array_agg),
    Collected("list", (1, 1), lambda ts: N.array_type(ts[0].as_nullable(False)), _array_agg),
    Collected("st_collect", (1, 1), GA.result_type, GA.st_collect),
    Collected("st_union_agg", (1, 1), GA.result_type, GA.st_union_agg),
    Collected("st_intersection_agg", (1, 1), GA.result_type, GA.st_intersection_agg),
    Collected("st_envelope_agg", (1, 1), GA.result_type, GA.st_envelope_agg),
]

COLLECTED = {c.name: c for c in _ENTRIES}
