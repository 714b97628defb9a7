"""json_path_transform(json, path, v -> body), as current Databend has it: each value the JSON
path selects replaced by the lambda's answer on it, a VARIANT (SQL NULL writes a JSON null).
The VARIANT array lambdas (json_array_transform, json_array_filter...) are the array
functions' own (engine.bind.lambdas).

The lambda is bound and compiled as the array functions' lambdas are (engine.bind.lambdas), its
parameter a VARIANT. The path is read per row, and only for a row whose JSON is not NULL (a bad
constant path fails no query whose JSON values are all NULL)."""

from __future__ import annotations

import functools

from engine.bind.lambdas import _compile, split_lambda
from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Expr, Func
from engine.types import cast as casting
from engine.types import json_path
from engine.types import sqltype as T
from engine.types import variant as V

NAME = "json_path_transform"
VARIANT = T.SqlType("Variant")


def _refuse(types, pos):
    shown = ", ".join(t.display() for t in types)
    raise SemanticError(f"no overload satisfies `{NAME}({shown})`", position=pos)


def bind_json_path_transform(binder, n, scope, aliases) -> Expr:
    """Bind json_path_transform(json, path, lambda) (binder: the statement's Planner)."""
    if len(n.args) != 3 or split_lambda(n.args[2]) is None:
        raise SemanticError(f"{NAME} expects a VARIANT, a JSON path and a lambda", position=n.pos)
    doc, path = (binder.bind(a, scope, aliases) for a in n.args[:2])
    if doc.type.name not in ("Variant", "Null") or not (path.type.is_string or path.type.name == "Null"):
        _refuse([doc.type, path.type], n.pos)
    params, body_node = split_lambda(n.args[2])
    if len(params) != 1:
        raise SemanticError(f"incorrect number of parameters in lambda function, {NAME} expects 1 parameter, "
                            f"but got {len(params)}", position=n.pos)
    body, fn, outer = _compile(binder, params, [VARIANT], body_node, scope)
    impl = _transformer(fn, _to_json(body.type))
    function = ScalarFunction(NAME, impl, None, 2 + len(outer), 2 + len(outer), strict=False)
    nullable = doc.type.can_be_null or path.type.can_be_null or doc.type.name == "Null"
    return Func(VARIANT.as_nullable(nullable), args=(doc, path, *outer), fn=function)


def _to_json(body_type: T.SqlType):
    """The JSON value of the lambda's answer (SQL NULL is JSON null)."""
    if body_type.name == "Variant":
        return lambda x: None if x is None else V.load(x)
    return lambda x: None if x is None else V.load(casting.from_value(x, body_type))


@functools.lru_cache(maxsize=64)
def _parsed(path: str):
    return json_path.compile_path(path)


def _transformer(fn, to_json):
    def transform(doc, path, *outer):
        if doc is None or path is None:
            return None
        try:
            found = json_path.locate(V.load(doc), _parsed(path))
        except BadArguments as e:
            raise BadArguments(f"{e} while evaluating function `{NAME}({V.sql_literal(doc)}, "
                               f"{V.sql_literal(path)})`") from None
        if not found:
            return doc
        root = V.load(doc)
        for value, location in found:
            replaced = to_json(fn(V.dumps(value), outer))
            if not location:
                return V.dumps(replaced)
            container = root
            for key in location[:-1]:
                container = container[key]
            container[location[-1]] = replaced
        return V.dumps(root)
    return transform
