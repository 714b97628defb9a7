"""The functions on VARIANT values that carry an extension type (engine.types.variant_extension),
as current Databend has them: is_binary / is_date / is_timestamp / is_timestamp_tz / is_interval
(NULL for NULL), as_binary / as_date / as_timestamp / as_timestamp_tz / as_interval (the value,
NULL for any other VARIANT), and to_binary of a VARIANT (the bytes of a BINARY, the UTF-8 of a
string, NULL for a JSON null)."""

from __future__ import annotations

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

