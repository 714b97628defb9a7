"""Arithmetic operators on Dates and Timestamps, as Databend types them: Date ± integer days,
Timestamp ± integer microseconds, Date - Date in days, and instants (Date or Timestamp) subtracted
or added in Int64 microseconds (a Date is its midnight in the session zone)."""

from __future__ import annotations

from engine.core.errors import SemanticError
from engine.functions.dates import instant_reader, register_zoned_impl
from engine.functions.registry import ScalarFunction, fixed
from engine.types import date_math as M
from engine.types import sqltype as T
from engine.types.datetimes import (
    EPOCH_DATE,
    UTC,
    micros_of,
    shift_timestamp,
)


def _date_plus_days(d, n):
    return M.add_days(d, int(n))


def _date_minus_days(d, n):
    return M.add_days(d, -int(n))


def _days_between(a, b):
    return (a - b).days


def _ts_plus_micros(ts, n):
    return shift_timestamp(ts, int(n))  # clamped as Databend


def _ts_minus_micros(ts, n):
    return _ts_plus_micros(ts, -int(n))


def _make_instant_diff(tz):
    instant = instant_reader(tz)
    return lambda a, b: micros_of(instant(a)) - micros_of(instant(b))


def _make_instant_sum(tz):
    instant = instant_reader(tz)
    return lambda a, b: micros_of(instant(a)) + micros_of(instant(b))


register_zoned_impl("minus_timestamps", _make_instant_diff)
register_zoned_impl("plus_timestamps", _make_instant_sum)

_DATE_PLUS_DAYS = ScalarFunction("plus_date_days", _date_plus_days, fixed(T.DATE), 2, 2)
_DATE_MINUS_DAYS = ScalarFunction("minus_date_days", _date_minus_days, fixed(T.DATE), 2, 2)
_DAYS_BETWEEN = ScalarFunction("minus_dates", _days_between, fixed(T.INT32), 2, 2)
_DATE_SUM = ScalarFunction("plus_dates", lambda a, b: (a - EPOCH_DATE).days + (b - EPOCH_DATE).days,
                           fixed(T.INT32), 2, 2)
_TS_PLUS = ScalarFunction("plus_timestamp_micros", _ts_plus_micros, fixed(T.TIMESTAMP), 2, 2)
_TS_MINUS = ScalarFunction("minus_timestamp_micros", _ts_minus_micros, fixed(T.TIMESTAMP), 2, 2)
_MICROS_BETWEEN = ScalarFunction("minus_timestamps", _make_instant_diff(UTC), fixed(T.INT64), 2, 2)
_MICROS_SUM = ScalarFunction("plus_timestamps", _make_instant_sum(UTC), fixed(T.INT64), 2, 2)

_OP_NAMES = {"+": "plus", "-": "minus", "*": "multiply", "/": "divide", "DIV": "div", "%": "modulo"}


def date_arithmetic(op, left, right):
    """Databend's Date/Timestamp arithmetic: Date ± integer days is a Date, Timestamp ± integer
    microseconds a Timestamp, Date - Date the Int32 days between, and two instants (Date or
    Timestamp) subtract (or add) to Int64 microseconds. None when neither side is a Date or
    Timestamp; Databend's semantic error for any other use of one."""
    ln, rn = left.name, right.name
    if ln not in ("Date", "Timestamp") and rn not in ("Date", "Timestamp"):
        return None
    if op in ("+", "-") and ln in ("Date", "Timestamp"):
        if right.is_int or rn == "Null":
            if ln == "Date":
                return _DATE_PLUS_DAYS if op == "+" else _DATE_MINUS_DAYS
            return _TS_PLUS if op == "+" else _TS_MINUS
        if ln == "Date" and rn == "Date":
            return _DAYS_BETWEEN if op == "-" else _DATE_SUM
        if rn in ("Date", "Timestamp"):
            return _MICROS_BETWEEN if op == "-" else _MICROS_SUM
    if ln == "Null" and op in ("+", "-"):
        return _DATE_PLUS_DAYS if rn == "Date" else _TS_PLUS  # NULL either way
    raise SemanticError(f"no overload satisfies `{_OP_NAMES.get(op, op)}({left.display()}, {right.display()})`")


