"""INTERVAL functions, as current Databend has them (functions/src/scalars/timestamp/src/interval.rs):
to_years(n) .. to_microseconds(n), the parts of an interval (to_year .. to_microsecond, epoch, as
EXTRACT takes them), age(), timestamp_diff(), and the operators: date / timestamp ± interval,
interval ± interval, integer * interval. to_interval / try_to_interval are casts (engine.functions.casts)."""

from __future__ import annotations

import datetime
import math

from engine.core.errors import SemanticError
from engine.functions.dates import instant_reader, register_zoned_impl
from engine.functions.registry import ScalarFunction, fixed, register
from engine.types import date_math as M
from engine.types import intervals as I
from engine.types import sqltype as T
from engine.types.datetimes import (
    UTC,
    check_timestamp,
    from_local,
    timestamp_out_of_range,
    to_local,
)
from engine.types.intervals import Interval

_INTEGER_ARGUMENT = frozenset(T.INT_NAMES)


def _integer_argument(name):
    """Result rule of the constructors: an integer argument (Databend's Int64), an Interval out."""
    def rule(types):
        if types[0].name not in _INTEGER_ARGUMENT:
            raise SemanticError(f"no function matches signature `{name}({types[0].display()})`")
        return T.INTERVAL
    return rule


# ---------------------------------------------------------------- constructors: to_days(5) is '5 days'

def _constructor(name, months=0, days=0, micros=0):
    def make(n):
        return Interval(I.wrap_i32(n * months), I.wrap_i32(n * days), I.wrap_i64(n * micros))
    register(name, make, _integer_argument(name), 1)


_constructor("to_millennia", months=12000)
_constructor("to_centuries", months=1200)
_constructor("to_decades", months=120)
_constructor("to_years", months=12)
_constructor("to_months", months=1)
_constructor("to_weeks", days=7)
_constructor("to_days", days=1)
_constructor("to_hours", micros=I.MICROS_PER_HOUR)
_constructor("to_minutes", micros=I.MICROS_PER_MINUTE)
_constructor("to_seconds", micros=I.MICROS_PER_SEC)
_constructor("to_milliseconds", micros=1000)
_constructor("to_microseconds", micros=1)


# ---------------------------------------------------------------- parts (to_year(i), EXTRACT(HOUR FROM i))


def _truncated(a: int, b: int) -> int:
    """Rust's integer division (toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _remainder(a: int, b: int) -> int:
    """Rust's `%` (the sign of the dividend)."""
    return a - _truncated(a, b) * b


def _hours(v):
    return int(v.micros / 1_000_000 / 3600)


def _minutes(v):
    return int(math.fmod(v.micros / 1_000_000, 3600.0) / 60.0)


_PARTS = {
    "to_year": (lambda v: _truncated(v.months, 12), T.INT64),
    "to_month": (lambda v: _remainder(v.months, 12), T.INT64),
    "to_day_of_month": (lambda v: v.days, T.INT64),
    "to_hour": (_hours, T.INT64),
    "to_minute": (_minutes, T.INT64),
    "to_second": (lambda v: _remainder(v.micros, 60_000_000) / 1_000_000, T.FLOAT64),
    "to_microsecond": (lambda v: _remainder(v.micros, 60_000_000), T.INT64),
    "epoch": (lambda v: v.total_micros / 1_000_000, T.FLOAT64),
}
# named apart from the date functions of the same name: the session zone's versions of those
# (engine.functions.dates.with_timezone) are found by name
_PART_FUNCTIONS = {name: ScalarFunction(f"interval_{name}", impl, fixed(rt), 1, 1) for name, (impl, rt) in _PARTS.items()}


# epoch and to_microsecond of a Date or Timestamp are registered by engine.functions.date_parts;
# of an interval, interval_override answers (EXTRACT(EPOCH / MICROSECOND FROM i))


def interval_override(name: str, types) -> ScalarFunction | None:
    """The interval version of a date part function (to_year(i), EXTRACT(DAY FROM i)...), or None."""
    if len(types) == 1 and types[0].name == "Interval":
        return _PART_FUNCTIONS.get(name)
    return None


# SUM(interval) adds totals in microseconds (Databend merges its partial sums so): each value is
# made its total first, so that a group of one row answers '24:00:00' for '1 day' too
TOTAL_MICROS = ScalarFunction("interval_total", lambda v: Interval(0, 0, v.total_micros), fixed(T.INTERVAL), 1, 1)


# ---------------------------------------------------------------- arithmetic


def _date_step(d: datetime.date, v: Interval, sign: int) -> datetime.date:
    """A Date moved by an interval of whole days and months: the days first, then the months
    (clamped to the month's end), as Databend's apply_interval_to_date."""
    if v.micros:
        raise SemanticError("DATE +/- INTERVAL with time parts should be evaluated as TIMESTAMP")
    if v.days:
        d = M.add_days(d, sign * v.days)
    if v.months:
        d = M.add_months(d, sign * v.months)
    return d


def _timestamp_step(tz):
    """A Timestamp moved by an interval: its microseconds and days (24 hours each) on the instant,
    then its months on the wall clock in the session zone `tz`."""
    def step(ts: datetime.datetime, v: Interval, sign: int) -> datetime.datetime:
        try:
            ts = ts + datetime.timedelta(days=sign * v.days, microseconds=sign * v.micros)
            if v.months:
                ts = from_local(M.add_months(to_local(ts, tz), sign * v.months), tz)
        except OverflowError:
            raise timestamp_out_of_range() from None
        return check_timestamp(ts)
    return step


def _make_timestamp_plus(tz):
    step = _timestamp_step(tz)
    return lambda a, b: step(b, a, 1) if type(a) is Interval else step(a, b, 1)


def _make_timestamp_minus(tz):
    step = _timestamp_step(tz)
    return lambda a, b: step(a, b, -1)


register_zoned_impl("plus_timestamp_interval", _make_timestamp_plus)
register_zoned_impl("minus_timestamp_interval", _make_timestamp_minus)

_INTERVAL_PLUS = ScalarFunction("plus_intervals", I.add_parts, fixed(T.INTERVAL), 2, 2)
_INTERVAL_MINUS = ScalarFunction("minus_intervals", I.subtract_parts, fixed(T.INTERVAL), 2, 2)
_DATE_PLUS = ScalarFunction("plus_date_interval",
                            lambda a, b: _date_step(b, a, 1) if type(a) is Interval else _date_step(a, b, 1),
                            fixed(T.DATE), 2, 2)
_DATE_MINUS = ScalarFunction("minus_date_interval", lambda a, b: _date_step(a, b, -1), fixed(T.DATE), 2, 2)
_TS_PLUS = ScalarFunction("plus_timestamp_interval", _make_timestamp_plus(UTC), fixed(T.TIMESTAMP), 2, 2)
_TS_MINUS = ScalarFunction("minus_timestamp_interval", _make_timestamp_minus(UTC), fixed(T.TIMESTAMP), 2, 2)
_SCALE = ScalarFunction("multiply_interval",
                        lambda a, b: I.scale(b, a) if type(b) is Interval else I.scale(a, b),
                        fixed(T.INTERVAL), 2, 2)

_OP_NAMES = {"+": "plus", "-": "minus", "*": "multiply", "/": "divide", "DIV": "div", "%": "modulo"}


def interval_arithmetic(op, lt, rt, constants=(None, None)):
    """(function, conversions) for an operator with an INTERVAL operand (of types `lt`, `rt`, and
    the operands' values when they are constants), None when neither operand is one. `conversions` holds per operand the type to cast it to first, or None: a Date beside
    an interval with a time part (or one not known when binding) becomes a Timestamp, as Databend
    converts it. Any other use of an interval is Databend's semantic error."""
    if lt.name != "Interval" and rt.name != "Interval":
        return None
    names = {lt.name, rt.name}
    if op == "*" and names - {"Interval"} <= _INTEGER_ARGUMENT | {"Null"} and len(names) == 2:
        return _SCALE, (None, None)
    if op in ("+", "-") and names <= {"Interval", "Null"}:
        return (_INTERVAL_PLUS if op == "+" else _INTERVAL_MINUS), (None, None)
    temporal = rt.name if lt.name == "Interval" else lt.name
    if op == "+" or (op == "-" and rt.name == "Interval"):
        if temporal == "Timestamp":
            return (_TS_PLUS if op == "+" else _TS_MINUS), (None, None)
        if temporal == "Date":
            interval = constants[1] if rt.name == "Interval" else constants[0]
            if type(interval) is Interval and interval.micros == 0:
                return (_DATE_PLUS if op == "+" else _DATE_MINUS), (None, None)
            stamp = T.TIMESTAMP
            conversions = (None, stamp.as_nullable(rt.can_be_null)) if lt.name == "Interval" \
                else (stamp.as_nullable(lt.can_be_null), None)
            return (_TS_PLUS if op == "+" else _TS_MINUS), conversions
    raise SemanticError(f"no function matches signature `{_OP_NAMES.get(op, op)}"
                        f"({lt.display()}, {rt.display()})`")


# ---------------------------------------------------------------- age(), timestamp_diff()


def _age_between(later: datetime.datetime, earlier: datetime.datetime) -> Interval:
    """Databend's calc_age: whole years, months and days from `earlier` to `later` (wall-clock
    times), then the rest of the day; negated when `later` is the earlier one."""
    negative = later < earlier
    if negative:
        later, earlier = earlier, later
    years = later.year - earlier.year
    months = later.month - earlier.month
    days = later.day - earlier.day
    clock = (later - later.replace(hour=0, minute=0, second=0, microsecond=0)) \
        - (earlier - earlier.replace(hour=0, minute=0, second=0, microsecond=0))
    micros = clock.days * I.MICROS_PER_DAY + clock.seconds * 1_000_000 + clock.microseconds
    if micros < 0:
        micros += I.MICROS_PER_DAY
        days -= 1
    if days < 0:
        days += M.days_in_month(earlier.year, earlier.month)
        months -= 1
    if months < 0:
        months += 12
        years -= 1
    total_months = years * 12 + months
    if negative:
        return Interval(-total_months, -days, -micros)
    return Interval(total_months, days, micros)


def _make_age(tz):
    instant = instant_reader(tz)

    def age(a, b=None):
        if b is None:  # age(t): from t to today's midnight in the session zone
            now = datetime.datetime.now(UTC).replace(tzinfo=None)
            today = to_local(now, tz).replace(hour=0, minute=0, second=0, microsecond=0)
            return _age_between(today, to_local(instant(a), tz))
        return _age_between(to_local(instant(a), tz), to_local(instant(b), tz))
    return age


def _temporal_arguments(name):
    def rule(types):
        for t in types:
            if t.name not in ("Date", "Timestamp", "String"):
                raise SemanticError(f"no function matches signature `{name}({', '.join(x.display() for x in types)})`")
        return T.INTERVAL
    return rule


# age(t) reads the clock: never folded into a constant (a kept plan would keep the day)
register("age", _make_age(UTC), _temporal_arguments("age"), 1, 2, volatile=True)
register_zoned_impl("age", _make_age)


def _make_timestamp_diff(tz):
    instant = instant_reader(tz)

    def diff(a, b):
        delta = instant(a) - instant(b)
        return Interval(0, 0, (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)
    return diff


register("timestamp_diff", _make_timestamp_diff(UTC), _temporal_arguments("timestamp_diff"), 2)
register_zoned_impl("timestamp_diff", _make_timestamp_diff)
