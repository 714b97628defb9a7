"""INTERVAL values as Databend keeps them (months, days and microseconds, each signed), their text
('1 month 1 hour ago', ISO 8601 'P1Y2M3DT4H5M6S') and their wire text ('1 year 2 months 3 days 4:05:06').

Databend compares, hashes and orders intervals by their total microseconds, a month counted as
30 days (so '12 months' = '360 days'); its SUM adds totals. Python's `==`, `<` and `hash` follow
that order, and Python's `+` (which SUM and the window sums use) adds totals too: the SQL `+` of
two intervals, which adds part by part, is `add_parts`."""

from __future__ import annotations

import re

from engine.core.errors import BadArguments

MICROS_PER_SEC = 1_000_000
MICROS_PER_MINUTE = 60 * MICROS_PER_SEC
MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE
MICROS_PER_DAY = 24 * MICROS_PER_HOUR
MICROS_PER_MONTH = 30 * MICROS_PER_DAY

_I32 = 2**32
_I64 = 2**64


def wrap_i32(n: int) -> int:
    """n as a 32-bit two's complement integer (Databend's months and days wrap)."""
    return (n + 2**31) % _I32 - 2**31


def wrap_i64(n: int) -> int:
    return (n + 2**63) % _I64 - 2**63


class Interval:
    """An INTERVAL value: months, days and microseconds (immutable)."""

    __slots__ = ("months", "days", "micros")

    def __init__(self, months: int = 0, days: int = 0, micros: int = 0):
        object.__setattr__(self, "months", months)
        object.__setattr__(self, "days", days)
        object.__setattr__(self, "micros", micros)

    def __setattr__(self, name, value):
        raise AttributeError("an Interval is immutable")

    @property
    def total_micros(self) -> int:
        return self.months * MICROS_PER_MONTH + self.days * MICROS_PER_DAY + self.micros

    def __eq__(self, other):
        if type(other) is not Interval:
            return NotImplemented
        return self.total_micros == other.total_micros

    def __ne__(self, other):
        if type(other) is not Interval:
            return NotImplemented
        return self.total_micros != other.total_micros

    def __lt__(self, other):
        return self.total_micros < other.total_micros

    def __le__(self, other):
        return self.total_micros <= other.total_micros

    def __gt__(self, other):
        return self.total_micros > other.total_micros

    def __ge__(self, other):
        return self.total_micros >= other.total_micros

    def __hash__(self):
        return hash(self.total_micros)

    def __add__(self, other):
        """The SUM aggregate's addition: totals in microseconds (as Databend merges sums)."""
        if type(other) is Interval:
            return Interval(0, 0, self.total_micros + other.total_micros)
        if other == 0:
            return self
        return NotImplemented

    __radd__ = __add__

    def __reduce__(self):
        return Interval, (self.months, self.days, self.micros)

    def __repr__(self):
        return f"Interval({self.months}, {self.days}, {self.micros})"

    def __str__(self):
        return render_interval(self)


ZERO = Interval()


def add_parts(a: Interval, b: Interval) -> Interval:
    """The SQL `a + b` of two intervals: months, days and microseconds added apart."""
    return Interval(wrap_i32(a.months + b.months), wrap_i32(a.days + b.days), wrap_i64(a.micros + b.micros))


def subtract_parts(a: Interval, b: Interval) -> Interval:
    return Interval(wrap_i32(a.months - b.months), wrap_i32(a.days - b.days), wrap_i64(a.micros - b.micros))


def scale(v: Interval, n: int) -> Interval:
    """`v * n`: each part multiplied (Databend multiplies the months and days as 32-bit numbers)."""
    k = wrap_i32(n)
    return Interval(wrap_i32(v.months * k), wrap_i32(v.days * k), wrap_i64(v.micros * n))


# ---------------------------------------------------------------- wire text


def _unit(value: int, name: str) -> str:
    return f"{value} {name}" + ("" if value in (1, -1) else "s")


def render_interval(v: Interval) -> str:
    """Databend's text of an interval (IntervalToStringCast): years, months and days named, the
    microseconds as [-]h:mm:ss[.ffffff] (trailing zeros of the fraction dropped), '00:00:00' for zero."""
    parts = []
    if v.months:
        years = abs(v.months) // 12 * (1 if v.months > 0 else -1)  # Rust's truncating division
        months = v.months - years * 12
        if years:
            parts.append(_unit(years, "year"))
        if months:
            parts.append(_unit(months, "month"))
    if v.days:
        parts.append(_unit(v.days, "day"))
    if v.micros:
        micros = abs(v.micros)
        hours, micros = divmod(micros, MICROS_PER_HOUR)
        minutes, micros = divmod(micros, MICROS_PER_MINUTE)
        seconds, micros = divmod(micros, MICROS_PER_SEC)
        text = f"{'-' if v.micros < 0 else ''}{hours}:{minutes:02}:{seconds:02}"
        if micros:
            text += "." + f"{micros:06}".rstrip("0")
        parts.append(text)
    elif not parts:
        return "00:00:00"
    return " ".join(parts)


# ---------------------------------------------------------------- text


class _Overflow(Exception):
    """A part beyond its range: Databend drops that specifier (the rest of the text still counts)."""


_SPECIFIERS = {
    **dict.fromkeys(("millennium", "millennia"), (0, 12000)),
    **dict.fromkeys(("century", "centuries"), (0, 1200)),
    **dict.fromkeys(("decade", "decades"), (0, 120)),
    **dict.fromkeys(("year", "years", "y"), (0, 12)),
    **dict.fromkeys(("quarter", "quarters"), (0, 3)),
    **dict.fromkeys(("month", "months", "mon"), (0, 1)),
    **dict.fromkeys(("day", "days", "d"), (1, 1)),
    **dict.fromkeys(("week", "weeks", "w"), (1, 7)),
    **dict.fromkeys(("microsecond", "microseconds", "us"), (2, 1)),
    **dict.fromkeys(("millisecond", "milliseconds", "ms"), (2, 1000)),
    **dict.fromkeys(("second", "seconds", "s"), (2, MICROS_PER_SEC)),
    **dict.fromkeys(("minute", "minutes", "m"), (2, MICROS_PER_MINUTE)),
    **dict.fromkeys(("hour", "hours", "h"), (2, MICROS_PER_HOUR)),
}
_LIMITS = (2**31, 2**31, 2**63)  # months and days are 32-bit, microseconds 64-bit
_SPACE = " \t\n"
_DIGITS = "0123456789"


def _fail(reason: str):
    raise BadArguments(f"cannot parse to type `INTERVAL`. {reason}")


def _checked(n: int, part: int) -> int:
    if not -_LIMITS[part] <= n < _LIMITS[part]:
        raise _Overflow
    return n


def _apply(parts: list, number: int, fraction: int, specifier: str) -> None:
    """Databend's apply_specifier: a bare number is microseconds (its fraction too); a named
    unit takes the whole number only."""
    if not specifier:
        parts[2] = _checked(parts[2] + number + fraction, 2)
        return
    unit = _SPECIFIERS.get(specifier.lower())
    if unit is None:
        raise _Overflow  # an unknown specifier is dropped, as an overflowing one
    part, factor = unit
    step = _checked(number * factor, part)
    parts[part] = _checked(parts[part] + step, part)


def _read_digits(text: str, pos: int) -> tuple[int, int]:
    start = pos
    while pos < len(text) and text[pos] in _DIGITS:
        pos += 1
    number = int(text[start:pos]) if pos > start else 0
    if number >= 2**63:
        _fail("Number too large")
    return number, pos


def _read_fraction(text: str, pos: int) -> tuple[int, int]:
    """Digits after a '.', as microseconds (digits past the sixth ignored)."""
    start = pos
    while pos < len(text) and text[pos] in _DIGITS:
        pos += 1
    digits = text[start:pos][:6]
    return (int(digits.ljust(6, "0")) if digits else 0), pos


def _read_number(text: str, pos: int) -> tuple[int, int, int]:
    """(number, fraction in microseconds, next position): '12', '1.5', or 'h:mm[:ss[.ffffff]]'
    read as microseconds."""
    start = pos
    number, pos = _read_digits(text, pos)
    fraction = 0
    if pos < len(text) and text[pos] == ".":
        fraction, pos = _read_fraction(text, pos + 1)
    if pos < len(text) and text[pos] == ":":
        minutes, pos = _read_digits(text, pos + 1)
        total = number * MICROS_PER_HOUR + minutes * MICROS_PER_MINUTE
        if pos < len(text) and text[pos] == ":":
            seconds, pos = _read_digits(text, pos + 1)
            micros = 0
            if pos < len(text) and text[pos] == ".":
                micros, pos = _read_fraction(text, pos + 1)
            total += seconds * MICROS_PER_SEC + micros
        return total, 0, pos
    if pos == start:
        _fail("Expected number")
    return number, fraction, pos


def _read_identifier(text: str, pos: int) -> tuple[str, int]:
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    start = pos
    while pos < len(text) and text[pos].isascii() and text[pos].isalpha():
        pos += 1
    return text[start:pos], pos


_ISO = re.compile(
    r"([-+]?)[Pp](?:(\d+)[Yy])?(?:(\d+)[Mm])?(?:(\d+)[Ww])?(?:(\d+)[Dd])?"
    r"(?:[Tt](?:(\d+)(?:[.,](\d{1,9}))?[Hh])?(?:(\d+)(?:[.,](\d{1,9}))?[Mm])?(?:(\d+)(?:[.,](\d{1,9}))?[Ss])?)?\Z")


def _parse_iso(text: str) -> Interval:
    """An ISO 8601 duration ('P1Y2M3DT4H5M6.5S', 'P3W', '-P1DT2H'), as the jiff crate reads it;
    a fraction of a microsecond is refused."""
    m = _ISO.match(text)
    if m is None or not any(m.group(i) for i in (2, 3, 4, 5, 6, 8, 10)) or text.rstrip()[-1] in "Tt":
        _fail(f"Invalid ISO 8601 duration: {text}")
    sign = -1 if m.group(1) == "-" else 1

    def n(i):
        return int(m.group(i) or 0)

    nanos = 0
    for whole, frac, unit in ((6, 7, 3600), (8, 9, 60), (10, 11, 1)):
        nanos += n(whole) * unit * 10**9
        if m.group(frac):
            nanos += int(m.group(frac).ljust(9, "0")) * unit
    if nanos % 1000:
        _fail("ISO 8601 durations with sub-microsecond precision are not supported")
    months = (n(2) * 12 + n(3)) * sign
    days = (n(4) * 7 + n(5)) * sign
    micros = nanos // 1000 * sign
    if not (-2**31 <= months < 2**31 and -2**31 <= days < 2**31 and -2**63 <= micros < 2**63):
        _fail("Overflow")
    return Interval(months, days, micros)


def parse_interval(text: str) -> Interval:
    """Databend's Interval::from_string: '1 year 2 months 3 days 4 hours', '1:30:00', '1 day ago'
    (every part negated), '-2 hours', a bare number as microseconds, or an ISO 8601 duration."""
    if not text:
        _fail("Empty string")
    pos = 1 if text[0] == "@" else 0
    stripped = text[pos:].lstrip(_SPACE)
    if stripped[:1] in ("P", "p") or (stripped[:1] in "+-" and stripped[1:2] in ("P", "p")):
        return _parse_iso(stripped)
    parts = [0, 0, 0]
    found = False
    length = len(text)
    while pos < length:
        ch = text[pos]
        if ch in _SPACE:
            pos += 1
            continue
        if ch in _DIGITS or ch == "-":
            sign = -1 if ch == "-" else 1
            number, fraction, pos = _read_number(text, pos + 1 if ch == "-" else pos)
            specifier, pos = _read_identifier(text, pos)
            try:
                _apply(parts, number * sign, fraction * sign, specifier)
            except _Overflow:
                pass
            found = True
            continue
        if ch in "aA":
            if text[pos:pos + 3].lower() != "ago":
                _fail("Invalid 'ago' specifier")
            if text[pos + 3:].strip(_SPACE):
                _fail("Trailing characters after 'ago'")
            return Interval(-parts[0], -parts[1], -parts[2])
        _fail(f"Unexpected character at position {pos}")
    if not found:
        _fail("No interval specifiers found")
    return Interval(*parts)
