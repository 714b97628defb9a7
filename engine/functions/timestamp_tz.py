"""TIMESTAMP_TZ functions and casts: to_timestamp_tz / try_to_timestamp_tz,
timestamp_tz_from_parts, and the casts between TIMESTAMP_TZ and text, Date, Timestamp and
VARIANT, which the session time zone decides (values: engine.types.timestamp_tz)."""

from __future__ import annotations

import datetime
import json

from engine.core.errors import BadArguments, EngineError, SemanticError
from engine.functions.date_parts import timestamp_from_parts_local
from engine.functions.dates import register_zoned_impl
from engine.functions.registry import ScalarFunction, register
from engine.types import sqltype as T
from engine.types import timestamp_tz as TZ
from engine.types import variant as V
from engine.types.datetimes import UTC, zone

TIMESTAMP_TZ = T.SqlType("TimestampTz")
_DATETIME = datetime.datetime
_SOURCES = frozenset({"String", "Date", "Timestamp", "TimestampTz", "Variant", "Null"})


_TYPE_NAMES = {"TimestampTz": "TIMESTAMP_TZ", "Timestamp": "TIMESTAMP", "Date": "DATE"}


def variant_text(value, target: str = "TimestampTz"):
    """The string a VARIANT's decoded JSON `value` is (None for JSON null); other JSON values
    are refused."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadArguments(f"unable to cast {json.dumps(value)} to type `{_TYPE_NAMES.get(target, target)}`")
    return value


def _make_to_timestamp_tz(tz):
    def to_timestamp_tz(v):
        return TZ.timestamp_tz_of(v, tz)
    return to_timestamp_tz


def _make_from_variant(tz):
    """A VARIANT's JSON string read as TIMESTAMP_TZ; JSON null is NULL."""
    def from_variant(v):
        text = variant_text(json.loads(v))
        return None if text is None else TZ.timestamp_tz_of(text, tz)
    return from_variant


def _make_try_to_timestamp_tz(tz):
    convert = _make_to_timestamp_tz(tz)

    def try_to_timestamp_tz(v):
        if v is None:
            return None
        try:
            return convert(v)
        except EngineError:
            return None
    return try_to_timestamp_tz


def _conversion_type(name, nullable):
    def rule(types):
        if types[0].name not in _SOURCES and not types[0].is_int:
            raise SemanticError(f"no overload satisfies `{name}({', '.join(t.display() for t in types)})`")
        return TIMESTAMP_TZ.as_nullable(nullable or types[0].name == "Variant")
    return rule


register("to_timestamp_tz", _make_to_timestamp_tz(UTC), _conversion_type("to_timestamp_tz", False), 1)
register_zoned_impl("to_timestamp_tz", _make_to_timestamp_tz)
register("try_to_timestamp_tz", _make_try_to_timestamp_tz(UTC), _conversion_type("try_to_timestamp_tz", True), 1,
         strict=False)
register_zoned_impl("try_to_timestamp_tz", _make_try_to_timestamp_tz)


def _make_timestamp_tz_from_parts(tz):
    """timestamp_tz_from_parts(y, mo, d, h, mi, s[, nanos][, zone]): the wall-clock time the parts
    give (overflowing as timestamp_from_parts) in `zone` (else the session zone), with its offset."""
    def timestamp_tz_from_parts(*parts):
        if len(parts) in (7, 8) and isinstance(parts[-1], str):
            try:
                in_zone = zone(parts[-1])
            except (ValueError, KeyError, OSError):
                raise BadArguments(f"Invalid Timezone: {parts[-1]}") from None
            parts = parts[:-1]
        else:
            in_zone = tz
        local = timestamp_from_parts_local(*parts)
        value = local.replace(tzinfo=TZ.zone_offset(local, in_zone))
        TZ.to_timestamp(value)  # in range
        return value
    return timestamp_tz_from_parts


def _parts_type(types):
    numbers = types[:-1] if types[-1].is_string else types
    if len(numbers) not in (6, 7) or not all(t.is_numeric or t.name == "Null" for t in numbers):
        raise SemanticError(
            f"no overload satisfies `timestamp_tz_from_parts({', '.join(t.display() for t in types)})`")
    return TIMESTAMP_TZ


register("timestamp_tz_from_parts", _make_timestamp_tz_from_parts(UTC), _parts_type, 6, 8)
register_zoned_impl("timestamp_tz_from_parts", _make_timestamp_tz_from_parts)


# ---------------------------------------------------------------- casts and overrides


def timestamp_tz_cast(source: T.SqlType, target: T.SqlType, timezone: str):
    """The cast function of a cast to or from TIMESTAMP_TZ (None when neither side is one)."""
    s, t = source.name, target.name
    if t == "TimestampTz":
        if s == "Variant":
            return _make_from_variant(zone(timezone))
        tz = zone(timezone)
        return lambda v: TZ.timestamp_tz_of(v, tz)
    if s != "TimestampTz":
        return None
    if t == "String":
        return TZ.render_timestamp_tz
    if t == "Timestamp":
        return TZ.to_timestamp
    if t == "Date":
        return TZ.to_date
    if t == "Variant":
        return V.from_value  # an extension value keeping its type (engine.types.variant_extension)
    if t.startswith("Int"):
        return lambda v: int((TZ.to_timestamp(v) - _DATETIME(1970, 1, 1)) / datetime.timedelta(microseconds=1))
    return None


def _unary(name, impl, rt):
    return ScalarFunction(name, impl, lambda types: rt, 1, 1)


_OVERRIDES = {
    "to_timestamp": _unary("to_timestamp", TZ.to_timestamp, T.TIMESTAMP),
    "to_datetime": _unary("to_timestamp", TZ.to_timestamp, T.TIMESTAMP),
    "to_date": _unary("to_date", TZ.to_date, T.DATE),
    "to_string": _unary("to_string", TZ.render_timestamp_tz, T.STRING),
    "to_timestamp_tz": _unary("to_timestamp_tz", lambda v: v, TIMESTAMP_TZ),
}


register_zoned_impl("to_timestamp_tz_variant", _make_from_variant)
_FROM_VARIANT = ScalarFunction("to_timestamp_tz_variant", _make_from_variant(UTC),
                               lambda types: TIMESTAMP_TZ.as_nullable(True), 1, 1)


def timestamp_tz_override(name: str, types) -> ScalarFunction | None:
    """The version of a conversion function for a TIMESTAMP_TZ (or VARIANT) argument."""
    if len(types) == 1 and types[0].name == "TimestampTz":
        return _OVERRIDES.get(name)
    if len(types) == 1 and types[0].name == "Variant" and name == "to_timestamp_tz":
        return _FROM_VARIANT
    return None

