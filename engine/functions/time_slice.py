"""time_slice(date_or_timestamp, n, unit[, 'START' | 'END']): the start (or end) of the slice of
n units holding the value, slices counted from 1970-01-01 (weeks from Monday 1969-12-29), as
Databend's (and Snowflake's) TIME_SLICE; a Date gives a Date, a Timestamp a Timestamp (in UTC)."""

from __future__ import annotations

import datetime

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import register
from engine.types import sqltype as T

_EPOCH = datetime.date(1970, 1, 1)
_WEEK_EPOCH = datetime.date(1969, 12, 29)
_SECONDS = {"hour": 3600, "minute": 60, "second": 1}


def _months_to_date(months: int) -> datetime.date:
    return datetime.date(1970 + months // 12, months % 12 + 1, 1)


def _date_slice(day: datetime.date, n: int, unit: str, end: bool) -> datetime.date:
    if unit in ("year", "quarter", "month"):
        per = {"year": 12, "quarter": 3, "month": 1}[unit] * n
        months = (day.year - 1970) * 12 + day.month - 1
        start = months // per * per
        return _months_to_date(start + per if end else start)
    epoch, per = (_WEEK_EPOCH, 7 * n) if unit == "week" else (_EPOCH, n)
    start = (day - epoch).days // per * per
    return epoch + datetime.timedelta(days=start + per if end else start)


def _slice(value, n, unit, start_or_end="START"):
    n = int(n)
    if n < 1:
        raise BadArguments(f"time_slice: the slice length must be positive, got {n}")
    unit = str(unit).strip().lower()
    which = str(start_or_end).strip().upper()
    if which not in ("START", "END"):
        raise BadArguments(f"time_slice: the last argument must be 'START' or 'END', got {start_or_end!r}")
    end = which == "END"
    if unit not in ("year", "quarter", "month", "week", "day", *_SECONDS):
        raise BadArguments(f"time_slice: unknown date part {unit!r}")
    if not isinstance(value, datetime.datetime):
        if unit in _SECONDS:
            raise BadArguments(f"time_slice: a DATE has no {unit}")
        return _date_slice(value, n, unit, end)
    if unit not in _SECONDS:
        return datetime.datetime.combine(_date_slice(value.date(), n, unit, end), datetime.time())
    per = _SECONDS[unit] * n
    seconds = int((value - datetime.datetime(1970, 1, 1)).total_seconds() // 1)
    start = seconds // per * per
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=start + per if end else start)


def _slice_type(types):
    t = types[0]
    if t.name not in ("Date", "Timestamp"):
        raise SemanticError(f"no overload satisfies `time_slice({', '.join(x.display() for x in types)})`")
    return T.SqlType(t.name)


register("time_slice", _slice, _slice_type, 3, 4)
