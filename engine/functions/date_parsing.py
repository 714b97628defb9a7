"""to_date / to_timestamp / to_timestamp_tz (and their TRY_ forms) of text under the settings
`enable_auto_detect_datetime_format` and `enable_strict_datetime_parser`, as Databend layers
them (datetime.rs parse_string_to_timestamp): ISO text first; then, with auto-detection, an
epoch number and the auto formats (engine.types.date_detect); then, with the strict parser off,
a best-effort reading. The binder asks `with_parsing` for these versions when a setting differs
from its default; VARIANT casts use the auto layer too, never the best-effort one."""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import replace

from engine.core.errors import BadArguments, EngineError
from engine.functions import dates as _dates
from engine.functions import timestamp_tz as _tz
from engine.functions.dates import register_zoned_impl
from engine.functions.registry import ScalarFunction
from engine.types import date_detect as DD
from engine.types import sqltype as T
from engine.types import timestamp_tz as TZ
from engine.types.datetimes import (
    EPOCH,
    UTC,
    check_timestamp,
    from_local,
    zone,
)

# Databend's clamp: an epoch outside the Timestamp (Date) range reads as the minimum, 0001-01-01
_MIN_TIMESTAMP = datetime.datetime(1, 1, 1)
_MIN_DATE = datetime.date(1, 1, 1)
_MAX_DAYS = (datetime.date(9999, 12, 31) - datetime.date(1970, 1, 1)).days
_MIN_DAYS = (_MIN_DATE - datetime.date(1970, 1, 1)).days


def _from_epoch(micros: int) -> datetime.datetime:
    try:
        return EPOCH + datetime.timedelta(microseconds=micros)
    except OverflowError:
        return _MIN_TIMESTAMP


def _instant(found, tz) -> datetime.datetime:
    local, offset = found
    return check_timestamp(local - offset if offset is not None else from_local(local, tz))


def timestamp_fallback(text: str, tz, auto: bool, lenient: bool):
    """The Timestamp of text ISO parsing refused, or None."""
    if auto:
        micros = DD.epoch_micros(text.strip())
        if micros is not None:
            return _from_epoch(micros)
        found = DD.auto_timestamp(text)
        if found is not None:
            return _instant(found, tz)
    if lenient:
        found = DD.lenient_timestamp(text)
        if found is not None:
            return _instant(found, tz)
    return None


def date_fallback(text: str, auto: bool, lenient: bool):
    """The Date of text ISO parsing refused, or None."""
    if auto:
        try:
            days = int(text.strip())
        except ValueError:
            days = None
        if days is not None:
            return _MIN_DATE if not _MIN_DAYS <= days <= _MAX_DAYS else datetime.date(1970, 1, 1) + \
                datetime.timedelta(days=days)
        found = DD.auto_date(text)
        if found is not None:
            return found
    if lenient:
        found = DD.lenient_timestamp(text)
        if found is not None:
            return found[0].date()
    return None


def timestamp_tz_fallback(text: str, tz, auto: bool):
    if not auto:
        return None
    micros = DD.epoch_micros(text.strip())
    if micros is not None:  # the instant, shown in the session zone's offset at that instant
        instant = _from_epoch(micros).replace(tzinfo=datetime.UTC)
        return instant.astimezone(TZ.fixed_offset(int(instant.astimezone(tz).utcoffset().total_seconds())))
    found = DD.auto_timestamp(text)
    if found is None:
        return None
    local, offset = found
    if offset is None:
        return local.replace(tzinfo=TZ.zone_offset(local, tz))
    return local.replace(tzinfo=TZ.fixed_offset(int(offset.total_seconds())))


def _with_fallback(convert, fallback):
    """`convert` (value[, format]) retrying refused text with `fallback(text)`."""
    def parse(v, fmt=None):
        if fmt is not None:
            return convert(v, fmt)
        try:
            return convert(v)
        except BadArguments:
            if type(v) is not str:
                raise
            found = fallback(v)
            if found is None:
                raise
            return found
    return parse


def _attempt(convert):
    def attempt(v, fmt=None):
        if v is None:
            return None
        try:
            return convert(v) if fmt is None else convert(v, fmt)
        except EngineError:
            return None
    return attempt


def _make(name, tz, auto, lenient):
    """The implementation of `name` for the zone and the parsing settings."""
    base = name.removeprefix("try_")
    if base in ("to_timestamp", "to_datetime"):
        convert = _with_fallback(_dates._make_to_timestamp(tz), lambda s: timestamp_fallback(s, tz, auto, lenient))
    elif base == "to_date":
        convert = _with_fallback(_dates._make_to_date(tz), lambda s: date_fallback(s, auto, lenient))
    else:  # to_timestamp_tz
        convert = _with_fallback(_tz._make_to_timestamp_tz(tz), lambda s: timestamp_tz_fallback(s, tz, auto))
    return _attempt(convert) if name.startswith("try_") else convert


PARSING_FUNCTIONS = frozenset({"to_timestamp", "to_date", "try_to_timestamp", "try_to_date", "to_timestamp_tz",
                               "try_to_timestamp_tz"})


@functools.lru_cache(maxsize=256)
def with_parsing(fn: ScalarFunction, timezone: str, auto: bool, lenient: bool) -> ScalarFunction:
    """`fn` reading text under the parsing settings (unchanged when they are the defaults or fn
    parses no text)."""
    if not (auto or lenient) or fn.name not in PARSING_FUNCTIONS:
        return fn
    return replace(fn, impl=_make(fn.name, zone(timezone), auto, lenient))


def variant_temporal_cast(target: str, tz, auto: bool):
    """A VARIANT's string cast to Date / Timestamp / TIMESTAMP_TZ in the zone `tz` (JSON null is
    NULL), the auto formats read when `auto` (None for other targets)."""
    if target == "Timestamp":
        read, fallback = _dates._make_to_timestamp(tz), lambda s: timestamp_fallback(s, tz, auto, False)
    elif target == "Date":
        read, fallback = _dates._make_to_date(tz), lambda s: date_fallback(s, auto, False)
    elif target == "TimestampTz":
        read, fallback = _tz._make_to_timestamp_tz(tz), lambda s: timestamp_tz_fallback(s, tz, auto)
    else:
        return None
    convert = _with_fallback(read, fallback) if auto else read

    def cast(v):
        value = json.loads(v)
        if type(value) is int and target != "TimestampTz":  # a number: days or an epoch, as to_date(n)
            return read(value)
        text = _tz.variant_text(value, target)
        return None if text is None else convert(text)
    return cast


def _variant_function(name: str, target: str, result):
    register_zoned_impl(name, lambda tz: variant_temporal_cast(target, tz, False))
    return ScalarFunction(name, variant_temporal_cast(target, UTC, False), lambda types: result.as_nullable(True),
                          1, 1)


_FROM_VARIANT = {"to_date": _variant_function("to_date_variant", "Date", T.DATE),
                 "to_timestamp": _variant_function("to_timestamp_variant", "Timestamp", T.TIMESTAMP),
                 "to_datetime": _variant_function("to_timestamp_variant", "Timestamp", T.TIMESTAMP)}


def variant_override(name: str, types) -> ScalarFunction | None:
    """to_date / to_timestamp of a VARIANT: its string (or number) read as the cast reads it."""
    if len(types) == 1 and types[0].name == "Variant":
        return _FROM_VARIANT.get(name)
    return None

