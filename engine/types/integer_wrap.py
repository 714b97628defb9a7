"""Integer overflow as Databend has it: 64-bit `+ - *` and SUM totals wrap around (two's
complement), integer DIV goes through Float64 and saturates, `%` computes in the operands' common
type, and a unary minus that does not fit is an error (1006). Python integers never overflow, so
the engine computes exactly and these helpers fold an exact result back into the type."""

from __future__ import annotations

import decimal
import functools

from engine.core.errors import BadArguments
from engine.types import sqltype as T

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1
# integers of smaller magnitude convert to Float64 exactly, and so divide exactly through it
EXACT_FLOAT_LIMIT = 1 << 53


def wrapper(name: str):
    """value -> the value wrapped into the integer type `name` (as a Rust `as` conversion)."""
    lo, hi = T.INT_RANGES[name]
    span = hi - lo + 1
    if lo == 0:
        mask = hi
        return lambda v: v & mask
    return lambda v: (v - lo) % span + lo


# one shared wrap function per type (bound into generated code: the same object every query)
WRAPPERS = {name: wrapper(name) for name in T.INT_RANGES}
wrap_int64 = WRAPPERS["Int64"]
wrap_uint64 = WRAPPERS["UInt64"]


def overflow_check(src: str, temp: str, exact: tuple[int, int], name: str, wrap: str) -> str:
    """Source of the value `src` (an integer expression in range `exact`) in the type `name`: one
    inline comparison per bound it may cross, the (bound) wrap function `wrap` called only on
    overflow. The bounds are the type's own constants, never values from the query."""
    lo, hi = T.INT_RANGES[name]
    if lo <= exact[0] and exact[1] <= hi:
        return src
    if exact[0] < lo and exact[1] > hi:
        test = f"{lo} <= ({temp} := {src}) <= {hi}"
    elif exact[1] > hi:
        test = f"({temp} := {src}) <= {hi}"
    else:
        test = f"({temp} := {src}) >= {lo}"
    return f"({temp} if {test} else {wrap}({temp}))"


# ------------------------------------------------------------------ unary minus


def negation_overflow(v: int):
    """The error of a unary minus whose result leaves Int64, in Databend's words."""
    raise BadArguments(f"number overflowed while evaluating function `minus({v})`")


def negation_limit(name: str) -> tuple[str, int] | None:
    """For -x of a 64-bit integer type: (comparison, bound) that x must pass for -x to fit Int64
    (Int64: x > INT64_MIN; UInt64: x <= 2**63); None for narrower types (they widen)."""
    if name == "Int64":
        return ">", INT64_MIN
    if name == "UInt64":
        return "<=", -INT64_MIN
    return None


def negate(v: int, name: str) -> int:
    """-v of a constant of integer type `name`, refused as Databend refuses it when out of Int64."""
    limit = negation_limit(name)
    if limit is not None and not (v > limit[1] if limit[0] == ">" else v <= limit[1]):
        negation_overflow(v)
    return -v


# ------------------------------------------------------------------ DIV and %


def super_type(a: T.SqlType, b: T.SqlType) -> str:
    """The integer type both operands convert to for `%` (Databend's least super type: the
    wider width, signed when either is)."""
    signed = False
    width = 8
    for t in (a, b):
        if t.is_int:
            signed = signed or not t.name.startswith("U")
            width = max(width, int(t.name.lstrip("UInt")))
    return ("Int" if signed else "UInt") + str(width)


def as_float64(v) -> float:
    """A number as Databend converts it to Float64: a Decimal as its unscaled integer over
    10**scale, each a Float64 (9007199254740993.0 is 9007199254740994.0)."""
    if isinstance(v, decimal.Decimal):
        sign, digits, exponent = v.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
        if exponent >= 0:
            return float(unscaled * 10 ** exponent)
        return float(unscaled) / float(10 ** -exponent)
    return float(v)


@functools.cache
def integer_division(result: str):
    """a DIV b as Databend computes it: both as Float64, divided, truncated toward zero and
    saturated into the result type `result` (NaN is 0); dividing by zero is an error."""
    lo, hi = T.INT_RANGES[result]

    def divide(a, b):
        divisor = as_float64(b)
        if divisor == 0.0:
            raise ZeroDivisionError
        q = as_float64(a) / divisor
        if q != q:
            return 0
        if q >= hi:
            return hi
        if q <= lo:
            return lo
        return int(q)

    return divide


@functools.cache
def signed_modulo(common: str, result: str):
    """a % b over a signed common type as Databend computes it: the dividend wrapped into the
    common type, the divisor through Float64 saturated into it, the remainder taking the
    dividend's sign and wrapped into the result type. (Databend fails on MIN % -1; this gives
    the remainder, 0.)"""
    wrap_dividend, wrap_result = wrapper(common), wrapper(result)
    lo, hi = T.INT_RANGES[common]

    def modulo(a, b):
        divisor = float(b)
        if divisor == 0.0:
            raise ZeroDivisionError
        a = wrap_dividend(a)
        b = lo if divisor <= lo else hi if divisor >= hi else int(divisor)
        r = abs(a) % abs(b)
        return wrap_result(-r if a < 0 else r)

    return modulo


# ------------------------------------------------------------------ SUM totals


def _int64_total(v):
    return v if v is None or INT64_MIN <= v <= INT64_MAX else wrap_int64(v)


def _uint64_total(v):
    return v if v is None or 0 <= v <= UINT64_MAX else wrap_uint64(v)


def total_wrapper(arg: T.SqlType | None):
    """For SUM / AVG of values of type `arg`: a function taking the exact total (or None) to the
    total Databend keeps, wrapped into Int64 (signed integers) or UInt64 (unsigned, Boolean);
    None for other types (floats, decimals), whose totals are kept as they are. Wrapping is a
    ring homomorphism, so wrapping the exact total equals Databend's row-by-row wrapping."""
    if arg is None:
        return None
    if arg.is_int:
        return _uint64_total if arg.name.startswith("U") else _int64_total
    return _uint64_total if arg.name == "Boolean" else None


def _int64_mean(total, count):
    return None if not count else float(_int64_total(total)) / count


def _uint64_mean(total, count):
    return None if not count else float(_uint64_total(total)) / count


def wrapped_mean(arg: T.SqlType | None):
    """(exact total, count) -> Databend's AVG of integers: the wrapped total as Float64 over the
    count (None for no values); None for arguments that are no integers."""
    total = total_wrapper(arg)
    if total is None:
        return None
    return _int64_mean if total is _int64_total else _uint64_mean
