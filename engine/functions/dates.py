"""Date and time functions, and Date arithmetic."""

from __future__ import annotations

import datetime

from engine import types as T
from engine.errors import BadArguments
from engine.functions.registry import ScalarFunction, fixed, register


def _to_date(v):
    return T.to_date(v)


def _date_plus_days(d, n):
    try:
        return d + datetime.timedelta(days=int(n))
    except OverflowError:
        raise BadArguments(f"date {d} + {n} days is out of range") from None


def _date_minus_days(d, n):
    return _date_plus_days(d, -int(n))


def _days_between(a, b):
    return (a - b).days


_DATE_PLUS_DAYS = ScalarFunction("plus", _date_plus_days, fixed(T.DATE), 2, 2)
_DATE_MINUS_DAYS = ScalarFunction("minus", _date_minus_days, fixed(T.DATE), 2, 2)
_DAYS_BETWEEN = ScalarFunction("minus", _days_between, fixed(T.INT32), 2, 2)


def date_arithmetic(op, left, right):
    """Databend's Date arithmetic: Date ± integer days is a Date, Date - Date the Int32 days
    between; None for anything else."""
    if left.name != "Date" or op not in ("+", "-"):
        return None
    if right.is_int or right.name == "Null":
        return _DATE_PLUS_DAYS if op == "+" else _DATE_MINUS_DAYS
    if right.name == "Date" and op == "-":
        return _DAYS_BETWEEN
    return None


register("to_date", _to_date, fixed(T.DATE), 1)
