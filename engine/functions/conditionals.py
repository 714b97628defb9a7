"""Conditional functions: coalesce, ifnull/nvl, nvl2, nullif, if, is_null, is_not_null,
assume_not_null, to_nullable."""

from __future__ import annotations

import datetime
import decimal

from engine.core.errors import SemanticError
from engine.functions.registry import common, register
from engine.types import sqltype as T


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


def _nvl2(a, b, c):
    return b if a is not None else c


def _is_null(v):
    return v is None


def _is_not_null(v):
    return v is not None


def _to_nullable(v):
    return v


_DEFAULTS = {"Boolean": False, "String": "", "Float32": 0.0, "Float64": 0.0,
             "Date": datetime.date(1970, 1, 1), "Timestamp": datetime.datetime(1970, 1, 1)}


def _assume_not_null_for(types):
    """ASSUME_NOT_NULL(x): x, or the type's default (0, '', false...) where x is NULL."""
    t = types[0]
    default = decimal.Decimal(0) if t.name == "Decimal" else _DEFAULTS.get(t.name, 0)
    return lambda v: default if v is None else v


register("coalesce", _coalesce, common, 1, 1000, strict=False)
register("ifnull", _coalesce, common, 1, 2, strict=False)  # (ifnull(x) is x, as Databend)
register("nvl", _coalesce, common, 1, 2, strict=False)
register("nvl2", _nvl2, lambda ts: T.common_type(ts[1:]), 3, strict=False)
register("nullif", _nullif, lambda ts: ts[0].as_nullable(True), 2, strict=False)
register("if", _if, lambda ts: T.common_type(ts[1:]), 3, strict=False)
register("is_null", _is_null, lambda ts: T.BOOLEAN, 1, strict=False)
register("is_not_null", _is_not_null, lambda ts: T.BOOLEAN, 1, strict=False)
def _assume_not_null_type(types):
    if types[0].name == "Null":
        raise SemanticError("no overload satisfies `assume_not_null(NULL)`")
    return types[0].as_nullable(False)


register("assume_not_null", _to_nullable, _assume_not_null_type, 1, strict=False,
         specialize=_assume_not_null_for)
register("to_nullable", _to_nullable, lambda ts: ts[0].as_nullable(True), 1, strict=False)
