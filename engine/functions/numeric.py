"""Numeric functions: abs, sign, rounding, roots, powers, logarithms, trigonometry, factorial,
greatest/least and rand, with Databend's result types."""

from __future__ import annotations

import decimal
import math
import random

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import fixed, register
from engine.runtime import bounded as B
from engine.runtime.helpers import mod_trunc
from engine.types import render as R
from engine.types import sqltype as T
from engine.types.keys import greatest, least

INT8 = T.SqlType("Int8")
_INT64_LIMIT = 1 << 63


def _abs(v):
    return abs(v)


def _abs_type(types):
    """Databend: the absolute value of any integer is a UInt64, of a float a Float64."""
    t = types[0]
    if t.name == "Boolean":  # no Boolean overload (current Databend, as 1.2.453)
        raise SemanticError("no overload satisfies `abs(Boolean)`")
    if t.is_int:
        return T.UINT64
    if t.is_float:
        return T.FLOAT64
    return t


def _rounding_type(types, values=()):
    """ROUND/TRUNCATE/FLOOR/CEIL of a DECIMAL keep its precision with the scale rounded to
    (0 <= scale <= input scale); of anything else a Float64."""
    t = types[0]
    if t.name == "Decimal":
        digits = values[1] if len(values) > 1 and isinstance(values[1], int) else 0
        return T.SqlType("Decimal", False, t.precision, max(0, min(t.scale, digits)))
    return T.FLOAT64


def _float_for_integers(make):
    """A bounded ROUND/TRUNCATE whose integer answers are Float64 values, as its type says."""

    def make_impl(limits):
        inner = make(limits)

        def rounded(v, digits=0):
            r = inner(v, digits)
            # integer types (within 64 bits) answer Float64; wider integers are Decimal(n, 0)
            if type(r) is int and -_INT64_LIMIT <= v < 2 * _INT64_LIMIT:
                # a negative number rounded to zero is -0.0, as Databend's Float64 rounding gives
                return -0.0 if r == 0 and v < 0 else float(r)
            return r

        return rounded

    return make_impl


def _ceil_type(types):
    """CEIL keeps an integer's type (FLOOR does not: Databend 1.2.453 answers a Float64)."""
    t = types[0]
    return t if t.is_int else _rounding_type(types)


def _floor(v):
    if isinstance(v, float):
        return float(math.floor(v)) if math.isfinite(v) else v
    if isinstance(v, decimal.Decimal):
        return v.to_integral_value(rounding=decimal.ROUND_FLOOR)
    return float(v)


def _ceil(v):
    if isinstance(v, float):
        # IEEE ceil keeps the sign: ceil(-0.5) is -0.0, which Databend prints as -0
        return math.copysign(float(math.ceil(v)), v) if math.isfinite(v) else v
    if isinstance(v, decimal.Decimal):
        return v.to_integral_value(rounding=decimal.ROUND_CEILING)
    return v


def _sqrt(v):
    v = float(v)
    return math.sqrt(v) if v >= 0 else math.nan


def _pow(a, b):
    try:
        return math.pow(float(a), float(b))
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


def _exp(v):
    try:
        return math.exp(float(v))
    except OverflowError:
        return math.inf


def _ln(v):
    v = float(v)
    if v > 0:
        return math.log(v)
    return -math.inf if v == 0 else math.nan


def _log(a, b=None):
    """LOG(x) is the natural logarithm; LOG(base, x) the logarithm of x in `base`."""
    if b is None:
        return _ln(a)
    base = _ln(a)
    return _ln(b) / base if base else (math.nan if _ln(b) == 0 else math.copysign(math.inf, _ln(b)))


def _log2(v):
    v = float(v)
    if v > 0:
        return math.log2(v)
    return -math.inf if v == 0 else math.nan


def _log10(v):
    v = float(v)
    if v > 0:
        return math.log10(v)
    return -math.inf if v == 0 else math.nan


def _sign(v):
    return (v > 0) - (v < 0)


def _float_fn(fn):
    def call(v):
        try:
            return fn(float(v))
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf

    return call


def _atan2(y, x):
    return math.atan2(float(y), float(x))


def _cot(v):
    t = math.tan(float(v))
    return 1.0 / t if t else math.inf


def _cbrt(v):
    return math.cbrt(float(v))  # exact for cubes: cbrt(-64) is -4.0


def _factorial(n):
    n = int(n)
    if n > 20:
        raise BadArguments("factorial number is out of range, max is: 20")
    if n < 0:  # current Databend refuses a negative number (1.2.453 answered 1)
        raise BadArguments("factorial number must not be negative")
    return math.factorial(n)


def _mod(a, b):
    """mod(a, b): typed Float64 when an operand is a Decimal (the `%` rule), so answered as one."""
    r = mod_trunc(a, b)
    return float(r) if type(r) is decimal.Decimal else r


def _greatest(*args):
    values = [a for a in args if a is not None]
    return greatest(values) if values else None  # (a NaN the greatest: engine.types.keys)


def _least(*args):
    values = [a for a in args if a is not None]
    return least(values) if values else None


def _rand(seed=None):
    if seed is None:
        return random.random()
    return random.Random(int(seed)).random()


def _div0(a, b):
    """a / b, 0 when b is 0."""
    return float(a) / float(b) if b else 0.0


def _divnull(a, b):
    """a / b, NULL when b is 0 (or either is NULL)."""
    if a is None or b is None or not b:
        return None
    return float(a) / float(b)


_NUMBER_UNITS = ("", " thousand", " million", " billion", " trillion", " quadrillion")
_SIZE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")


def _humanize(v, base, units, sized):
    v = float(v)
    sign = "-" if v < 0 else ""
    v = abs(v)
    if v < 1:
        return f"{sign}{v:.2f} B" if sized else ("0" if v == 0 else f"{sign}{v:.2f}")
    exponent = min(int(math.floor(math.log(v) / math.log(base))), len(units) - 1)
    scaled = v / base ** exponent
    if sized:
        return f"{sign}{scaled:.2f} {units[exponent]}"
    return f"{sign}{R.render_float(float(f'{scaled:.2f}'))}{units[exponent]}"


def _humanize_number(v):
    return _humanize(v, 1000, _NUMBER_UNITS, False)


def _humanize_size(v):
    return _humanize(v, 1024, _SIZE_UNITS, True)


def _mod_type(types):
    return T.arithmetic_type("%", types[0], types[1])


register("abs", _abs, _abs_type, 1)
register("sign", _sign, fixed(INT8), 1)
register("round", _float_for_integers(B.make_round), _rounding_type, 1, 2, bounded=True, by_value=True)
register("truncate", _float_for_integers(B.make_truncate), _rounding_type, 1, 2, bounded=True, by_value=True,
         aliases=("trunc",))
register("floor", _floor, _rounding_type, 1)
register("ceil", _ceil, _ceil_type, 1, aliases=("ceiling",))
register("sqrt", _sqrt, fixed(T.FLOAT64), 1)
register("cbrt", _cbrt, fixed(T.FLOAT64), 1)
register("pow", _pow, fixed(T.FLOAT64), 2, aliases=("power",))
register("exp", _exp, fixed(T.FLOAT64), 1)
register("ln", _ln, fixed(T.FLOAT64), 1)
register("log", _log, fixed(T.FLOAT64), 1, 2)
register("log2", _log2, fixed(T.FLOAT64), 1)
register("log10", _log10, fixed(T.FLOAT64), 1)
register("sin", _float_fn(math.sin), fixed(T.FLOAT64), 1)
register("cos", _float_fn(math.cos), fixed(T.FLOAT64), 1)
register("tan", _float_fn(math.tan), fixed(T.FLOAT64), 1)
register("asin", _float_fn(math.asin), fixed(T.FLOAT64), 1)
register("acos", _float_fn(math.acos), fixed(T.FLOAT64), 1)
register("atan", _float_fn(math.atan), fixed(T.FLOAT64), 1)
register("atan2", _atan2, fixed(T.FLOAT64), 2)
register("cot", _cot, fixed(T.FLOAT64), 1)
register("degrees", _float_fn(math.degrees), fixed(T.FLOAT64), 1)
register("radians", _float_fn(math.radians), fixed(T.FLOAT64), 1)
register("factorial", _factorial, fixed(T.INT64), 1)
def _greatest_type(types):
    """The arguments' common type, nullable whatever the arguments (as Databend 1.2.453)."""
    return T.common_type(types).as_nullable(True)


register("greatest", _greatest, _greatest_type, 1, 1000, strict=False, coerce=True)
register("least", _least, _greatest_type, 1, 1000, strict=False, coerce=True)
register("rand", _rand, fixed(T.FLOAT64), 0, 1, volatile=True)
register("mod", _mod, _mod_type, 2)
register("div0", _div0, fixed(T.FLOAT64), 2)
register("divnull", _divnull, lambda ts: T.FLOAT64.as_nullable(True), 2, strict=False)
register("humanize_number", _humanize_number, fixed(T.STRING), 1)
register("humanize_size", _humanize_size, fixed(T.STRING), 1)


def _float_test(test, name):
    def rule(types):
        if not (types[0].is_float or types[0].is_int or types[0].name == "Decimal"):
            raise BadArguments(f"no overload satisfies `{name}({types[0].display()})`")
        return T.BOOLEAN
    return (lambda v: test(float(v))), rule


register("isnan", *_float_test(math.isnan, "isnan"), 1)
register("isinf", *_float_test(math.isinf, "isinf"), 1)

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_U64 = (1 << 64) - 1


def _conv(number, from_base, to_base):
    """MySQL's CONV (as Databend): the digits of `number` in |from_base| read as an unsigned
    64-bit value (a leading '-' negates it modulo 2**64; more than 64 bits saturate), written in
    |to_base|, signed when to_base is negative. Bases outside 2..36 answer NULL."""
    if number is None or from_base is None or to_base is None:
        return None
    from_base, to_base = int(from_base), int(to_base)
    if not (2 <= abs(from_base) <= 36 and 2 <= abs(to_base) <= 36):
        return None
    text = (number if isinstance(number, str) else R.render_value(number)).strip().upper()
    negative = text.startswith("-")
    value = 0
    for ch in text[1:] if negative else text:
        digit = _DIGITS.find(ch)
        if digit < 0 or digit >= abs(from_base):
            break
        value = min(value * abs(from_base) + digit, _U64 + 1)
    value = min(value, _U64)
    if negative:
        value = (-value) & _U64
    sign = ""
    if to_base < 0 and value >> 63:  # a signed answer of the 64-bit value
        sign, value = "-", (1 << 64) - value
    out = []
    while True:
        value, digit = divmod(value, abs(to_base))
        out.append(_DIGITS[digit])
        if not value:
            break
    return sign + "".join(reversed(out))


register("conv", _conv, lambda ts: T.STRING.as_nullable(True), 3, strict=False)

# functions that are operators: name -> the binary operator they apply (the binder binds them so)
OPERATOR_FUNCTIONS = {"plus": "+", "add": "+", "minus": "-", "subtract": "-", "multiply": "*",
                      "divide": "/", "modulo": "%", "intdiv": "DIV", "div": "DIV"}
# ... and the unary minus
NEGATION_FUNCTIONS = frozenset({"neg", "negate"})

# names whose numeric arguments may be written as strings (cast to Float64 first)
# those of them whose first overload takes a UInt64: text is read as one (sqrt('-4') and
# abs('-233.0') are refused as Databend refuses them); the others read text as a Float64
UNSIGNED_ARGUMENT_FUNCTIONS = frozenset({
    "abs", "ceil", "round", "truncate", "sqrt", "cbrt", "exp", "ln", "log", "log2", "log10", "mod", "div0", "divnull",
})
NUMERIC_ARGUMENT_FUNCTIONS = frozenset({
    "abs", "floor", "ceil", "round", "truncate", "mod", "sqrt", "pow", "cbrt", "exp", "ln", "log",
    "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "cot", "degrees", "radians",
    "sign", "div0", "divnull", "humanize_number", "humanize_size",
})
