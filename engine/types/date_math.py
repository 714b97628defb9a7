"""Calendar arithmetic on wall-clock values, as Databend computes it: adding months and years
(clamped to the month's end), starts of periods, ISO weeks, months_between, date_diff counts."""

from __future__ import annotations

import calendar
import datetime

from engine.types.datetimes import MAX_DATE, MIN_DATE, date_out_of_range

_ONE_DAY = datetime.timedelta(days=1)


def days_in_month(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def add_months(v, months: int, keep_last: bool = False):
    """A date or naive datetime moved by `months`, the day clamped to the new month's last day;
    with `keep_last` (ADD_MONTHS) a month's last day stays the last day of the new month."""
    total = v.year * 12 + (v.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    if year < MIN_DATE.year:  # before the range: the minimum, as Databend's clamp
        return type(v)(1, 1, 1)
    if year > MAX_DATE.year:
        raise date_out_of_range()
    last = days_in_month(year, month)
    day = last if keep_last and v.day == days_in_month(v.year, v.month) else min(v.day, last)
    return v.replace(year=year, month=month, day=day)


def add_days(d, days: int):
    """d moved by `days`; the minimum Date when that leaves the range (Databend's clamp_date)."""
    try:
        return d + datetime.timedelta(days=days)
    except OverflowError:
        return MIN_DATE


def start_of_quarter(d: datetime.date) -> datetime.date:
    return datetime.date(d.year, (d.month - 1) // 3 * 3 + 1, 1)


def start_of_week(d: datetime.date, mode: int = 0) -> datetime.date:
    """The Sunday (mode 0) or Monday (any other mode) starting d's week."""
    back = d.isoweekday() % 7 if mode == 0 else d.isoweekday() - 1
    return d - datetime.timedelta(days=back)


def start_of_iso_year(d: datetime.date) -> datetime.date:
    return datetime.date.fromisocalendar(d.isocalendar()[0], 1, 1)


def last_day_of_month(d: datetime.date) -> datetime.date:
    return datetime.date(d.year, d.month, days_in_month(d.year, d.month))


def months_between(a: datetime.date, b: datetime.date) -> float:
    """Months from b to a: whole months when the days of month match or both are month ends,
    else the day difference in 31sts of a month."""
    months = (a.year - b.year) * 12 + (a.month - b.month)
    a_last = a.day == days_in_month(a.year, a.month)
    b_last = b.day == days_in_month(b.year, b.month)
    if a.day == b.day or (a_last and b_last):
        return float(months)
    return months + (a.day - b.day) / 31


def next_weekday(d: datetime.date, weekday: int) -> datetime.date:
    """The first day after d falling on `weekday` (ISO: Monday 1 .. Sunday 7)."""
    ahead = (weekday - d.isoweekday()) % 7 or 7
    return d + datetime.timedelta(days=ahead)


def previous_weekday(d: datetime.date, weekday: int) -> datetime.date:
    back = (d.isoweekday() - weekday) % 7 or 7
    return d - datetime.timedelta(days=back)


WEEKDAYS = {"monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6,
            "sunday": 7}
