"""Date and time functions (to_year.., to_start_of_*, add_*/subtract_*, to_timestamp, date_format,
str_to_date, months_between...), Date/Timestamp arithmetic, and the session time zone.

Functions that read or build a Timestamp depend on the session `timezone`: they are registered
with a maker `make(tz) -> impl`; the binder asks `with_timezone(fn, name)` for the implementation
made for the session's zone (cached), so no row pays for a zone lookup. Values follow
engine.types.datetimes: Date = datetime.date, Timestamp = naive datetime in UTC.
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import replace

from engine.core.errors import EngineError, SemanticError
from engine.functions.registry import SCALARS, ScalarFunction, fixed, register
from engine.types import cast as casting
from engine.types import date_math as M
from engine.types import sqltype as T
from engine.types import variant as V
from engine.types import variant_extension
from engine.types.date_formats import format_datetime, parse_datetime
from engine.types.datetimes import (
    EPOCH_DATE,
    UTC,
    check_timestamp,
    date_from_days,
    date_out_of_range,
    date_to_timestamp,
    from_local,
    micros_of,
    parse_date,
    parse_timestamp,
    render_timestamp,
    shift_timestamp,
    timestamp_from_int,
    timestamp_from_micros,
    to_local,
    zone,
)

_DATE = datetime.date
_DATETIME = datetime.datetime
_TEMPORAL_NAMES = frozenset({"Date", "Timestamp", "String"})

# function name -> make(tz) -> impl, for functions whose result depends on the session zone
_ZONED: dict[str, object] = {}

UINT8, UINT16, UINT32 = T.SqlType("UInt8"), T.SqlType("UInt16"), T.SqlType("UInt32")


def _local_reader(tz):
    """A function: Date, Timestamp or timestamp text -> naive wall-clock datetime in tz."""
    if tz is UTC:
        def local(v):
            t = type(v)
            if t is _DATETIME:
                return v
            if t is _DATE:
                return _DATETIME(v.year, v.month, v.day)
            return parse_timestamp(casting.to_string(v), tz)
        return local

    def local_zoned(v):
        t = type(v)
        if t is _DATETIME:
            return to_local(v, tz)
        if t is _DATE:
            return _DATETIME(v.year, v.month, v.day)
        return to_local(parse_timestamp(casting.to_string(v), tz), tz)
    return local_zoned


def instant_reader(tz):
    """A function: Date, Timestamp or timestamp text -> stored (UTC) Timestamp."""
    def instant(v):
        t = type(v)
        if t is _DATETIME:
            return v
        if t is _DATE:
            return date_to_timestamp(v, tz)
        return parse_timestamp(casting.to_string(v), tz)
    return instant


def _temporal(rt, name):
    """Result rule: `rt` (a type, or a function of the first argument's type), for a first
    argument that is a Date, a Timestamp or text; any other is Databend's semantic error."""
    def rule(types):
        first = types[0]
        if first.name not in _TEMPORAL_NAMES:
            raise SemanticError(f"no overload satisfies `{name}({', '.join(t.display() for t in types)})`")
        return rt(first) if callable(rt) else rt
    return rule


def register_zoned_impl(name: str, make) -> None:
    """Make `name`'s implementation per session zone (for functions registered elsewhere)."""
    _ZONED[name] = make


def _zoned(name, make, result, min_args, max_args=None, aliases=()):
    """Register a function whose implementation is made per session time zone."""
    register(name, make(UTC), result, min_args, max_args, aliases=aliases)
    _ZONED[name] = make


@functools.lru_cache(maxsize=512)
def with_timezone(fn: ScalarFunction, timezone: str) -> ScalarFunction:
    """`fn` with its implementation made for the session zone `timezone` (unchanged when its
    result does not depend on the zone)."""
    make = _ZONED.get(fn.name)
    if make is None or timezone == "UTC":
        return fn
    return replace(fn, impl=make(zone(timezone)))


def _part(name, getter, rt, aliases=(), date_only=False):
    """A function taking one part of the wall-clock time (to_year, to_hour...). `date_only`: the
    part of a Timestamp is that of its date (a GROUP BY that counts may count dates first and
    take the part once a date: engine.exec.grouped_columns)."""
    def make(tz):
        local = _local_reader(tz)
        if tz is UTC:  # a stored Timestamp is its own wall-clock time: one call per row
            def part(v):
                return getter(v if type(v) is _DATETIME else local(v))
            # a Timestamp's own date is its wall-clock one in UTC only
            part.date_only = date_only
            return part
        return lambda v: getter(local(v))
    _zoned(name, make, _temporal(rt, name), 1, aliases=aliases)


def _same_kind(first):
    """Calendar arithmetic keeps a Timestamp a Timestamp; a Date or text is a Date."""
    return T.TIMESTAMP if first.name == "Timestamp" else T.DATE


# ---------------------------------------------------------------- parts of a date and time
# (year(), month(), day(), week() ...: current Databend's aliases, datetime.rs register_aliases)

_part("to_year", lambda d: d.year, UINT16, aliases=("year",), date_only=True)
_part("to_quarter", lambda d: (d.month + 2) // 3, UINT8, aliases=("quarter",), date_only=True)
_part("to_month", lambda d: d.month, UINT8, aliases=("month",), date_only=True)
_part("to_day_of_month", lambda d: d.day, UINT8, aliases=("day", "dayofmonth"), date_only=True)
_part("to_day_of_week", lambda d: d.isoweekday(), UINT8, date_only=True)
_part("to_day_of_year", lambda d: d.timetuple().tm_yday, UINT16, aliases=("dayofyear",), date_only=True)
_part("to_week_of_year", lambda d: d.isocalendar()[1], UINT32, aliases=("week", "weekofyear"))
_part("to_hour", lambda d: d.hour, UINT8)
_part("to_minute", lambda d: d.minute, UINT8)
_part("to_second", lambda d: d.second, UINT8)
_part("to_yyyymm", lambda d: d.year * 100 + d.month, UINT32, date_only=True)
_part("to_yyyymmdd", lambda d: (d.year * 100 + d.month) * 100 + d.day, UINT32, date_only=True)
_part("to_yyyymmddhhmmss",
      lambda d: ((((d.year * 100 + d.month) * 100 + d.day) * 100 + d.hour) * 100 + d.minute) * 100 + d.second,
      T.UINT64)
_part("to_monday", lambda d: M.start_of_week(d.date(), 1), T.DATE, date_only=True)
_part("to_start_of_year", lambda d: _DATE(d.year, 1, 1), T.DATE, date_only=True)
_part("to_start_of_iso_year", lambda d: M.start_of_iso_year(d.date()), T.DATE)
_part("to_start_of_quarter", lambda d: M.start_of_quarter(d), T.DATE, date_only=True)
_part("to_start_of_month", lambda d: _DATE(d.year, d.month, 1), T.DATE, date_only=True)
_part("last_day", lambda d: M.last_day_of_month(d.date()), T.DATE, date_only=True)


def _make_start_of_week(tz):
    local = _local_reader(tz)
    return lambda v, mode=0: M.start_of_week(local(v).date(), int(mode))


_zoned("to_start_of_week", _make_start_of_week, _temporal(T.DATE, "to_start_of_week"), 1, 2)


def _instant_floor(name, micros):
    """to_start_of_day/hour/minute/...: the Timestamp truncated to `micros` of wall-clock time."""
    def make(tz):
        local = _local_reader(tz)

        def start(v):
            d = local(v)
            m = micros_of(d)
            return from_local(timestamp_from_micros(m - m % micros), tz)
        return start
    _zoned(name, make, _temporal(T.TIMESTAMP, name), 1)


for _name, _micros in (("to_start_of_day", 86_400_000_000), ("to_start_of_hour", 3_600_000_000),
                       ("to_start_of_minute", 60_000_000), ("to_start_of_second", 1_000_000),
                       ("to_start_of_five_minutes", 300_000_000), ("to_start_of_ten_minutes", 600_000_000),
                       ("to_start_of_fifteen_minutes", 900_000_000)):
    _instant_floor(_name, _micros)


def _make_dow(tz):
    """date_part(dow, ...): Sunday is 0."""
    local = _local_reader(tz)
    return lambda v: local(v).isoweekday() % 7


_ZONED["date_part_dow"] = _make_dow
DAY_OF_WEEK_FROM_SUNDAY = ScalarFunction("date_part_dow", _make_dow(UTC), _temporal(UINT8, "date_part"), 1, 1)


def _make_unix_timestamp(tz):
    instant = instant_reader(tz)
    return lambda v: micros_of(instant(v)) // 1_000_000


_zoned("to_unix_timestamp", _make_unix_timestamp, _temporal(T.INT64, "to_unix_timestamp"), 1)


# ---------------------------------------------------------------- adding to dates and times


def _calendar_add(name, months, days):
    """add_years/quarters/months/weeks/days (and subtract_*): wall-clock calendar arithmetic;
    a Date stays a Date, a Timestamp keeps its time of day."""
    sign = -1 if name.startswith("subtract") else 1

    def make(tz):
        local = _local_reader(tz)
        instant = instant_reader(tz)

        def add(v, n):
            n = int(n) * sign
            if type(v) is str:
                v = parse_date(v)
            if type(v) is _DATE:
                return M.add_months(v, n * months) if months else M.add_days(v, n * days)
            if not months:  # days and weeks move a Timestamp by 24-hour days, as Databend
                return _shift_micros(instant(v), n * days * 86_400_000_000)
            return check_timestamp(from_local(M.add_months(local(v), n * months), tz))
        return add
    _zoned(name, make, _temporal(_same_kind, name), 2)


def _shift_micros(ts, micros):
    return shift_timestamp(ts, micros)


def _clock_add(name, micros):
    """add_hours/minutes/seconds (and subtract_*): a Timestamp moved by elapsed time."""
    sign = -1 if name.startswith("subtract") else 1

    def make(tz):
        # a Date counts from its midnight in UTC here, whatever the session zone (as Databend)
        instant = instant_reader(UTC if tz is UTC else tz)

        def add(v, n):
            start = date_to_timestamp(v, UTC) if type(v) is _DATE else instant(v)
            return timestamp_from_micros(micros_of(start) + int(n) * sign * micros)
        return add
    _zoned(name, make, _temporal(T.TIMESTAMP, name), 2)


for _verb in ("add", "subtract"):
    for _unit, _months, _days in (("years", 12, 0), ("quarters", 3, 0), ("months", 1, 0), ("weeks", 0, 7),
                                  ("days", 0, 1)):
        _calendar_add(f"{_verb}_{_unit}", _months, _days)
    for _unit, _micros in (("hours", 3_600_000_000), ("minutes", 60_000_000), ("seconds", 1_000_000)):
        _clock_add(f"{_verb}_{_unit}", _micros)


# ---------------------------------------------------------------- conversions


def _make_to_timestamp(tz):
    def to_timestamp(v, fmt=None):
        if fmt is not None:
            if type(v) is int and type(fmt) is int:  # TO_TIMESTAMP(n, scale): n / 10^scale seconds
                return timestamp_from_micros(v * 10 ** (6 - fmt) if fmt <= 6 else v // 10 ** (fmt - 6))
            return _str_to_timestamp(tz)(v, fmt)
        t = type(v)
        if t is _DATETIME:
            return v
        if t is _DATE:
            return date_to_timestamp(v, tz)
        if t is int:
            return timestamp_from_int(v)
        if t is str:
            return parse_timestamp(v, tz)
        return timestamp_from_int(casting.to_int(v))
    return to_timestamp


def _make_to_date(tz):
    def to_date(v, fmt=None):
        if fmt is not None:
            return _str_to_date(v, fmt)
        t = type(v)
        if t is _DATE:
            return v
        if t is _DATETIME:
            return to_local(v, tz).date()
        if t is int:
            return date_from_days(v)
        if t is str:
            return parse_date(v)
        return date_from_days(casting.to_int(v))

    to_date.of_int = date_from_days  # generated code calls it for an integer argument
    return to_date


def _str_to_timestamp(tz):
    def str_to_timestamp(text, fmt):
        fmt = casting.to_string(fmt)
        if not fmt:  # an empty format reads nothing: NULL, as Databend
            return None
        local, offset = parse_datetime(casting.to_string(text), fmt)
        return check_timestamp(local - offset if offset is not None else from_local(local, tz))
    return str_to_timestamp


def _str_to_date(text, fmt):
    local, _ = parse_datetime(casting.to_string(text), casting.to_string(fmt))
    return local.date()


def _conversion_type(rt, name):
    """Result rule of to_timestamp/to_date: from an integer, text, Date or Timestamp only; NULL
    may come with a format (an empty one)."""
    def rule(types):
        first = types[0]
        if not (first.is_int or first.name in _TEMPORAL_NAMES):
            raise SemanticError(f"no overload satisfies `{name}({', '.join(t.display() for t in types)})`")
        return rt.as_nullable(True) if len(types) == 2 and types[1].is_string else rt
    return rule


_zoned("to_timestamp", _make_to_timestamp, _conversion_type(T.TIMESTAMP, "to_timestamp"), 1, 2,
       aliases=("to_datetime",))
_zoned("to_date", _make_to_date, _conversion_type(T.DATE, "to_date"), 1, 2)


def _attempt(make):
    """make(tz) answering NULL, not an error, where it would fail (TRY_TO_TIMESTAMP...)."""
    def make_attempt(tz):
        convert = make(tz)

        def attempt(v, *fmt):
            if v is None or fmt and fmt[0] is None:  # TRY_TO_TIMESTAMP(1, NULL) is NULL
                return None
            try:
                return convert(v, *fmt)
            except EngineError:
                return None
        return attempt
    return make_attempt


def _try_conversion_type(rt, name):
    rule = _conversion_type(rt, name)
    return lambda types: rt.as_nullable(True) if types[0].name == "Null" else rule(types).as_nullable(True)


for _name, _make, _rt, _aliases in (("try_to_timestamp", _make_to_timestamp, T.TIMESTAMP, ("try_to_datetime",)),
                                     ("try_to_date", _make_to_date, T.DATE, ())):
    register(_name, _attempt(_make)(UTC), _try_conversion_type(_rt, _name), 1, 2, strict=False, aliases=_aliases)
    _ZONED[_name] = _attempt(_make)
_zoned("str_to_timestamp", _str_to_timestamp, fixed(T.TIMESTAMP), 2)
register("str_to_date", _str_to_date, fixed(T.DATE), 2)


def _make_date_format(tz, pg=True):
    """date_format(x, fmt); `pg`: fmt may hold PostgreSQL patterns (YYYY, MM...), as Databend's
    default date_format_style 'Oracle' reads them (to_char translates its own first)."""
    local = _local_reader(tz)
    instant = instant_reader(tz)

    def date_format(v, fmt):
        d = local(v)
        if tz is UTC:
            name, offset = "UTC", "+0000"
        else:
            aware = instant(v).replace(tzinfo=UTC).astimezone(tz)
            name, offset = aware.tzname(), aware.strftime("%z")
        return format_datetime(d, casting.to_string(fmt), name, offset, micros_of(instant(v)) // 1_000_000, pg)
    return date_format


_zoned("date_format", _make_date_format, _temporal(T.STRING, "date_format"), 2, aliases=("strftime",))


def _make_to_string(tz):
    """to_string(Date or Timestamp [, format]): a Timestamp in the session zone."""
    date_format = _make_date_format(tz)

    def to_string(v, fmt=None):
        if fmt is not None:
            return date_format(v, fmt)
        if type(v) is _DATETIME:
            return render_timestamp(to_local(v, tz))
        return casting.to_string(v)
    return to_string


_ZONED["to_string_temporal"] = _make_to_string
_TO_STRING = ScalarFunction("to_string_temporal", _make_to_string(UTC), fixed(T.STRING), 1, 2)


def function_override(name: str, types) -> ScalarFunction | None:
    """The date module's own version of a function another family owns, for these argument
    types: to_string of a Date or Timestamp (zone aware; with a format: date_format)."""
    if name == "to_string" and types and (len(types) == 2 or types[0].name in ("Date", "Timestamp")):
        return _TO_STRING
    return None


def _make_months_between(tz):
    local = _local_reader(tz)
    return lambda a, b: M.months_between(local(a).date(), local(b).date())


_zoned("months_between", _make_months_between, _temporal(T.FLOAT64, "months_between"), 2)


def _weekday_step(step):
    def make(tz):
        local = _local_reader(tz)

        def move(v, weekday):
            day = M.WEEKDAYS.get(casting.to_string(weekday).lower())
            if day is None:
                raise SemanticError(f"invalid week day {weekday!r}")
            return step(local(v).date(), day)
        return move
    return make


_zoned("next_day", _weekday_step(M.next_weekday), _temporal(T.DATE, "next_day"), 2)
_zoned("previous_day", _weekday_step(M.previous_weekday), _temporal(T.DATE, "previous_day"), 2)


# ---------------------------------------------------------------- date_diff


def _date_diff(unit):
    """date_diff(unit, a, b), as current Databend counts: calendar units on wall-clock dates in
    the session zone; days, weeks (Monday to Sunday) and clock units on the instants, divided
    truncating toward zero (Rust's integer division)."""
    def make(tz):
        local = _local_reader(tz)
        days = _day_number_reader(tz)
        instant = instant_reader(tz)
        if unit == "year":
            return lambda a, b: local(b).year - local(a).year
        if unit == "quarter":
            return lambda a, b: _quarters(local(b)) - _quarters(local(a))
        if unit == "month":
            return lambda a, b: _months(local(b)) - _months(local(a))
        if unit == "day":
            return lambda a, b: days(b) - days(a)
        if unit == "week":
            return lambda a, b: _week_number(days(b)) - _week_number(days(a))
        per = {"hour": 3_600_000_000, "minute": 60_000_000, "second": 1_000_000}[unit]
        return lambda a, b: _div0(micros_of(instant(b)), per) - _div0(micros_of(instant(a)), per)
    _ZONED[f"date_diff_{unit}"] = make
    return ScalarFunction(f"date_diff_{unit}", make(UTC), _temporal(T.INT64, "date_diff"), 2, 2)


def _div0(a: int, b: int) -> int:
    """Integer division truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _week_number(days: int) -> int:
    """Databend's week count of a day number (1970-01-01 is a Thursday; weeks start Monday)."""
    rem = abs(days) % 7 * (1 if days >= 0 else -1)
    return _div0(days, 7) + (rem >= 4)


def _day_number_reader(tz):
    """A function: Date -> its day number; Timestamp -> its UTC microseconds // a day (truncated)."""
    instant = instant_reader(tz)

    def day_number(v):
        if type(v) is _DATE:
            return (v - EPOCH_DATE).days
        return _div0(micros_of(instant(v)), 86_400_000_000)
    return day_number


def _quarters(d):
    return d.year * 4 + (d.month - 1) // 3


def _months(d):
    return d.year * 12 + d.month - 1


DATE_DIFF = {u: _date_diff(u) for u in ("year", "quarter", "month", "week", "day", "hour", "minute", "second")}


# ---------------------------------------------------------------- what the zone decides elsewhere


def temporal_cast(source: T.SqlType, target: T.SqlType, timezone: str):
    """A cast function value -> value for casts the session zone decides (text or Date to
    Timestamp, Timestamp to Date or text), else None (the plain caster applies)."""
    tz = zone(timezone)
    s, t = source.name, target.name
    if t == "Timestamp" and s == "Variant":  # the JSON string's text, read in the zone
        return V.caster_from_variant(target, instant_reader(tz))
    if t == "Timestamp" and s in ("String", "Date"):
        return instant_reader(tz)
    if t == "Timestamp" and source.is_int:
        return timestamp_from_int
    if t == "Date" and s == "Timestamp":
        return lambda v: to_local(v, tz).date()
    if t == "Date" and s == "String":
        return lambda v: parse_date(v)
    if t == "Date" and source.is_int:
        return lambda v: date_from_days(int(v))
    if t == "String" and s == "Timestamp":
        return lambda v: render_timestamp(to_local(v, tz))
    if t == "Variant" and s == "Timestamp" and tz is not UTC:  # a JSON string of the wall-clock time
        return lambda v: variant_extension.make("Timestamp", v, render_timestamp(to_local(v, tz)))
    return None


def try_call_of(fn):
    """`fn` answering NULL where it would fail or is given NULL (TRY_CAST)."""
    def attempt(v):
        if v is None:
            return None
        try:
            return fn(v)
        except EngineError:
            return None
    return attempt


def session_today(now: datetime.datetime, timezone: str) -> datetime.date:
    """The session zone's calendar day at the (UTC) instant `now`."""
    return to_local(now, zone(timezone)).date()


__all__ = ["DATE_DIFF", "DAY_OF_WEEK_FROM_SUNDAY", "SCALARS", "date_out_of_range", "function_override",
           "instant_reader", "session_today", "temporal_cast", "with_timezone"]
