"""Numbers written to a format, as to_decimal(text, format) reads them (Databend's decimal_format):
the format is matched character by character: `9` and `0` a digit, `G` a ',' group separator, `D`
the decimal point ('.' or ','), `S` an optional-looking but required sign, any other character
itself; the whole text must be used. The answer is the plain number text, cast afterwards.
Also as_decimal's reading of a VARIANT (its number, else NULL)."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.functions.registry import ScalarFunction, fixed
from engine.types import sqltype as T
from engine.types import variant as V

# the conversions engine.bind.decimal_calls binds: name -> whether it is the TRY form (NULL
# instead of an error); as_decimal reads a VARIANT's number (NULL for any other JSON value)
DECIMAL_CONVERSIONS = {name: try_ for base in ("to_decimal", "to_number", "to_numeric")
                       for name, try_ in ((base, False), ("try_" + base, True))}
DECIMAL_CONVERSIONS["as_decimal"] = False


class _Mismatch(Exception):
    pass


def _read(text: str, form: str) -> str:
    chars = text.strip()
    pos = 0
    out = []
    negative = False
    for f in form:
        ch = chars[pos] if pos < len(chars) else None
        if f == "S":
            if ch not in ("+", "-"):
                raise _Mismatch("Expected '+' or '-' for sign" if ch is not None else "Unexpected end of input")
            negative = ch == "-"
            pos += 1
            continue
        if ch is None:
            raise _Mismatch("Unexpected end of input")
        pos += 1
        if f in "09":
            if not ("0" <= ch <= "9"):
                raise _Mismatch("Expected digit")
            out.append(ch)
        elif f == "G":
            if ch != ",":
                raise _Mismatch("Expected group separator ','")
        elif f == "D":
            if ch not in ".,":
                raise _Mismatch("Expected decimal point")
            out.append(".")
        elif ch != f:
            raise _Mismatch("Unexpected character")
    if pos < len(chars):
        raise _Mismatch("Input is longer than expected")
    number = "".join(out).lstrip("0") or "0"
    if number.startswith("."):
        number = "0" + number
    return "-" + number if negative else number


def read_formatted(text: str, form: str) -> str:
    try:
        return _read(text, form)
    except _Mismatch as exc:
        raise BadArguments(f"cannot parse '{text}' with the format '{form}': {exc}") from None


def try_read_formatted(text: str, form: str):
    if text is None or form is None:
        return None
    try:
        return _read(text, form)
    except _Mismatch:
        return None


FORMATTED_TEXT = ScalarFunction("decimal_format", read_formatted, fixed(T.STRING), 2, 2)
TRY_FORMATTED_TEXT = ScalarFunction("try_decimal_format", try_read_formatted, fixed(T.STRING.as_nullable(True)),
                                    2, 2, strict=False)


def _json_number(text):
    """as_decimal's reading of a VARIANT: its number (exactly, as text), NULL for any other value."""
    if text is None:
        return None
    value = V.load(text)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return repr(value) if isinstance(value, float) else str(value)


JSON_NUMBER = ScalarFunction("json_number", _json_number, fixed(T.STRING.as_nullable(True)), 1, 1, strict=False)
