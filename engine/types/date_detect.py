"""Datetime text beyond ISO 8601, as Databend reads it when its settings ask:
`enable_auto_detect_datetime_format` (epoch numbers and a fixed list of formats: DD-MON-YYYY,
MM/DD/YYYY, RFC 2822, Unix date; Databend's auto_detect_datetime.rs) and
`enable_strict_datetime_parser = 0` (a best-effort reading of common written dates, the role
Databend gives the dtparse crate). Pure functions of the text; the callers apply the zone."""

from __future__ import annotations

import datetime
import re

_DATE = datetime.date
# Databend's AUTO_DATE_FORMATS and AUTO_TS_FORMATS, in its order (%.f: an optional fraction,
# handled apart since strptime's %f takes at most 6 digits and is not optional)
_AUTO_DATE_FORMATS = ("%Y-%m-%d", "%d-%b-%Y", "%m/%d/%Y")
_AUTO_TS_FORMATS = (
    "%Y-%m-%d %H:%M:%S", "%Y-%m-%d", "%d-%b-%Y %H:%M:%S", "%d-%b-%Y", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y",
    "%a, %d %b %Y %H:%M:%S %z", "%a, %d %b %Y %H:%M:%S", "%a, %d %b %Y %I:%M:%S %p %z",
    "%a, %d %b %Y %I:%M:%S %p", "%a %b %d %H:%M:%S %z %Y",
)
# the best-effort reading: the formats above and these written forms, tried in order
_LENIENT_FORMATS = (
    "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d", "%Y%m%d%H%M%S",
    "%Y%m%d", "%d-%b-%Y %H:%M:%S", "%d-%b-%Y", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y", "%d/%m/%Y %H:%M:%S", "%d/%m/%Y",
    "%b %d, %Y %H:%M:%S",
    "%b %d, %Y", "%B %d, %Y", "%d %b %Y %H:%M:%S", "%d %b %Y", "%d %B %Y", "%b %d %Y", "%Y-%m-%dT%H:%M:%S",
    *_AUTO_TS_FORMATS[6:],
)
_FRACTION = re.compile(r"(\d{1,2}:\d{2}:\d{2})\.(\d+)")
# the seconds / milliseconds bounds of Databend's int64_to_timestamp
_SECONDS_BELOW = 31_536_000_000
_MILLIS_BELOW = 31_536_000_000_000


def _split_fraction(text: str):
    """(text without its fraction of a second, microseconds)."""
    m = _FRACTION.search(text)
    if m is None:
        return text, 0
    micros = int(m.group(2)[:6].ljust(6, "0"))
    return text[:m.start()] + m.group(1) + text[m.end():], micros


def _strptime(text: str, formats):
    """(naive datetime, UTC offset or None) of the first format reading the whole text, or None."""
    plain, micros = _split_fraction(text)
    for fmt in formats:
        try:
            parsed = datetime.datetime.strptime(plain, fmt)
        except ValueError:
            continue
        offset = parsed.utcoffset()
        return parsed.replace(tzinfo=None, microsecond=micros), offset
    return None


def epoch_micros(text: str) -> int | None:
    """Microseconds since the epoch of an integer written as text (seconds, milliseconds or
    microseconds by magnitude, as Databend's int64_to_timestamp), or None."""
    try:
        n = int(text)
    except ValueError:
        return None
    if -_SECONDS_BELOW < n < _SECONDS_BELOW:
        return n * 1_000_000
    if -_MILLIS_BELOW < n < _MILLIS_BELOW:
        return n * 1_000
    return n


def auto_timestamp(text: str):
    """(naive wall-clock datetime, offset or None) of one of the auto-detected formats, or None."""
    return _strptime(text.strip(), _AUTO_TS_FORMATS)


def auto_date(text: str) -> _DATE | None:
    found = _strptime(text.strip(), _AUTO_DATE_FORMATS)
    return None if found is None else found[0].date()


def lenient_timestamp(text: str):
    """(naive datetime, offset or None) of a commonly written date and time, or None."""
    text = " ".join(text.split())
    found = _strptime(text, _LENIENT_FORMATS)
    if found is None and ":" in text:  # '2017-5-23 0:00:00': a date, then a clock time
        day, _, clock = text.partition(" ")
        date_part = _strptime(day, _LENIENT_FORMATS)
        parts = clock.split(":")
        if date_part is not None and date_part[0].time() == datetime.time() and 2 <= len(parts) <= 3 \
                and all(p.isdigit() for p in parts):
            h, mi, s = (int(p) for p in (parts + ["0"])[:3])
            try:
                return date_part[0].replace(hour=h, minute=mi, second=s), None
            except ValueError:
                return None
    return found
