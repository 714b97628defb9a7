"""TIMESTAMP_TZ values: an instant together with the UTC offset it was written in.

A value is an aware `datetime.datetime` whose tzinfo is a fixed `datetime.timezone` offset: it
compares, sorts and hashes by its instant (so '00:00:00+0000' equals '01:00:00+0100', as in
Databend) and shows its own wall-clock time and offset ('2024-04-16 12:34:56.789000 +0600').
Text without an offset takes the session zone's offset at that wall-clock time."""

from __future__ import annotations

import datetime
import functools

from engine.core.errors import BadArguments
from engine.types import datetimes as D

_UTC = datetime.UTC


@functools.lru_cache(maxsize=256)
def fixed_offset(seconds: int) -> datetime.timezone:
    """The tzinfo of a fixed offset (shared, so equal offsets are one object)."""
    return _UTC if seconds == 0 else datetime.timezone(datetime.timedelta(seconds=seconds))


def zone_offset(local: datetime.datetime, tz) -> datetime.timezone:
    """The offset the zone `tz` has at the wall-clock time `local`."""
    if tz is _UTC:
        return _UTC
    return fixed_offset(int(local.replace(tzinfo=tz).utcoffset().total_seconds()))


def parse_timestamp_tz(text: str, tz) -> datetime.datetime:
    """A TIMESTAMP_TZ from text: '2024-01-02 03:04:05[.ffffff][ ][+08[:00]|Z]' or a date; the
    offset written is kept, else the session zone's at that time."""
    local, offset = D.parse_fields(text, "TIMESTAMP_TZ")
    if offset is None:
        return local.replace(tzinfo=zone_offset(local, tz))
    return local.replace(tzinfo=fixed_offset(int(offset.total_seconds())))


def render_timestamp_tz(v: datetime.datetime) -> str:
    return v.replace(tzinfo=None).isoformat(" ", "microseconds") + v.strftime(" %z")


def from_timestamp(ts: datetime.datetime, tz) -> datetime.datetime:
    """A stored (UTC) Timestamp as TIMESTAMP_TZ, as Databend converts it: its UTC wall-clock time
    labelled with the session zone's offset at that instant (the instant moves by the offset)."""
    if tz is _UTC:
        return ts.replace(tzinfo=_UTC)
    offset = ts.replace(tzinfo=_UTC).astimezone(tz).utcoffset()
    return ts.replace(tzinfo=fixed_offset(int(offset.total_seconds())))


def from_date(d: datetime.date, tz) -> datetime.datetime:
    """A Date as its midnight in the session zone, with that zone's offset."""
    local = datetime.datetime(d.year, d.month, d.day)
    return local.replace(tzinfo=zone_offset(local, tz))


def to_timestamp(v: datetime.datetime) -> datetime.datetime:
    """The instant as a stored (UTC, naive) Timestamp."""
    return D.check_timestamp(v.astimezone(_UTC).replace(tzinfo=None))


def to_date(v: datetime.datetime) -> datetime.date:
    """The calendar day of the value's own wall-clock time."""
    return v.date()


def timestamp_tz_of(v, tz) -> datetime.datetime:
    """A value written into a TIMESTAMP_TZ column (or cast to one) in the session zone `tz`."""
    t = type(v)
    if t is datetime.datetime:
        return v if v.tzinfo is not None else from_timestamp(v, tz)
    if t is datetime.date:
        return from_date(v, tz)
    if t is str:
        return parse_timestamp_tz(v, tz)
    if t is int:
        return from_timestamp(D.timestamp_from_int(v), tz)
    raise BadArguments(f"unable to cast {v!r} to type `TIMESTAMP_TZ`")
