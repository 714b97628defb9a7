"""Conditional functions: coalesce, ifnull, nullif, if."""

from __future__ import annotations

from engine import types as T
from engine.functions.registry import common, register


def _coalesce(*args):
    for a in args:
        if a is not None:
            return a
    return None


def _nullif(a, b):
    if a is None:
        return None
    return None if b is not None and a == b else a


def _if(cond, a, b):
    return a if cond is True else b


register("coalesce", _coalesce, common, 1, 1000, strict=False)
register("ifnull", _coalesce, common, 2, strict=False)
register("nullif", _nullif, lambda ts: ts[0].as_nullable(True), 2, strict=False)
register("if", _if, lambda ts: T.common_type(ts[1:]), 3, strict=False)
