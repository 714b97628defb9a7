"""Types as some Databend error messages spell them: the Rust debug form of its DataType
(`Number(Int32)`, `Nullable(String)`, `Decimal(Decimal128(DecimalSize { precision: 5, scale: 1 }))`),
which aggregate refusals and the ORDER BY refusal of a BITMAP show."""

from __future__ import annotations

from engine.types.sqltype import INT_NAMES, SqlType

_PLAIN = {"Null": "Null", "Nothing": "Nothing", "Boolean": "Boolean", "String": "String", "Date": "Date",
          "Timestamp": "Timestamp", "TimestampTz": "TimestampTz", "Variant": "Variant", "Binary": "Binary",
          "Bitmap": "Bitmap", "Geometry": "Geometry", "Geography": "Geography"}


def rust_debug(t: SqlType) -> str:
    """Databend's `{:?}` of the type `t` (a Nullable wrapper for nullable types but NULL itself)."""
    if t.nullable and t.name != "Null":
        return f"Nullable({rust_debug(t.as_nullable(False))})"
    name = t.name
    if name in INT_NAMES or name in ("Float32", "Float64"):
        return f"Number({name})"
    if name == "Decimal":
        width = "Decimal128" if t.precision <= 38 else "Decimal256"
        return f"Decimal({width}(DecimalSize {{ precision: {t.precision}, scale: {t.scale} }}))"
    if name == "Array":
        if not t.args or t.args[0].name == "Nothing":
            return "EmptyArray"
        return f"Array({rust_debug(t.args[0])})"
    if name == "Map":
        if len(t.args) != 2:
            return "EmptyMap"
        return f"Map(Tuple([{rust_debug(t.args[0])}, {rust_debug(t.args[1])}]))"
    if name == "Tuple":
        return f"Tuple([{', '.join(rust_debug(a) for a in t.args)}])"
    return _PLAIN.get(name, name)
