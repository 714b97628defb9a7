"""BITMAP aggregates: bitmap_and_count, bitmap_or_count, bitmap_xor_count, bitmap_not_count,
bitmap_union, bitmap_intersect (bitmap_or_agg, bitmap_and_agg), bitmap_xor_agg,
bitmap_construct_agg(x) of unsigned integers, intersect_count(v1, ...)(bitmap, key), and MIN / MAX
of bitmaps.

A group's bitmaps are folded into one set as rows arrive (engine.exec.aggregate calls the aggregate's
Folder per row, or per batch without GROUP BY): no list of the group's bitmaps is kept, and the
numbers the group's set gains are counted for the memory guard. As Databend 1.2.453: the first
bitmap of a group starts its set and each later one is and-ed, or-ed, xor-ed or subtracted in;
rows whose arguments are NULL are skipped, and a group without any other row answers NULL (every
result is nullable); intersect_count and-s the bitmaps of the rows whose key is one of its
parameters (0 when none is)."""

from __future__ import annotations

import decimal
from dataclasses import dataclass

from engine.core.errors import (
    NUMBER_ARGUMENTS_NOT_MATCH,
    BadDataValueType,
    EngineError,
    InvalidArgument,
)
from engine.functions.collected import Collected
from engine.functions.registry import AggSpec
from engine.types import bitmap_values as B
from engine.types import cast as casting
from engine.types import sqltype as T
from engine.types.type_debug import rust_debug

_SET_OPS = {"and": set.intersection_update, "or": set.update, "not": set.difference_update,
            "xor": set.symmetric_difference_update}


class _State:
    """A group's fold: its set of numbers (None until a bitmap is folded in), and for DISTINCT
    the bitmaps folded so far."""

    __slots__ = ("numbers", "seen")

    def __init__(self, numbers):
        self.numbers = numbers
        self.seen = None


class SetFolder:
    """Folds one aggregate's bitmaps into per-group states (`fold` a row, `fold_many` a batch's
    non-NULL values); `grown` counts the numbers the states gained since the executor charged
    them. keys: intersect_count's parameters (its rows are (bitmap, key) pairs), else None."""

    __slots__ = ("grown", "_apply", "_count", "_keys", "_distinct", "_variadic")

    def __init__(self, op: str, count: bool, keys=None, distinct: bool = False):
        self.grown = 0
        self._apply = _SET_OPS[op]
        self._variadic = op != "xor"  # set.symmetric_difference_update takes one set
        self._count = count
        self._keys = keys
        # and / or of a bitmap seen before changes nothing: DISTINCT matters to xor and not only
        self._distinct = distinct and op in ("xor", "not")

    def fold(self, state, v):
        keys = self._keys
        if keys is not None:
            if v[0] is None or v[1] is None:
                return state
            if state is None:
                state = _State(None)  # a row counted: the group answers a number, if only 0
            if v[1] not in keys:
                return state
            v = v[0]
        elif v is None:
            return state
        if self._distinct:
            if state is None:
                state = _State(None)
            if state.seen is None:
                state.seen = set()
            elif v in state.seen:
                return state
            state.seen.add(v)
            self.grown += len(v) + 1  # the bitmap is held by the fold now, perhaps only there
        if state is None:
            self.grown += len(v)
            return _State(set(v))
        numbers = state.numbers
        if numbers is None:
            state.numbers = set(v)
            self.grown += len(v)
            return state
        before = len(numbers)
        self._apply(numbers, v)
        if len(numbers) > before:
            self.grown += len(numbers) - before
        return state

    def fold_many(self, state, values: list):
        """Fold a batch's values (no NULL among plain bitmaps): one C-level call per batch."""
        if self._keys is not None or self._distinct or not self._variadic or not values:
            for v in values:
                state = self.fold(state, v)
            return state
        if state is None or state.numbers is None:
            state = self.fold(state, values[0])
            values = values[1:]
        numbers = state.numbers
        before = len(numbers)
        self._apply(numbers, *values)
        if len(numbers) > before:
            self.grown += len(numbers) - before
        return state

    def final(self, state):
        if state is None:
            return None
        numbers = state.numbers
        if self._count:
            return 0 if numbers is None else len(numbers)
        return B.EMPTY if numbers is None else frozenset(numbers)


class ExtremeFolder:
    """MIN / MAX of bitmaps, in the order of the bytes Databend 1.2.453 stores them as (a
    group holds its best (bytes, bitmap) pair)."""

    __slots__ = ("grown", "_smallest")

    def __init__(self, smallest: bool):
        self.grown = 0
        self._smallest = smallest

    def fold(self, state, v):
        if v is None:
            return state
        key = B.serialized(v)
        if state is None or (key < state[0] if self._smallest else key > state[0]):
            return (key, v)
        return state

    def fold_many(self, state, values: list):
        for v in values:
            state = self.fold(state, v)
        return state

    def final(self, state):
        return None if state is None else state[1]


class ConstructFolder:
    """bitmap_construct_agg(x): the group's unsigned integers gathered into one set (NULLs
    skipped; a group without any other row answers NULL)."""

    __slots__ = ("grown",)

    def __init__(self):
        self.grown = 0

    def fold(self, state, v):
        if v is None:
            return state
        if state is None:
            state = _State(set())
        if v not in state.numbers:
            state.numbers.add(v)
            self.grown += 1
        return state

    def fold_many(self, state, values: list):
        for v in values:
            state = self.fold(state, v)
        return state

    def final(self, state):
        return None if state is None else frozenset(state.numbers)


@dataclass(frozen=True)
class BitmapAggregate:
    """op: how bitmaps fold (and, or, xor, not; min, max); count: the result is the size of the
    folded set (UInt64), else the set (Bitmap); keyed: intersect_count's (bitmap, key) rows."""

    name: str
    op: str
    count: bool
    keyed: bool = False

    def folder(self, params: tuple, distinct: bool):
        if self.op in ("min", "max"):
            return ExtremeFolder(self.op == "min")
        if self.op == "construct":
            return ConstructFolder()
        return SetFolder(self.op, self.count, frozenset(params) if self.keyed else None, distinct)

    def collected(self) -> Collected:
        """The aggregate over a window frame's values (engine.exec.window_functions)."""

        def final(values, params):
            folder = self.folder(params, False)
            state = None
            for v in values:
                state = folder.fold(state, v)
            return folder.final(state)

        return Collected(self.name, (2, 2) if self.keyed else (1, 1), None, final)


BITMAP_AGGREGATES = {a.name: a for a in [
    BitmapAggregate("bitmap_and_count", "and", True),
    BitmapAggregate("bitmap_or_count", "or", True),
    BitmapAggregate("bitmap_xor_count", "xor", True),
    BitmapAggregate("bitmap_not_count", "not", True),
    BitmapAggregate("bitmap_union", "or", False),
    BitmapAggregate("bitmap_intersect", "and", False),
    BitmapAggregate("intersect_count", "and", True, keyed=True),
    # the current Databend's names: bitmap_and_agg / bitmap_or_agg are bitmap_intersect / union
    BitmapAggregate("bitmap_and_agg", "and", False),
    BitmapAggregate("bitmap_or_agg", "or", False),
    BitmapAggregate("bitmap_xor_agg", "xor", False),
    BitmapAggregate("bitmap_construct_agg", "construct", False),
]}
_EXTREMES = {"min": BitmapAggregate("min", "min", False), "max": BitmapAggregate("max", "max", False)}
_UINT64_OR_NULL = T.UINT64.as_nullable(True)


def _argument_count(message: str) -> EngineError:
    return EngineError(message, code=NUMBER_ARGUMENTS_NOT_MATCH)


def bitmap_aggregate_spec(node, bind, bind_constant) -> AggSpec:
    """The AggSpec of a BITMAP aggregate call; `bind` binds an argument, `bind_constant` a
    parameter (an Expr, constant or not). Refusals as Databend 1.2.453 words them."""
    name = node.name
    entry = BITMAP_AGGREGATES[name]
    count = 0 if node.star else len(node.args)
    if entry.keyed:
        return _intersect_count_spec(node, entry, bind, bind_constant)
    if count != 1:
        raise _argument_count(f"{name} expect to have single arguments, but got {count}")
    arg = bind(node.args[0])
    if entry.op == "construct":  # of unsigned integers, not of bitmaps
        if not (arg.type.is_int and arg.type.name.startswith("U")) and arg.type.name != "Null":
            raise BadDataValueType(f"{name} does not support type '{rust_debug(arg.type.as_nullable(False))}'",
                                   position=node.pos)
        return AggSpec(name, arg, node.distinct, T.BITMAP.as_nullable(True), folded=entry)
    if arg.type.name != "Bitmap":
        raise BadDataValueType(f"{name} does not support type '{rust_debug(arg.type.as_nullable(False))}'",
                               position=node.pos)
    t = _UINT64_OR_NULL if entry.count else T.BITMAP.as_nullable(True)
    return AggSpec(name, arg, node.distinct, t, folded=entry)


def _intersect_count_spec(node, entry, bind, bind_constant) -> AggSpec:
    name = node.name
    count = 0 if node.star else len(node.args)
    if count != 2:
        raise _argument_count(f"{name} expect to have 2 arguments, but got {count}")
    if not 1 <= len(node.params) <= 32:
        raise _argument_count(f"{name} expect to have [1, 32] params, but got {len(node.params)}")
    bitmap, key = bind(node.args[0]), bind(node.args[1])
    if bitmap.type.name != "Bitmap":
        raise BadDataValueType(f"{name} the first argument type mismatch, expect: 'Bitmap', but got: "
                               f"'{rust_debug(bitmap.type.as_nullable(False))}'", position=node.pos)
    key_type = key.type.as_nullable(False)
    keys = tuple(_key_value(name, key_type, bind_constant(p), i, node.pos) for i, p in enumerate(node.params))
    return AggSpec(name, bitmap, node.distinct, _UINT64_OR_NULL, extra=(key,), params=keys, folded=entry)


def _key_value(name, key_type: T.SqlType, param, index: int, pos):
    """A parameter of intersect_count as a value of the key column's type: numbers cast as
    Databend casts them (a Decimal truncated into an integer), other types taken only as they
    are (a Decimal by its digits at the key's scale, as Databend compares decimals)."""
    value = param.value if param.is_constant else None
    if key_type.is_int or key_type.is_float:
        try:
            if value is None or not isinstance(value, (int, float, str, decimal.Decimal)):
                raise InvalidArgument("Need constant number")
            if key_type.is_float:
                return casting.to_float(value)
            if isinstance(value, decimal.Decimal):
                value = int(value)  # Databend 1.2.453 truncates: intersect_count(1.9)(b, k) is k = 1
            return casting.to_int(value, key_type)
        except EngineError:
            raise InvalidArgument("Need constant number", position=pos) from None
    if param.type.name != key_type.name or not param.is_constant or key_type.name == "Null":
        raise BadDataValueType(f"{name} param({index}) type mismatch, expect: '{rust_debug(key_type)}', "
                               f"but got: '{rust_debug(param.type.as_nullable(False))}'", position=pos)
    if key_type.name == "Decimal":
        digits = int(value.scaleb(param.type.scale))
        return decimal.Decimal(digits).scaleb(-key_type.scale)
    return value


def bitmap_extreme(name: str, arg) -> AggSpec | None:
    """The AggSpec of MIN / MAX of a BITMAP argument (None for other aggregates and types)."""
    if name not in _EXTREMES or arg.type.name != "Bitmap":
        return None
    return AggSpec(name, arg, False, arg.type.as_nullable(True), folded=_EXTREMES[name])
