"""Lambda arguments of array functions: array_transform(arr, x -> x + 1), array_filter(arr, x -> x > 1),
array_reduce(arr, (acc, x) -> acc + x).

The parser reads `x -> body` with the JSON arrow, which binds tighter than most operators, so
`x -> x + 1` arrives as `(x -> x) + 1`: the arrow sits on the left edge of the tree. `split_lambda`
takes it out again (parameters, body). The body is bound in a scope of its parameters alone and
compiled into its own Python function; the array function calls it per element."""

from __future__ import annotations

from dataclasses import replace

from engine.bind.map_lambdas import (
    JSON_LAMBDAS,
    LAMBDA_ELEMENTS,
    MAP_LAMBDAS,
    bind_json_lambda,
    bind_map_lambda,
)
from engine.bind.scope import Scope
from engine.codegen.compile import Codegen
from engine.core.errors import BadArguments, SemanticError
from engine.functions.arrays import LAMBDA_FUNCTIONS
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Const, Expr, Func
from engine.types import nested as N
from engine.types import sqltype as T
from grammar import ast as A

__all__ = ["LAMBDA_FUNCTIONS", "bind_lambda_call", "split_lambda"]
_PARAMETERS = {"array_transform": 1, "array_apply": 1, "array_filter": 1, "array_reduce": 2}


def _is_arrow(node) -> bool:
    return isinstance(node, A.FunctionCall) and node.operator == "->"


def split_lambda(node):
    """(parameter names, body) of a lambda written `x -> body` or `(a, b) -> body`, or None."""
    if _is_arrow(node):
        params, body = node.args
        return _names(params), body
    for field in ("left", "operand"):
        child = getattr(node, field, None)
        if child is not None and not isinstance(node, A.UnaryOp):
            found = split_lambda(child)
            if found is not None:
                return found[0], replace(node, **{field: found[1]})
    if isinstance(node, A.FunctionCall) and node.operator is not None and node.args:
        found = split_lambda(node.args[0])
        if found is not None:
            return found[0], replace(node, args=(found[1], *node.args[1:]))
    return None


def _names(params) -> tuple[str, ...]:
    items = params.args if isinstance(params, A.FunctionCall) and params.operator == "(...)" else (params,)
    names = []
    for item in items:
        if not (isinstance(item, A.ColumnRef) and len(item.parts) == 1):
            raise SemanticError("a lambda's parameters must be plain names", position=getattr(item, "pos", None))
        names.append(item.parts[0].lower())
    return tuple(names)


def bind_lambda_call(binder, n: A.FunctionCall, scope, aliases) -> Expr:
    """Bind array_transform / array_filter / array_reduce (binder: the statement's Planner)."""
    name = n.name
    if len(n.args) != 2:
        raise BadArguments(f"function {name} takes 2 arguments, got {len(n.args)}", position=n.pos)
    array = binder.bind(n.args[0], scope, aliases)
    found = split_lambda(n.args[1])
    if found is None:
        raise SemanticError(f"the second argument of {name} must be a lambda", position=n.pos)
    params, body_node = found
    expected = _PARAMETERS.get(name) or MAP_LAMBDAS.get(name) or JSON_LAMBDAS[name]
    if len(params) != expected:
        raise SemanticError(f"incorrect number of parameters in lambda function, {name} expects {expected} "
                            f"parameter{'s' if expected > 1 else ''}, but got {len(params)}", position=n.pos)
    if name in MAP_LAMBDAS:  # (k, v) -> body over a map (engine.bind.map_lambdas)
        return bind_map_lambda(binder, _compile, name, array, params, body_node, scope, n.pos)
    if name in JSON_LAMBDAS or array.type.name == "Variant":  # array_transform(variant, ...) too
        json_name = name if name in JSON_LAMBDAS else f"json_{name}"
        return bind_json_lambda(binder, _compile, json_name, array, params, body_node, scope, n.pos)
    if array.type.name == "Null" or (isinstance(array, Const) and array.value is None):
        return Const(T.NULL, value=None)
    if array.type.name != "Array":
        raise BadArguments(f"{name} expects an array, got {array.type.display()}", position=n.pos)
    element = N.element_of(array.type)
    if name == "array_reduce" and element.name == "Nothing":  # array_reduce([], ...) is []
        return Const(array.type.as_nullable(False), value=N.ArrayValue())
    element = T.NULL if element.name == "Nothing" else element
    types = [element] * len(params)
    body, fn, outer = _compile(binder, params, types, body_node, scope)
    if name == "array_reduce":
        # the accumulator takes the body's type (an Int64 sum of UInt8s), as Databend types it
        types = [body.type.as_nullable(body.type.can_be_null or element.can_be_null), element]
        body, fn, outer = _compile(binder, params, types, body_node, scope)
        result = _reduce_type(body.type)
        impl = _reducer(fn)
    elif name == "array_filter":
        if body.type.name not in ("Boolean", "Null"):
            raise SemanticError(f"the lambda of array_filter must answer a Boolean, not {body.type.display()}",
                                position=n.pos)
        result = array.type
        impl = _filterer(fn)
    else:
        result = N.array_type(body.type).as_nullable(array.type.nullable)
        impl = _transformer(fn)
    # not strict: the array may be NULL (answered NULL), the outer values too (the body decides)
    function = ScalarFunction(name, impl, None, 1 + len(outer), 1 + len(outer), strict=False,
                              row_cost=lambda_row_cost(fn))
    return Func(result, args=(array, *outer), fn=function)


def _compile(binder, params, types, body_node, outer_scope, finish=None):
    """(bound body, compiled body, outer expressions it reads): a column of the query the body
    names becomes a parameter `p[i]` of the compiled function, its value passed in per row;
    `finish` may wrap the bound body (a cast of its answer)."""
    cids = [binder.cid() for _ in params]
    columns = [(None, p, cid, t) for p, cid, t in zip(params, cids, types, strict=True)]
    scope = Scope(columns, outer_scope, ctes=outer_scope.ctes)
    body = binder.bind(body_node, scope)
    body = body if finish is None else finish(body)
    cg = Codegen()
    variables = [f"x{i}" for i in range(len(params))]
    source = cg.expr(body, dict(zip(cids, variables, strict=True)))
    compiled = cg.build([*variables, "p"], [f"return {source}"], name="_lambda")
    compiled.row_cost = cg.row_cost  # the body's declared cost per element (lambda_row_cost)
    return body, compiled, scope.params


def lambda_row_cost(compiled) -> int:
    """The declared cost of one call of a lambda function whose body `compiled` (from _compile)
    runs once an element: the arrays' lengths are not known when compiling, so counted as
    LAMBDA_ELEMENTS elements."""
    return LAMBDA_ELEMENTS * compiled.row_cost


def _reduce_type(t: T.SqlType) -> T.SqlType:
    """As Databend types array_reduce: integers as Int64, Decimals as Decimal(38, s), nullable."""
    if t.is_int:
        return T.INT64.as_nullable(True)
    if t.name == "Decimal":
        return T.SqlType("Decimal", True, 38 if t.precision <= 38 else 76, t.scale)
    return t.as_nullable(True)


def _transformer(fn):
    return lambda arr, *p: None if arr is None else N.ArrayValue([fn(x, p) for x in arr])


def _filterer(fn):
    return lambda arr, *p: None if arr is None else N.ArrayValue([x for x in arr if fn(x, p) is True])


def _reducer(fn):
    def reduce(arr, *p):
        if not arr:
            return None
        acc = arr[0]
        for x in arr[1:]:
            acc = fn(acc, x, p)
        return acc
    return reduce
