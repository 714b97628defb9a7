"""Calls whose first argument is a time unit keyword (DATE_ADD(DAY, 1, d), DATE_SUB, DATE_DIFF,
DATE_TRUNC(MONTH, d), DATE_PART / EXTRACT(YEAR FROM d), NEXT_DAY(d, MONDAY), LAST_DAY(d, WEEK)) and `x ± INTERVAL n
unit`: each becomes the plain date function it stands for, with the remaining arguments."""

from __future__ import annotations

from engine.core.errors import SemanticError, SqlSyntaxError
from engine.functions.date_parts import EXTRA_DATE_DIFF
from engine.functions.dates import DATE_DIFF, DAY_OF_WEEK_FROM_SUNDAY
from engine.functions.registry import SCALARS
from grammar import ast as A

_ADD_UNITS = {"year": "years", "quarter": "quarters", "month": "months", "week": "weeks", "day": "days",
              "hour": "hours", "minute": "minutes", "second": "seconds"}
_TRUNC_UNITS = ("year", "quarter", "month", "day", "hour", "minute", "second")
_PART_FUNCTIONS = {"year": "to_year", "quarter": "to_quarter", "month": "to_month", "day": "to_day_of_month",
                   "hour": "to_hour", "minute": "to_minute", "second": "to_second", "week": "to_week_of_year",
                   "doy": "to_day_of_year", "isoyear": "to_iso_year", "epoch": "epoch",
                   "microsecond": "to_microsecond", "isodow": "to_day_of_week", "yearweek": "yearweek",
                   "millennium": "millennium", "isoweek": "to_week_of_year"}
_LAST_DAY_UNITS = ("year", "quarter", "month", "week")
# the unit keywords of Databend's grammar (interval_kind), in its order
_KEYWORD_UNITS = ("isoyear", "year", "quarter", "month", "day", "hour", "minute", "second", "doy", "dow", "isodow",
                  "isoweek", "week", "epoch", "microsecond", "millennium", "yearweek")
# the same units written as strings ('yy', 'dayofweek'...): Databend's literal_string_eq_ignore_case names
_STRING_UNITS = {
    **dict.fromkeys(("year", "y", "yy", "yyy", "yyyy", "yr", "years", "yrs"), "year"),
    **dict.fromkeys(("quarter", "q", "qtr", "qtrs", "quarters"), "quarter"),
    **dict.fromkeys(("month", "mm", "mon", "mons", "months"), "month"),
    **dict.fromkeys(("day", "d", "dd", "days", "dayofmonth"), "day"),
    **dict.fromkeys(("hour", "h", "hh", "hh24", "hr", "hours", "hrs"), "hour"),
    **dict.fromkeys(("minute", "m", "mi", "min", "minutes", "mins"), "minute"),
    **dict.fromkeys(("second", "s", "sec", "seconds", "secs"), "second"),
    **dict.fromkeys(("doy", "dayofyear", "yearday", "dy"), "doy"),
    **dict.fromkeys(("dow", "weekday", "dw", "dayofweek"), "dow"),
    **dict.fromkeys(("isodow", "dayofweek_iso", "dayofweekiso", "weekday_iso", "dow_iso", "dw_iso"), "isodow"),
    **dict.fromkeys(("week", "weeks", "w", "wk", "weekofyear", "woy", "wy"), "week"),
    "iw": "isoweek", "isoyear": "isoyear",
    **dict.fromkeys(("epoch", "epoch_second", "epoch_seconds"), "epoch"),
    **dict.fromkeys(("microsecond", "microseconds", "us", "usec"), "microsecond"),
    **dict.fromkeys(("yearweek", "yearofweek"), "yearweek"),
    "millennium": "millennium",
}
UNIT_CALLS = frozenset({"date_add", "dateadd", "date_sub", "datesub", "date_diff", "datediff", "date_trunc",
                         "date_part", "datepart", "extract", "next_day", "previous_day", "last_day"})
# TRUNC(d, 'MM'): the unit names and abbreviations Databend's TRUNC takes (Oracle's and Snowflake's)
_TRUNC_NAMES = {
    **dict.fromkeys(("year", "y", "yy", "yyy", "yyyy", "yr", "years", "yrs"), "year"),
    **dict.fromkeys(("quarter", "q", "qtr", "qtrs", "quarters"), "quarter"),
    **dict.fromkeys(("month", "mm", "mon", "mons", "months"), "month"),
    **dict.fromkeys(("week", "w", "wk", "weekofyear", "woy", "wy", "iw", "weeks"), "week"),
    **dict.fromkeys(("day", "d", "dd", "days", "dayofmonth"), "day"),
    **dict.fromkeys(("hour", "h", "hh", "hh24", "hr", "hours", "hrs"), "hour"),
    **dict.fromkeys(("minute", "mi", "min", "minutes", "mins"), "minute"),
    **dict.fromkeys(("second", "s", "sec", "seconds", "secs"), "second"),
}


def _trunc_start(unit: str):
    """The to_start_of_* function truncating to `unit` (a week starts on Monday)."""
    return SCALARS["to_monday" if unit == "week" else f"to_start_of_{unit}"]


def trunc_call(args: tuple):
    """(function, argument ASTs) for TRUNC(d, unit) whose unit is a date unit (a keyword or a
    string such as 'MM'); None for the numeric TRUNC(x[, digits])."""
    if len(args) != 2:
        return None
    unit = args[1]
    if isinstance(unit, A.ColumnRef) and len(unit.parts) == 1 and unit.parts[0].lower() in _TRUNC_UNITS + ("week",):
        name = unit.parts[0].lower()  # a keyword (only a whole unit name: TRUNC(x, d) reads column d)
    elif isinstance(unit, A.Literal) and unit.kind == "string":
        name = str(unit.value).lower()
    else:
        return None
    if name not in _TRUNC_NAMES:
        return None
    return _trunc_start(_TRUNC_NAMES[name]), (args[0],)


def _unit_of(node, expected, pos):
    """The unit a keyword argument names (YEAR, 'day'...), lower-cased; a syntax error otherwise."""
    if isinstance(node, A.ColumnRef) and len(node.parts) == 1:
        unit = node.parts[0].lower()
        unit = unit if unit in _KEYWORD_UNITS else None
    elif isinstance(node, A.Literal) and node.kind == "string":
        unit = _STRING_UNITS.get(str(node.value).lower(), str(node.value).lower())
    else:
        unit = None
    if unit not in expected:
        shown = unit if unit is not None else type(node).__name__.lower()
        raise SqlSyntaxError(f"unexpected `{shown}`, expecting {', '.join(u.upper() for u in expected)}",
                             position=getattr(node, "pos", None) or pos)
    return unit


def unit_call(name: str, args: tuple, pos=None):
    """(function, argument ASTs) for a unit-keyword call, or None when `name` is not one."""
    if name not in UNIT_CALLS:
        return None
    if name in ("next_day", "previous_day"):
        if len(args) != 2:
            return None
        weekday = args[1]
        if isinstance(weekday, A.ColumnRef) and len(weekday.parts) == 1:
            weekday = A.Literal(weekday.parts[0].lower(), "string", pos=weekday.pos)
        return SCALARS[name], (args[0], weekday)
    name = _CANONICAL.get(name, name)
    if name == "last_day":
        if len(args) == 1:
            return SCALARS["to_last_of_month"], args
        if len(args) != 2:
            raise SemanticError(f"function last_day takes 1 or 2 arguments, got {len(args)}", position=pos)
        unit = _unit_of(args[1], _LAST_DAY_UNITS, pos)
        return SCALARS[f"to_last_of_{unit}"], (args[0],)
    arity = {"date_add": 3, "date_sub": 3, "date_diff": 3}.get(name, 2)
    if len(args) != arity:
        raise SemanticError(f"function {name} takes {arity} arguments, got {len(args)}", position=pos)
    if name in ("date_add", "date_sub"):
        unit = _unit_of(args[0], tuple(_ADD_UNITS), pos)
        verb = "add" if name == "date_add" else "subtract"
        return _add_function(verb, unit), (args[2], args[1])
    if name == "date_diff":
        unit = _unit_of(args[0], (*DATE_DIFF, *EXTRA_DATE_DIFF, "epoch"), pos)
        unit = "second" if unit == "epoch" else unit
        return {**DATE_DIFF, **EXTRA_DATE_DIFF}[unit], (args[1], args[2])
    if name == "date_trunc":
        unit = _unit_of(args[0], (*_TRUNC_UNITS, "week", "isoyear", "isoweek"), pos)
        if unit in ("isoyear", "isoweek"):
            return SCALARS["to_start_of_iso_year" if unit == "isoyear" else "to_monday"], (args[1],)
        return _trunc_start(unit), (args[1],)  # WEEK: from Monday, as current Databend
    unit = _unit_of(args[0], (*_PART_FUNCTIONS, "dow"), pos)
    if unit == "dow":
        return DAY_OF_WEEK_FROM_SUNDAY, (args[1],)
    return SCALARS[_PART_FUNCTIONS[unit]], (args[1],)


def _add_function(verb: str, unit: str):
    """add_days, subtract_hours...; a month is date_add_months, which only clamps the day (ADD_MONTHS
    keeps a month's last day the last day: engine.functions.date_parts)."""
    return SCALARS[f"date_{verb}_months" if unit == "month" else f"{verb}_{_ADD_UNITS[unit]}"]


# the other spellings of the unit calls
_CANONICAL = {"dateadd": "date_add", "datesub": "date_sub", "datediff": "date_diff", "datepart": "date_part"}


def interval_call(op: str, left, right, pos=None):
    """(function, argument ASTs) for `x + INTERVAL n unit`, `INTERVAL n unit + x` and
    `x - INTERVAL n unit` (the date step add_days / add_months..., no INTERVAL value made); None
    for any other operator or unit, where the INTERVAL is a value (engine.functions.intervals)."""
    if not (isinstance(right, A.Interval) or isinstance(left, A.Interval)):
        return None
    if op not in ("+", "-") or isinstance(left, A.Interval) and (op == "-" or isinstance(right, A.Interval)):
        return None
    interval, other = (right, left) if isinstance(right, A.Interval) else (left, right)
    unit = interval.unit.lower()
    if unit not in _ADD_UNITS:
        return None
    verb = "add" if op == "+" else "subtract"
    return _add_function(verb, unit), (other, interval.value)
