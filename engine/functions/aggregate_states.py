"""Aggregate states, Databend's -State / -Merge combinators: `sum_state(x)` is the state a SUM
reaches over the group, a value of type AGGREGATESTATE(SUM, UINT64) (a Tuple of the state's
fields, as Databend serializes them, that also names its aggregate: engine.types.sqltype's
`state`); `sum_merge(s)` merges a group's states into SUM's result and `sum_merge_state(s)`
into one state again. A state's fields can be read (`sum_state(x).1`), stored, grouped and
sorted like a tuple's; a plain tuple of the same fields (a state stored as a TUPLE) merges too.

The fields, as Databend's: sum (total, seen), min / max / any (has value, value, seen), count
(count), avg (total, count, seen), arg_min / arg_max (has value, compared value, value, seen),
quantile_tdigest (the digest's bytes)."""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from typing import Any

from engine.functions.tdigest import digest_bytes, digest_from_bytes, digest_of, merge_digest
from engine.types import nested as N
from engine.types import sqltype as T


@dataclass(frozen=True)
class StateKind:
    """fields(arg types) -> the state's field types; make(values, arg types) -> state from a
    group's gathered argument values; merge(states, arg types) -> one state; finish(state, ctx)
    -> the aggregate's result; result(arg types, params) -> its type; legacy(field types) ->
    the argument types a plain tuple of these fields stands for, or None."""

    fields: Any
    make: Any
    merge: Any
    finish: Any
    result: Any
    legacy: Any


def _sum_type(t: T.SqlType) -> T.SqlType:
    """The type a SUM of t adds up in, as the current Databend: a Decimal keeps its scale at the
    largest precision of its storage width (18, 38 or 76 digits)."""
    if t.is_int:
        return T.UINT64 if t.name.startswith("U") else T.INT64
    if t.name == "Decimal":
        return T.SqlType("Decimal", False, 18 if t.precision <= 18 else 38 if t.precision <= 38 else 76, t.scale)
    if t.name == "Boolean":
        return T.UINT64
    return T.FLOAT64


def _decimal(t: T.SqlType) -> bool:
    """A plain tuple's Decimal total does not say the argument's scale: Databend refuses it."""
    return t.name == "Decimal"


def _zero(t: T.SqlType):
    if t.name == "Decimal":
        return decimal.Decimal(0).scaleb(-t.scale)
    if t.is_float:
        return 0.0
    if t.is_numeric or t.name == "Boolean":
        return 0
    return "" if t.is_string else None


def _present(values):
    return [v for v in values if v is not None]


# ---------------------------------------------------------------- sum, avg, count

def _sum_make(values, types):
    xs = _present(values)
    return N.TupleValue((sum(xs, _zero(_sum_type(types[0]))), bool(xs)))


def _sum_merge(states, types):
    seen = [s for s in states if s[1]]
    return N.TupleValue((sum((s[0] for s in seen), _zero(_sum_type(types[0]))), bool(seen)))


def _avg_make(values, types):
    xs = _present(values)
    return N.TupleValue((sum(xs, _zero(_sum_type(types[0]))), len(xs), bool(xs)))


def _avg_merge(states, types):
    seen = [s for s in states if s[2]]
    total = sum((s[0] for s in seen), _zero(_sum_type(types[0])))
    return N.TupleValue((total, sum(s[1] for s in seen), bool(seen)))


def _avg_scale(t):
    return max(t.scale, min(t.scale + 6, 12))


def _avg_finish(state, types, _params):
    total, count, seen = state
    if not seen or not count:
        return None
    if isinstance(total, decimal.Decimal):
        return (total / count).quantize(decimal.Decimal(1).scaleb(-_avg_scale(types[0])))
    return float(total) / count


def _avg_result(types, _params):
    t = types[0]
    if t.name == "Decimal":
        return T.SqlType("Decimal", True, 38 if t.precision <= 38 else 76, _avg_scale(t))
    return T.FLOAT64.as_nullable(True)


def _count_make(values, types):
    if len(types) > 1:
        return N.TupleValue((sum(1 for row in values if all(v is not None for v in row)),))
    return N.TupleValue((len(_present(values)),))


# ---------------------------------------------------------------- min, max, any, arg_min, arg_max

def _better(smallest):
    return (lambda a, b: a < b) if smallest else (lambda a, b: a > b)


def _extreme(kind):
    def make(values, types):
        xs = _present(values)
        if not xs:
            return N.TupleValue((False, _zero(types[0]), False))
        value = xs[0] if kind == "any" else min(xs) if kind == "min" else max(xs)
        return N.TupleValue((True, value, True))

    def merge(states, types):
        best = None
        for s in states:
            if s[0] and (best is None or (kind != "any" and _better(kind == "min")(s[1], best[1]))):
                best = s
        return best if best is not None else N.TupleValue((False, _zero(types[0]), False))

    return make, merge


def _arg(kind):
    pick = _better(kind == "arg_min")

    def make(values, types):
        best = None
        for x, y in values:
            if x is not None and y is not None and (best is None or pick(y, best[1])):
                best = (x, y)
        if best is None:
            return N.TupleValue((False, _zero(types[1]), _zero(types[0]), False))
        return N.TupleValue((True, best[1], best[0], True))

    def merge(states, types):
        best = None
        for s in states:
            if s[0] and (best is None or pick(s[1], best[1])):
                best = s
        return best if best is not None else N.TupleValue((False, _zero(types[1]), _zero(types[0]), False))

    return make, merge


# ---------------------------------------------------------------- quantile_tdigest

def _digest_merge(states, _types):
    merged = digest_of(())
    for s in states:
        merge_digest(merged, digest_from_bytes(s[0]))
    return N.TupleValue((digest_bytes(merged),))


def _digest_finish(state, _types, params):
    digest = digest_from_bytes(state[0])
    if not digest.centroids:
        return None
    levels = params or (0.5,)
    if len(levels) == 1:
        return digest.quantile(levels[0])
    return N.ArrayValue(digest.quantile(level) for level in levels)


def _digest_result(_types, params):
    if len(params) > 1:
        return N.array_type(T.FLOAT64).as_nullable(True)
    return T.FLOAT64.as_nullable(True)


def _plain(t):
    return t.as_nullable(False)


_MIN_MAKE, _MIN_MERGE = _extreme("min")
_MAX_MAKE, _MAX_MERGE = _extreme("max")
_ANY_MAKE, _ANY_MERGE = _extreme("any")
_ARG_MIN_MAKE, _ARG_MIN_MERGE = _arg("arg_min")
_ARG_MAX_MAKE, _ARG_MAX_MERGE = _arg("arg_max")


def _value_result(types, _params):
    return types[0].as_nullable(True)


def _extreme_kind(make, merge):
    return StateKind(lambda ts: (T.BOOLEAN, _plain(ts[0]), T.BOOLEAN), make, merge,
                     lambda s, _ts, _p: s[1] if s[0] else None, _value_result,
                     lambda fs: (fs[1],) if len(fs) == 3 and fs[0].name == fs[2].name == "Boolean" else None)


def _arg_kind(make, merge):
    return StateKind(lambda ts: (T.BOOLEAN, _plain(ts[1]), _plain(ts[0]), T.BOOLEAN), make, merge,
                     lambda s, _ts, _p: s[2] if s[0] else None, _value_result,
                     lambda fs: (fs[2], fs[1]) if len(fs) == 4 and fs[0].name == fs[3].name == "Boolean" else None)


STATE_KINDS = {
    "sum": StateKind(lambda ts: (_sum_type(ts[0]), T.BOOLEAN), _sum_make, _sum_merge,
                     lambda s, _ts, _p: s[0] if s[1] else None,
                     lambda ts, _p: _sum_type(ts[0]).as_nullable(True),
                     lambda fs: (fs[0],) if len(fs) == 2 and fs[1].name == "Boolean" and fs[0].is_numeric
                     and _sum_type(fs[0]) == fs[0].as_nullable(False) and not _decimal(fs[0]) else None),
    "avg": StateKind(lambda ts: (_sum_type(ts[0]), T.UINT64, T.BOOLEAN), _avg_make, _avg_merge, _avg_finish,
                     _avg_result, lambda fs: (fs[0],) if len(fs) == 3 and fs[2].name == "Boolean"
                     and not _decimal(fs[0]) else None),
    "count": StateKind(lambda ts: (T.UINT64,), _count_make,
                       lambda states, _ts: N.TupleValue((sum(s[0] for s in states),)),
                       lambda s, _ts, _p: s[0], lambda _ts, _p: T.UINT64,
                       lambda fs: (T.UINT64,) if len(fs) == 1 and fs[0].name == "UInt64" else None),
    "min": _extreme_kind(_MIN_MAKE, _MIN_MERGE),
    "max": _extreme_kind(_MAX_MAKE, _MAX_MERGE),
    "any": _extreme_kind(_ANY_MAKE, _ANY_MERGE),
    "arg_min": _arg_kind(_ARG_MIN_MAKE, _ARG_MIN_MERGE),
    "arg_max": _arg_kind(_ARG_MAX_MAKE, _ARG_MAX_MERGE),
    "quantile_tdigest": StateKind(lambda ts: (T.BINARY,),
                                  lambda values, _ts: N.TupleValue((digest_bytes(digest_of(values)),)),
                                  _digest_merge, _digest_finish, _digest_result, lambda fs: None),
}


def state_type(function: str, params: tuple, arg_types: tuple) -> T.SqlType:
    """AGGREGATESTATE(function(params), arg types...): the Tuple of the state's fields."""
    fields = STATE_KINDS[function].fields(arg_types)
    return T.SqlType("Tuple", args=tuple(fields), state=(function, tuple(params), tuple(arg_types)))
