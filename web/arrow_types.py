"""Databend's Arrow types of result columns, and the engine's values as Arrow arrays (pyarrow).

Each SQL type maps to the Arrow field Databend's server writes for it (its
`From<&TableField> for Field` and the HTTP handler's rewrite for the negotiated result
version): integers and floats as themselves, Decimal(p <= 18) as decimal64 (decimal128 when
the client turned the `decimal64` feature off), up to 38 digits decimal128, beyond decimal256,
String as Utf8View, Binary as LargeBinary, Date as Date32, Timestamp as microseconds since the
epoch in UTC without a zone (clients show it in the answer's `settings.timezone`), ARRAY as
LargeList of a field `_array`, MAP as Map of `key`/`value`, TUPLE as Struct of its field names
(`1`, `2`... when unnamed), NULL as Null. Types without an Arrow type of their own are stored
as one with the field metadata `Extension`: VARIANT as its JSON text in LargeUtf8 (result
versions 2 and 3; version 1 is JSONB, which this server does not write), BITMAP as a serialized
RoaringTreemap in LargeBinary, GEOMETRY / GEOGRAPHY as their EWKB in LargeBinary, INTERVAL as
Decimal128(38, 0) holding Databend's 128-bit months_days_micros (months << 96 | days << 64 |
microseconds), an empty ARRAY / MAP (`Array(Nothing)`, `Map(Nothing)`) as Boolean. A column
is converted at once (`pa.array(values, type)`) from the engine's values,
never from their JSON text.
"""

from __future__ import annotations

import decimal
import struct

try:
    import pyarrow as pa
except ImportError:  # the optional extra is not installed: JSON results only (web.arrow_pages)
    pa = None

EXTENSION_KEY = "Extension"
_INT_TYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
              "Float32", "Float64")
_EMPTY = ("Nothing",)  # the element type of an empty ARRAY / MAP literal


def usable() -> bool:
    """Whether the installed pyarrow writes every type above (string_view and decimal64 came
    in pyarrow 16 and 18)."""
    return pa is not None and hasattr(pa, "decimal64") and hasattr(pa, "string_view")


def has_variant(t) -> bool:
    """Whether a VARIANT is in type `t`, at any depth (result version 1 would need JSONB)."""
    return t.name == "Variant" or any(has_variant(a) for a in t.args)


# -- types ------------------------------------------------------------------------------------


def arrow_field(name: str, t, decimal64: bool = True):
    """The Arrow field of a column (or element) named `name` of SQL type `t`."""
    arrow_type, extension = _arrow_type(t, decimal64)
    metadata = {EXTENSION_KEY: extension} if extension else None
    return pa.field(name, arrow_type, nullable=t.nullable or t.name == "Null", metadata=metadata)


def _arrow_type(t, decimal64: bool):
    """(Arrow type, extension name or None) of SQL type `t`."""
    name = t.name
    if name in _INT_TYPES:
        return _SIMPLE[name](), None
    simple = _OTHER_SIMPLE.get(name)
    if simple is not None:
        return simple()
    if name == "Decimal":
        if t.precision <= 18:
            kind = pa.decimal64 if decimal64 else pa.decimal128
        else:
            kind = pa.decimal128 if t.precision <= 38 else pa.decimal256
        return kind(t.precision, t.scale), None
    if name == "Array":
        element = t.args[0]
        if element.name in _EMPTY:
            return pa.bool_(), "EmptyArray"
        return pa.large_list(arrow_field("_array", element, decimal64)), None
    if name == "Map":
        if len(t.args) < 2 or t.args[0].name in _EMPTY:
            return pa.bool_(), "EmptyMap"
        return pa.map_(arrow_field("key", t.args[0], decimal64),
                       arrow_field("value", t.args[1], decimal64)), None
    if name == "Tuple":
        names = t.field_names or [str(i) for i in range(1, len(t.args) + 1)]
        return pa.struct([arrow_field(n, a, decimal64) for n, a in zip(names, t.args, strict=True)]), None
    return pa.large_string(), None  # a type without an Arrow mapping: its text


_SIMPLE = {
    "Int8": lambda: pa.int8(), "Int16": lambda: pa.int16(), "Int32": lambda: pa.int32(),
    "Int64": lambda: pa.int64(), "UInt8": lambda: pa.uint8(), "UInt16": lambda: pa.uint16(),
    "UInt32": lambda: pa.uint32(), "UInt64": lambda: pa.uint64(),
    "Float32": lambda: pa.float32(), "Float64": lambda: pa.float64(),
}
_OTHER_SIMPLE = {
    "Boolean": lambda: (pa.bool_(), None),
    "String": lambda: (pa.string_view(), None),
    "Binary": lambda: (pa.large_binary(), None),
    "Date": lambda: (pa.date32(), None),
    "Timestamp": lambda: (pa.timestamp("us"), None),
    "Null": lambda: (pa.null(), None),
    "Nothing": lambda: (pa.null(), None),
    "Variant": lambda: (pa.large_string(), "Variant"),
    "Bitmap": lambda: (pa.large_binary(), "Bitmap"),
    "Geometry": lambda: (pa.large_binary(), "Geometry"),
    "Geography": lambda: (pa.large_binary(), "Geography"),
    "Interval": lambda: (pa.decimal128(38, 0), "Interval"),
}


# -- values -----------------------------------------------------------------------------------


def arrow_array(values, field):
    """The Arrow array of one column: `values` (a sequence of the engine's values, None for
    NULL) as `field` (from arrow_field) types them."""
    if (field.metadata or {}).get(EXTENSION_KEY.encode()) == b"Interval":
        return _interval_array(values, field.type)
    prepare = _preparer(field)
    if prepare is not None:
        values = [None if v is None else prepare(v) for v in values]
    try:
        return pa.array(values, type=field.type)
    except pa.ArrowInvalid:
        if not pa.types.is_decimal(field.type):
            raise
        # a value with more fraction digits than the scale: rounded as its JSON text is
        spec = f".{field.type.scale}f"
        return pa.array([None if v is None else decimal.Decimal(format(v, spec))
                         for v in values], type=field.type)


def _preparer(field):
    """A function turning one engine value into what pa.array takes for `field`, or None when
    the engine's values need no conversion (every type but BITMAP and the empty ARRAY / MAP,
    and the nested types holding one)."""
    extension = (field.metadata or {}).get(EXTENSION_KEY.encode())
    if extension == b"Bitmap":
        return roaring_treemap
    if extension in (b"Geometry", b"Geography"):
        return _ewkb
    if extension in (b"EmptyArray", b"EmptyMap"):
        return _false
    arrow_type = field.type
    if pa.types.is_large_list(arrow_type):
        inner = _preparer(arrow_type.value_field)
        if inner is None:
            return None
        return lambda v: [None if x is None else inner(x) for x in v]
    if pa.types.is_map(arrow_type):
        key, item = _preparer(arrow_type.key_field), _preparer(arrow_type.item_field)
        if key is None and item is None:
            return None
        key, item = key or _same, item or _same
        return lambda v: [(key(k), None if x is None else item(x)) for k, x in v]
    if pa.types.is_struct(arrow_type):
        inner = [_preparer(arrow_type.field(i)) for i in range(arrow_type.num_fields)]
        if all(p is None for p in inner):
            return None
        inner = [p or _same for p in inner]
        return lambda v: tuple(None if x is None else p(x) for p, x in zip(inner, v, strict=True))
    return None


def _ewkb(v):
    return v.ewkb  # a GEOMETRY / GEOGRAPHY value's EWKB, as Databend sends it


def _interval_array(values, arrow_type):
    """INTERVAL values as Databend's 128-bit words in a Decimal128 array, built from its buffers
    (a word with large months has more than 38 digits, which pa.array would refuse)."""
    words = bytearray()
    valid = []
    for v in values:
        valid.append(v is not None)
        if v is None:
            words += bytes(16)
        else:
            word = (v.months << 96) | ((v.days & 0xFFFFFFFF) << 64) | (v.micros & 0xFFFFFFFFFFFFFFFF)
            words += word.to_bytes(16, "little", signed=word >= 2**127 or word < 0)
    mask = pa.array(valid, type=pa.bool_()).buffers()[1] if not all(valid) else None
    return pa.Array.from_buffers(arrow_type, len(values), [mask, pa.py_buffer(bytes(words))],
                                 null_count=valid.count(False))


def _same(v):
    return v


def _false(v):
    return False


def roaring_treemap(values) -> bytes:
    """A BITMAP (a set of unsigned 64-bit integers) in the portable serialization of
    RoaringTreemap (the Rust `roaring` crate, which the clients decode it with): the number of
    32-bit bitmaps, then per high half its key and a RoaringBitmap of the low halves (cookie
    12346: array containers up to 4096 values, bitmap containers above, no run containers)."""
    by_high: dict[int, list[int]] = {}
    for v in sorted(values):
        by_high.setdefault(v >> 32, []).append(v & 0xFFFFFFFF)
    parts = [struct.pack("<Q", len(by_high))]
    for high, lows in by_high.items():
        parts.append(struct.pack("<I", high))
        parts.append(_roaring_bitmap(lows))
    return b"".join(parts)


def _roaring_bitmap(lows: list[int]) -> bytes:
    containers: dict[int, list[int]] = {}
    for v in lows:
        containers.setdefault(v >> 16, []).append(v & 0xFFFF)
    n = len(containers)
    head = [struct.pack("<II", 12346, n)]
    head.extend(struct.pack("<HH", key, len(c) - 1) for key, c in containers.items())
    offset = 8 + 8 * n  # the cookie and count, the descriptions, the offsets
    body = []
    for c in containers.values():
        head.append(struct.pack("<I", offset))
        if len(c) <= 4096:
            data = struct.pack(f"<{len(c)}H", *c)
        else:  # a bitmap container: 65536 bits as 1024 little-endian 64-bit words
            words = bytearray(8192)
            for low in c:
                words[low >> 3] |= 1 << (low & 7)
            data = bytes(words)
        body.append(data)
        offset += len(data)
    return b"".join(head) + b"".join(body)
