"""Numeric functions: abs, round, truncate, floor, ceil, sqrt, pow, mod."""

from __future__ import annotations

import decimal
import math

from engine import bounded as B
from engine import types as T
from engine.functions.registry import fixed, register, same
from engine.runtime import mod_trunc


def _abs(v):
    return abs(v)


def _round_type(types):
    t = types[0]
    if t.name == "Decimal":
        return t
    if t.is_int:
        return t
    return T.FLOAT64


def _floor(v):
    return math.floor(v) if isinstance(v, float) else int(math.floor(v)) if isinstance(v, decimal.Decimal) else v


def _ceil(v):
    return math.ceil(v) if isinstance(v, float) else int(math.ceil(v)) if isinstance(v, decimal.Decimal) else v


def _int_or_float(types):
    t = types[0]
    return t if t.is_int else T.FLOAT64 if t.is_float else T.INT64


def _sqrt(v):
    v = float(v)
    return math.sqrt(v) if v >= 0 else math.nan


def _pow(a, b):
    try:
        return math.pow(float(a), float(b))
    except (OverflowError, ValueError):
        return math.nan


register("abs", _abs, same, 1)
register("round", B.make_round, _round_type, 1, 2, bounded=True)
register("truncate", B.make_truncate, _round_type, 1, 2, bounded=True)
register("floor", _floor, _int_or_float, 1)
register("ceil", _ceil, _int_or_float, 1, aliases=("ceiling",))
register("sqrt", _sqrt, fixed(T.FLOAT64), 1)
register("pow", _pow, fixed(T.FLOAT64), 2, aliases=("power",))
register("mod", mod_trunc, lambda ts: T.arithmetic_type("%", ts[0], ts[1]), 2)
