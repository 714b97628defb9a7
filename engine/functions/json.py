"""JSON functions on VARIANT values (parse_json, get, get_path, json_typeof, is_*, as_*,
json_array, json_object, object_keys, check_json, json_extract_path_text...) and the
functions behind the access operators v[k], v:a.b, v -> k and v ->> k, as Databend 1.2.453."""

from __future__ import annotations

import functools

from engine.core.errors import BadArguments, SemanticError
from engine.functions.collected import Collected
from engine.functions.registry import AggSpec, ScalarFunction, fixed
from engine.functions.registry import register as _register
from engine.types import cast as casting
from engine.types import json_path
from engine.types import render as R
from engine.types import sqltype as T
from engine.types import variant as V
from engine.types.variant_extension import ExtensionVariant

VARIANT = T.SqlType("Variant")
VARIANT_OR_NULL = VARIANT.as_nullable(True)
STRING_OR_NULL = T.STRING.as_nullable(True)


def _accepts(kind: str, t: T.SqlType) -> bool:
    if t.name == "Null":
        return True
    if kind == "variant":
        return t.name == "Variant"
    if kind == "string":
        return t.is_string
    if kind == "key":  # an object key or an array index
        return t.is_string or t.is_int
    return True


def _checked(name: str, kinds: tuple, result):
    """A result rule refusing arguments of other types than `kinds` ('variant', 'string', 'key',
    'any'), as Databend does at bind time (1065 no overload satisfies ...)."""
    def rule(types):
        if not all(_accepts(k, t) for k, t in zip(kinds, types, strict=False)):
            shown = ", ".join(t.display() for t in types)
            raise SemanticError(f"no overload satisfies `{name}({shown})`")
        return result(types)
    return rule


def register(name, impl, result, min_args, max_args=None, strict=True, kinds=(), aliases=(), specialize=None):
    """Register a JSON function whose arguments must be of the given kinds."""
    _register(name, impl, _checked(name, kinds, result), min_args, max_args, strict=strict, aliases=aliases,
              specialize=specialize)


register("parse_json", V.parse_json, fixed(VARIANT), 1, kinds=("string",))
register("try_parse_json", lambda s: None if s is None else V.try_parse_json(s), fixed(VARIANT_OR_NULL), 1,
         strict=False, kinds=("string",))
register("to_variant", casting.from_value, fixed(VARIANT), 1, specialize=casting.variant_maker)  # (tuple field names)
register("check_json", lambda s: None if s is None else V.check_json(s), fixed(STRING_OR_NULL), 1,
         strict=False, kinds=("string",))


def _get(v, key):
    return V.get(v, key)


register("get", _get, fixed(VARIANT_OR_NULL), 2, strict=False, kinds=("variant", "key"))
def _get_path(v, path):
    """get_path(v, path): the value a JSON path selects (jsonb's select_value_by_path: NULL for
    none, an array of them for several)."""
    if v is None or path is None:
        return None
    try:
        found = json_path.query(V.load(v), _steps(path))
    except BadArguments as e:
        raise BadArguments(f"{e} while evaluating function `get_path({V.sql_literal(v)}, "
                           f"{V.sql_literal(path)})`") from None
    if not found:
        return None
    return V.dumps(found[0] if len(found) == 1 else found)


register("get_path", _get_path, fixed(VARIANT_OR_NULL), 2, strict=False, kinds=("variant", "string"))
register("json_extract_path_text", V.extract_path_text, fixed(STRING_OR_NULL), 2, strict=False,
         kinds=("string", "string"))


def _ignore_case_get(v, key):
    if v is None or key is None:
        return None
    value = V.load(v)
    if isinstance(value, dict):
        if key in value:
            return V.dumps(value[key])
        lowered = key.lower()
        for k, item in value.items():
            if k.lower() == lowered:
                return V.dumps(item)
    return None


register("get_ignore_case", _ignore_case_get, fixed(VARIANT_OR_NULL), 2, strict=False,
         kinds=("variant", "string"))


def _typeof(v):
    # 1.2.453's lower-case names, which the differential golden tests hold (current Databend
    # answers INTEGER, DECIMAL, DOUBLE, STRING, OBJECT, ARRAY, BOOLEAN, NULL_VALUE)
    return V.json_type(V.load(v))


register("json_typeof", _typeof, fixed(T.STRING), 1, kinds=("variant",))


def _kind_test(test):
    # an extension value (engine.types.variant_extension) is shown as a JSON string but is none
    return lambda v: type(v) is not ExtensionVariant and test(V.load(v))


_KIND_TESTS = {
    "is_object": lambda x: isinstance(x, dict),
    "is_array": lambda x: isinstance(x, list),
    "is_string": lambda x: isinstance(x, str),
    "is_integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "is_float": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "is_boolean": lambda x: isinstance(x, bool),
    "is_null_value": lambda x: x is None,
}
for _name, _test in _KIND_TESTS.items():
    register(_name, _kind_test(_test), fixed(T.BOOLEAN), 1, kinds=("variant",))


def _as(test, convert=lambda x: x):
    def as_kind(v):
        if v is None or type(v) is ExtensionVariant:
            return None
        value = V.load(v)
        return convert(value) if test(value) else None
    return as_kind


_AS_FUNCTIONS = {  # name: (kind test, conversion, result type)
    "as_integer": ("is_integer", lambda x: x, T.INT64),
    "as_float": ("is_float", float, T.FLOAT64),
    "as_boolean": ("is_boolean", lambda x: x, T.BOOLEAN),
    "as_string": ("is_string", lambda x: x, T.STRING),
    "as_array": ("is_array", V.dumps, VARIANT),
    "as_object": ("is_object", V.dumps, VARIANT),
}
for _name, (_test, _convert, _type) in _AS_FUNCTIONS.items():
    register(_name, _as(_KIND_TESTS[_test], _convert), fixed(_type.as_nullable(True)), 1, strict=False,
             kinds=("variant",))


def _element(v):
    """An argument of json_array / json_object as a JSON value (NULL is JSON null)."""
    if v is None:
        return None
    return V.load(casting.from_value(v))


def _variant_element(v):
    """A VARIANT argument of json_array / json_object: its value nested as it is (not a string)."""
    return None if v is None else V.load(v)


def _element_readers(types) -> list:
    return [_variant_element if t.name == "Variant" else _element for t in types]


def _json_array(*values):
    return V.dumps([_element(v) for v in values])


def _json_array_of(types):
    """json_array for arguments of `types`: VARIANT arguments nested as values."""
    if not any(t.name == "Variant" for t in types):
        return _json_array
    readers = _element_readers(types)
    return lambda *values: V.dumps([read(v) for read, v in zip(readers, values, strict=True)])


def _object_constructor(name, keep_null, types=()):
    """object_construct / object_construct_keep_null: pairs of a string key and a value; a NULL
    key drops its pair, a NULL value too unless keep_null (then it is JSON null). A VARIANT value
    (given its `types`) is nested as it is."""
    readers = _element_readers(types)

    def construct(*values):
        if len(values) % 2:
            _object_refused("The number of keys and values must be equal", name, values)
        fields = {}
        for pair, (key, value) in enumerate(zip(values[::2], values[1::2], strict=True)):
            if key is None or (value is None and not keep_null):
                continue
            if not isinstance(key, str):
                _object_refused("Key must be a string value", name, values)
            if key in fields:
                _object_refused("Keys have to be unique", name, values)
            index = pair * 2 + 1
            fields[key] = (readers[index] if index < len(readers) else _element)(value)
        return V.dumps(dict(sorted(fields.items())))
    return construct


def _object_refused(reason, name, values):
    shown = ", ".join("NULL" if v is None else "'" + v.replace("'", "\\'") + "'" if isinstance(v, str)
                      else R.render_value(v) for v in values)
    raise BadArguments(f"{reason} while evaluating function `{name}({shown})`")


def _try(fn):
    def attempt(*values):
        try:
            return fn(*values)
        except BadArguments:
            return None
    return attempt


register("json_array", _json_array, fixed(VARIANT), 0, 1 << 16, strict=False, aliases=("array_construct",),
         specialize=_json_array_of)
for _name, _keep_null, _aliases in (("object_construct", False, ("json_object",)),
                                    ("object_construct_keep_null", True, ("json_object_keep_null",))):
    _construct = _object_constructor(_name, _keep_null)
    register(_name, _construct, fixed(VARIANT), 0, 1 << 16, strict=False, aliases=_aliases,
             specialize=functools.partial(_object_constructor, _name, _keep_null))
    register("try_" + _name, _try(_construct), fixed(VARIANT_OR_NULL), 0, 1 << 16, strict=False,
             aliases=tuple("try_" + a for a in _aliases),
             specialize=lambda types, n=_name, k=_keep_null: _try(_object_constructor(n, k, types)))


def _object_keys(v):
    if v is None:
        return None
    value = V.load(v)
    return V.dumps(list(value)) if isinstance(value, dict) else None


register("json_object_keys", _object_keys, fixed(VARIANT_OR_NULL), 1, strict=False, kinds=("variant",),
         aliases=("object_keys",))


register("json_pretty", lambda v: V.dumps_pretty(V.load(v)), fixed(T.STRING), 1, kinds=("variant",))
register("json_strip_nulls", lambda v: V.dumps(V.strip_nulls(V.load(v))), fixed(VARIANT), 1, kinds=("variant",))
register("json_to_string", lambda v: v, fixed(T.STRING), 1, kinds=("variant",))


@functools.lru_cache(maxsize=64)
def _steps(path: str):
    return json_path.compile_path(path)


def _path_function(name, answer):
    """A json_path_* function: answer(list of matches) for a VARIANT and a path."""
    def run(v, path):
        if v is None or path is None:
            return None
        try:
            return answer(json_path.query(V.load(v), _steps(path)))
        except BadArguments as e:
            raise BadArguments(f"{e} while evaluating function `{name}({V.sql_literal(v)}, "
                               f"{V.sql_literal(path)})`") from None
    return run


def _path_match(v, path):
    """json_path_match / @@: a predicate path's answer (NULL when it is no predicate)."""
    if v is None or path is None:
        return None
    try:
        return json_path.match(V.load(v), _steps(path))
    except BadArguments as e:
        raise BadArguments(f"{e} while evaluating function `json_path_match({V.sql_literal(v)}, "
                           f"{V.sql_literal(path)})`") from None


_PATH_FUNCTIONS = {  # name: (answer from the matches, result type)
    "json_path_query_first": (lambda found: V.dumps(found[0]) if found else None, VARIANT_OR_NULL),
    "json_path_query_array": (V.dumps, VARIANT_OR_NULL),
    "json_path_exists": (bool, T.BOOLEAN.as_nullable(True)),
}
for _name, (_answer, _type) in _PATH_FUNCTIONS.items():
    register(_name, _path_function(_name, _answer), fixed(_type), 2, strict=False, kinds=("variant", "string"))
register("json_path_match", _path_match, fixed(T.BOOLEAN.as_nullable(True)), 2, strict=False,
         kinds=("variant", "string"))


# the functions of the access operators: bound by the binder, not callable by name
# (v[k] and v:k are never folded into constants: Databend types them nullable even then)
JSON_OPERATORS: dict[str, ScalarFunction] = {
    "json_arrow_text": ScalarFunction("json_arrow_text", V.get_text,
                                      _checked("json_arrow_text", ("variant", "key"), fixed(STRING_OR_NULL)),
                                      2, 2, strict=False),
    "json_subscript": ScalarFunction("get", _get, _checked("get", ("variant", "key"), fixed(VARIANT_OR_NULL)),
                                     2, 2, strict=False, volatile=True),
}


_TO_VARIANT = ScalarFunction("to_variant", casting.from_value, fixed(VARIANT), 1, 1)
_ORDER_KEY = ScalarFunction("variant_order_key", V.order_key, fixed(VARIANT), 1, 1)


def variant_comparison(left, right, bind_function):
    """The operands of a comparison with a VARIANT side, as keys in Databend's order of VARIANT
    values (the other side converted to a VARIANT first: `v = 'a'` compares with the JSON 'a');
    None when neither side is a VARIANT. `bind_function(fn, args)` binds a call."""
    names = (left.type.name, right.type.name)
    if "Variant" not in names or "Null" in names:
        return None
    left, right = (a if a.type.name == "Variant" else bind_function(_TO_VARIANT, [a]) for a in (left, right))
    return bind_function(_ORDER_KEY, [left]), bind_function(_ORDER_KEY, [right])


def _extreme(pick):
    def final(values, _params):
        present = [v for v in values if v is not None]
        return pick(present, key=V.order_key) if present else None
    return final


# MIN / MAX of VARIANT values: in Databend's order of VARIANT values, from the group's values
VARIANT_EXTREMES = {
    "min": Collected("min", (1, 1), lambda types: VARIANT_OR_NULL, _extreme(min)),
    "max": Collected("max", (1, 1), lambda types: VARIANT_OR_NULL, _extreme(max)),
}


def variant_aggregate(name: str, arg) -> AggSpec | None:
    """The AggSpec of MIN / MAX of a VARIANT argument (None for other aggregates and types)."""
    if name not in VARIANT_EXTREMES or arg.type.name != "Variant":
        return None
    return AggSpec(name, arg, False, VARIANT_OR_NULL, collected=VARIANT_EXTREMES[name])


def variant_get_cast(operand, target: T.SqlType):
    """CAST(v[key] AS target) / v:key::target with a constant key, as one function of v that
    converts the element as read (engine.types.variant.get_as): (function, v), or None when the cast
    is not of that form. The element is never written back to text and parsed again."""
    function = getattr(operand, "fn", None)  # a function call (engine.ir.expr.Func) has one
    if function is None or function.impl is not _get or not operand.args[1].is_constant:
        return None
    key = operand.args[1].value
    if key is None or target.name in ("Variant", "Null", "Decimal") or target.name in T.NESTED_NAMES:
        return None
    return V.get_as(key, target, casting.caster(target)), operand.args[0]


def variant_cast(source: T.SqlType, target: T.SqlType):
    """The conversion of a CAST from a VARIANT (None when the cast is not from a VARIANT)."""
    if source.name != "Variant" or target.name in ("Variant", "Null"):
        return None
    if target.name in T.NESTED_NAMES:
        return casting.caster_from_variant(target)
    return V.caster_from_variant(target, casting.caster(target))
