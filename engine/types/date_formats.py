"""Date format strings as Databend reads them (chrono's strftime specifiers): formatting for
date_format / to_string(d, fmt) and parsing for str_to_date / str_to_timestamp."""

from __future__ import annotations

import datetime
import functools
import re

from engine.core.errors import BadArguments

_SPEC_RE = re.compile(r"%(\.?\d?f|:{1,3}z|[-_0]?[A-Za-z%+])")

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


# Databend's PostgreSQL / Oracle patterns (date_format_style 'Oracle', the default) and their
# strftime forms, longest first; the %-specifiers listed are kept as they are (date_format.rs)
_PG_PATTERNS = tuple(sorted((
    ("YYYY", "%Y"), ("YY", "%y"), ("MMMM", "%B"), ("MON", "%b"), ("MM", "%m"), ("DD", "%d"), ("DY", "%a"),
    ("HH24", "%H"), ("HH12", "%I"), ("AM", "%p"), ("PM", "%p"), ("MI", "%M"), ("SS", "%S"), ("FF", "%f"),
    ("UUUU", "%G"), ("TZHTZM", "%z"), ("TZH:TZM", "%z"), ("TZH", "%:::z"),
    *((s, s) for s in ("%Y", "%y", "%B", "%b", "%m", "%d", "%a", "%H", "%I", "%p", "%M", "%S", "%f", "%G", "%z",
                       "%:::z")),
), key=lambda kv: -len(kv[0])))


def _word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


@functools.lru_cache(maxsize=256)
def pg_to_strftime(fmt: str) -> str:
    """A format with PostgreSQL patterns (YYYY, MM, DD, HH24, MI, SS, MON...; any case) as
    strftime, as Databend's pg_format_to_strftime: MON only as a whole word; other text kept;
    then %c, %x and %X as %F %T, %F and %T."""
    out, i, upper = [], 0, fmt.upper()
    while i < len(fmt):
        for key, value in _PG_PATTERNS:
            matched = fmt.startswith(key, i) if key[0] == "%" else upper.startswith(key, i)
            if matched and key == "MON" and ((i > 0 and _word_char(fmt[i - 1]))
                                             or (i + 3 < len(fmt) and _word_char(fmt[i + 3]))):
                matched = False
            if matched:
                out.append(value)
                i += len(key)
                break
        else:
            out.append(fmt[i])
            i += 1
    text = "".join(out)
    if "%c" in text or "x" in text or "X" in text:
        text = text.replace("%c", "%x %X").replace("%x", "%F").replace("%X", "%T")
    return text


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
    if spec == ":::z":
        return lambda dt, zone_name, offset: offset[:3]
    if spec == ":z":
        return lambda dt, zone_name, offset: offset[:3] + ":" + offset[3:]
    if spec == "s":
        return lambda dt, zone_name, offset: None  # filled by format_datetime (needs the instant)
    if spec == "+":
        return lambda dt, zone_name, offset: dt.strftime("%Y-%m-%dT%H:%M:%S") + _frac(".f", dt) + \
            offset[:3] + ":" + offset[3:]
    raise BadArguments(f"invalid date format {fmt!r}: unknown specifier %{spec}")


def format_datetime(local: datetime.datetime, fmt: str, zone_name: str, offset: str, epoch_seconds: int,
                    pg: bool = True) -> str:
    """`local` (wall-clock time) written with `fmt` (PostgreSQL patterns read first unless not
    `pg`); zone_name/offset for %Z/%z, epoch seconds for %s."""
    out = []
    for part in _compile_format(pg_to_strftime(fmt) if pg else fmt):
        if type(part) is str:
            out.append(part)
        else:
            text = part(local, zone_name, offset)
            out.append(str(epoch_seconds) if text is None else text)
    return "".join(out)


# ---------------------------------------------------------------- parsing

# chrono parse specifiers Python's strptime reads the same way
_PARSE_SAME = frozenset("YmdHMSaAbBjypIfzhwuUWGV%")


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
        if spec == ":z":
            return "%z"
        raise BadArguments(f"invalid date format {fmt!r}: unknown specifier %{spec}")

    return _SPEC_RE.sub(replace, fmt)


_REMAINS = "unconverted data remains: "
_SPACES = re.compile(r"\s+")
_YEAR_SPECS = ("%Y", "%y", "%G", "%F", "%D", "%c", "%x")


def _strptime(text: str, pattern: str, ignore_remainder: bool):
    """strptime of `text`, or of the part `pattern` reads when ignoring the remainder; None when
    it does not match."""
    try:
        return datetime.datetime.strptime(text, pattern)
    except ValueError as exc:
        message = str(exc)
    if not (ignore_remainder and message.startswith(_REMAINS)):
        return None
    try:
        return datetime.datetime.strptime(text[:len(text) - len(message) + len(_REMAINS)], pattern)
    except ValueError:
        return None


def parse_datetime(text: str, fmt: str, ignore_remainder: bool = True) -> tuple[datetime.datetime,
                                                                               datetime.timedelta | None]:
    """(wall-clock time, UTC offset or None) read from `text` with `fmt` (PostgreSQL patterns
    read first, as Databend's default date_format_style); text after what the format reads is
    ignored (parse_datetime_ignore_remainder, on by default); BadArguments otherwise."""
    fmt = pg_to_strftime(fmt)
    if "%s" in fmt:  # epoch seconds: alone, since they fix every other field
        if fmt.strip() != "%s" or not text.strip().lstrip("-").isdigit():
            raise BadArguments(f"Can't parse '{text}' as timestamp with format '{fmt}'")
        return datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=int(text)), datetime.timedelta(0)
    if not any(spec in fmt for spec in _YEAR_SPECS):  # chrono needs the year (strptime would take 1900)
        raise BadArguments(f"cannot parse {text!r} with format {fmt!r}: no year")
    pattern = _parse_format(fmt)
    parsed = _strptime(text, pattern, ignore_remainder)
    if parsed is None and _SPACES.search(pattern):
        # a space of the format matches any whitespace or none (chrono; strptime wants some)
        parsed = _strptime(_SPACES.sub("", text), _SPACES.sub("", pattern), ignore_remainder)
    if parsed is None:
        raise BadArguments(f"cannot parse {text!r} with format {fmt!r}")
    offset = parsed.utcoffset() if parsed.tzinfo is not None else None
    return parsed.replace(tzinfo=None), offset
