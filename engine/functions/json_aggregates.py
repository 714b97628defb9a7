"""JSON aggregates: json_array_agg(x) (alias json_agg), the group's non-NULL values as a VARIANT
array, and json_object_agg(key, value), an object of the rows whose key and value are not NULL
(a JSON null value is kept; a key seen twice is 1006), as Databend builds them. Values convert
as to_variant converts them, a Decimal keeping its scale (20.00). Collected: `final` runs once
per group on its gathered values."""

from __future__ import annotations

from engine.core.errors import BadArguments, BadDataValueType
from engine.functions.collected import COLLECTED, Collected
from engine.types import cast as casting
from engine.types import sqltype as T
from engine.types import variant as V

VARIANT = T.SqlType("Variant")


def _json_text(t: T.SqlType):
    """value -> its JSON text, for values of type t."""
    if t.name == "Variant":
        return lambda v: v
    if t.name == "Decimal":
        return str
    return lambda v: casting.from_value(v, t)


def _prepare_array(types, params, position):
    return [_json_text(types[0])]


def _prepare_object(types, params, position):
    if types[0].name not in ("String", "Null"):
        raise BadDataValueType(f"json_object_agg does not support key type '{types[0].display()}'")
    return [_json_text(types[1])]


def _array(values, params):
    (text,) = params
    return "[" + ",".join(text(v) for v in values if v is not None) + "]"


def _object(values, params):
    (text,) = params
    fields = {}
    for key, value in values:
        if key is None or value is None:
            continue
        if key in fields:
            raise BadArguments(f"Json object have duplicate key '{key}'")
        fields[key] = text(value)
    return "{" + ",".join(f"{V.dumps(k)}:{fields[k]}" for k in sorted(fields)) + "}"


_ENTRIES = [
    Collected("json_array_agg", (1, 1), lambda ts: VARIANT, _array, prepare=_prepare_array),
    Collected("json_agg", (1, 1), lambda ts: VARIANT, _array, prepare=_prepare_array),
    Collected("json_object_agg", (2, 2), lambda ts: VARIANT, _object, prepare=_prepare_object),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)
