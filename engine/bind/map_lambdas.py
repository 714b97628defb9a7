"""Lambdas over maps and VARIANT values: map_filter / map_transform_keys / map_transform_values
with a two-parameter lambda `(k, v) -> body`, and the json_* versions of the array and map lambda
functions (json_array_transform, json_array_filter, json_array_reduce, json_map_filter,
json_map_transform_keys, json_map_transform_values), which array_transform & co. also answer
when their first argument is a VARIANT. The body is compiled by engine.bind.lambdas."""

from __future__ import annotations

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import SCALARS, ScalarFunction
from engine.ir.expr import Const, Expr, Func
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import variant as V

__all__ = ["JSON_LAMBDAS", "MAP_LAMBDAS", "bind_json_lambda", "bind_map_lambda"]

MAP_LAMBDAS = {"map_filter": 2, "map_transform_keys": 2, "map_transform_values": 2}
# the json_* functions (parameters): every parameter is a VARIANT
JSON_LAMBDAS = {"json_array_transform": 1, "json_array_apply": 1, "json_array_filter": 1, "json_array_reduce": 2,
                "json_map_filter": 2, "json_map_transform_keys": 2, "json_map_transform_values": 2}
VARIANT = T.SqlType("Variant")
# elements a lambda's array or map is counted to have when its body's declared costs are summed
# (engine.core.steps.rows_for_cost): a guess, the lengths being known only per row
LAMBDA_ELEMENTS = 8


def _function(name, impl, result, container, outer, body):
    """The call of a lambda function `impl` whose compiled body is `body`; its declared cost is
    the body's for LAMBDA_ELEMENTS elements."""
    # not strict: the container may be NULL (answered NULL), the outer values too (the body decides)
    fn = ScalarFunction(name, impl, None, 1 + len(outer), 1 + len(outer), strict=False,
                        row_cost=LAMBDA_ELEMENTS * body.row_cost)
    return Func(result, args=(container, *outer), fn=fn)


def _check_boolean(name, body, pos):
    if body.type.name not in ("Boolean", "Null"):
        raise SemanticError(f"invalid lambda function for `{name}`, the result data type of lambda function "
                            f"must be boolean, not {body.type.display()}", position=pos)


def bind_map_lambda(binder, compile_body, name, container: Expr, params, body_node, scope, pos) -> Expr:
    """map_filter / map_transform_keys / map_transform_values of a Map `container`."""
    if container.type.name == "Null" or (isinstance(container, Const) and container.value is None):
        return Const(T.NULL, value=None)
    if container.type.name != "Map":
        raise SemanticError(f"no overload satisfies `{name}({container.type.display()})`", position=pos)
    key, value = (T.NULL if t.name == "Nothing" else t for t in N.map_parts(container.type))
    body, fn, outer = compile_body(binder, params, [key, value], body_node, scope)
    if name == "map_filter":
        _check_boolean(name, body, pos)
        result, impl = container.type, _map_filterer(fn)
    elif name == "map_transform_keys":
        if N.map_parts(container.type)[0].name == "Nothing":
            result = container.type
        else:
            result = N.map_type(body.type.as_nullable(False), N.map_parts(container.type)[1])
        result, impl = result.as_nullable(container.type.nullable), _key_transformer(fn)
    else:
        if N.map_parts(container.type)[0].name == "Nothing":
            result = container.type
        else:
            result = N.map_type(N.map_parts(container.type)[0], body.type)
        result, impl = result.as_nullable(container.type.nullable), _value_transformer(fn)
    return _function(name, impl, result, container, outer, fn)


def _map_filterer(fn):
    return lambda m, *p: None if m is None else N.MapValue((k, v) for k, v in m if fn(k, v, p) is True)


def _unique_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise BadArguments("map keys have to be unique")
    return N.MapValue(pairs)


def _key_transformer(fn):
    return lambda m, *p: None if m is None else _unique_keys([(fn(k, v, p), v) for k, v in m])


def _value_transformer(fn):
    return lambda m, *p: None if m is None else N.MapValue((k, fn(k, v, p)) for k, v in m)


def bind_json_lambda(binder, compile_body, name, container: Expr, params, body_node, scope, pos) -> Expr:
    """A json_* lambda function of a VARIANT `container` (an Array or Map argument is cast)."""
    if container.type.name == "Null" or (isinstance(container, Const) and container.value is None):
        return Const(T.NULL, value=None)
    if container.type.name != "Variant":
        container = binder.cast(container, VARIANT, False)
    types = [VARIANT.as_nullable(True)] * len(params)
    result = VARIANT.as_nullable(container.type.can_be_null)
    if name in ("json_array_filter", "json_map_filter"):
        body, fn, outer = compile_body(binder, params, types, body_node, scope)
        _check_boolean(name, body, pos)
        impl = _json_filterer(fn) if name == "json_array_filter" else _json_map_filterer(fn)
        return _function(name, impl, result, container, outer, fn)
    # the body's answers are made VARIANT values
    body, fn, outer = compile_body(binder, params, types, body_node, scope,
                                   finish=lambda b: b if b.type.name == "Variant" else _to_variant(binder, b))
    if name == "json_array_reduce":
        return _function(name, _json_reducer(fn), result.as_nullable(True), container, outer, fn)
    maker = {"json_map_transform_keys": _json_key_transformer, "json_map_transform_values": _json_value_transformer}
    return _function(name, maker.get(name, _json_transformer)(fn), result, container, outer, fn)


def _to_variant(binder, body: Expr) -> Expr:
    """to_variant(body): a text answer becomes a JSON string (a CAST would parse it)."""
    if isinstance(body, Const) and body.value is None:
        return Const(VARIANT.as_nullable(True), value=None)
    return binder._function(SCALARS["to_variant"], [body])


def _elements(text):
    """The elements of a VARIANT array ([] for any other value, as Databend answers)."""
    value = V.load(text)
    return value if isinstance(value, list) else []


def _fields(text):
    value = V.load(text)
    return value if isinstance(value, dict) else {}


def _to_json(text):
    return None if text is None else V.load(text)


def _json_transformer(fn):
    return lambda v, *p: None if v is None else V.dumps([_to_json(fn(V.dumps(x), p)) for x in _elements(v)])


def _json_filterer(fn):
    return lambda v, *p: None if v is None else V.dumps([x for x in _elements(v) if fn(V.dumps(x), p) is True])


def _json_reducer(fn):
    def reduce(v, *p):
        items = [] if v is None else _elements(v)
        if not items:
            return None
        acc = V.dumps(items[0])
        for x in items[1:]:
            acc = fn(acc, V.dumps(x), p)
        return acc
    return reduce


def _json_map_filterer(fn):
    return lambda v, *p: None if v is None else V.dumps(
        {k: x for k, x in _fields(v).items() if fn(V.dumps(k), V.dumps(x), p) is True})


def _json_key_transformer(fn):
    def transform(v, *p):
        if v is None:
            return None
        out = {}
        for k, x in _fields(v).items():
            key = _to_json(fn(V.dumps(k), V.dumps(x), p))
            key = key if isinstance(key, str) else V.dumps(key)
            if key in out:
                raise BadArguments("map keys have to be unique")
            out[key] = x
        return V.dumps(dict(sorted(out.items())))
    return transform


def _json_value_transformer(fn):
    return lambda v, *p: None if v is None else V.dumps(
        {k: _to_json(fn(V.dumps(k), V.dumps(x), p)) for k, x in _fields(v).items()})
