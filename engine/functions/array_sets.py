"""Array functions that compare or rearrange elements: array_intersection, array_except and
array_overlap of two arrays (as multisets: duplicates count, NULL matches NULL), array_remove,
array_reverse, array_compact and arrays_zip; results as Databend's current documentation and
its own tests give them (the VARIANT versions of the first three are engine.functions.json_operators')."""

from __future__ import annotations

from collections import Counter

from engine.core.errors import BadArguments, SemanticError
from engine.functions.arrays import register_override
from engine.functions.registry import SCALARS, ScalarFunction, register
from engine.types import nested as N
from engine.types import sqltype as T


def _array_type(name, t: T.SqlType) -> T.SqlType:
    if t.name == "Null":
        return N.array_type(N.nothing())
    if t.name != "Array":
        raise SemanticError(f"no overload satisfies `{name}({t.display()})`")
    return t


def _common_array(name):
    """Result type rule: the common array type of both arguments."""
    def rule(types):
        left, right = (_array_type(name, t) for t in types)
        elements = [N.element_of(t) for t in (left, right) if N.element_of(t).name != "Nothing"]
        return N.array_type(T.common_type(elements) if elements else N.nothing())
    return rule


def _intersection(a, b):
    available = Counter(b)
    out = []
    for x in a:
        if available[x] > 0:
            available[x] -= 1
            out.append(x)
    return N.ArrayValue(out)


def _except(a, b):
    removable = Counter(b)
    out = []
    for x in a:
        if removable[x] > 0:
            removable[x] -= 1
        else:
            out.append(x)
    return N.ArrayValue(out)


def _overlap(a, b):
    return not set(a).isdisjoint(b)


def _boolean_after_arrays(name):
    def rule(types):
        for t in types:
            _array_type(name, t)
        return T.BOOLEAN
    return rule


_SET_FUNCTIONS = {
    "array_intersection": (_intersection, _common_array("array_intersection")),
    "array_except": (_except, _common_array("array_except")),
    "array_overlap": (_overlap, _boolean_after_arrays("array_overlap")),
}
for _name, (_impl, _rule) in _SET_FUNCTIONS.items():
    register_override(_name, "Array", ScalarFunction(_name, _impl, _rule, 2, 2))


def _remove(arr, x):
    """array_remove(arr, x): arr without the elements equal to x (a NULL x removes the NULLs)."""
    if arr is None:
        return None
    return N.ArrayValue(v for v in arr if v != x)


def _remove_type(types):
    t = _array_type("array_remove", types[0])
    return t.as_nullable(types[0].nullable)


register("array_remove", _remove, _remove_type, 2, strict=False)
register("array_reverse", lambda arr: N.ArrayValue(reversed(arr)),
         lambda ts: _array_type("array_reverse", ts[0]), 1)
register("array_compact", lambda arr: N.ArrayValue(v for v in arr if v is not None),
         lambda ts: N.array_type(N.element_of(_array_type("array_compact", ts[0])).as_nullable(False)), 1)


def _zip_type(types):
    """Array(Tuple(...)) of the arrays' element types (another argument stands for itself)."""
    fields = [N.element_of(t) if t.name == "Array" else t for t in types]
    return N.array_type(T.SqlType("Tuple", args=tuple(T.NULL if f.name == "Nothing" else f for f in fields)))


def _zip(*args):
    """arrays_zip(a, b, ...): the i-th elements together; a value that is not an array (NULL
    included) is repeated; the arrays must have one length."""
    lengths = {len(a) for a in args if isinstance(a, N.ArrayValue)}
    if len(lengths) > 1:
        raise BadArguments("array length must be equal")
    length = lengths.pop() if lengths else 1
    columns = [a if isinstance(a, N.ArrayValue) else (a,) * length for a in args]
    return N.ArrayValue(N.TupleValue(row) for row in zip(*columns, strict=True))


register("arrays_zip", _zip, _zip_type, 1, 1 << 16, strict=False)

# array(a, b, ...) and tuple(a, b, ...): the function forms of [a, b, ...] and (a, b, ...)
SCALARS["array"] = SCALARS["array_literal"]
SCALARS["tuple"] = SCALARS["tuple_literal"]
