"""Rows and types as JSON for the data directory: a table's rows column by column, each value in
the JSON form of its column type (no pickle: a short script can read every file): Decimals as
text, dates and timestamps as ISO text, Binary as base64, a BITMAP as the array of its numbers
(ascending), GEOMETRY / GEOGRAPHY as the hex of their EWKB, an INTERVAL as [months, days,
microseconds], a VARIANT as its JSON text (one carrying an extension type as an object of its
kind, value and text), the rest as JSON holds them."""

from __future__ import annotations

import base64
import datetime
import decimal
from operator import itemgetter

from engine.types import geo_values, nested
from engine.types.intervals import Interval
from engine.types.sqltype import INT_NAMES, NESTED_NAMES, SqlType
from engine.types.variant_extension import KINDS as EXTENSION_KINDS
from engine.types.variant_extension import ExtensionVariant

# Column types whose Python values JSON holds as they are (bool, int, float, str; floats
# round-trip exactly through repr, NaN and infinities as the NaN/Infinity extension).
_ISO_TYPES = frozenset({"Date", "Timestamp", "TimestampTz"})  # a TIMESTAMP_TZ keeps its offset
# GEOMETRY / GEOGRAPHY: their EWKB as hex text (engine.types.geo_values; needs no shapely)
_GEO_TYPES = {"Geometry": geo_values.GeometryValue, "Geography": geo_values.GeographyValue}


def type_to_json(t: SqlType) -> dict:
    out: dict = {"name": t.name}
    if t.nullable:
        out["nullable"] = True
    if t.name == "Decimal":
        out["precision"], out["scale"] = t.precision, t.scale
    if t.args:
        out["args"] = [type_to_json(a) for a in t.args]
    if t.field_names:
        out["field_names"] = list(t.field_names)
    if t.state:  # an aggregate state: its function, parameters and argument types
        function, params, arg_types = t.state
        out["state"] = [function, list(params), [type_to_json(a) for a in arg_types]]
    return out


def type_from_json(data: dict) -> SqlType:
    state = ()
    if "state" in data:
        function, params, arg_types = data["state"]
        state = (function, tuple(params), tuple(type_from_json(a) for a in arg_types))
    return SqlType(data["name"], bool(data.get("nullable", False)), int(data.get("precision", 0)),
                   int(data.get("scale", 0)), tuple(type_from_json(a) for a in data.get("args", ())),
                   tuple(data.get("field_names", ())), state)


def encode_value(t: SqlType, v):
    """One value in its column's JSON form: Decimals as text (exact), dates and timestamps as
    ISO text; everything else as it is."""
    if v is None:
        return None
    if t.name == "Decimal":
        return v if type(v) is int else str(v)  # wide integers are held as exact ints
    if t.name in _ISO_TYPES:
        return v.isoformat()
    if t.name == "Binary":
        return base64.b64encode(v).decode("ascii")
    if t.name == "Bitmap":
        return sorted(v)
    if t.name in _GEO_TYPES:
        return v.ewkb.hex()
    if t.name == "Interval":
        return [v.months, v.days, v.micros]
    if t.name in NESTED_NAMES:
        return _nested_to_json(t, v)  # arrays and tuples as arrays, maps as arrays of [key, value]
    if type(v) is ExtensionVariant:
        return _extension_to_json(v)
    return v


def decode_value(t: SqlType, v):
    if v is None:
        return None
    if t.name == "Decimal":
        return v if type(v) is int else decimal.Decimal(v)
    if t.name == "Date":
        return datetime.date.fromisoformat(v)
    if t.name in ("Timestamp", "TimestampTz"):
        return datetime.datetime.fromisoformat(v)
    if t.name == "Binary":
        return base64.b64decode(v)
    if t.name == "Bitmap":
        return frozenset(v)
    if t.name in _GEO_TYPES:
        return _GEO_TYPES[t.name](bytes.fromhex(v))
    if t.name == "Interval":
        return Interval(*v)
    if t.name in NESTED_NAMES:
        return _nested_from_json(t, v)
    if t.name == "Variant" and type(v) is dict:
        return _extension_from_json(v)
    return v


def _extension_to_json(v: ExtensionVariant) -> dict:
    """A VARIANT carrying an extension value (engine.types.variant_extension): an object (a plain
    VARIANT is a JSON string), its kind, its value in that type's JSON form and its text."""
    return {"extension": v.kind, "value": encode_value(SqlType(v.kind), v.value), "text": str(v)}


def _extension_from_json(data: dict) -> ExtensionVariant:
    kind, text = data.get("extension"), data.get("text")
    if kind not in EXTENSION_KINDS or not isinstance(text, str) or "value" not in data:
        raise ValueError(f"a VARIANT object that is no extension value: {data!r:.100}")
    try:
        return ExtensionVariant(text, kind, decode_value(SqlType(kind), data["value"]))
    except (TypeError, ValueError) as e:
        raise ValueError(f"a VARIANT extension value that does not decode: {e}") from None


def _encode_column(t: SqlType, values) -> list | tuple:
    if t.name == "Decimal":
        return [v if v is None or type(v) is int else str(v) for v in values]
    if t.name in _ISO_TYPES:
        return [None if v is None else v.isoformat() for v in values]
    if t.name == "Binary":  # base64 text
        return [None if v is None else base64.b64encode(v).decode("ascii") for v in values]
    if t.name == "Bitmap":  # the numbers, ascending
        return [None if v is None else sorted(v) for v in values]
    if t.name in _GEO_TYPES:  # EWKB as hex text
        return [None if v is None else v.ewkb.hex() for v in values]
    if t.name == "Interval":
        return [None if v is None else [v.months, v.days, v.micros] for v in values]
    if t.name in NESTED_NAMES:
        return [_nested_to_json(t, v) for v in values]
    if t.name == "Variant" and ExtensionVariant in set(map(type, values)):  # (a C-level pass)
        return [_extension_to_json(v) if type(v) is ExtensionVariant else v for v in values]
    return values  # a tuple of JSON-native values: the encoder writes it as an array


def encode_rows(types: list[SqlType], rows) -> dict:
    """{"n": row count, "columns": [one array per column]}: columnar, so the C JSON encoder
    walks plain arrays (several times faster than one object per row)."""
    if not rows:
        return {"n": 0, "columns": [[] for _ in types]}
    # map(itemgetter(i)) per column: a C loop; zip(*rows) would first unpack every row as an
    # argument (about 10x slower for a million rows)
    return {"n": len(rows), "columns": [_encode_column(t, list(map(itemgetter(i), rows)))
                                        for i, t in enumerate(types)]}


def encode_range(types: list[SqlType], data, start: int, stop: int) -> dict:
    """encode_rows of rows [start:stop] of a table version, read column by column."""
    if not data.columnar:  # row tuples: a slice, then the rows' columns
        return encode_rows(types, data.rows(start, stop))
    if stop <= start:
        return {"n": 0, "columns": [[] for _ in types]}
    return {"n": stop - start, "columns": [_encode_column(t, data.column(i, start, stop))
                                           for i, t in enumerate(types)]}


def _decode_column(t: SqlType, values: list) -> list:
    if t.name == "Decimal":
        Dec = decimal.Decimal
        return [v if v is None or type(v) is int else Dec(v) for v in values]
    if t.name == "Date":
        return _parsed_dates(values)
    if t.name in ("Timestamp", "TimestampTz"):
        return _parsed(values, datetime.datetime.fromisoformat)
    if t.name == "Binary":
        return [None if v is None else base64.b64decode(v) for v in values]
    if t.name == "Bitmap":
        return [None if v is None else frozenset(v) for v in values]
    if t.name in _GEO_TYPES:
        make = _GEO_TYPES[t.name]
        return [None if v is None else make(bytes.fromhex(v)) for v in values]
    if t.name == "Interval":
        return [None if v is None else Interval(*v) for v in values]
    if t.name in NESTED_NAMES:
        return [_nested_from_json(t, v) for v in values]
    if t.name == "Variant" and dict in set(map(type, values)):
        return [_extension_from_json(v) if type(v) is dict else v for v in values]
    return values


# day -> the one object every decoded equal day shares, for the first _SHARED_DAYS days read
# back: equal days decoded from the log or a checkpoint share one object, as the casts' days do
# (engine.types.datetimes.date_from_days), so a Date column costs a list slot a row after a
# restart too
_DAYS: dict = {}
_SHARED_DAYS = 1 << 15


def _parsed_dates(values: list) -> list:
    """A Date column's ISO texts (or None) as dates, equal days one object (C-level passes:
    parsing is cheaper than looking the texts up)."""
    days = _parsed(values, datetime.date.fromisoformat)
    shared = _DAYS
    if len(shared) >= _SHARED_DAYS:
        return list(map(shared.get, days, days))
    return list(map(shared.setdefault, days, days))


def _parsed(values: list, parse) -> list:
    """`values` (ISO texts or None) parsed: a C-level map when the column holds no NULL."""
    if None in values:
        return [None if v is None else parse(v) for v in values]
    return list(map(parse, values))


# The Python types a column type's values decode to straight from JSON (None aside); a value
# of another type is a record that does not fit its table (replay refuses it, CorruptLog).
# Floats accept ints: JSON writes a whole float such as 1e300 without a point.
_NATIVE_TYPES = {"Boolean": frozenset({bool}), "String": frozenset({str}),
                 "Geometry": frozenset({str}), "Geography": frozenset({str}),
                 "Float32": frozenset({float, int}), "Float64": frozenset({float, int}),
                 **{name: frozenset({int}) for name in INT_NAMES}}
_JSON_NAMES = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}


def decode_rows(types: list[SqlType], data: dict) -> list[tuple]:
    """The rows of an encode_rows object, checked against `types`: a column count, a column
    length or a JSON value type that does not fit raises ValueError saying which."""
    columns, count = decode_columns(types, data)
    return list(zip(*columns, strict=True)) if count else []


def decode_columns(types: list[SqlType], data: dict) -> tuple[list[list], int]:
    """(columns, row count) of an encode_rows object, checked as decode_rows says: what
    Table.append_columns takes whole."""
    count = data["n"]
    columns = data["columns"]
    if len(columns) != len(types):
        raise ValueError(f"{len(columns)} columns where the table has {len(types)}")
    if not count:
        return [[] for _ in types], 0
    for position, (t, values) in enumerate(zip(types, columns, strict=True), 1):
        if not isinstance(values, list) or len(values) != count:
            raise ValueError(f"column {position} does not hold {count} values")
        allowed = _NATIVE_TYPES.get(t.name)
        if allowed is not None:
            # a C-level pass over the column (set of the value types): cheap next to decoding
            wrong = set(map(type, values)) - allowed - {type(None)}
            if wrong:
                found = _JSON_NAMES.get(next(iter(wrong)), "value")
                raise ValueError(f"column {position} holds a JSON {found} where a {t.name} is stored")
    return [_decode_column(t, c) for t, c in zip(types, columns, strict=True)], count


def _nested_to_json(t: SqlType, v):
    """A nested value as JSON: arrays and tuples as arrays, maps as arrays of [key, value],
    elements in their own types' JSON form."""
    if v is None:
        return None
    if t.name == "Array":
        return [encode_value(nested.element_of(t), x) for x in v]
    if t.name == "Map":
        kt, vt = nested.map_parts(t)
        return [[encode_value(kt, k), encode_value(vt, x)] for k, x in v]
    return [encode_value(a, x) for a, x in zip(t.args, v, strict=True)]


def _nested_from_json(t: SqlType, v):
    if v is None:
        return None
    if t.name == "Array":
        return nested.ArrayValue(decode_value(nested.element_of(t), x) for x in v)
    if t.name == "Map":
        kt, vt = nested.map_parts(t)
        return nested.MapValue((decode_value(kt, k), decode_value(vt, x)) for k, x in v)
    return nested.TupleValue(decode_value(a, x) for a, x in zip(t.args, v, strict=True))
