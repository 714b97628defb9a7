"""The function registry: scalar functions by name with their arity, NULL handling and
result-type rule. Each family module (numeric, strings, dates, conditionals, casts...) registers
its functions here with `register`; SHOW FUNCTIONS and system.functions list the registry."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from engine.core.limits import Limits
from engine.types import sqltype as T


@dataclass(frozen=True, slots=True)
class ScalarFunction:
    """impl(*values); when strict, a NULL argument gives NULL without calling impl."""

    name: str
    impl: object
    result: object  # function(list[SqlType]) -> SqlType (non-null part when strict)
    min_args: int
    max_args: int
    strict: bool = True
    # make_impl(limits) -> impl for functions bounded by the database's Limits (engine.runtime.bounded);
    # the planner calls with_limits, so `impl` is a placeholder until then
    make_impl: object = None
    limits: Limits | None = None  # the Limits `impl` was made for
    volatile: bool = False  # never folded into a constant (rand, uuid)
    coerce: bool = False  # arguments are converted to the result type first (greatest, nvl)
    # the result-type rule also receives the constant arguments' values (None where not constant):
    # result(types, values), e.g. ROUND(d, 1) is a Decimal of scale 1
    by_value: bool = False
    # specialize(argument types) -> impl for functions whose work depends on the argument types
    # (a hash of an Int32 hashes its 4 bytes); None when `impl` serves every type
    specialize: object = None
    # what one call costs beyond an ordinary row's work, in microseconds (0: nothing worth
    # counting): a step over code calling it takes fewer rows (engine.core.steps.rows_for_cost)
    row_cost: int = 0


@dataclass(eq=False)
class AggSpec:
    """One aggregate call of a query: its function name, bound argument and result type (defined
    here, beside the registry, so that the function families can build one without the IR)."""

    name: str
    arg: Any  # a bound expression (engine.ir.expr.Expr) or None (count(*))
    distinct: bool
    type: T.SqlType
    # a collected aggregate (engine.functions.collected): its further arguments and the constant
    # parameters its final function takes
    extra: tuple = ()
    params: tuple = ()
    collected: Any = None
    # a folded aggregate (engine.functions.bitmap_aggregates): one state per group, updated row
    # by row through the entry's Folder
    folded: Any = None


def same(types):
    """Result type rule: the first argument's type."""
    return types[0]


def fixed(t):
    """Result type rule: always `t`."""
    return lambda types: t


def common(types):
    """Result type rule: the common type of all arguments."""
    return T.common_type(types)


SCALARS: dict[str, ScalarFunction] = {}

# microseconds a cast to these types costs a row, as the functions that make them declare
# (to_geometry, to_geography: engine.functions.geometry): the text or WKB is read into shapes
CAST_ROW_COSTS = {"Geometry": 12, "Geography": 18}


def register(name, impl, result, min_args, max_args=None, strict=True, aliases=(), bounded=False,
             volatile=False, coerce=False, by_value=False, specialize=None):
    """Register a function; when `bounded`, `impl` is a `make_*(limits)` of engine.runtime.bounded
    (a costly one declares its cost after: declare_row_costs)."""
    make_impl = None
    if bounded:
        make_impl, impl = impl, impl(Limits())
    fn = ScalarFunction(name, impl, result, min_args, min_args if max_args is None else max_args, strict,
                        make_impl, volatile=volatile, coerce=coerce, by_value=by_value, specialize=specialize)
    for n in (name, *aliases):
        SCALARS[n] = fn


def declare_row_costs(costs: dict[str, int]) -> None:
    """Give the registered functions named in `costs` (and their aliases) their cost per call
    in microseconds (ScalarFunction.row_cost): a family module lists its expensive functions
    in one table after registering them."""
    replaced: dict[int, ScalarFunction] = {}
    for key, fn in list(SCALARS.items()):
        cost = costs.get(fn.name)
        if cost is not None:
            if id(fn) not in replaced:
                replaced[id(fn)] = replace(fn, row_cost=cost)
            SCALARS[key] = replaced[id(fn)]
    missing = set(costs) - {fn.name for fn in SCALARS.values()}
    if missing:  # a typo would silently leave a function uncounted
        raise KeyError(f"row costs declared for unregistered functions: {sorted(missing)}")


@functools.lru_cache(maxsize=256)
def with_limits(fn: ScalarFunction, limits: Limits) -> ScalarFunction:
    """`fn` with its implementation made for `limits` (unchanged when fn is not bounded)."""
    if fn.make_impl is None or fn.limits == limits:
        return fn
    return replace(fn, impl=fn.make_impl(limits), limits=limits)
