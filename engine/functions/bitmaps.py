"""BITMAP functions: to_bitmap, build_bitmap, bitmap_count (bitmap_cardinality), bitmap_contains,
bitmap_has_all, bitmap_has_any, bitmap_max, bitmap_min, bitmap_or, bitmap_and, bitmap_xor,
bitmap_not (bitmap_and_not), bitmap_subset_limit, bitmap_subset_in_range, sub_bitmap and
bitmap_to_array; CAST to and from BITMAP (to_string of a bitmap is its CAST to VARCHAR), and the
refusal to compare bitmaps. Result types, NULLs and refusals as Databend 1.2.453 answers; as the
current Databend docs for what 1.2.453 lacks (bitmap_to_array) or fails on (sub_bitmap past
the bitmap's end panics there: here it is cut at the end, as Databend now does)."""

from __future__ import annotations

from bisect import bisect_left

from engine.core.errors import BadArguments, SemanticError
from engine.core.memory import (
    ALLOCATION_CHARGE_BYTES,
    HASH_ENTRY_BYTES,
    LIST_SLOT_BYTES,
    keep,
    reserve,
)
from engine.functions.registry import register
from engine.types import bitmap_values as B
from engine.types import cast as casting
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import variant as V

BITMAP = T.BITMAP
UINT64 = T.UINT64
_COMPARISON_NAMES = {"=": "eq", "<>": "noteq", "!=": "noteq", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _folded_type(t: T.SqlType, v) -> T.SqlType:
    """The type Databend gives an argument: a constant integer's by its value (it folds 5::INT
    into the UInt8 5, -1 is an Int8)."""
    return casting.value_type(v) if type(v) is int else t


def _takes_uint64(t: T.SqlType, v) -> bool:
    """Whether Databend passes an argument as a UInt64: unsigned integers, text (converted row by
    row) and constant integers of at least 0."""
    t = _folded_type(t, v)
    return (t.is_int and t.name.startswith("U")) or t.is_string


def _signature(name: str, kinds: str, result):
    """A result rule (by value) for arguments of `kinds`: 'b' a BITMAP, 'u' a UInt64; a call
    of other types is refused as Databend refuses it (1065)."""

    def rule(types, values):
        for kind, t, v in zip(kinds, types, values, strict=True):
            if not (t.name == "Bitmap" if kind == "b" else _takes_uint64(t, v)):
                shown = ", ".join(_folded_type(a, x).display() for a, x in zip(types, values, strict=True))
                raise SemanticError(f"no overload satisfies `{name}({shown})`")
        return result(types) if callable(result) else result

    return rule


def _uint64(v) -> int:
    """A UInt64 argument's value: text read as Databend casts it (refused in its words)."""
    return casting.to_int(v, UINT64) if isinstance(v, str) else v


def _bitmap_function(name, impl, kinds, result, **options):
    register(name, impl, _signature(name, kinds, result), len(kinds), by_value=True, **options)


# ---------------------------------------------------------------- building


# memory: one number of a bitmap (its set entry and int object)
BITMAP_ELEMENT_BYTES = HASH_ENTRY_BYTES + 32
# a text of fewer characters holds under ALLOCATION_CHARGE_BYTES of numbers: not counted
BITMAP_TEXT_CHARGED = ALLOCATION_CHARGE_BYTES // BITMAP_ELEMENT_BYTES * 2


def make_to_bitmap(limits):
    limit = limits.array_elements

    def to_bitmap(v):
        if isinstance(v, str):
            if len(v) >= BITMAP_TEXT_CHARGED:  # at most one number a comma more: charged first
                reserve((v.count(",") + 1) * BITMAP_ELEMENT_BYTES)
                return keep(B.parse(v, limit))
            return B.parse(v, limit)
        return frozenset((v,))

    return to_bitmap


def _array_of_integers(types):
    t = types[0]
    element = N.element_of(t) if t.name == "Array" else None
    if element is None or not (element.is_int or element.is_string or element.name in ("Nothing", "Null")):
        raise SemanticError(f"no overload satisfies `build_bitmap({t.display()})`")
    return BITMAP


def _array_text(values) -> str:
    """An array argument as Databend shows it in an error ([-1, 2]); long arrays cut."""
    shown = [("NULL" if x is None else V.sql_literal(x) if isinstance(x, str) else str(x)) for x in values[:100]]
    return "[" + ", ".join(shown) + (", ..." if len(values) > 100 else "") + "]"


def make_build_bitmap(limits):
    limit = limits.array_elements

    def build_bitmap(values):
        if len(values) > limit:
            raise B.too_many("build_bitmap of an array", len(values), limit)
        reserve(len(values) * BITMAP_ELEMENT_BYTES * 2)  # the set, then its frozen copy
        numbers = set(values)
        numbers.discard(None)
        if numbers and isinstance(next(iter(numbers)), str):
            numbers = {casting.to_int(x, UINT64) for x in numbers}
        if numbers and min(numbers) < 0:
            raise BadArguments(f"build_bitmap just support positive integer while evaluating function "
                               f"`build_bitmap({_array_text(values)})`")
        return keep(frozenset(numbers))

    return build_bitmap


register("to_bitmap", make_to_bitmap, _signature("to_bitmap", "u", BITMAP), 1, bounded=True, by_value=True)
register("build_bitmap", make_build_bitmap, _array_of_integers, 1, bounded=True)

# ---------------------------------------------------------------- reading


def _bitmap_extreme(name, pick):
    def extreme(b):
        if not b:
            raise BadArguments(f"The bitmap is empty while evaluating function `{name}('')`")
        return pick(b)

    return extreme


def _contains(b, n):
    return _uint64(n) in b


def _has_all(b, other):
    return other <= b


def _has_any(b, other):
    return not b.isdisjoint(other)


def make_bitmap_to_array(limits):
    limit = limits.array_elements

    def bitmap_to_array(b):
        reserve(len(b) * LIST_SLOT_BYTES * 2)  # the sorted list, then the array (their ints are the bitmap's)
        return keep(N.ArrayValue(B.ascending(b, limit, "bitmap_to_array of a bitmap")))

    return bitmap_to_array


_bitmap_function("bitmap_count", len, "b", UINT64, aliases=("bitmap_cardinality",))
_bitmap_function("bitmap_contains", _contains, "bu", T.BOOLEAN)
_bitmap_function("bitmap_has_all", _has_all, "bb", T.BOOLEAN)
_bitmap_function("bitmap_has_any", _has_any, "bb", T.BOOLEAN)
_bitmap_function("bitmap_max", _bitmap_extreme("bitmap_max", max), "b", UINT64)
_bitmap_function("bitmap_min", _bitmap_extreme("bitmap_min", min), "b", UINT64)
_bitmap_function("bitmap_to_array", make_bitmap_to_array, "b", N.array_type(UINT64), bounded=True)

# ---------------------------------------------------------------- set operations and subsets

_bitmap_function("bitmap_or", frozenset.__or__, "bb", BITMAP)
_bitmap_function("bitmap_and", frozenset.__and__, "bb", BITMAP)
_bitmap_function("bitmap_xor", frozenset.__xor__, "bb", BITMAP)
_bitmap_function("bitmap_not", frozenset.__sub__, "bb", BITMAP, aliases=("bitmap_and_not",))


def _subset_limit(b, start, limit):
    """The `limit` smallest numbers of at least `start`."""
    ordered = sorted(b)
    first = bisect_left(ordered, _uint64(start))
    return frozenset(ordered[first:first + _uint64(limit)])


def _subset_in_range(b, start, end):
    """The numbers from `start` up to (not including) `end`."""
    ordered = sorted(b)
    return frozenset(ordered[bisect_left(ordered, _uint64(start)):bisect_left(ordered, _uint64(end))])


def _sub_bitmap(b, offset, length):
    """`length` numbers from the `offset`-th (0-based) in ascending order, cut at the end."""
    offset = _uint64(offset)
    return frozenset(sorted(b)[offset:offset + _uint64(length)])


_bitmap_function("bitmap_subset_limit", _subset_limit, "buu", BITMAP)
_bitmap_function("bitmap_subset_in_range", _subset_in_range, "buu", BITMAP)
_bitmap_function("sub_bitmap", _sub_bitmap, "buu", BITMAP)

# ---------------------------------------------------------------- casts and comparisons


def bitmap_cast(operand, target: T.SqlType, try_: bool, limits):
    """The conversion of a CAST to or from a BITMAP (None when neither side is one, or for a
    bitmap to a bitmap): to a BITMAP from text or an unsigned integer, from a BITMAP to text
    (its numbers) or a VARIANT (their array); every other one refused as Databend 1.2.453
    refuses it (1006), and so is every TRY_CAST but to a VARIANT (it names the target
    `Bitmap NULL`)."""
    source = operand.type
    s, t = source.name, target.name
    if "Bitmap" not in (s, t) or s in ("Null", t):
        return None
    value = operand.value if operand.is_constant else None
    limit = limits.array_elements
    if t == "Variant":  # TRY_CAST too
        return V.from_value
    if not try_:
        if t == "Bitmap" and source.is_string:
            return lambda v: B.parse(v, limit)
        if t == "Bitmap" and _takes_uint64(source, value):
            return casting.to_bitmap
        if t == "String":
            return lambda v: B.to_text(v, limit)
    shown = target.as_nullable(False).display() + (" NULL" if try_ else "")
    raise BadArguments(f"unable to cast type `{_folded_type(source, value).as_nullable(False).display()}` "
                       f"to type `{shown}`")


def _databend_name(t: T.SqlType) -> str:
    """A type as Databend names it in an overload refusal: `Bitmap NULL`, `NULL`."""
    if t.name == "Null":
        return "NULL"
    return t.as_nullable(False).display() + (" NULL" if t.nullable else "")


def check_bitmap_comparison(op: str, left: T.SqlType, right: T.SqlType) -> None:
    """Refuse comparing a BITMAP with anything (NULL too), as Databend 1.2.453 does (1065)."""
    if left.name == "Bitmap" or right.name == "Bitmap":
        name = _COMPARISON_NAMES.get(op, op)
        raise SemanticError(f"no overload satisfies `{name}({_databend_name(left)}, {_databend_name(right)})`")
