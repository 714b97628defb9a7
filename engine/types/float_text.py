"""Text of Float32 / Float64 values as Databend's CAST(x AS STRING) writes it: the shortest
digits that read back as the same number (of single precision for a Float32: 0.1, not
0.10000000149011612). Rows are written as Databend writes a column (plain digits for decimal
exponents -5..9, else 1.5e300), a folded constant as Databend writes a scalar (always plain
digits, -0 kept)."""

from __future__ import annotations

import decimal
import math
import struct

_FLOAT32 = struct.Struct("<f")


def shortest_single(v: float) -> str:
    """The shortest decimal text that reads back as the same single-precision number as the
    finite `v` (0.10000000149011612 -> '1.0e-01'); repr(v) when none of 9 digits does."""
    packed = _FLOAT32.pack(v)
    for places in range(9):
        text = f"{v:.{places}e}"
        try:
            if _FLOAT32.pack(float(text)) == packed:
                return text
        except OverflowError:  # rounded up beyond the largest Float32
            continue
    return repr(v)


def _shortest(v: float, single: bool) -> tuple[str, int]:
    """(digits, exponent) of the shortest decimal reading back as `v` (a positive finite
    number): v = d.ddd x 10**exponent with `digits` the d's, no trailing zero."""
    # Python's repr is the shortest text reading back as the double
    text = shortest_single(v) if single else repr(v)
    sign, digits, exponent = decimal.Decimal(text).normalize().as_tuple()
    return "".join(map(str, digits)), len(digits) + exponent - 1


def _plain(digits: str, exponent: int) -> str:
    if exponent < 0:
        return "0." + "0" * (-exponent - 1) + digits
    whole = digits[:exponent + 1].ljust(exponent + 1, "0")
    fraction = digits[exponent + 1:]
    return whole + "." + fraction if fraction else whole


def _special(v: float) -> str | None:
    if v != v:
        return "NaN"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None


def column_text(v: float, single: bool) -> str:
    """A row's value as text (Databend's column writer: lexical's shortest form)."""
    special = _special(v)
    if special is not None:
        return special
    if v == 0:
        return "0"
    digits, exponent = _shortest(abs(v), single)
    sign = "-" if v < 0 else ""
    if -5 <= exponent <= 9:
        return sign + _plain(digits, exponent)
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mantissa}e{exponent}"


def constant_text(v: float, single: bool) -> str:
    """A folded constant as text (Databend's scalar writer: plain digits, -0 kept)."""
    special = _special(v)
    if special is not None:
        return special
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "0"
    digits, exponent = _shortest(abs(v), single)
    return ("-" if v < 0 else "") + _plain(digits, exponent)


# (Float32?, folded constant?) -> the writer of its text
TEXT_WRITERS = {
    (True, False): lambda v: column_text(v, True),
    (False, False): lambda v: column_text(v, False),
    (True, True): lambda v: constant_text(v, True),
    (False, True): lambda v: constant_text(v, False),
}
