"""ARRAY, MAP and TUPLE functions: the literal constructors, [] access, array_* and map_*
functions, range and split; result types as Databend's (engine.types.nested holds the values)."""

from __future__ import annotations

import decimal
import json
import math

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import ScalarFunction, fixed, register
from engine.runtime.bounded import make_range, make_split, range_elements
from engine.types import cast as casting
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types.integer_wrap import total_wrapper, wrapped_mean
from engine.types.variant import order_key

# ---------------------------------------------------------------- literals


def _array_literal_type(types):
    return N.array_type(N.common_element_type(types))


def _converter(source: T.SqlType, target: T.SqlType):
    """A function converting a non-NULL value of `source` to `target`, or None when the value
    is already right (integers into a wider integer type)."""
    s, t = source.as_nullable(False), target.as_nullable(False)
    if s == t or t.name in ("Nothing", "Null") or s.name in ("Nothing", "Null") or (s.is_int and t.is_int) \
            or (t.is_float and (s.is_int or s.is_float) and not (t.name == "Float32" and s.name != "Float32")):
        return None
    return casting.caster(t)


def _make_array_literal(types):
    element = N.common_element_type(types)
    converters = [_converter(t, element) for t in types]
    if not any(converters):
        return lambda *xs: N.ArrayValue(xs)

    def build(*xs):
        return N.ArrayValue(x if x is None or c is None else c(x) for c, x in zip(converters, xs, strict=True))
    return build


def _map_literal_type(types):
    if len(types) % 2:
        raise BadArguments("a map literal needs a value for each key")
    if not types:
        return T.SqlType("Map", args=(N.nothing(),))
    key = T.common_type(types[0::2]).as_nullable(False)
    return N.map_type(key, T.common_type(types[1::2]))


def _make_map_literal(types):
    if not types:
        return lambda: N.MapValue()
    t = _map_literal_type(types)
    converters = [_converter(a, part) for a, part in zip(types, t.args * (len(types) // 2), strict=True)]

    def build(*xs):
        xs = [x if x is None or c is None else c(x) for c, x in zip(converters, xs, strict=True)]
        keys = xs[0::2]
        if len(set(keys)) != len(keys):
            raise BadArguments("map keys have to be unique")
        return N.MapValue(zip(keys, xs[1::2], strict=True))
    return build


RANGE_ROWS = "_range_rows"  # unnest(range(a, b)): the elements spread with no array built

# the functions [..], {..} and (.., ..) are built with (not listed by SHOW FUNCTIONS)
LITERAL_BUILDERS = frozenset({"array_literal", "map_literal", "tuple_literal"})
# bound by engine.bind.lambdas (their second argument is a lambda), listed with the others
LAMBDA_FUNCTIONS = frozenset({"array_transform", "array_apply", "array_filter", "array_reduce"}) | frozenset({
    "map_filter", "map_transform_keys", "map_transform_values",  # (k, v) -> ... (engine.bind.map_lambdas)
    "json_array_transform", "json_array_apply", "json_array_filter", "json_array_reduce",
    "json_map_filter", "json_map_transform_keys", "json_map_transform_values"})

# array(a, b) / tuple(a, b): the function forms of [a, b] / (a, b)
register("array_literal", None, _array_literal_type, 0, 1 << 16, strict=False, specialize=_make_array_literal,
         aliases=("array",))
register("map_literal", None, _map_literal_type, 0, 1 << 16, strict=False, specialize=_make_map_literal)
def _map_of_arrays_type(types):
    keys, values = _element(types, 0), _element(types, 1)
    if keys.name == "Nothing":
        return T.SqlType("Map", args=(N.nothing(),))
    return N.map_type(keys.as_nullable(False), values)


def _checked_map_of_arrays_type(types):
    if types[0].name != "Array" or types[1].name != "Array":
        raise SemanticError(f"no overload satisfies `map({', '.join(t.display() for t in types)})`")
    return _map_of_arrays_type(types)


def _map_of_arrays(keys, values):
    if len(keys) != len(values):
        raise BadArguments(f"key list has a different size from value list ({len(keys)} keys, "
                           f"{len(values)} values)")
    if len(set(keys)) != len(keys):
        raise BadArguments("map keys have to be unique")
    return N.MapValue(zip(keys, values, strict=True))


register("map", _map_of_arrays, lambda ts: _checked_map_of_arrays_type(ts), 2)
register("tuple_literal", lambda *xs: N.TupleValue(xs), lambda types: T.SqlType("Tuple", args=tuple(types)),
         1, 1 << 16, strict=False, aliases=("tuple",))

# ---------------------------------------------------------------- [] access


def _array_at(arr, index):
    """arr[i], 1-based; NULL out of range."""
    if arr is None or index is None:
        return None
    i = int(index)
    return arr[i - 1] if 1 <= i <= len(arr) else None


def _map_at(m, key):
    return None if m is None else m.get(key)


def _tuple_position(t: T.SqlType, key) -> int:
    """The 0-based field `key` names in the tuple type t: a position (tup.1, tup[1]) or, as
    Databend reads `tup:a` and `tup['a']`, a field name (an unnamed tuple's are "1", "2"...)."""
    if isinstance(key, str):
        names = N.field_names(t)
        if key not in names:
            shown = ", ".join(json.dumps(n, ensure_ascii=False) for n in names)
            raise SemanticError(f"tuple name `{key}` does not exist, available names are: [{shown}]")
        return names.index(key)
    if not isinstance(key, int) or isinstance(key, bool):
        raise SemanticError("a tuple index must be an integer constant")
    if key == 0:
        raise SemanticError("tuple index is starting from 1, but 0 is found")
    if not 1 <= key <= len(t.args):
        raise SemanticError(f"tuple index {key} is out of bounds for length {len(t.args)}")
    return key - 1


def _tuple_field_type(types, values):
    t = types[0]
    field = t.args[_tuple_position(t, values[1])]
    return field.as_nullable(field.nullable or t.nullable)


def _tuple_getter(types):
    """tup[key] for tuples of types[0]: the constant key (checked by _tuple_field_type) is a
    position or a field name, turned into an index once per call site."""
    t = types[0]
    positions = {name: i for i, name in enumerate(N.field_names(t))} if t.name == "Tuple" else {}

    def tuple_at(tup, key):
        if tup is None:
            return None
        return tup[positions[key] if isinstance(key, str) else int(key) - 1]

    return tuple_at


_ARRAY_AT = ScalarFunction("get", _array_at, lambda ts: N.element_of(ts[0]).as_nullable(True), 2, 2, strict=False)
_MAP_AT = ScalarFunction("get", _map_at, lambda ts: N.map_parts(ts[0])[1].as_nullable(True), 2, 2, strict=False)
_TUPLE_AT = ScalarFunction("get", _tuple_getter([T.NULL]), _tuple_field_type, 2, 2, strict=False, by_value=True,
                           specialize=_tuple_getter)

# ---------------------------------------------------------------- array functions


class _NoOverload(Exception):
    """An argument of the wrong kind: `_register` words it as Databend does (error 1065)."""


def _array(types, i=0):
    t = types[i]
    if t.name == "Null":  # a NULL array (non-strict functions see it): answered NULL
        return N.array_type(N.nothing())
    if t.name != "Array":
        raise _NoOverload
    return t


def _same_array(types):
    return _array(types)


def _element(types, i=0):
    return N.element_of(_array(types, i))


def _concat_type(types):
    return N.array_type(T.common_type([_element(types, 0), _element(types, 1)]))


def _contains(arr, x):
    """Whether x is an element; for a NULL x, TRUE when the array holds a NULL, else NULL."""
    if x is None:
        return True if None in arr else None
    return x in arr


def _distinct(arr):
    return N.ArrayValue(dict.fromkeys(x for x in arr if x is not None))


def _sort_key(nulls_first: bool):
    return lambda x: (0 if nulls_first else 1, 0) if x is None else (1 if nulls_first else 0, x)


def _sort(arr, order="ASC", nulls=None, key=None):
    descending = str(order).strip().upper() == "DESC"
    if str(order).strip().upper() not in ("ASC", "DESC"):
        raise SemanticError("Sorting order must be either ASC or DESC")
    if nulls is not None and str(nulls).strip().upper() not in ("NULLS FIRST", "NULLS LAST"):
        raise SemanticError("Null sorting order must be either NULLS FIRST or NULLS LAST")
    nulls_first = True if nulls is None else str(nulls).strip().upper() == "NULLS FIRST"
    values = sorted((x for x in arr if x is not None), key=key, reverse=descending)
    none = [None] * (len(arr) - len(values))
    return N.ArrayValue(none + values if nulls_first else values + none)


def _slice(arr, start, end=None):
    n = len(arr)
    start = int(start)
    begin = start - 1 if start > 0 else max(n + start, 0) if start < 0 else 0
    if end is None:
        return N.ArrayValue(arr[begin:])
    end = int(end)
    stop = end if end >= 0 else n + end + 1
    return N.ArrayValue(arr[begin:max(stop, begin)])


def _indexof(arr, x):
    for i, v in enumerate(arr, 1):
        if v == x:
            return i
    return 0


def _to_string(arr, sep):
    return str(sep).join(casting.to_string(x) for x in arr if x is not None)


def _flatten(arr):
    return N.ArrayValue(x for inner in arr if inner is not None for x in inner)


def _flatten_type(types):
    inner = _element(types)
    if inner.name != "Array":
        raise _NoOverload
    return inner.as_nullable(False)


def _append_type(types):
    return N.array_type(T.common_type([_element(types), types[1]]))


def _prepend_type(types):
    return N.array_type(T.common_type([types[0], _element(types, 1)]))


def _numeric_element(types, name):
    t = _element(types)
    if not (t.is_numeric or t.name in ("Nothing", "Null")):
        raise _NoOverload
    return t


def _sum_type(types):
    t = _numeric_element(types, "array_sum").as_nullable(False)
    if t.is_int:
        return (T.UINT64 if t.name.startswith("U") else T.INT64).as_nullable(True)
    if t.name == "Decimal":
        return T.SqlType("Decimal", True, 38 if t.precision <= 38 else 76, t.scale)
    if t.name == "Nothing":
        return T.NULL
    return T.FLOAT64.as_nullable(True)


def _array_sum(arr):
    values = [x for x in arr if x is not None]
    if not values:
        return None
    if any(isinstance(x, float) for x in values):
        return math.fsum(float(x) for x in values)
    return sum(values)


def _array_avg(arr):
    values = [x for x in arr if x is not None]
    if not values:
        return None
    return math.fsum(float(x) for x in values) / len(values)


def _avg_type(types):
    """Float64, or for Decimal(p, s) elements a Decimal of scale max(s, 4) (as Databend)."""
    t = _numeric_element(types, "array_avg").as_nullable(False)
    if t.name == "Decimal":
        return T.SqlType("Decimal", True, 38 if t.precision <= 38 else 76, max(t.scale, 4))
    return T.FLOAT64.as_nullable(True)


def _or_null(fn):
    """fn(arr), NULL for a NULL array."""
    return lambda a: None if a is None else fn(a)


def _make_sum(types):
    """array_sum of integers: the total wrapped into Int64 / UInt64, as Databend's."""
    total = total_wrapper(_element(types).as_nullable(False))
    if total is None:
        return _array_sum
    return lambda arr: total(_array_sum(arr))


def _make_avg(result: T.SqlType, types):
    mean = wrapped_mean(_element(types).as_nullable(False))
    if mean is not None:  # integers: the wrapped total over the count, as Databend's
        return lambda arr: mean(sum(values := [x for x in arr if x is not None]), len(values))
    if result.name != "Decimal":
        return _array_avg
    quantum = decimal.Decimal(1).scaleb(-result.scale)

    def average(arr):
        values = [x for x in arr if x is not None]
        if not values:
            return None
        return (sum(values, decimal.Decimal(0)) / len(values)).quantize(quantum, rounding=decimal.ROUND_HALF_UP)
    return average


def _array_min(arr):
    values = [x for x in arr if x is not None]
    return min(values) if values else None


def _array_max(arr):
    values = [x for x in arr if x is not None]
    return max(values) if values else None


def _range_rows(start, end):
    """range(start, end) as unnest spreads it (engine.exec.unnest): a lazy sequence, never built, so
    only Databend's bound applies, not array_elements."""
    range_elements(start, end)
    return range(int(start), int(end))


def _map(types, name):
    if types[0].name != "Map":
        raise _NoOverload
    return N.map_parts(types[0])


def _map_cat_type(types):
    """map_cat(a, b): the common map type ({} is a Map(Nothing) and takes the other's)."""
    _map(types, "map_cat"), _map(types[1:], "map_cat")
    empty = [t for t in types if t.args and t.args[0].name == "Nothing"]
    if len(empty) == 2:
        return types[0]
    if empty:
        return types[1] if types[0] in empty else types[0]
    (ka, va), (kb, vb) = N.map_parts(types[0]), N.map_parts(types[1])
    return N.map_type(T.common_type([ka, kb]).as_nullable(False), T.common_type([va, vb]))


def _make_map_cat(types):
    """map_cat(a, b): a's pairs then b's, a key of both taking b's value in a's place; keys and
    values converted to the common type."""
    key, value = N.map_parts(_map_cat_type(types))
    converters = [(_converter(k, key), _converter(v, value)) for k, v in map(N.map_parts, types)]

    def pairs(m, convert_key, convert_value):
        for k, v in iter(m):  # (a MapValue has keys(): dict(m) would index it)
            yield (k if convert_key is None else convert_key(k),
                   v if v is None or convert_value is None else convert_value(v))

    return lambda a, b: N.MapValue({**dict(pairs(a, *converters[0])), **dict(pairs(b, *converters[1]))}.items())


def _nullable_boolean(types):
    _array(types)
    return T.BOOLEAN.as_nullable(types[0].can_be_null)


_ELEMENT_OR_NULL = lambda types: _element(types).as_nullable(True)  # noqa: E731

def _integers(types, result):
    if not all(t.is_int for t in types):
        raise _NoOverload
    return result


def _register(name, impl, rule, *args, **options):
    """register(), with an argument of the wrong kind refused as Databend refuses it."""
    def checked(types, *values):
        try:
            return rule(types, *values)
        except _NoOverload:
            shown = ", ".join(t.display() for t in types)
            raise SemanticError(f"no overload satisfies `{name}({shown})`") from None
    register(name, impl, checked, *args, **options)


def _after_array(t: T.SqlType):
    """Result type rule: `t`, once the first argument is an array."""
    return lambda types: (_array(types), t)[1]


_register("array_length", len, _after_array(T.UINT64), 1, aliases=("array_size",))
_register("array_contains", _contains, _nullable_boolean, 2, strict=False, specialize=lambda ts: _null_array(_contains))
_register("array_concat", lambda a, b: N.ArrayValue(a + b), _concat_type, 2,
         specialize=lambda ts: _converting_concat(ts))
_register("array_distinct", _distinct, _same_array, 1)
_register("array_sort", _sort, _same_array, 1, 3)
_register("array_slice", _slice, _same_array, 2, 3, aliases=("slice",))
_register("array_indexof", _indexof, lambda ts: (_array(ts), T.UINT64.as_nullable(ts[0].can_be_null))[1], 2,
          strict=False, specialize=lambda ts: _null_array(_indexof))
_register("array_to_string", _to_string, _after_array(T.STRING), 2)
_register("array_flatten", _flatten, _flatten_type, 1)
# (a NULL array is an empty one: array_append(NULL, 1) is [1])
_register("array_append", lambda a, x: N.ArrayValue((*(a or ()), x)), _append_type, 2, strict=False)
_register("array_prepend", lambda x, a: N.ArrayValue((x, *(a or ()))), _prepend_type, 2, strict=False)
_register("array_remove_first", lambda a: N.ArrayValue(a[1:]), _same_array, 1)
_register("array_remove_last", lambda a: N.ArrayValue(a[:-1]), _same_array, 1)
_register("array_unique", lambda a: len({x for x in a if x is not None}), _after_array(T.UINT64), 1)
_register("array_count", lambda a: sum(1 for x in a if x is not None), _after_array(T.UINT64), 1)
# NULL for an empty array too, whatever the argument's nullability: not `strict` (which would
# tell the planner a non-NULL array gives a non-NULL answer: array_sum(arr) > 1 compared None)
_register("array_sum", _or_null(_array_sum), _sum_type, 1, strict=False,
          specialize=lambda ts: _or_null(_make_sum(ts)))
_register("array_avg", _or_null(_array_avg), _avg_type, 1, strict=False,
          specialize=lambda ts: _or_null(_make_avg(_avg_type(ts), ts)))
_register("array_min", _or_null(_array_min), _ELEMENT_OR_NULL, 1, strict=False)
_register("array_max", _or_null(_array_max), _ELEMENT_OR_NULL, 1, strict=False)
# unnest(arr) in a SELECT list: the array itself here, spread over rows by the planner (engine.exec.unnest)
_register("unnest", lambda a: a, lambda ts: T.NULL if ts[0].name == "Null" else
         (N.element_of(ts[0]) if N.element_of(ts[0]).name != "Nothing" else T.NULL).as_nullable(True), 1,
         strict=False, volatile=True)  # never folded: the planner must see the call
_register("range", make_range, lambda ts: _integers(ts, N.array_type(T.UINT64)), 2, 3, bounded=True)
_register(RANGE_ROWS, _range_rows, lambda ts: _integers(ts, N.array_type(T.UINT64)), 2)
_register("split", make_split, fixed(N.array_type(T.STRING)), 2, bounded=True)
_register("map_keys", lambda m: m.keys(), lambda ts: N.array_type(_map(ts, "map_keys")[0]), 1)
_register("map_values", lambda m: m.values(), lambda ts: N.array_type(_map(ts, "map_values")[1]), 1)
_register("map_size", len, lambda ts: (_map(ts, "map_size"), T.UINT64)[1], 1)
_register("map_cat", None, lambda ts: _map_cat_type(ts), 2, specialize=lambda ts: _make_map_cat(ts))
_register("map_contains_key", lambda m, k: any(key == k for key, _ in m),
         lambda ts: (_map(ts, "map_contains_key"), T.BOOLEAN)[1], 2)


def _null_array(fn):
    """fn(arr, x) answering NULL for a NULL array (x may be NULL)."""
    return lambda a, x: None if a is None else fn(a, x)


def _converting_concat(types):
    target = _concat_type(types)
    element = N.element_of(target)
    left = _converter(N.element_of(types[0]), element)
    right = _converter(N.element_of(types[1]), element)
    if left is None and right is None:
        return lambda a, b: N.ArrayValue(a + b)

    def concat(a, b):
        a = a if left is None else tuple(x if x is None else left(x) for x in a)
        b = b if right is None else tuple(x if x is None else right(x) for x in b)
        return N.ArrayValue(a + b)
    return concat


# functions of another family whose arrays and maps this module answers
_OVERRIDES = {
    ("length", "Array"): ScalarFunction("length", len, fixed(T.UINT64), 1, 1),
    ("contains", "Array"): ScalarFunction("contains", _null_array(_contains), _nullable_boolean, 2, 2, strict=False),
    ("json_subscript", "Array"): _ARRAY_AT,
    ("json_subscript", "Map"): _MAP_AT,
    ("json_subscript", "Tuple"): _TUPLE_AT,
    ("get", "Array"): _ARRAY_AT,
    ("get", "Map"): _MAP_AT,
}


def register_override(name: str, kind: str, fn: ScalarFunction) -> None:
    """Another module's version of `name` for a first argument of `kind` (Array, Map, Tuple)."""
    _OVERRIDES[(name, kind)] = fn


def _sort_variants(arr, order="ASC", nulls=None):
    """array_sort of VARIANT values in Databend's order of them (booleans, numbers, strings,
    objects, arrays, null), not as their JSON texts."""
    return _sort(arr, order, nulls, key=order_key)


_VARIANT_SORT = ScalarFunction("array_sort", _sort_variants, _same_array, 1, 3)


def nested_override(name: str, types) -> ScalarFunction | None:
    """This module's version of `name` when its first argument is an Array, Map or Tuple."""
    if not types or types[0].name not in T.NESTED_NAMES:
        return None
    if name == "array_sort" and types[0].args and types[0].args[0].name == "Variant":
        return _VARIANT_SORT
    return _OVERRIDES.get((name, types[0].name))



_COMPARISON_NAMES = {"=": "eq", "<>": "noteq", "!=": "noteq", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def check_nested_comparison(op: str, left: T.SqlType, right: T.SqlType) -> None:
    """Refuse, as Databend does, comparing maps, or a nested value with a value of another kind."""
    kinds = {t.name for t in (left, right) if t.name != "Null"}
    if not kinds & T.NESTED_NAMES:
        return
    if "Map" in kinds or len(kinds) > 1:
        name = _COMPARISON_NAMES.get(op, op)
        raise SemanticError(f"no overload satisfies `{name}({left.display()}, {right.display()})`")
