"""ARRAY, MAP and TUPLE values: their Python form and the rules of their types.

An ARRAY is an `ArrayValue` (a tuple of its elements), a TUPLE a `TupleValue` (a tuple of its
fields), a MAP a `MapValue` (a tuple of (key, value) pairs, keys unique, in insertion order). All
three are tuples, so they hash (GROUP BY, DISTINCT) and compare element by element. Their casts
live in engine.types.cast, their wire text in engine.types.render."""

from __future__ import annotations

import functools

from engine.types import sqltype as T


def _order_key(v) -> tuple:
    """Elements in Databend's order: NULL before every value (so [1, NULL] < [1, 2])."""
    return tuple((0, 0) if x is None else (1, x) for x in v)


class _Ordered(tuple):
    """A tuple ordered as Databend orders nested values (Python cannot compare None and 1)."""

    __slots__ = ()

    def __lt__(self, other):
        return _order_key(self) < _order_key(other)

    def __le__(self, other):
        return _order_key(self) <= _order_key(other)

    def __gt__(self, other):
        return _order_key(self) > _order_key(other)

    def __ge__(self, other):
        return _order_key(self) >= _order_key(other)

    __hash__ = tuple.__hash__


class ArrayValue(_Ordered):
    __slots__ = ()


class TupleValue(_Ordered):
    __slots__ = ()


class MapValue(_Ordered):
    """(key, value) pairs."""

    __slots__ = ()

    def get(self, key):
        for k, v in self:
            if k == key:
                return v
        return None

    def keys(self):
        return ArrayValue(k for k, _ in self)

    def values(self):
        return ArrayValue(v for _, v in self)


NESTED_VALUE_TYPES = (ArrayValue, TupleValue, MapValue)


@functools.cache
def nothing() -> T.SqlType:
    """The element type of `[]` and `{}`."""
    return T.SqlType("Nothing")


def array_type(element: T.SqlType) -> T.SqlType:
    return T.SqlType("Array", args=(element,))


def map_type(key: T.SqlType, value: T.SqlType) -> T.SqlType:
    return T.SqlType("Map", args=(key, value))


def element_of(t: T.SqlType) -> T.SqlType:
    """The element type of an Array (Nothing for `[]`)."""
    return t.args[0] if t.name == "Array" and t.args else nothing()


def map_parts(t: T.SqlType) -> tuple[T.SqlType, T.SqlType]:
    """(key type, value type) of a Map; `{}` is Map(Nothing)."""
    if t.name == "Map" and len(t.args) == 2:
        return t.args
    return nothing(), nothing()


def field_names(t: T.SqlType) -> tuple:
    """The names of a tuple type's fields: as written in a table's DDL (TUPLE(a INT, b STRING)),
    else "1", "2"... (Databend names the fields of every other tuple so)."""
    return t.field_names or tuple(str(i) for i in range(1, len(t.args) + 1))


def unnamed(t: T.SqlType) -> T.SqlType:
    """t without tuple field names at any depth: a value computed from named tuples (a CAST, a
    CREATE TABLE AS column) has none, as Databend keeps names only on table columns."""
    if not t.args:
        return t
    return T.SqlType(t.name, t.nullable, args=tuple(unnamed(a) for a in t.args), state=t.state)


def common_element_type(types) -> T.SqlType:
    """The element type of an array literal of values of `types` (Nothing when empty)."""
    types = list(types)
    if not types:
        return nothing()
    return T.common_type(types)


def typeof_name(t: T.SqlType, with_names: bool = False) -> str:
    """TYPEOF's spelling of a nested type: ARRAY(UINT8 NULL), TUPLE(INT32 NULL, STRING) NULL
    (element nullability shown, tuple field names not: unlike DESCRIBE); `with_names` spells a
    named tuple TUPLE(a INT32, b STRING), as a column named after a CAST shows it."""
    if t.state:  # AGGREGATESTATE(QUANTILE_TDIGEST(0.5), UINT64)
        function, params, arg_types = t.state
        if params:
            function += f"({', '.join(map(str, params))})"
        base = f"AGGREGATESTATE({', '.join([function.upper(), *(typeof_name(a) for a in arg_types)])})"
    elif t.name in T.NESTED_NAMES:
        parts = [typeof_name(a, with_names) for a in t.args]
        if with_names and t.field_names:
            parts = [f"{name} {part}" for name, part in zip(t.field_names, parts, strict=True)]
        base = f"{t.name.upper()}({', '.join(parts)})"
    elif t.name in ("Null", "Nothing"):
        return t.name.upper()
    else:
        base = t.as_nullable(False).display().upper()
    return base + " NULL" if t.nullable else base


def cast_type(tn, keep_names: bool = False) -> T.SqlType:
    """The type a CAST names (a `grammar.ast.TypeName`): unlike in DDL, the elements of a nested
    type are NOT NULL unless written NULL (CAST(x AS ARRAY(INT)) is Array(Int32), as Databend).
    Tuple field names are dropped (a table column's only) unless `keep_names`."""
    written = T.type_from_ast(tn)  # (checks what is written)
    if not written.args or tn.name.upper() not in ("ARRAY", "MAP", "TUPLE"):
        return written
    args = tuple(cast_type(a, keep_names) if a.name.upper() in ("ARRAY", "MAP", "TUPLE")
                 else T.type_from_ast(a, default_nullable=False) for a in tn.args)
    return T.SqlType(written.name, written.nullable, args=args,
                     field_names=written.field_names if keep_names else ())


def _has(t: T.SqlType, name: str) -> bool:
    """Whether a type holds `name` (Timestamp...) at any depth."""
    return t.name == name or any(_has(a, name) for a in t.args)


def shows_timestamps(t: T.SqlType) -> bool:
    """Whether values of the nested type t hold Timestamps (shown in the session zone)."""
    return _has(t, "Timestamp")


def holds_temporal(t: T.SqlType) -> bool:
    """Whether values written into the nested type t are read in the session zone (it holds
    Timestamps or Dates)."""
    return _has(t, "Timestamp") or _has(t, "Date")
