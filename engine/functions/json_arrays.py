"""The array functions on VARIANT arrays, as current Databend has them (variant.rs):
array_insert, array_distinct, array_remove, array_compact, array_reverse, array_flatten,
array_append / array_prepend, array_concat, array_contains / contains, array_indexof,
array_slice / slice, array_remove_first / _last, array_unique, length (of an array; NULL
for other values) and unnest. A VARIANT that is not an array counts as an
array of itself (array_compact and array_flatten refuse it). An element to find, add or remove
is converted to a VARIANT first (2 is the JSON 2, 'a' the JSON "a").

The ARRAY versions of these names live in engine.functions.arrays; `variant_override` picks these
when the array argument is a VARIANT."""

from __future__ import annotations

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import SCALARS, ScalarFunction, fixed, register
from engine.types import cast as casting
from engine.types import sqltype as T
from engine.types import variant as V

VARIANT = T.SqlType("Variant")


def _elements(text) -> list:
    value = V.load(text)
    return value if isinstance(value, list) else [value]


def _strict_elements(text, name: str) -> list:
    value = V.load(text)
    if not isinstance(value, list):
        raise BadArguments(f"Input argument {name} is not an array")
    return value


def _as_json(item_type: T.SqlType | None):
    """A function giving the JSON value of an argument of `item_type` (NULL is JSON null)."""
    if item_type is not None and item_type.name == "Variant":
        return lambda x: None if x is None else V.load(x)
    return lambda x: None if x is None else V.load(casting.from_value(x, item_type))


def _same(a, b) -> bool:
    """JSON equality as Databend's VARIANT comparison has it (1 = 1.0, true is not 1)."""
    return V._value_key(a) == V._value_key(b)


def _distinct(values) -> list:
    seen, out = set(), []
    for x in values:
        key = V._value_key(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def _insert(text, position, item):
    values = _elements(text)
    n = len(values)
    at = position if position >= 0 else n + position
    values.insert(min(max(at, 0), n), V.load(item))
    return V.dumps(values)


def _flatten(text):
    out = []
    for x in _strict_elements(text, "ARRAY_FLATTEN"):
        if not isinstance(x, list):
            raise BadArguments("Input argument ARRAY_FLATTEN is not an array of arrays")
        out.extend(x)
    return V.dumps(out)


def _bound(i: int, n: int) -> int:
    return i if i >= 0 else max(n + i, 0)


def _slice(text, start, end=None):
    value = V.load(text)
    if not isinstance(value, list):
        return "[]"
    n = len(value)
    stop = n if end is None else _bound(end, n)
    return V.dumps(value[_bound(start, n):max(stop, _bound(start, n))])


def _appender(types):
    item = _as_json(types[1])

    def append(text, x):
        return V.dumps(([] if text is None else _elements(text)) + [item(x)])
    return append


def _prepender(types):
    item = _as_json(types[0])

    def prepend(x, text):
        return V.dumps([item(x)] + ([] if text is None else _elements(text)))
    return prepend


def _finder(make):
    """A function of (VARIANT array, item) for the item's type."""
    def specialize(types):
        item = _as_json(types[1])
        return lambda text, x: None if text is None else make(text, item(x))
    return specialize


def _contains(text, x):
    return any(_same(v, x) for v in _elements(text))


def _indexof(text, x):
    value = V.load(text)
    if isinstance(value, list):
        for i, v in enumerate(value):
            if _same(v, x):
                return i
    return None


def _variant_result(types):
    return VARIANT


_BOOLEAN_OR_NULL = lambda types: T.BOOLEAN.as_nullable(types[0].can_be_null)  # noqa: E731
_INDEX_OR_NULL = fixed(T.UINT64.as_nullable(True))


def _fn(name, impl, result, min_args, max_args=None, strict=True, specialize=None):
    return ScalarFunction(name, impl, result, min_args, min_args if max_args is None else max_args, strict,
                          specialize=specialize)


_ONE = {  # name: implementation of one VARIANT argument
    "array_distinct": lambda t: V.dumps(_distinct(_elements(t))),
    "array_compact": lambda t: V.dumps([x for x in _strict_elements(t, "ARRAY_COMPACT") if x is not None]),
    "array_reverse": lambda t: V.dumps(_elements(t)[::-1]),
    "array_flatten": _flatten,
    "array_remove_first": lambda t: V.dumps(V.load(t)[1:] if isinstance(V.load(t), list) else []),
    "array_remove_last": lambda t: V.dumps(V.load(t)[:-1] if isinstance(V.load(t), list) else []),
}

VARIANT_ARRAY_FUNCTIONS: dict[str, tuple[int, ScalarFunction]] = {  # name: (array position, function)
    **{name: (0, _fn(name, impl, _variant_result, 1)) for name, impl in _ONE.items()},
    "length": (0, _fn("length", lambda t: len(v) if t is not None and isinstance(v := V.load(t), list) else None,
                      fixed(T.UINT32.as_nullable(True)), 1, strict=False)),
    "array_unique": (0, _fn("array_unique", lambda t: len(_distinct(_elements(t))), fixed(T.UINT64), 1)),
    "array_insert": (0, _fn("array_insert", _insert, _variant_result, 3)),
    "array_concat": (0, _fn("array_concat", lambda a, b: V.dumps(_elements(a) + _elements(b)), _variant_result, 2)),
    "array_slice": (0, _fn("slice", _slice, _variant_result, 2, 3)),
    "array_append": (0, _fn("array_append", None, fixed(VARIANT), 2, strict=False, specialize=_appender)),
    "array_prepend": (1, _fn("array_prepend", None, fixed(VARIANT), 2, strict=False, specialize=_prepender)),
    "array_remove": (0, _fn("array_remove", None, fixed(VARIANT.as_nullable(True)), 2, strict=False,
                            specialize=_finder(lambda t, x: V.dumps([v for v in _elements(t) if not _same(v, x)])))),
    "array_contains": (0, _fn("contains", None, _BOOLEAN_OR_NULL, 2, strict=False,
                              specialize=_finder(_contains))),
    "array_indexof": (0, _fn("array_indexof", None, _INDEX_OR_NULL, 2, strict=False,
                             specialize=_finder(_indexof))),
}
_ALIASES = {"slice": "array_slice", "contains": "array_contains", "json_array_insert": "array_insert",
            "json_array_distinct": "array_distinct"}


def variant_override(name: str, types) -> ScalarFunction | None:
    """The VARIANT version of an array function when its array argument is a VARIANT, else None."""
    if name == "unnest" and types and types[0].name == "Variant":
        # the elements of a VARIANT array, one row each (none for another value): the planner
        # spreads the call itself, as it spreads json_array_elements (engine.plan.unnest)
        return SCALARS["json_array_elements"]
    entry = VARIANT_ARRAY_FUNCTIONS.get(_ALIASES.get(name, name))
    if entry is None:
        return None
    position, fn = entry
    if len(types) > position and types[position].name == "Variant":
        return fn
    return None


def _variant_only(name):
    """A function that exists for VARIANT arrays only: other arguments are refused (1065)."""
    fn = VARIANT_ARRAY_FUNCTIONS[name][1]

    def result(types):
        if not types or types[0].name not in ("Variant", "Null"):
            shown = ", ".join(t.display() for t in types)
            raise SemanticError(f"no overload satisfies `{name}({shown})`")
        return fn.result(types)
    return result


register("array_insert", _insert, _variant_only("array_insert"), 3, aliases=("json_array_insert",))
register("json_array_distinct", _ONE["array_distinct"], _variant_only("array_distinct"), 1)
