"""Wire text of values: what a client sees for each type (Databend's spelling of floats,
booleans, timestamps, decimals, Binary as upper-case hex, nested values, `<bitmap binary>`)."""

from __future__ import annotations

import datetime
import decimal
import math

from engine.types import datetimes as _dates
from engine.types import nested as _nested
from engine.types.bitmap_values import WIRE_TEXT as _BITMAP_TEXT
from engine.types.sqltype import INT_NAMES, NESTED_NAMES, SqlType, render_float32


def render_float(v: float) -> str:
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "Infinity" if v > 0 else "-Infinity"
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    return repr(v)


def render_value(v) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return render_float(v)
    if isinstance(v, datetime.datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, bytes):
        return v.hex().upper()  # Binary shows as upper-case hex, as Databend's
    if isinstance(v, _nested.NESTED_VALUE_TYPES):
        return _nested.render(v)
    if type(v) is frozenset:
        return _BITMAP_TEXT
    return str(v)


def _render_bool(v):
    return "1" if v else "0"


def _render_bitmap(v):
    return _BITMAP_TEXT  # Databend shows no numbers of a bitmap in a result (to_string does)


def _render_timestamp(v):
    return v.strftime("%Y-%m-%d %H:%M:%S.%f")


def renderers_in_zone(types, timezone: str) -> list:
    """renderer_for each type, Timestamps (also those inside an ARRAY / MAP / TUPLE) shown as
    wall-clock time in the session `timezone` (they are stored in UTC)."""
    renderers = [renderer_for(t) if t is not None else render_value for t in types]
    if timezone == "UTC":
        return renderers
    tz = _dates.zone(timezone)
    shown = _dates.timestamp_renderer(tz)
    return [shown if t is not None and t.name == "Timestamp"
            else _nested.renderer(t, tz) if t is not None and t.args and _nested.shows_timestamps(t) else r
            for r, t in zip(renderers, types, strict=True)]


def renderer_for(t: SqlType):
    """A function value (not None) -> wire string for values of type t."""
    name = t.name
    if name in INT_NAMES or name == "String":
        return str
    if name == "Boolean":
        return _render_bool
    if name == "Float32":
        return render_float32
    if name == "Float64":
        return render_float
    if name == "Decimal":
        spec = f".{t.scale}f"
        # integers beyond 64 bits are Decimal(n, 0) held as exact ints: format(int, "f") would
        # go through a float (18446744073709551617 -> "18446744073709551616")
        return lambda v: format(decimal.Decimal(v) if type(v) is int else v, spec)
    if name == "Date":
        return str
    if name == "Timestamp":
        return _render_timestamp
    if name in NESTED_NAMES:
        return _nested.renderer(t)
    if name == "Bitmap":
        return _render_bitmap
    return render_value

