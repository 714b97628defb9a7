"""array_<aggregate>(arr) and array_aggregate(arr, 'name'): an aggregate function over an
array's elements (array_any, array_median, array_stddev_samp, array_kurtosis...), computed by the
collected aggregates' final functions (engine.functions.collected) so that both answer alike."""

from __future__ import annotations

import math

from engine.core.errors import SemanticError
from engine.functions.collected import COLLECTED
from engine.functions.registry import SCALARS, ScalarFunction, register
from engine.types import nested as N
from engine.types import sqltype as T

# array_X: the collected aggregate X over the elements (array_std is std, the population one)
_BY_COLLECTED = {"array_any": "any_value", "array_median": "median", "array_stddev_samp": "stddev_samp",
                 "array_stddev": "stddev_samp", "array_stddev_pop": "stddev_pop", "array_std": "stddev_pop",
                 "array_var_samp": "var_samp", "array_var_pop": "var_pop", "array_kurtosis": "kurtosis",
                 "array_skewness": "skewness", "array_approx_count_distinct": "approx_count_distinct"}
# array_aggregate(arr, 'name') for the names an array function of its own answers
_BY_ARRAY_FUNCTION = {"sum": "array_sum", "avg": "array_avg", "min": "array_min", "max": "array_max",
                      "count": "array_count", "any": "array_any", "median": "array_median",
                      "stddev": "array_stddev", "stddev_samp": "array_stddev_samp", "stddev_pop": "array_stddev_pop",
                      "std": "array_std", "kurtosis": "array_kurtosis", "skewness": "array_skewness",
                      "approx_count_distinct": "array_approx_count_distinct", "var_samp": "array_var_samp",
                      "var_pop": "array_var_pop"}


def _element(name, types):
    t = types[0]
    if t.name == "Null":
        return T.NULL
    if t.name != "Array":
        raise SemanticError(f"no overload satisfies `{name}({t.display()})`")
    element = N.element_of(t)
    return T.NULL if element.name == "Nothing" else element


def _skewness(values, _params):
    """The sample skewness from power sums, in Databend's order of operations (its rounding)."""
    xs = [float(v) for v in values if v is not None]
    n = float(len(xs))
    if not xs:
        return None
    if n <= 2:
        return 0.0
    total, squares, cubes = sum(xs), sum(x * x for x in xs), sum(x ** 3 for x in xs)
    temp = 1.0 / n
    div = math.sqrt((temp * (squares - total * total * temp)) ** 3)
    if div == 0.0:
        return 0.0
    temp1 = math.sqrt(n * (n - 1.0)) / (n - 2.0)
    value = temp1 * temp * (cubes - 3.0 * squares * total * temp + 2.0 * total ** 3 * temp * temp) / div
    return value if math.isfinite(value) else math.nan


def _collected_function(name, aggregate):
    entry = COLLECTED[aggregate]
    final = _skewness if aggregate == "skewness" else entry.final

    def result(types):
        element = _element(name, types)
        if aggregate in ("approx_count_distinct",):
            return T.UINT64
        return entry.result([element.as_nullable(False)]).as_nullable(True)

    def specialize(types):
        element = _element(name, types)
        params = (element.name == "Decimal",)  # (median of Decimals: the value below the level)
        return lambda arr: final(list(arr), params)

    register(name, None, result, 1, specialize=specialize)


for _name, _aggregate in _BY_COLLECTED.items():
    _collected_function(_name, _aggregate)


def _function_of(name) -> ScalarFunction:
    if not isinstance(name, str) or name.strip().lower() not in _BY_ARRAY_FUNCTION:
        raise SemanticError(f"array_aggregate does not support the aggregate function {name!r}")
    return SCALARS[_BY_ARRAY_FUNCTION[name.strip().lower()]]


def _aggregate_result(types, values):
    if values[1] is None:
        raise SemanticError("the second argument of array_aggregate must be a constant name")
    return _function_of(values[1]).result(types[:1])


def _make_aggregate(types):
    """The implementation, per aggregate name, made for the array's type once."""
    made = {}

    def aggregate(arr, name):
        impl = made.get(name)
        if impl is None:
            fn = _function_of(name)
            impl = made[name] = fn.specialize(types[:1]) if fn.specialize is not None else fn.impl
        return impl(arr)
    return aggregate


register("array_aggregate", None, _aggregate_result, 2, by_value=True, specialize=_make_aggregate,
         aliases=("array_reduce_agg",))
