"""Functions whose work or result size the database's Limits bound (string builders, ROUND).

Each `make_*` takes the Limits and returns the function's implementation with the bound baked in
as a closure value: the planner binds it per database (`functions.with_limits`), so two databases
with different limits share no module-level constant. Sizes are computed before anything is
built, so a refused call allocates nothing. A result of ALLOCATION_CHARGE_BYTES or more is also
charged to the running query before it is built (engine.core.memory.reserve: max_memory_usage and
the server's budget, 2411); smaller ones cost one more comparison.
"""

from __future__ import annotations

import decimal
import math

from engine.core.errors import BadArguments
from engine.core.limits import Limits
from engine.core.memory import ALLOCATION_CHARGE_BYTES, keep, reserve, text_bytes
from engine.types.cast import to_string
from engine.types.nested import ArrayValue
from engine.types.render import render_value


def _str(v):
    return v if isinstance(v, str) else render_value(v)


def result_too_long(chars: int, max_chars: int) -> BadArguments:
    return BadArguments(f"string result of {chars} characters exceeds the limit "
                        f"string_result_chars = {max_chars}")


def _length_argument(n, max_chars: int) -> int:
    """A requested result length (REPEAT count * len, LPAD/RPAD/SPACE n), refused above the limit."""
    n = max(int(n), 0)
    if n > max_chars:
        raise result_too_long(n, max_chars)
    return n


def make_repeat(limits: Limits):
    max_chars = limits.string_result_chars

    def repeat(s, n):
        s = _str(s)
        count = max(int(n), 0)
        if s:
            chars = _length_argument(len(s) * count, max_chars)
            if chars >= ALLOCATION_CHARGE_BYTES:
                reserve(text_bytes(chars, s))
                return keep(s * count)
        return s * count

    return repeat


def _make_pad(limits: Limits, on_left: bool):
    max_chars = limits.string_result_chars

    def pad(s, n, fill):
        s, fill = _str(s), _str(fill)
        n = _length_argument(n, max_chars)
        if len(s) >= n:
            return s[:n]
        if not fill:  # as Databend: nothing to pad with
            raise BadArguments(f"{'lpad' if on_left else 'rpad'}: can't fill with an empty pad string")
        if n >= ALLOCATION_CHARGE_BYTES:
            reserve(text_bytes(n, s, fill) + text_bytes(n - len(s), fill))  # the padding, then the result
            padding = (fill * ((n - len(s)) // len(fill) + 1))[: n - len(s)]
            return keep(padding + s if on_left else s + padding)
        padding = (fill * ((n - len(s)) // len(fill) + 1))[: n - len(s)]
        return padding + s if on_left else s + padding

    return pad


def make_lpad(limits: Limits):
    return _make_pad(limits, True)


def make_rpad(limits: Limits):
    return _make_pad(limits, False)


MAX_SPACE_LENGTH = 1_000_000  # Databend's own bound of space(n), whatever the limit


def make_space(limits: Limits):
    max_chars = limits.string_result_chars

    def space(n):
        n = _length_argument(n, max_chars)
        if n > MAX_SPACE_LENGTH:
            raise BadArguments(f"space length is too big, max is: {MAX_SPACE_LENGTH}")
        if n >= ALLOCATION_CHARGE_BYTES:
            reserve(text_bytes(n))
            return keep(" " * n)
        return " " * n

    return space


# memory: one array element's list slot, and a slot with a small object (an int, a short str)
ARRAY_SLOT_BYTES = 8
ARRAY_ELEMENT_BYTES = 8 + 56

# Databend's own bound on one range() (as ClickHouse's); the server's Limits.array_elements is
# lower: a built array is one value made in one step
RANGE_MAX_ELEMENTS = 500_000_000


def range_elements(start, end, step=1) -> int:
    """The number of elements range(start, end[, step]) has, refused beyond Databend's bound."""
    step = int(step)
    if step == 0:
        raise BadArguments("range step can not be zero")
    count = (int(end) - int(start) + step - (1 if step > 0 else -1)) // step
    if count > RANGE_MAX_ELEMENTS:
        raise BadArguments(f"the allowed maximum values of range function is {RANGE_MAX_ELEMENTS}, but got {count}")
    return max(count, 0)


def array_too_long(what: str, count: int, limit: int) -> BadArguments:
    return BadArguments(f"{what} of {count} elements exceeds the limit array_elements = {limit}")


def make_range(limits: Limits):
    """range(start, end[, step]): the array [start, end) by step, at most array_elements long
    (counted first)."""
    max_elements = limits.array_elements

    def range_(start, end, step=1):
        count = range_elements(start, end, step)
        if count > max_elements:
            raise array_too_long("range", count, max_elements)
        if count * ARRAY_SLOT_BYTES >= ALLOCATION_CHARGE_BYTES:
            reserve(count * ARRAY_ELEMENT_BYTES)
            return keep(ArrayValue(range(int(start), int(end), int(step))))
        return ArrayValue(range(int(start), int(end), int(step)))

    return range_


def make_split(limits: Limits):
    """split(s, sep): the parts of s, at most array_elements of them (the separators are counted
    before any part is cut: a huge text is refused without building its parts)."""
    max_elements = limits.array_elements

    def split(s, sep):
        s, sep = to_string(s), to_string(sep)
        if sep == "" or s == sep:  # (as Databend: split('|', '|') is [''])
            return ArrayValue(("",) if s == sep else (s,))
        count = s.count(sep) + 1
        if count > max_elements:
            raise array_too_long("split", count, max_elements)
        if count * ARRAY_SLOT_BYTES >= ALLOCATION_CHARGE_BYTES or len(s) >= ALLOCATION_CHARGE_BYTES:
            # each part is a str object of its own (~50 bytes) plus its characters
            reserve(count * ARRAY_ELEMENT_BYTES + text_bytes(len(s), s))
            return keep(ArrayValue(s.split(sep)))
        return ArrayValue(s.split(sep))

    return split


def make_replace(limits: Limits):
    max_chars = limits.string_result_chars

    def replace(s, old, new):
        s, old, new = _str(s), _str(old), _str(new)
        if not old:
            return s
        growth = len(new) - len(old)
        size = len(s)  # the result's length, or an upper bound of it when it shrinks
        if growth > 0:
            size += s.count(old) * growth
            if size > max_chars:
                raise result_too_long(size, max_chars)
        if size >= ALLOCATION_CHARGE_BYTES:
            reserve(text_bytes(size, s, new))
            return keep(s.replace(old, new))
        return s.replace(old, new)

    return replace


def make_concat(limits: Limits):
    max_chars = limits.string_result_chars

    def concat(*args):
        if any(a is None for a in args):
            return None
        parts = [_str(a) for a in args]
        size = sum(map(len, parts))
        if size > max_chars:
            raise result_too_long(size, max_chars)
        if size >= ALLOCATION_CHARGE_BYTES:
            reserve(text_bytes(size, *parts))
            return keep("".join(parts))
        return "".join(parts)

    return concat


def make_concat_ws(limits: Limits):
    max_chars = limits.string_result_chars

    def concat_ws(separator, *args):
        if separator is None:
            return None
        separator = _str(separator)
        parts = [_str(a) for a in args if a is not None]
        size = sum(map(len, parts)) + len(separator) * max(len(parts) - 1, 0)
        if size > max_chars:
            raise result_too_long(size, max_chars)
        if size >= ALLOCATION_CHARGE_BYTES:
            reserve(text_bytes(size, separator, *parts))
            return keep(separator.join(parts))
        return separator.join(parts)

    return concat_ws


def concat_large(max_chars: int):
    """What generated code calls for a string `||` of ALLOCATION_CHARGE_BYTES characters or more
    (it adds shorter ones inline): refused beyond the limit, else charged to the query, then built."""

    def concat_charged(*parts):
        size = sum(map(len, parts))
        if size > max_chars:
            raise result_too_long(size, max_chars)
        reserve(text_bytes(size, *parts))
        return keep("".join(parts))

    return concat_charged


# enough digits for any float (up to ~1.8e308) rounded to any position: quantize never overflows
_ROUND_CONTEXT = decimal.Context(prec=400, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
_HALF_UP = decimal.ROUND_HALF_UP


def _round_int(v: int, digits: int, half_up: bool) -> int:
    """v rounded half away from zero (half_up) or truncated toward zero to 10**-digits
    (digits < 0), exactly."""
    places = -digits
    if places > len(str(abs(v))):  # 10**places is more than twice |v|: the answer is 0
        return 0
    factor = 10 ** places
    q, r = divmod(abs(v), factor)
    if half_up and 2 * r >= factor:
        q += 1
    return (q if v >= 0 else -q) * factor


def _make_rounding(limits: Limits, name: str, rounding: str):
    """ROUND (half away from zero) or TRUNCATE (toward zero) to `digits` decimal places, with
    |digits| bounded by round_digits."""
    max_digits = limits.round_digits
    half_up = rounding == decimal.ROUND_HALF_UP

    def round_(v, digits=0):
        digits = int(digits)
        if abs(digits) > max_digits:
            raise BadArguments(f"{name} digits {digits} is out of range: |digits| may be at most "
                               f"round_digits = {max_digits}")
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v):
                return v
            d = decimal.Decimal(repr(v))
            if d.as_tuple().exponent >= -digits:  # no digit beyond the rounding position
                return v
            exp = decimal.Decimal(1).scaleb(-digits, _ROUND_CONTEXT)
            return float(d.quantize(exp, rounding=rounding, context=_ROUND_CONTEXT))
        if isinstance(v, decimal.Decimal):
            if digits >= 0:
                if v.as_tuple().exponent >= -digits:
                    return v
                exp = decimal.Decimal(1).scaleb(-digits, _ROUND_CONTEXT)
                return v.quantize(exp, rounding=rounding, context=_ROUND_CONTEXT)
            if not v or -digits > v.adjusted() + 1:  # 10**-digits is more than twice |v|
                return decimal.Decimal(0)
            scaled = v.scaleb(digits, _ROUND_CONTEXT).quantize(1, rounding=rounding, context=_ROUND_CONTEXT)
            return decimal.Decimal(int(scaled) * 10 ** -digits)
        if digits >= 0:
            return v
        return _round_int(v, digits, half_up)

    return round_


def make_round(limits: Limits):
    return _make_rounding(limits, "ROUND", decimal.ROUND_HALF_UP)


def make_truncate(limits: Limits):
    return _make_rounding(limits, "TRUNCATE", decimal.ROUND_DOWN)
