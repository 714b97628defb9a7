"""The binder's rewrites of unnest's argument: unnest(range(a, b)) into a lazily spread range, nested
arrays to their leaves, a VARIANT to its elements (engine.plan.unnest plans unnest)."""

from __future__ import annotations

from dataclasses import replace

from engine.core.errors import SemanticError
from engine.functions.arrays import RANGE_ROWS
from engine.functions.registry import ScalarFunction
from engine.ir.expr import Const, Expr, Func
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import variant as V
from grammar import ast as A


def spread_lazily(call: A.FunctionCall) -> A.FunctionCall:
    """unnest(range(a, b)) as unnest(_range_rows(a, b)): the elements are spread a step's budget
    at a time from a lazy range, so they may exceed Limits.array_elements (no array is built)."""
    arg = call.args[0] if len(call.args) == 1 else None
    if isinstance(arg, A.FunctionCall) and arg.name.lower() == "range" and len(arg.args) == 2 \
            and arg.operator is None and not arg.distinct and arg.filter is None:
        return replace(call, args=(replace(arg, name=RANGE_ROWS),))
    return call


def _leaf_type(t: T.SqlType) -> T.SqlType:
    while t.name == "Array":
        t = N.element_of(t)
    return t


def _depth(t: T.SqlType) -> int:
    depth = 0
    while t.name == "Array":
        t, depth = N.element_of(t), depth + 1
    return depth


def _leaves(arr, depth: int):
    """The leaves of an array nested `depth` deep, in order; a NULL inner array holds none."""
    if depth <= 1:
        return arr
    return [leaf for inner in arr if inner is not None for leaf in _leaves(inner, depth - 1)]


def _leaves_of(t: T.SqlType):
    depth = _depth(t)
    return lambda arr: N.ArrayValue(_leaves(arr, depth))


def _variant_elements(text):
    """A VARIANT array's elements as VARIANT values (any other value has none)."""
    value = V.load(text)
    return N.ArrayValue(V.dumps(x) for x in value) if isinstance(value, list) else N.ArrayValue()


def unnest_argument(arg: Expr, pos=None) -> Expr:
    """What unnest spreads, as Databend's unnest: nested arrays to their leaves (unnest([[1,2],[3]])
    gives three rows), a VARIANT array to its elements; an array of NULLs only gives no row.
    Anything else is refused (1065)."""
    t = arg.type
    if t.name == "Variant":
        fn = ScalarFunction("unnest_variant", _variant_elements, None, 1, 1)
        return Func(N.array_type(t.as_nullable(True)), args=(arg,), fn=fn)
    if t.name == "Null":
        return arg
    if t.name != "Array":
        raise SemanticError(f"unnest expects an array or a VARIANT, not {t.display()}", position=pos)
    leaf = _leaf_type(t)
    if leaf.name in ("Null", "Nothing"):  # unnest([NULL]), unnest([[]]): no row
        return Const(N.array_type(N.nothing()), value=N.ArrayValue())
    if N.element_of(t).name != "Array":
        return arg
    fn = ScalarFunction("unnest_leaves", _leaves_of(t), None, 1, 1)
    return Func(N.array_type(leaf).as_nullable(t.nullable), args=(arg,), fn=fn)


def constant_leaves(arg: Const) -> tuple[T.SqlType, list]:
    """(element type, elements) FROM unnest(<constant array>) spreads: the leaves of nested arrays."""
    leaf = _leaf_type(arg.type) if arg.type.name == "Array" else T.NULL
    if arg.value is None or leaf.name in ("Null", "Nothing"):
        return T.NULL, []
    values = _leaves(arg.value, _depth(arg.type))
    return leaf, list(values)
