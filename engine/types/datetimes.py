"""Date and Timestamp values and time zones: parsing, zone conversion, range checks and rendering.

Representation (decided once for the whole engine):
- a Date is a `datetime.date` (a calendar day, no zone);
- a Timestamp is a naive `datetime.datetime` holding the instant in UTC, microsecond precision.
Scans and comparisons therefore compare plain C-level objects, whatever the session zone. The
session `timezone` setting is applied only at the edges: a string or a Date read as a Timestamp is
taken as wall-clock time in the session zone; a Timestamp shown (wire, to_string, date_format) or
taken apart by a date function (to_hour, to_start_of_day, ...) is first moved to the session zone.
Databend's range applies: 0001-01-01 to 9999-12-31 (23:59:59.999999). As in current Databend,
arithmetic that leaves the range gives the minimum, 0001-01-01 (its clamp_timestamp / clamp_date),
a Timestamp past 9999-12-30 22:00:00 UTC (the last instant every zone can show) is that instant,
and text naming a later instant is refused.
"""

from __future__ import annotations

import datetime
import functools
import re
import zoneinfo

from engine.core.errors import BAD_BYTES, BadArguments, EngineError

UTC = datetime.UTC
EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_DATE = datetime.date(1970, 1, 1)
MIN_DATE = datetime.date(1, 1, 1)
MAX_DATE = datetime.date(9999, 12, 31)
MIN_TIMESTAMP = datetime.datetime(1, 1, 1)
MAX_TIMESTAMP = datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)
# the last instant shown: jiff's Timestamp::MAX, so that any offset still gives a valid civil time
SHOWN_MAX_TIMESTAMP = datetime.datetime(9999, 12, 30, 22)
_ONE_DAY = datetime.timedelta(days=1)
_MICRO = datetime.timedelta(microseconds=1)

_TS_RE = re.compile(
    r"\s*(\d{1,4})-(\d{1,2})-(\d{1,2})"
    # a time may stop after the T, the hour or a colon ('9999-12-30T', '... 22', '... 22:', as Databend)
    r"(?:[Tt ]+(?:(\d{1,2})(?::(?:(\d{1,2})(?::(?:(\d{1,2})(?:\.(\d+))?)?)?)?)?)?)?"
    r"\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?\s*\Z")


@functools.lru_cache(maxsize=64)
def zone(name: str) -> datetime.tzinfo:
    """The tzinfo of a time zone name (the session `timezone` setting, already validated)."""
    if name == "UTC":
        return UTC
    return zoneinfo.ZoneInfo(name)


def date_out_of_range() -> BadArguments:
    return BadArguments("date is out of range")


def timestamp_out_of_range() -> BadArguments:
    return BadArguments("timestamp is out of range")


def check_date(d: datetime.date) -> datetime.date:
    if not MIN_DATE <= d <= MAX_DATE:
        raise date_out_of_range()
    return d


def check_timestamp(ts: datetime.datetime) -> datetime.datetime:
    if not MIN_TIMESTAMP <= ts <= MAX_TIMESTAMP:
        raise timestamp_out_of_range()
    return ts


# ---------------------------------------------------------------- zone conversion


def to_local(ts: datetime.datetime, tz) -> datetime.datetime:
    """A stored (UTC) Timestamp as naive wall-clock time in `tz`."""
    if tz is UTC:
        return ts
    return ts.replace(tzinfo=UTC).astimezone(tz).replace(tzinfo=None)


def from_local(local: datetime.datetime, tz) -> datetime.datetime:
    """Naive wall-clock time in `tz` as a stored (UTC) Timestamp."""
    if tz is UTC:
        return local
    return local.replace(tzinfo=tz).astimezone(UTC).replace(tzinfo=None)


def date_to_timestamp(d: datetime.date, tz) -> datetime.datetime:
    """A Date as the Timestamp of its midnight in `tz`."""
    return from_local(datetime.datetime(d.year, d.month, d.day), tz)


def timestamp_to_date(ts: datetime.datetime, tz) -> datetime.date:
    """A Timestamp as the calendar day it falls on in `tz`."""
    return to_local(ts, tz).date()


def local_parts(v, tz) -> datetime.datetime:
    """A Date or Timestamp as naive wall-clock time in `tz` (a Date is its midnight)."""
    if type(v) is datetime.date:
        return datetime.datetime(v.year, v.month, v.day)
    return to_local(v, tz)


# ---------------------------------------------------------------- parsing


def _unparsable(text: str, type_name: str) -> BadArguments:
    """Databend's words for a text that is no date / timestamp, naming the conversion as its
    function (`to_date('1000000-01-01')`)."""
    function = "to_date" if type_name == "DATE" else f"to_{type_name.lower()}"
    shown = text.replace("'", "\\'")
    return BadArguments(f"cannot parse to type `{type_name}` while evaluating function "
                        f"`{function}('{shown}')`")


def _parse_fields(text: str, type_name: str):
    m = _TS_RE.match(text)
    if m is None:
        raise _unparsable(text, type_name)
    year, month, day, hour, minute, second, frac, zulu, sign, oh, om = m.groups()
    if len(m.group(1)) != 4 or len(month) != 2 or len(day) != 2:
        raise _unparsable(text, type_name)
    if year == "0000" and month == "00" and day == "00":  # the zero date is the epoch's day
        year, month, day = "1970", "01", "01"
    try:
        local = datetime.datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                                  int(second or 0), int((frac or "0")[:6].ljust(6, "0")))
    except ValueError:
        raise _unparsable(text, type_name) from None
    offset = None
    if zulu:
        offset = datetime.timedelta(0)
    elif sign:
        offset = datetime.timedelta(hours=int(oh), minutes=int(om or 0))
        if sign == "-":
            offset = -offset
    return local, offset


def parse_fields(text: str, type_name: str):
    """(naive wall-clock datetime, offset written or None) of timestamp text; `type_name` names
    the type in the error."""
    return _parse_fields(text, type_name)


def parse_timestamp(text: str, tz) -> datetime.datetime:
    """A Timestamp from text ('2024-01-02', '2024-01-02 03:04:05.123', '...T...Z', '...+08:00'),
    wall-clock time in `tz` unless the text gives its own offset; an instant past the last one
    shown is refused (1046, as Databend)."""
    local, offset = _parse_fields(text, "TIMESTAMP")
    try:
        ts = local - offset if offset is not None else from_local(local, tz)
    except OverflowError:
        raise timestamp_out_of_range() from None
    if ts > SHOWN_MAX_TIMESTAMP:
        raise EngineError(f"timestamp {text.strip()!r} is out of range", code=BAD_BYTES)
    return check_timestamp(ts)


def parse_date(text: str) -> datetime.date:
    """A Date from text ('2024-01-02', or a timestamp text whose day part is taken)."""
    local, _ = _parse_fields(text, "DATE")
    return local.date()


def timestamp_from_int(n: int) -> datetime.datetime:
    """to_timestamp(int): seconds, milliseconds or microseconds since the epoch, told apart by
    magnitude as Databend does."""
    a = abs(n)
    if a < 100_000_000_000:
        micros = n * 1_000_000
    elif a < 100_000_000_000_000:
        micros = n * 1_000
    else:
        micros = n
    return timestamp_from_micros(micros)


_MIN_MICROS = -62_135_596_800_000_000
_MAX_MICROS = 253_402_300_799_999_999
_SHOWN_MAX_MICROS = 253_402_207_200_000_000


def timestamp_from_micros(micros: int) -> datetime.datetime:
    """The Timestamp `micros` after the epoch, clamped as Databend: outside the range it is the
    minimum (0001-01-01), past the last instant shown it is that instant."""
    if not _MIN_MICROS <= micros <= _MAX_MICROS:
        return MIN_TIMESTAMP
    if micros > _SHOWN_MAX_MICROS:
        return SHOWN_MAX_TIMESTAMP
    return EPOCH + datetime.timedelta(microseconds=micros)


def shift_timestamp(ts: datetime.datetime, micros: int) -> datetime.datetime:
    """A Timestamp moved by `micros`, clamped as timestamp_from_micros."""
    try:
        moved = ts + datetime.timedelta(microseconds=micros)
    except OverflowError:
        return MIN_TIMESTAMP
    return moved if moved <= SHOWN_MAX_TIMESTAMP else SHOWN_MAX_TIMESTAMP


def clamped_date(d: datetime.date | None) -> datetime.date:
    """Calendar arithmetic's result: the minimum Date when it left the range (None)."""
    return MIN_DATE if d is None else d


_EPOCH_ORDINAL = EPOCH_DATE.toordinal()
_MIN_ORDINAL, _MAX_ORDINAL = MIN_DATE.toordinal(), MAX_DATE.toordinal()
# days since the epoch -> the date, for the first _DAY_CACHE_SIZE days asked for: a cast of a
# column of days skips building each date, and equal dates share one object (a stored Date
# column of repeated days holds each day once)
_DAY_CACHE: dict[int, datetime.date] = {}
_DAY_CACHE_SIZE = 1 << 15  # ~3 MB at most; 89 years of days


def date_from_days(days: int) -> datetime.date:
    found = _DAY_CACHE.get(days)
    if found is not None:
        return found
    ordinal = _EPOCH_ORDINAL + days
    if not _MIN_ORDINAL <= ordinal <= _MAX_ORDINAL:
        raise date_out_of_range()
    day = datetime.date.fromordinal(ordinal)
    if len(_DAY_CACHE) < _DAY_CACHE_SIZE:
        _DAY_CACHE[days] = day
    return day


# generated code looks a day up here before calling (engine.codegen.compile: a date is truthy)
date_from_days.cache = _DAY_CACHE


def micros_of(ts: datetime.datetime) -> int:
    """Microseconds since the epoch of a stored Timestamp."""
    delta = ts - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


# ---------------------------------------------------------------- rendering


_ISO = datetime.datetime.isoformat  # zero-pads years before 1000 (strftime's %Y does not)


def render_timestamp(ts: datetime.datetime) -> str:
    return _ISO(ts, " ", "microseconds")


def timestamp_renderer(tz):
    """A function rendering stored Timestamps as wall-clock text in `tz` (the wire format)."""
    if tz is UTC:
        return render_timestamp
    utc = UTC

    def render(ts):
        return _ISO(ts.replace(tzinfo=utc).astimezone(tz).replace(tzinfo=None), " ", "microseconds")

    return render


def timestamp_of(v, tz) -> datetime.datetime:
    """A value written into a Timestamp column: text read in `tz`, a Date as its midnight in
    `tz`, an integer as microseconds since the epoch."""
    t = type(v)
    if t is datetime.datetime:
        return check_timestamp(v)
    if t is datetime.date:
        return date_to_timestamp(v, tz)
    if t is str:
        return parse_timestamp(v, tz)
    if t is int:
        return timestamp_from_int(v)
    raise BadArguments(f"fail to cast {v!r} to Timestamp")


def date_of(v, tz) -> datetime.date:
    """A value written into a Date column: text, a Timestamp's day in `tz`, days since the epoch."""
    t = type(v)
    if t is datetime.date:
        return check_date(v)
    if t is datetime.datetime:
        return timestamp_to_date(v, tz)
    if t is str:
        return parse_date(v)
    if t is int:
        return date_from_days(v)
    raise BadArguments(f"fail to cast {v!r} to Date")
