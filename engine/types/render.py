"""Wire text of values: what a client sees for each type (Databend's spelling of floats,
booleans, timestamps, decimals, Binary as upper-case hex, nested values, `<bitmap binary>`)."""

from __future__ import annotations

import base64 as _base64
import datetime
import decimal
import math

from engine.types import datetimes as _dates
from engine.types import float_text as _float_text
from engine.types import geo_values as _geo
from engine.types import nested as _nested
from engine.types.bitmap_values import WIRE_TEXT as _BITMAP_TEXT
from engine.types.sqltype import INT_NAMES, NESTED_NAMES, SqlType


def render_float(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "Infinity" if v > 0 else "-Infinity"
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    return repr(v)


def render_float32(v: float) -> str:
    """A Float32 value as its shortest decimal text that reads back as the same single-precision
    number (0.10000000149011612 shows as 0.1, as Databend shows it)."""
    if not math.isfinite(v) or v == int(v) and abs(v) < 1e16:
        return render_float(v)
    return render_float(float(_float_text.shortest_single(v)))


def wire_float(v: float) -> str:
    """A Float64 in a result as current Databend writes it (the zmij crate): the shortest
    digits that read back as the value, whole values with '.0' (8 / 2 -> 4.0), plain digits for
    decimal exponents -5..15, else 1.5e+300 / 1e-6 (no zero padding); NaN, Infinity."""
    text = repr(v)  # Python's shortest form, plain for exponents -4..15 as zmij
    if "e" not in text and "n" not in text:
        return text
    return _wire_special(v, text, -5)


def wire_float32(v: float) -> str:
    """A Float32 in a result (zmij's single precision: plain digits for exponents -6..12)."""
    if not math.isfinite(v):
        return _wire_special(v, "", -6)
    text = _float_text.shortest_single(v)  # d.ddde+XX
    mantissa, exponent = text.split("e")
    digits = mantissa.replace(".", "").replace("-", "").rstrip("0") or "0"
    exp = int(exponent)
    sign = "-" if text.startswith("-") else ""
    if v == 0:
        return sign + "0.0"
    if -6 <= exp <= 12:
        return sign + _fixed(digits, exp)
    return sign + _scientific(digits, exp)


def _fixed(digits: str, exp: int) -> str:
    if exp < 0:
        return "0." + "0" * (-exp - 1) + digits
    whole, fraction = digits[:exp + 1].ljust(exp + 1, "0"), digits[exp + 1:]
    return whole + "." + (fraction or "0")


def _scientific(digits: str, exp: int) -> str:
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp)}"


def _wire_special(v: float, text: str, low: int) -> str:
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "Infinity" if v > 0 else "-Infinity"
    mantissa, exponent = text.split("e")
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    exp = int(exponent)
    if low <= exp < 0:  # 1e-05: plain for zmij, not for Python
        return sign + _fixed(digits, exp)
    return sign + _scientific(digits, exp)


def render_value(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return render_float(v)
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            return _iso(v, " ", "microseconds")
        return _render_timestamp_tz(v)
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, bytes):
        return v.hex().upper()  # Binary shows as upper-case hex, as Databend's
    if isinstance(v, _nested.NESTED_VALUE_TYPES):
        return render_nested(v)
    if type(v) is frozenset:
        return _BITMAP_TEXT
    if isinstance(v, _geo.GeometryValue):
        return _geo.format_value(v, _geo.DEFAULT_FORMAT)
    return str(v)


def _render_bool(v):
    return "1" if v else "0"


def _render_bitmap(v):
    return _BITMAP_TEXT  # Databend shows no numbers of a bitmap in a result (to_string does)


_iso = datetime.datetime.isoformat  # zero-pads years before 1000 (strftime's %Y does not), and is faster


def _render_timestamp(v):
    return _iso(v, " ", "microseconds")


def _render_timestamp_tz(v):
    return _iso(v.replace(tzinfo=None), " ", "microseconds") + v.strftime(" %z")  # engine.types.timestamp_tz


_ZONE_RENDERERS: dict = {}  # (types, timezone, geometry format) -> their renderers
_ZONE_RENDERERS_KEPT = 512


def binary_renderer(output_format: str):
    """A BINARY value on the wire under `binary_output_format`: 'base64', 'utf-8' / 'utf-8-lossy'
    (invalid sequences as U+FFFD: a page cannot fail half-way), else None (upper-case hex)."""
    fmt = output_format.lower()
    if fmt == "base64":
        return lambda v: _base64.b64encode(v).decode("ascii")
    if fmt in ("utf-8", "utf8", "utf-8-lossy", "utf8-lossy"):
        return lambda v: v.decode("utf-8", "replace")
    return None


def renderers_in_zone(types, timezone: str, geometry_format: str = _geo.DEFAULT_FORMAT) -> list:
    """renderer_for each type, Timestamps (also those inside an ARRAY / MAP / TUPLE) shown as
    wall-clock time in the session `timezone` (they are stored in UTC), GEOMETRY / GEOGRAPHY
    values (also inside) in the session's `geometry_output_format`. Kept per schema: every
    result asks (a few microseconds of a `SELECT 1` otherwise)."""
    try:
        key = (tuple(types), timezone, geometry_format)
        kept = _ZONE_RENDERERS.get(key)
    except TypeError:  # a type holding an unhashable part (an aggregate state's parameters)
        return _renderers_in_zone(types, timezone, geometry_format)
    if kept is None:
        if len(_ZONE_RENDERERS) >= _ZONE_RENDERERS_KEPT:
            _ZONE_RENDERERS.clear()
        kept = _ZONE_RENDERERS[key] = tuple(_renderers_in_zone(types, timezone, geometry_format))
    return list(kept)


def _renderers_in_zone(types, timezone: str, geometry_format: str) -> list:
    renderers = [renderer_for(t) if t is not None else render_value for t in types]
    if any(t is not None and holds_geo(t) for t in types):
        renderers = [r if t is None or not holds_geo(t) else _geo_renderer(geometry_format) if not t.args
                     else nested_renderer(t, _dates.zone(timezone), geometry_format)
                     for r, t in zip(renderers, types, strict=True)]
    if timezone == "UTC":
        return renderers
    tz = _dates.zone(timezone)
    shown = _dates.timestamp_renderer(tz)
    return [shown if t is not None and t.name == "Timestamp"
            else nested_renderer(t, tz, geometry_format) if t is not None and t.args and _nested.shows_timestamps(t)
            else r
            for r, t in zip(renderers, types, strict=True)]


def holds_geo(t: SqlType) -> bool:
    return t.name in _GEO_NAMES or any(holds_geo(a) for a in t.args)


_GEO_NAMES = frozenset({"Geometry", "Geography"})


def _geo_renderer(fmt: str):
    return lambda v: _geo.format_value(v, fmt)


def renderer_for(t: SqlType):
    """A function value (not None) -> wire string for values of type t."""
    name = t.name
    if name in INT_NAMES or name == "String":
        return str
    if name == "Boolean":
        return _render_bool
    if name == "Float32":
        return wire_float32
    if name == "Float64":
        return wire_float
    if name == "Decimal":
        spec = f".{t.scale}f"
        # integers beyond 64 bits are Decimal(n, 0) held as exact ints: format(int, "f") would
        # go through a float (18446744073709551617 -> "18446744073709551616")
        return lambda v: format(decimal.Decimal(v) if type(v) is int else v, spec)
    if name == "Date":
        return str
    if name == "Timestamp":
        return _render_timestamp
    if name == "TimestampTz":
        return _render_timestamp_tz
    if name in NESTED_NAMES:
        return nested_renderer(t)
    if name == "Bitmap":
        return _render_bitmap
    return render_value


# ---------------------------------------------------------------- nested values


def _quote(s: str) -> str:
    """A string inside a nested value, as current Databend writes it (FieldEncoderToString:
    double quotes, a double quote inside escaped by a backslash, nothing else escaped;
    1.2.453 wrote single quotes)."""
    return '"' + s.replace('"', '\\"') + '"'


def render_nested(v, tz=_dates.UTC) -> str:
    """A value as Databend writes it inside a nested value: strings, dates and timestamps
    (in the zone `tz`) quoted, NULL as NULL, nested values in their brackets."""
    if v is None:
        return "NULL"
    cls = type(v)
    if cls is _nested.ArrayValue:
        return "[" + ",".join([render_nested(x, tz) for x in v]) + "]"
    if cls is _nested.MapValue:
        return "{" + ",".join([render_nested(k, tz) + ":" + render_nested(x, tz) for k, x in v]) + "}"
    if cls is _nested.TupleValue:
        return "(" + ",".join([render_nested(x, tz) for x in v]) + ")"
    if cls is str:
        return _quote(v)
    if cls is datetime.datetime:
        return _quote(_dates.render_timestamp(_dates.to_local(v, tz)))
    if isinstance(v, datetime.date):
        return _quote(render_value(v))
    return render_value(v)


def nested_renderer(t: SqlType, tz=_dates.UTC, geometry_format: str = _geo.DEFAULT_FORMAT):
    """A function value (not None) -> wire text of values of the nested type t (Timestamps
    inside shown in the zone `tz`, GEOMETRY / GEOGRAPHY values in `geometry_format`)."""
    if t.name == "Array":
        element = _element_renderer(_nested.element_of(t), tz, geometry_format)
        return lambda v: "[" + ",".join([element(x) for x in v]) + "]"
    if t.name == "Map":
        kt, vt = _nested.map_parts(t)
        key, value = _element_renderer(kt, tz, geometry_format), _element_renderer(vt, tz, geometry_format)
        return lambda v: "{" + ",".join([key(k) + ":" + value(x) for k, x in v]) + "}"
    fields = [_element_renderer(a, tz, geometry_format) for a in t.args]
    return lambda v: "(" + ",".join([f(x) for f, x in zip(fields, v, strict=True)]) + ")"


def _element_renderer(t: SqlType, tz, geometry_format: str = _geo.DEFAULT_FORMAT):
    if t.name in _GEO_NAMES:  # GeoJSON as it is, the other spellings quoted (Databend's encoder)
        inner = _geo_renderer(geometry_format)
        if geometry_format.upper() == "GEOJSON":
            return lambda x: "NULL" if x is None else inner(x)
        return lambda x: "NULL" if x is None else _quote(inner(x))
    if t.name == "Variant":  # its JSON text as it is (current Databend: [1,2,"3"], ("k1","v1"))
        return lambda x: "NULL" if x is None else x
    if t.name == "Binary":  # its hex as it is, not quoted: ([6331,6332], (6431,6432))
        inner = renderer_for(t)
        return lambda x: "NULL" if x is None else inner(x)
    if t.name in ("String", "Date", "Timestamp", "Bitmap"):
        inner = _dates.timestamp_renderer(tz) if t.name == "Timestamp" else renderer_for(t)
        return lambda x: "NULL" if x is None else _quote(inner(x))
    if t.name in ("Nothing", "Null"):
        return lambda x: render_nested(x, tz)
    inner = nested_renderer(t, tz, geometry_format) if t.name in NESTED_NAMES else renderer_for(t)
    return lambda x: "NULL" if x is None else inner(x)
