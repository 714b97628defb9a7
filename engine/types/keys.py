"""Value semantics shared by every operator: the comparison common type, the sort key and the hash/group key of each type.

Databend orders a NaN after every other float (+inf included) and makes all NaNs one value; Python
compares a NaN false with everything (so `list.sort` gives an undefined order) and hashes each NaN
object apart (so GROUP BY, DISTINCT, joins and IN sets make one group per NaN object). Only the
float types (and nested values holding floats) need a wrapped key: for every other type the value
is its own key, so integer, string and date keys cost nothing.

- Sort keys (ORDER BY, TOP-k, merges, window ORDER BY, WITHIN GROUP, MIN/MAX): a NaN becomes
  `NAN_LAST`, an object greater than every float and equal only to itself.
- Hash keys (GROUP BY, DISTINCT, hash and semi joins, IN sets, set operations, window
  partitions): every NaN becomes the one object `NAN`; Python's dicts and sets find a key by
  identity before equality, so all NaNs meet in one entry (its hash is the object's). -0.0 and
  0.0 are equal and hash alike in Python, so they already make one group.
- The comparison common type (`comparison_casts`): the conversions `=`, IN lists, `= ANY` and
  IN (subquery) apply before comparing two values of different types.
- Comparison operators follow the same order (a NaN equals a NaN, greater than every other
  float): engine.codegen.compile adds to Python's operator only the NaN tests an operator needs
  (none for non-float operands); `least` / `greatest` here serve greatest(), least(), MIN, MAX.
- A table keeps per column whether its rows hold a NaN (catalog Table.nan_free): a sort of such
  a column takes its plain values as keys (engine.exec.sort.nan_free_columns).
"""

from __future__ import annotations

import math
from operator import itemgetter

from engine.types import sqltype as T

NAN = math.nan  # the one NaN every hash key uses


class _NanLast:
    """The sort key of a NaN: greater than every float (and +inf), equal only to itself. A float
    compared with it defers to these methods (float's own return NotImplemented)."""

    __slots__ = ()

    def __eq__(self, other):
        return other is self

    def __ne__(self, other):
        return other is not self

    def __lt__(self, other):
        return False

    def __le__(self, other):
        return other is self

    def __gt__(self, other):
        return other is not self

    def __ge__(self, other):
        return True

    def __hash__(self):
        return 0x7FF8

    def __repr__(self):
        return "NAN_LAST"


NAN_LAST = _NanLast()


def holds_nan(t) -> bool:
    """Whether a value of type `t` can be or contain a NaN (a float, or a nested value of floats)."""
    if t is None:
        return False
    if t.name in ("Float32", "Float64"):
        return True
    return any(holds_nan(a) for a in t.args)


# ---------------------------------------------------------------- sort keys


def sort_value(v):
    """A float's sort key (None and other values pass through): NaN -> NAN_LAST."""
    return NAN_LAST if v != v else v


def float_column_key(pos: int):
    """The NaN-aware sort key of a NULL-free float column at `pos`: a function of the row, whose
    `plain` attribute is the bare itemgetter, which `rows_key` uses when the rows hold no NaN (a
    stable sort on plain floats is several times faster than one through a Python function)."""
    plain = itemgetter(pos)

    def key(r):
        v = r[pos]
        return v if v == v else NAN_LAST

    key.plain = plain
    return key


def rows_key(key, rows):
    """The key to sort `rows` with: a float column key's plain itemgetter when none of the rows
    holds a NaN (checked by a C-level sum, the cheapest scan), else `key` itself."""
    plain = getattr(key, "plain", None)
    if plain is None:
        return key
    total = sum(map(plain, rows))  # C's float sum: NaN only with a NaN (or both infinities) in
    if total == total or not any(map(math.isnan, map(plain, rows))):
        return plain
    return key


def least(values):
    """The least of a non-empty list of non-NULL values in Databend's order (NaN only when every
    value is one). Python's min is right unless it starts at a NaN (nothing is less than one)."""
    m = min(values)
    if m != m:
        m = min((x for x in values if x == x), default=m)
    return m


def greatest(values):
    """The greatest of a non-empty list of non-NULL values in Databend's order (NaN as soon as one
    value is one). Python's max skips a NaN met after the first value: a C-level scan finds it."""
    m = max(values)
    if m == m and type(m) in (float, int) and any(map(math.isnan, values)):
        return NAN
    return m


def from_sort_value(v):
    """The value of a sort key (NAN_LAST -> a NaN)."""
    return NAN if v is NAN_LAST else v


# ---------------------------------------------------------------- hash keys


def hash_value(v):
    """A float's hash key: every NaN -> NAN (None and other values pass through)."""
    return NAN if v != v else v


def _nested_hash_value(v):
    if isinstance(v, float):
        return NAN if v != v else v
    if isinstance(v, tuple):
        return v.__class__(_nested_hash_value(x) for x in v)
    return v


def hash_function(t):
    """value -> its hash key for type `t`, or None when the value is its own key."""
    if not holds_nan(t):
        return None
    if t.name in ("Float32", "Float64"):
        return hash_value
    return _nested_hash_value


def hash_key_source(src: str, t, bind) -> str:
    """Python source of the hash key of the expression `src` of type `t`: `src` itself unless
    the type can hold a NaN (then one call a value). `bind` turns a Python object into a name
    the source can use."""
    fn = hash_function(t)
    return src if fn is None else f"{bind(fn)}({src})"


def row_hash_function(types):
    """row tuple -> the row with every NaN made NAN, or None when no column can hold one."""
    fns = [hash_function(t) for t in types]
    if not any(fns):
        return None
    if len(fns) == 1:
        fn = fns[0]
        return lambda r: (fn(r[0]),)
    parts = [(i, fn) for i, fn in enumerate(fns) if fn is not None]

    def canonical(r):
        r = list(r)
        for i, fn in parts:
            r[i] = fn(r[i])
        return tuple(r)

    return canonical


# ---------------------------------------------------------------- comparison common type


def comparison_casts(lt, rt):
    """The conversions that make two values of types `lt` and `rt` comparable, as Databend
    applies them to `=`, `<`..., IN lists, `= ANY` and IN (subquery): (left target or None,
    whether the left conversion is a TRY one, right target or None, the same for the right).
    A string meets a number or boolean as Float64, a number meets a boolean as a boolean, a
    string meets a date, timestamp, timestamp_tz or interval as that type; a date meets a
    timestamp as a timestamp, and either meets a timestamp_tz as a timestamp_tz (instants); a
    decimal meets a float as Float64."""
    left = right = None
    left_try = right_try = False
    if lt.is_string and (rt.is_numeric or rt.name == "Boolean"):
        # a TRY conversion: a text that is no number compares as NULL (Databend refuses it, 1006,
        # but the SQLite corpus the project also answers compares 'hello' IN (SELECT 1) as false)
        left, left_try = T.FLOAT64.as_nullable(lt.can_be_null), True
    elif rt.is_string and (lt.is_numeric or lt.name == "Boolean"):
        right, right_try = T.FLOAT64.as_nullable(rt.can_be_null), True
    elif lt.name == "Boolean" and rt.is_numeric:  # a number meets a boolean as a boolean (10 = true)
        right = T.BOOLEAN.as_nullable(rt.can_be_null)
    elif rt.name == "Boolean" and lt.is_numeric:
        left = T.BOOLEAN.as_nullable(lt.can_be_null)
    elif lt.is_string and rt.name in ("Date", "Timestamp", "TimestampTz", "Interval"):
        left = rt.as_nullable(lt.can_be_null)
    elif rt.is_string and lt.name in ("Date", "Timestamp", "TimestampTz", "Interval"):
        right = lt.as_nullable(rt.can_be_null)
    elif lt.name in ("Date", "Timestamp") and rt.name == "TimestampTz":  # compared as instants
        left = rt.as_nullable(lt.can_be_null)
    elif rt.name in ("Date", "Timestamp") and lt.name == "TimestampTz":
        right = lt.as_nullable(rt.can_be_null)
    elif lt.name == "Date" and rt.name == "Timestamp":
        left = rt.as_nullable(lt.can_be_null)
    elif rt.name == "Date" and lt.name == "Timestamp":
        right = lt.as_nullable(rt.can_be_null)
    left_name = (left or lt).name
    right_name = (right or rt).name
    if left_name == "Decimal" and right_name in ("Float32", "Float64"):
        left, left_try = T.FLOAT64.as_nullable(lt.can_be_null), False
    elif right_name == "Decimal" and left_name in ("Float32", "Float64"):
        right, right_try = T.FLOAT64.as_nullable(rt.can_be_null), False
    return left, left_try, right, right_try


def columns_key(positions, types):
    """row -> the values at `positions` (one value, or a tuple of several) for telling rows apart
    and grouping them (window partitions and peers): the itemgetter itself unless one of the
    columns is a float, whose NaNs then all become NAN_LAST (equal to itself, hashable)."""
    if not positions:
        return None
    getter = itemgetter(*positions)
    floats = [i for i, pos in enumerate(positions) if types[pos].is_float]
    if not floats:
        return getter
    if len(positions) == 1:
        return lambda r: sort_value(r[positions[0]])

    def key(r):
        values = list(getter(r))
        for i in floats:
            values[i] = sort_value(values[i])
        return tuple(values)

    return key
