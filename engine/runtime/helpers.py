"""Helpers that generated query code calls at run time (imports only errors and the stdlib).

Generated code and the modules that build it (compile, planner, functions, statements) import
from here; nothing here imports them back, which keeps the engine's import graph acyclic.
"""

from __future__ import annotations

import decimal
import functools
import math
import re

from engine.core.errors import BadArguments

# Decimal arithmetic: a context wide enough for Decimal256 values (76 digits, and the 6 more
# Databend's division scale rule adds), so Python's 28-digit default never rounds a sum of
# 30-digit decimals nor refuses one; generated code calls its methods for Decimal + - * /
DECIMAL_CONTEXT = decimal.Context(prec=90, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
_DECIMAL_DIVISION = DECIMAL_CONTEXT


def decimal_divide(a, b, quantum: decimal.Decimal):
    """a / b for a Decimal result: the quotient rounded half up to the result's scale (`quantum`
    is 10 ** -scale), as Databend answers DECIMAL(10, 2) / DECIMAL(5, 3) with 8.22666667."""
    if not b:
        raise ZeroDivisionError
    quotient = _DECIMAL_DIVISION.divide(decimal.Decimal(a), decimal.Decimal(b))
    return quotient.quantize(quantum, rounding=decimal.ROUND_HALF_UP, context=_DECIMAL_DIVISION)


def decimal_multiply(a, b, quantum: decimal.Decimal):
    """a * b for a Decimal result of a smaller scale than the operands' together: the product
    rounded half away from zero to it (`quantum` is 10 ** -scale), as Databend's do_round_mul."""
    product = _DECIMAL_DIVISION.multiply(decimal.Decimal(a), decimal.Decimal(b))
    return product.quantize(quantum, rounding=decimal.ROUND_HALF_UP, context=_DECIMAL_DIVISION)


def div_trunc(a, b):
    if not b:
        raise ZeroDivisionError
    if isinstance(a, float) or isinstance(b, float):
        return int(a / b)
    if isinstance(a, decimal.Decimal) or isinstance(b, decimal.Decimal):
        # Decimal's integer division already truncates toward zero (-12.30 DIV 2 is -6)
        return int(_DECIMAL_DIVISION.divide_int(decimal.Decimal(a), decimal.Decimal(b)))
    q = a // b
    if q < 0 and q * b != a:
        q += 1
    return int(q)


def mod_trunc(a, b):
    """`a % b` with the sign of the dividend (Databend/MySQL), for ints, floats and Decimals."""
    if not b:
        raise ZeroDivisionError  # reported as "divided by zero" for every numeric type
    if isinstance(a, float) or isinstance(b, float):
        return math.fmod(a, b)
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def in3(x, items):
    if x is None:
        return None
    has_null = False
    for i in items:
        if i is None:
            has_null = True
        elif x == i:
            return True
    return None if has_null else False


def in3_nan_equal(x, items):
    """in3 of a float: a NaN equals a NaN (Databend's order of floats, engine.types.keys)."""
    if x is None:
        return None
    has_null = False
    for i in items:
        if i is None:
            has_null = True
        elif x == i or (x != x and i != i):
            return True
    return None if has_null else False


def in_set3(x, values, has_null):
    if x is None:
        return None
    if x in values:
        return True
    return None if has_null else False


def try_call(fn, v):
    try:
        return fn(v)
    except (BadArguments, ValueError, TypeError, OverflowError, decimal.InvalidOperation):
        return None


_LIKE_SPECIAL = re.compile(r"[%_\\]")


@functools.lru_cache(maxsize=256)
def like_matcher(pattern: str):
    """('equals'|'contains'|'prefix'|'suffix', text) for simple patterns, else ('match', fn) with
    fn(s) -> bool. Cached: a pattern taken from a column is matched per row.

    `%` matches any run of characters, `_` any one character, and a backslash makes the next
    character literal (a trailing backslash is itself literal)."""
    special = _LIKE_SPECIAL
    body = pattern
    if not special.search(body):
        return ("equals", body)
    if body.startswith("%") and body.endswith("%") and len(body) >= 2 and not special.search(body[1:-1]):
        return ("contains", body[1:-1])
    if body.endswith("%") and not special.search(body[:-1]):
        return ("prefix", body[:-1])
    if body.startswith("%") and not special.search(body[1:]):
        return ("suffix", body[1:])
    return ("match", _segment_matcher(_like_segments(pattern)))


def _like_segments(pattern: str) -> list[list[str | None]]:
    """The pattern split on unescaped `%`: each segment a list of literal characters, with None
    for `_` (so every segment matches a fixed number of characters)."""
    segments: list[list[str | None]] = [[]]
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            segments[-1].append(pattern[i + 1])
            i += 2
            continue
        if ch == "%":
            segments.append([])
        else:
            segments[-1].append(None if ch == "_" else ch)
        i += 1
    return segments


class _Segment:
    """One fixed-length piece of a LIKE pattern: a literal string, or a regex of literals and `.`
    (no quantifier, so a search is O(len(s) * len(segment)) and never backtracks further)."""

    __slots__ = ("length", "text", "rx")

    def __init__(self, chars: list[str | None]):
        self.length = len(chars)
        if None in chars:
            self.text = None
            self.rx = re.compile("".join("." if c is None else re.escape(c) for c in chars), re.DOTALL)
        else:
            self.text = "".join(chars)
            self.rx = None

    def at(self, s: str, pos: int) -> bool:
        """Whether the segment matches `s` at `pos` (the caller has checked the length fits)."""
        if self.rx is None:
            return s.startswith(self.text, pos)
        return self.rx.match(s, pos) is not None

    def find(self, s: str, pos: int, end: int) -> int:
        """The end of the segment's leftmost match within s[pos:end], or -1."""
        if self.rx is None:
            i = s.find(self.text, pos, end)
            return -1 if i < 0 else i + self.length
        m = self.rx.search(s, pos, end)
        return -1 if m is None else m.end()


def _segment_matcher(chars_list: list[list[str | None]]):
    """fn(s) -> bool matching the segments: the first anchored at the start, the last at the end,
    each middle one at its leftmost position after the previous. Greedy leftmost placement is
    exact because every segment has a fixed length and `%` absorbs any gap."""
    segments = [_Segment(chars) for chars in chars_list]
    if len(segments) == 1:
        (only,) = segments

        def match_whole(s: str) -> bool:
            return len(s) == only.length and only.at(s, 0)

        return match_whole
    first, last = segments[0], segments[-1]
    middle = [seg for seg in segments[1:-1] if seg.length]  # `%%` leaves empty segments
    fixed = first.length + last.length

    def match(s: str) -> bool:
        n = len(s)
        if fixed > n or not first.at(s, 0) or not last.at(s, n - last.length):
            return False
        pos, end = first.length, n - last.length
        for seg in middle:
            pos = seg.find(s, pos, end)
            if pos < 0:
                return False
        return True

    return match


@functools.lru_cache(maxsize=256)
def like_predicate(pattern: str):
    """fn(s) -> bool for `s LIKE pattern` (SHOW ... LIKE and patterns taken from a column)."""
    kind, arg = like_matcher(pattern)
    if kind == "equals":
        return arg.__eq__
    if kind == "contains":
        return lambda s: arg in s
    if kind == "prefix":
        return lambda s: s.startswith(arg)
    if kind == "suffix":
        return lambda s: s.endswith(arg)
    return arg


def check_like_pattern(pattern: str, max_chars: int) -> None:
    """Refuse a LIKE pattern longer than the like_pattern_chars limit (1006)."""
    if len(pattern) > max_chars:
        raise BadArguments(f"LIKE pattern of {len(pattern)} characters exceeds the limit "
                           f"like_pattern_chars = {max_chars}")


def like_dynamic(max_chars: int):
    """fn(s, pattern) -> bool for a pattern that comes from a column, checked per row against the
    like_pattern_chars limit `max_chars` (bound here so generated code sees it as a value)."""

    def like(s: str, pattern: str) -> bool:
        if len(pattern) > max_chars:
            check_like_pattern(pattern, max_chars)
        return like_predicate(pattern)(s)

    return like
