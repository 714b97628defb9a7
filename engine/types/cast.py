"""Value casts: a value of one SQL type converted to another (plain values, ARRAY / MAP / TUPLE,
VARIANT), refused in Databend's words when impossible, and the type of a run-time value."""

from __future__ import annotations

import datetime
import decimal
import math
import re
import struct
from typing import NoReturn

from engine.core.errors import BadArguments
from engine.types import bitmap_values as _bitmaps
from engine.types import datetimes as D
from engine.types import float_text as _float_text
from engine.types import geo_values as _geo
from engine.types import intervals as _intervals
from engine.types import render as _render
from engine.types import sqltype as T
from engine.types import timestamp_tz as _timestamp_tz
from engine.types import variant as V
from engine.types.datetimes import (
    UTC,
    date_from_days,
    parse_date,
    parse_timestamp,
    timestamp_from_int,
)
from engine.types.nested import (
    NESTED_VALUE_TYPES,
    ArrayValue,
    MapValue,
    TupleValue,
    element_of,
    field_names,
    map_parts,
    shows_timestamps,
)
from engine.types.nested_text import parse_text
from engine.types.render import render_value
from engine.types.sqltype import (
    BINARY,
    BITMAP,
    BOOLEAN,
    DATE,
    FLOAT64,
    INT64,
    INT_NAMES,
    INT_RANGES,
    NESTED_NAMES,
    NULL,
    STRING,
    TIMESTAMP,
    SqlType,
    decimal_literal_type,
    int_literal_type,
)

_INT_RE = re.compile(r"[-+]?\d+\Z")
_NUM_RE = re.compile(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)\s*\Z")


def _round_half_away(x: float) -> int:
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def _cast_fail(v, t: SqlType) -> NoReturn:
    """Refuse a cast, in Databend's words for integers and booleans (naming the conversion
    function and the value as SQL would show it), else showing the value as SQL would."""
    if isinstance(v, str) and (t.name in INT_RANGES or t.name == "Boolean"):
        reason = "invalid digit found in string" if t.name in INT_RANGES else \
            "cannot parse to type `BOOLEAN`"
        raise BadArguments(f"{reason} while evaluating function `{_conversion_name(t)}('{v}')`")
    shown = "'" + v.replace("'", "''") + "'" if isinstance(v, str) else render_value(v)
    raise BadArguments(f"fail to cast {shown} to {t.display()}")


def _conversion_name(t: SqlType) -> str:
    """Databend's name of the function converting to t (to_int32, to_boolean...)."""
    return "to_" + t.name.lower()


def to_int(v, t: SqlType = INT64):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        out = v
    elif isinstance(v, float):
        if v != v or v in (math.inf, -math.inf):
            _cast_fail(v, t)
        out = _round_half_away(v)
    elif isinstance(v, decimal.Decimal):
        out = int(v.to_integral_value(rounding=decimal.ROUND_HALF_UP))
    elif isinstance(v, str):
        out = int(v) if _INT_RE.match(v) else _integral_text(v, t)
    elif isinstance(v, datetime.datetime):
        out = int(v.replace(tzinfo=datetime.UTC).timestamp() * 1_000_000)
    elif isinstance(v, datetime.date):
        out = (v - datetime.date(1970, 1, 1)).days
    else:
        _cast_fail(v, t)
    lo, hi = INT_RANGES.get(t.name, (None, None))
    if lo is not None and not lo <= out <= hi:
        shown = f"'{v}'" if isinstance(v, str) else render_value(v)
        raise BadArguments(f"number overflowed while evaluating function `{_conversion_name(t)}({shown})`")
    return out


def _integral_text(v: str, t: SqlType) -> int:
    """An integer written with spaces around it, an exponent or a fraction (' -42 ', '1e1',
    '29.55'), as current Databend reads it: a number that is not whole is read as a Decimal and
    rounded half away from zero ('29.55' is 30; under numeric_cast_option = 'truncating' the
    binder's truncating_cast drops the fraction instead); text that is no number is refused."""
    s = v.strip()
    if _INT_RE.match(s):
        return int(s)
    if _NUM_RE.match(s):
        d = decimal.Decimal(s)
        if d.adjusted() < 40:
            return int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP))
    _cast_fail(v, t)


def to_float(v, t: SqlType = FLOAT64):
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity", "+infinity"):
            return float(s.replace("infinity", "inf"))
        if not _NUM_RE.match(v):
            _cast_fail(v, t)
    if isinstance(v, (datetime.date,)):
        _cast_fail(v, t)
    return float(v)


_FLOAT32 = struct.Struct("<f")


def to_float32(v, t: SqlType | None = None) -> float:
    """v as a Float32 value: the nearest single-precision number (held in a Python float), as
    Databend stores a FLOAT column (ten 0.1 sum to 1.0000000149...); beyond its range, +-inf."""
    f = to_float(v, t or SqlType("Float32"))
    try:
        return _FLOAT32.unpack(_FLOAT32.pack(f))[0]
    except OverflowError:
        return math.copysign(math.inf, f)


_WIDE_DECIMALS = decimal.Context(prec=160, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def to_decimal(v, t: SqlType):
    try:
        if isinstance(v, float):
            d = decimal.Decimal(repr(v))
        elif isinstance(v, str):
            if not _NUM_RE.match(v):
                _cast_fail(v, t)
            d = decimal.Decimal(v.strip())
        else:
            d = decimal.Decimal(int(v) if isinstance(v, bool) else v)
    except (decimal.InvalidOperation, TypeError, ValueError):
        _cast_fail(v, t)
    # checked before quantize too: quantize itself fails on values far beyond the context
    if not d.is_finite() or d.adjusted() >= t.precision - t.scale:
        raise BadArguments(f"Decimal overflow: {v} does not fit {t.display()}")
    if t.precision > 28:  # in a context wide enough for 76 digits (the default's 28 refuse DECIMAL(76, 72))
        q = d.quantize(decimal.Decimal(1).scaleb(-t.scale), rounding=decimal.ROUND_HALF_UP, context=_WIDE_DECIMALS)
    else:  # (the default context, without the keyword: the common case, kept fastest)
        q = d.quantize(decimal.Decimal(1).scaleb(-t.scale), rounding=decimal.ROUND_HALF_UP)
    if q.adjusted() >= t.precision - t.scale:
        raise BadArguments(f"Decimal overflow: {v} does not fit {t.display()}")
    # a Decimal has no negative zero (-0.001 is 0.00); an integer never rounds to one
    return q if type(v) is int or q else q.copy_abs()


def to_string(v, t: SqlType = STRING):
    if isinstance(v, str):
        return v
    if type(v) is int:  # the commonest cast to text (render_value's last resort)
        return str(v)
    if type(v) is frozenset:  # a BITMAP: its numbers, comma-separated
        return _bitmaps.to_text(v)
    if isinstance(v, _geo.GeometryValue):  # (the binder passes the session's output format)
        return _geo.format_value(v, _geo.DEFAULT_FORMAT)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, bytes):  # Binary: its bytes as UTF-8 text, when they are
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise BadArguments(f"invalid utf8 sequence while evaluating function `to_string({v.hex().upper()})`") from None
    return render_value(v)


def to_binary(v, t: SqlType = BINARY) -> bytes:
    """A Binary value: bytes as they are, text as its UTF-8 bytes, a BITMAP as current Databend
    serializes it, a GEOMETRY as its EWKB (a GEOGRAPHY's has no SRID), as Databend stores them."""
    if isinstance(v, bytes):
        return v
    if isinstance(v, _geo.GeometryValue):
        return v.ewkb
    if type(v) is frozenset:
        return _bitmaps.hybrid_serialized(v)
    return (v if isinstance(v, str) else to_string(v)).encode("utf-8", "surrogatepass")


def to_bitmap(v, t: SqlType = BITMAP) -> frozenset:
    """A BITMAP value (engine.types.bitmap_values): a bitmap as it is, text parsed ('1, 2'), an
    unsigned integer as the bitmap of itself; other values refused in Databend's words."""
    if type(v) is frozenset:
        return v
    if isinstance(v, str):
        return _bitmaps.parse(v)
    if type(v) is int and 0 <= v <= _bitmaps.U64_MAX:
        return frozenset((v,))
    raise BadArguments(f"unable to cast type `{value_type(v).display()}` to type `Bitmap`")


def to_bool(v, t: SqlType = BOOLEAN):
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        return v != 0
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("true", "1"):
            return True
        if s in ("false", "0"):
            return False
    _cast_fail(v, t)


def to_date(v, t: SqlType = DATE):
    if isinstance(v, datetime.datetime):
        return v.date()
    if isinstance(v, datetime.date):
        return v
    if isinstance(v, str):
        return parse_date(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return date_from_days(v)
    _cast_fail(v, t)


def to_timestamp(v, t: SqlType = TIMESTAMP):
    if isinstance(v, datetime.datetime):
        return v
    if isinstance(v, datetime.date):
        return datetime.datetime(v.year, v.month, v.day)
    if isinstance(v, str):
        return parse_timestamp(v, UTC)
    if isinstance(v, int) and not isinstance(v, bool):
        return timestamp_from_int(v)  # seconds, milliseconds or microseconds, by magnitude
    _cast_fail(v, t)


def to_interval(v, t: SqlType = T.INTERVAL) -> _intervals.Interval:
    """An INTERVAL value: text read as Databend reads it ('1 day 2 hours', 'P1D'); only text converts."""
    if type(v) is _intervals.Interval:
        return v
    if isinstance(v, str):
        return _intervals.parse_interval(v)
    raise BadArguments(f"unable to cast type `{value_type(v).display()}` to type `Interval`")


def caster_from(source: SqlType, t: SqlType, folded: bool = False):
    """caster(t) for values of type `source`: a float becomes text by its own precision
    (engine.types.float_text; `folded`: a constant folded at bind time, written as Databend writes one)."""
    if t.name == "String" and source.is_float:
        return _float_text.TEXT_WRITERS[source.name == "Float32", folded]
    if t.name == "String" and source.is_int:  # an integer's text is str's (no type dispatch)
        return str
    return caster(t)


def caster(t: SqlType):
    """A function value -> value of type t (not None); raises BadArguments when impossible."""
    name = t.name
    if name in INT_NAMES:
        return lambda v: to_int(v, t)
    if name == "Float32":
        return to_float32
    if name == "Float64":
        return to_float
    if name == "Decimal":
        return lambda v: to_decimal(v, t)
    if name == "String":
        return to_string
    if name == "Boolean":
        return to_bool
    if name == "Date":
        return to_date
    if name == "Timestamp":
        return to_timestamp
    if name == "TimestampTz":
        return lambda v: _timestamp_tz.timestamp_tz_of(v, UTC)
    if name == "Null":
        return lambda v: None
    if name == "Variant":
        return to_variant  # canonical JSON text (engine.types.variant; nested values converted)
    if name == "Binary":
        return to_binary
    if name == "Bitmap":
        return to_bitmap
    if name == "Geometry":
        return _geo.to_geometry
    if name == "Geography":
        return _geo.to_geography
    if name == "Interval":
        return to_interval
    if name in NESTED_NAMES:
        return nested_caster(t)
    raise BadArguments(f"cannot cast to {t.display()}")


def value_type(v) -> SqlType:
    """The type of a Python value (for constants built at run time)."""
    if v is None:
        return NULL
    if isinstance(v, bool):
        return BOOLEAN
    if isinstance(v, int):
        return int_literal_type(v)
    if isinstance(v, float):
        return FLOAT64
    if isinstance(v, decimal.Decimal):
        return decimal_literal_type(format(v, "f"))
    if isinstance(v, datetime.datetime):
        return TIMESTAMP
    if isinstance(v, datetime.date):
        return DATE
    if isinstance(v, bytes):
        return BINARY
    if type(v) is frozenset:
        return BITMAP
    if isinstance(v, _geo.GeometryValue):
        return T.SqlType(v.kind)
    if type(v) is _intervals.Interval:
        return T.INTERVAL
    if isinstance(v, NESTED_VALUE_TYPES):
        raise BadArguments("a nested value has no type of its own")
    return STRING


# ---------------------------------------------------------------- nested values


def nested_caster(t: T.SqlType, tz=D.UTC):
    """A function value (not None) -> value of the nested type t; text and Dates become
    Timestamps (and Timestamps text or Dates) in the zone `tz`, as plain values do."""
    if t.name == "Array":
        element = element_of(t)
        cast = _element_caster(element, tz)

        def to_array(v):
            if isinstance(v, str):
                v = parse_text(v, t)
            if not isinstance(v, (ArrayValue, list, tuple)) or isinstance(v, (MapValue, TupleValue)):
                _refuse(v, t)
            out = ArrayValue(None if x is None else cast(x) for x in v)
            if not element.can_be_null and element.name != "Nothing" and None in out:
                raise BadArguments(f"unable to cast NULL to type `{element.display()}`: the elements of "
                                   f"{t.as_nullable(False).display()} are NOT NULL")
            return out
        return to_array
    if t.name == "Map":
        key_type, value_type = map_parts(t)
        cast_key, cast_value = _element_caster(key_type, tz), _element_caster(value_type, tz)

        def to_map(v):
            if isinstance(v, str):
                v = parse_text(v, t)
            if isinstance(v, dict):
                v = tuple(v.items())
            if not isinstance(v, (MapValue, list, tuple)) or isinstance(v, (ArrayValue, TupleValue)):
                _refuse(v, t)
            out = {}
            for k, x in v:
                out.setdefault(cast_key(k), None if x is None else cast_value(x))
            return MapValue(out.items())
        return to_map
    casts = [_element_caster(a, tz) for a in t.args]

    def to_tuple(v):
        if isinstance(v, str):
            v = parse_text(v, t)
        if not isinstance(v, (TupleValue, list, tuple)) or isinstance(v, (ArrayValue, MapValue)) \
                or len(v) != len(casts):
            _refuse(v, t)
        return TupleValue(None if x is None else c(x) for c, x in zip(casts, v, strict=True))
    return to_tuple


def _element_caster(t: T.SqlType, tz):
    if t.name == "Nothing":
        return lambda v: v
    if t.name in T.NESTED_NAMES:
        return nested_caster(t, tz)
    zoned = _ZONED_CASTS.get(t.name) if tz is not D.UTC else None
    return zoned(tz) if zoned is not None else caster(t)


def _zoned_timestamp(tz):
    def cast(v):
        if type(v) is str:
            return D.parse_timestamp(v, tz)
        if type(v) is datetime.date:
            return D.date_to_timestamp(v, tz)
        return to_timestamp(v)
    return cast


def _zoned_date(tz):
    return lambda v: D.timestamp_to_date(v, tz) if type(v) is datetime.datetime else to_date(v)


def _zoned_text(tz):
    def cast(v):
        if type(v) is datetime.datetime:
            return D.render_timestamp(D.to_local(v, tz))
        if isinstance(v, NESTED_VALUE_TYPES):
            return _render.render_nested(v, tz)
        return to_string(v)
    return cast


# element casts the session zone decides (as engine.functions.dates.temporal_cast for plain values)
_ZONED_CASTS = {"Timestamp": _zoned_timestamp, "Date": _zoned_date, "String": _zoned_text,
                "Variant": lambda tz: lambda v: to_variant(v, None, tz)}


def session_cast(source: T.SqlType, target: T.SqlType, timezone: str):
    """The conversion of a CAST that involves nested values and depends on the session (None when
    the plain caster serves): Timestamps inside read and shown in the session `timezone`, a
    table column's named tuple made an object keyed by its field names (as Databend's VARIANT)."""
    zoned = timezone != "UTC" and (shows_timestamps(source) or shows_timestamps(target))
    tz = D.zone(timezone)
    if target.name in T.NESTED_NAMES and zoned:
        return caster_from_variant(target, tz) if source.name == "Variant" else nested_caster(target, tz)
    if source.name not in T.NESTED_NAMES:
        return None
    if target.name == "String" and zoned:
        return lambda v: _render.render_nested(v, tz)
    if target.name == "Variant" and (zoned or (source.name == "Tuple" and source.field_names)
                                     or _holds_variant(source)):
        return lambda v: to_variant(v, source, tz)
    return None


def _holds_variant(t: T.SqlType) -> bool:
    """Whether a nested type has VARIANT elements (their JSON values nest, not their text)."""
    return t.name == "Variant" or any(_holds_variant(a) for a in t.args)


def _refuse(v, t: T.SqlType):
    raise BadArguments(f"unable to cast {_render.render_nested(v)} to type `{t.display()}`")


def to_variant(v, t: T.SqlType | None = None, tz=D.UTC) -> str:
    """CAST(x AS VARIANT) of any value: an ARRAY as a JSON array, a MAP as an object, a TUPLE as
    an object keyed by its field names when `t` is a named tuple (a table column's, and the tuples
    directly inside it), else "1", "2"... (as Databend converts them); Timestamps as text in the
    zone `tz`; other values as engine.types.variant does."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v, t, tz))
    return V.to_variant(v)


def from_value(v, t: T.SqlType | None = None) -> str:
    """to_variant(x) of any value: nested values as to_variant converts them, others as
    engine.types.variant.from_value does (text becomes a JSON string)."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v, t, D.UTC))
    return V.from_value(v)


def variant_maker(types):
    """to_variant(x) for values of types[0] (its tuple field names known)."""
    t = types[0] if types else None
    return lambda v: from_value(v, t)


def _plain(v, t: T.SqlType | None, tz):
    """A nested value as Python JSON values (lists, dicts, numbers, strings)."""
    cls = type(v)
    if cls is ArrayValue:
        element = element_of(t) if t is not None and t.name == "Array" else None
        return [_plain(x, element, tz) for x in v]
    if cls is MapValue:
        value_type = map_parts(t)[1] if t is not None and t.name == "Map" else None
        return {_zoned_text(tz)(k): _plain(x, value_type, tz) for k, x in v}
    if cls is TupleValue:
        named = t is not None and t.name == "Tuple" and len(t.args) == len(v)
        names = field_names(t) if named else [str(i) for i in range(1, len(v) + 1)]
        fields = t.args if named else [None] * len(v)
        return {n: _plain(x, f, tz) for n, x, f in zip(names, v, fields, strict=True)}
    if isinstance(v, str) and t is not None and t.name == "Variant":  # a VARIANT element: its value
        return V.load(v)
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if cls is datetime.datetime:
        return D.render_timestamp(D.to_local(v, tz))
    return V.parse(V.from_value(v))


def caster_from_variant(t: T.SqlType, tz=D.UTC):
    """CAST(variant AS ARRAY / MAP / TUPLE): JSON arrays and objects converted element by element."""
    cast = nested_caster(t, tz)
    # VARIANT elements (an Array's, a Map's values) take each JSON value's text
    variant_values = t.name == "Map" and map_parts(t)[1].name == "Variant"
    variant_elements = t.name == "Array" and element_of(t).name == "Variant"

    def convert(text):
        value = V.parse(text)
        if t.name == "Map" and isinstance(value, dict):
            value = list(value.items())
        if not isinstance(value, list):
            raise BadArguments(f"unable to cast {text} to type `{t.display()}`")
        if variant_values:
            value = [(k, None if x is None else V.dumps(x)) for k, x in value]
        elif variant_elements:
            value = [None if x is None else V.dumps(x) for x in value]
        elif t.name != "Map":
            value = [V.dumps(x) if isinstance(x, dict | list) else x for x in value]
        return cast(value)
    return convert
