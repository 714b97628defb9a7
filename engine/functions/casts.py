"""Conversion functions: to_int8 .. to_uint64, to_float32/64, to_string/to_varchar/to_text,
to_boolean and their try_to_* forms (the binder binds them as CAST / TRY_CAST)."""

from __future__ import annotations

import decimal

from engine.core.errors import BadArguments
from engine.types import cast as casting
from engine.types import sqltype as T

_TARGETS = {
    "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
    "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
    "float32": "Float32", "float64": "Float64", "string": "String", "varchar": "String",
    "text": "String", "boolean": "Boolean", "interval": "Interval",
}

# function name -> (target type, try_): to_int32(x) is CAST(x AS INT), try_to_int32(x) TRY_CAST
CAST_FUNCTIONS: dict[str, tuple[T.SqlType, bool]] = {"to_int": (T.INT64, False)}
for _suffix, _name in _TARGETS.items():
    CAST_FUNCTIONS["to_" + _suffix] = (T.SqlType(_name), False)
    if _suffix not in ("varchar", "text"):  # Databend has no try_to_varchar / try_to_text
        CAST_FUNCTIONS["try_to_" + _suffix] = (T.SqlType(_name), True)


# casts Databend has no conversion for, refused when binding even as TRY_CAST (1006)
_NO_CONVERSION = {"Date": frozenset({"Boolean", "Float32", "Float64", "Decimal"}),
                  "Timestamp": frozenset({"Boolean", "Float32", "Float64", "Decimal"})}


def check_cast(source: T.SqlType, target: T.SqlType) -> None:
    """Refuse a cast Databend cannot make (a Date or Timestamp to a Boolean, a float or a Decimal)."""
    refused = _NO_CONVERSION.get(source.name)
    if refused is not None and target.name in refused:
        shown = target.as_nullable(False).display() + (" NULL" if target.nullable else "")
        raise BadArguments(f"unable to cast type `{source.name}` to type `{shown}`")


_EXACT = decimal.Context(prec=160, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def truncating_cast(source: T.SqlType, target: T.SqlType):
    """The conversion of a CAST under `numeric_cast_option = 'truncating'`: a float, Decimal or
    text to a Decimal or an integer drops the digits beyond the target's scale (toward zero)
    instead of rounding them; None for the casts it leaves as they are."""
    if not (target.name == "Decimal" or target.is_int) or not (source.is_float or source.name == "Decimal"
                                                               or source.is_string):
        return None
    base = casting.caster(target)
    quantum = decimal.Decimal(1).scaleb(-target.scale) if target.name == "Decimal" else decimal.Decimal(1)

    def cast(v):
        try:
            exact = decimal.Decimal(repr(v) if type(v) is float else v.strip() if type(v) is str else v)
            if not exact.is_finite():
                return base(v)
            exact = exact.quantize(quantum, rounding=decimal.ROUND_DOWN, context=_EXACT)
        except (decimal.InvalidOperation, ValueError):
            return base(v)  # refused as the rounding cast refuses it
        return base(exact if target.name == "Decimal" else int(exact))
    return cast


def lossy_binary_text(v: bytes) -> str:
    """Binary as text under `binary_output_format = 'utf-8-lossy'`: each invalid UTF-8 sequence
    becomes U+FFFD, as Rust's String::from_utf8_lossy does (Databend's eval_binary_to_string)."""
    return v.decode("utf-8", "replace")

