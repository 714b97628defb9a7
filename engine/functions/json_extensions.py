"""The functions on VARIANT values that carry an extension type (engine.types.variant_extension),
as current Databend has them: is_binary / is_date / is_timestamp / is_timestamp_tz / is_interval
(NULL for NULL), as_binary / as_date / as_timestamp / as_timestamp_tz / as_interval (the value,
NULL for any other VARIANT), and to_binary of a VARIANT (the bytes of a BINARY, the UTF-8 of a
string, NULL for a JSON null), and to_jsonb_binary (a VARIANT in Databend's JSONB encoding)."""

from __future__ import annotations

import datetime
import struct

from engine.core.errors import BadArguments
from engine.functions.json import register
from engine.functions.registry import fixed
from engine.types import sqltype as T
from engine.types import variant as V
from engine.types import variant_extension as X

_TIMESTAMP_TZ = T.SqlType("TimestampTz")

# function suffix: (extension kind, SQL type of as_<suffix>)
_KINDS = {"binary": ("Binary", T.BINARY), "date": ("Date", T.DATE), "timestamp": ("Timestamp", T.TIMESTAMP),
          "timestamp_tz": ("TimestampTz", _TIMESTAMP_TZ), "interval": ("Interval", T.INTERVAL)}


def _is_kind(kind):
    return lambda v: X.kind_of(v) == kind


def _as_kind(kind):
    return lambda v: None if v is None else X.value_as(v, kind)


for _suffix, (_kind, _type) in _KINDS.items():
    register("is_" + _suffix, _is_kind(_kind), fixed(T.BOOLEAN), 1, kinds=("variant",))
    register("as_" + _suffix, _as_kind(_kind), fixed(_type.as_nullable(True)), 1, strict=False,
             kinds=("variant",))


def variant_to_binary(v):
    """to_binary(VARIANT): a BINARY's bytes, a JSON string's UTF-8 bytes, NULL for JSON null;
    other JSON values are refused (1006)."""
    value = X.value_as(v, "Binary")
    if value is not None:
        return value
    loaded = V.load(v)
    if loaded is None:
        return None
    if isinstance(loaded, str):
        return loaded.encode("utf-8", "surrogatepass")
    raise BadArguments(f"InvalidJsonType while evaluating function `to_binary({V.sql_literal(v)})`")



# ---------------------------------------------------------------- to_jsonb_binary

# Databend's JSONB encoding (the jsonb crate, src/core/databend): a container header, one 4-byte
# JEntry (type tag | length) per value (an object's keys first), then the values' bytes
_ARRAY, _OBJECT, _SCALAR = 0x80000000, 0x40000000, 0x20000000
_NULL, _STRING, _NUMBER, _FALSE, _TRUE, _CONTAINER, _EXTENSION = (
    0x00000000, 0x10000000, 0x20000000, 0x30000000, 0x40000000, 0x50000000, 0x60000000)
_EXTENSION_TAGS = {"Binary": 0x00, "Date": 0x10, "Timestamp": 0x20, "TimestampTz": 0x30, "Interval": 0x40}
_EPOCH_DATE = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1)


def _number_bytes(v) -> bytes:
    """A number as jsonb's compact_encode writes it: integers in the fewest bytes of their sign's
    type (0 as one byte), floats as big-endian f64 (NaN and infinities as a tag)."""
    if isinstance(v, int):
        if v == 0:
            return b"\x00"
        if v > 0:
            width = next(w for w in (1, 2, 4, 8) if v < 1 << (8 * w))
            return b"\x50" + v.to_bytes(width, "big")
        width = next(w for w in (1, 2, 4, 8) if v >= -(1 << (8 * w - 1)))
        return b"\x40" + v.to_bytes(width, "big", signed=True)
    if v != v:
        return b"\x10"
    if v in (float("inf"), float("-inf")):
        return b"\x20" if v > 0 else b"\x30"
    return b"\x60" + struct.pack(">d", v)


def _micros(delta: datetime.timedelta) -> int:
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _extension_bytes(kind: str, value) -> bytes:
    tag = bytes((_EXTENSION_TAGS[kind],))
    if kind == "Binary":
        return tag + value
    if kind == "Date":
        return tag + struct.pack(">i", (value - _EPOCH_DATE).days)
    if kind == "Timestamp":
        return tag + struct.pack(">q", _micros(value - _EPOCH))
    if kind == "TimestampTz":
        offset = value.utcoffset()
        utc = value.replace(tzinfo=None) - offset
        return tag + struct.pack(">qi", _micros(utc - _EPOCH), int(offset.total_seconds()))
    return tag + struct.pack(">iiq", value.months, value.days, value.micros)


def _entry(value, out: bytearray) -> int:
    """Appends a value's bytes to `out`; its JEntry."""
    start = len(out)
    if value is None:
        return _NULL
    if value is True or value is False:
        return _TRUE if value else _FALSE
    if isinstance(value, str):
        out += value.encode("utf-8", "surrogatepass")
        return _STRING | (len(out) - start)
    if isinstance(value, int | float):
        out += _number_bytes(value)
        return _NUMBER | (len(out) - start)
    out += _container(value)
    return _CONTAINER | (len(out) - start)


def _container(value) -> bytes:
    entries, data = [], bytearray()
    if isinstance(value, dict):
        for key in value:
            data += key.encode("utf-8", "surrogatepass")
            entries.append(_STRING | len(key.encode("utf-8", "surrogatepass")))
        entries += [_entry(x, data) for x in value.values()]
        header = _OBJECT | len(value)
    elif isinstance(value, list):
        entries = [_entry(x, data) for x in value]
        header = _ARRAY | len(value)
    else:
        entries, header = [_entry(value, data)], _SCALAR
    return struct.pack(f">{len(entries) + 1}I", header, *entries) + bytes(data)


def to_jsonb_binary(v) -> bytes:
    """to_jsonb_binary(v): the VARIANT in Databend's JSONB encoding (an extension value with its
    own tag; numbers as integers or f64, this server keeping no decimal kind of JSON number)."""
    kind = X.kind_of(v)
    if kind is not None:
        data = _extension_bytes(kind, v.value)
        return struct.pack(">II", _SCALAR, _EXTENSION | len(data)) + data
    return _container(V.load(v))


register("to_jsonb_binary", to_jsonb_binary, fixed(T.BINARY), 1, kinds=("variant",))
