"""Date format strings as Databend reads them (chrono's strftime specifiers): formatting for
date_format / to_string(d, fmt) and parsing for str_to_date / str_to_timestamp."""

from __future__ import annotations

import datetime
import functools
import re

from engine.core.errors import BadArguments

_SPEC_RE = re.compile(r"%(\.?\d?f|[-_0]?[A-Za-z%+])")

# specifiers Python's strftime spells the same way
_SAME = frozenset("YmdHMSaAbBjypTDFIuwhCGgUWVxXRr")


def _frac(spec: str, dt: datetime.datetime) -> str:
    micros = f"{dt.microsecond:06d}"
    if spec == "f":
        return micros + "000"  # chrono's %f: nanoseconds, nine digits
    if spec == ".f":
        return "." + micros.rstrip("0") if dt.microsecond else ""
    digits = int(spec[-2])
    nanos = micros + "000"
    return ("." if spec.startswith(".") else "") + nanos[:digits]


@functools.lru_cache(maxsize=128)
def _compile_format(fmt: str):
    """A list of literal strings and specifier callables for `fmt`; unknown specifiers refused."""
    parts: list = []
    pos = 0
    for m in _SPEC_RE.finditer(fmt):
        parts.append(fmt[pos:m.start()])
        spec = m.group(1)
        pos = m.end()
        parts.append(_specifier(spec, fmt))
    tail = fmt[pos:]
    if "%" in tail:
        raise BadArguments(f"invalid date format {fmt!r}")
    parts.append(tail)
    return tuple(p for p in parts if p != "")


def _specifier(spec: str, fmt: str):
    if spec == "%":
        return "%"
    if spec == "n":
        return "\n"
    if spec == "t":
        return "\t"
    if spec.endswith("f"):
        return lambda dt, zone_name, offset: _frac(spec, dt)
    if spec in _SAME:
        code = "%" + spec
        return lambda dt, zone_name, offset: dt.strftime(code)
    if spec == "e":
        return lambda dt, zone_name, offset: f"{dt.day:2d}"
    if spec == "k":
        return lambda dt, zone_name, offset: f"{dt.hour:2d}"
    if spec == "l":
        return lambda dt, zone_name, offset: f"{(dt.hour % 12) or 12:2d}"
    if spec == "P":
        return lambda dt, zone_name, offset: dt.strftime("%p").lower()
    if spec == "Z":
        return lambda dt, zone_name, offset: zone_name
    if spec == "z":
        return lambda dt, zone_name, offset: offset
    if spec == "s":
        return lambda dt, zone_name, offset: None  # filled by format_datetime (needs the instant)
    if spec == "+":
        return lambda dt, zone_name, offset: dt.strftime("%Y-%m-%dT%H:%M:%S") + _frac(".f", dt) + \
            offset[:3] + ":" + offset[3:]
    raise BadArguments(f"invalid date format {fmt!r}: unknown specifier %{spec}")


def format_datetime(local: datetime.datetime, fmt: str, zone_name: str, offset: str, epoch_seconds: int) -> str:
    """`local` (wall-clock time) written with `fmt`; zone_name/offset for %Z/%z, epoch seconds for %s."""
    out = []
    for part in _compile_format(fmt):
        if type(part) is str:
            out.append(part)
        else:
            text = part(local, zone_name, offset)
            out.append(str(epoch_seconds) if text is None else text)
    return "".join(out)


# ---------------------------------------------------------------- parsing

# chrono parse specifiers Python's strptime reads the same way
_PARSE_SAME = frozenset("YmdHMSaAbBjypIfzhwuUW%")


@functools.lru_cache(maxsize=128)
def _parse_format(fmt: str) -> str:
    def replace(m):
        spec = m.group(1)
        if spec in _PARSE_SAME:
            return "%" + spec
        if spec == "T":
            return "%H:%M:%S"
        if spec == "D":
            return "%m/%d/%y"
        if spec == "F":
            return "%Y-%m-%d"
        if spec == "e":
            return "%d"
        if spec == "Z":
            return "%Z"
        raise BadArguments(f"invalid date format {fmt!r}: unknown specifier %{spec}")

    return _SPEC_RE.sub(replace, fmt)


def parse_datetime(text: str, fmt: str) -> tuple[datetime.datetime, datetime.timedelta | None]:
    """(wall-clock time, UTC offset or None) read from `text` with `fmt`; BadArguments otherwise."""
    try:
        parsed = datetime.datetime.strptime(text, _parse_format(fmt))
    except ValueError as exc:
        message = str(exc)
        if "unconverted data remains" in message:
            raise BadArguments("trailing input") from None
        raise BadArguments(f"cannot parse {text!r} with format {fmt!r}") from None
    offset = parsed.utcoffset() if parsed.tzinfo is not None else None
    return parsed.replace(tzinfo=None), offset
