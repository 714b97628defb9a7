"""Functions on VARIANT objects and values as current Databend has them (variant.rs):
object_pick / object_delete (the fields of some keys kept or removed; a NULL key is ignored),
strip_null_value (a JSON null as SQL NULL) and try_to_variant."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.functions.json import VARIANT, VARIANT_OR_NULL, register
from engine.functions.registry import fixed
from engine.types import cast as casting
from engine.types import variant as V


def _object_of(text, name):
    value = V.load(text)
    if not isinstance(value, dict):
        raise BadArguments(f"Invalid json object for {name} while evaluating function `{name}({V.sql_literal(text)})`")
    return value


def object_pick(text, *keys):
    if text is None:
        return None
    value = _object_of(text, "object_pick")
    wanted = {k for k in keys if k is not None}
    return V.dumps({k: x for k, x in value.items() if k in wanted})


def object_delete(text, *keys):
    if text is None:
        return None
    value = _object_of(text, "object_delete")
    unwanted = {k for k in keys if k is not None}
    return V.dumps({k: x for k, x in value.items() if k not in unwanted})


def _keys_result(types):
    return VARIANT.as_nullable(types[0].can_be_null or types[0].name == "Null")


_KINDS = ("variant",) + ("string",) * (1 << 12)
register("object_pick", object_pick, _keys_result, 2, 1 << 12, strict=False, kinds=_KINDS,
         aliases=("json_object_pick",))
register("object_delete", object_delete, _keys_result, 2, 1 << 12, strict=False, kinds=_KINDS,
         aliases=("json_object_delete",))
register("strip_null_value", lambda v: None if v is None or v == "null" else v, fixed(VARIANT_OR_NULL), 1,
         strict=False, kinds=("variant",))
register("try_to_variant", lambda x: None if x is None else casting.from_value(x), fixed(VARIANT_OR_NULL), 1,
         strict=False, specialize=lambda types: _try_maker(types))


def _try_maker(types):
    make = casting.variant_maker(types)

    def convert(x):
        if x is None:
            return None
        try:
            return make(x)
        except BadArguments:
            return None
    return convert
