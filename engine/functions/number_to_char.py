"""to_char(number, template) (alias to_string): numbers written with PostgreSQL's numeric
template patterns, as Databend ports them (its FmtCacheEntry, after PostgreSQL's formatting.c):
9 and 0 digit positions, . / D the decimal point, , / G group separators, S / SG / PL / MI / PR
signs, FM fill mode, "quoted text"; any other character is kept."""

from __future__ import annotations

import decimal
import functools
from dataclasses import dataclass

from engine.core.errors import BadArguments
from engine.functions.registry import ScalarFunction
from engine.types import sqltype as T


@dataclass(frozen=True)
class _Template:
    tokens: tuple  # (kind, text): kinds '9', '0', '.', ',', 'S', 'SG', 'PL', 'MI', 'PR', 'lit'
    fill_mode: bool
    int_places: int
    frac_places: int
    zero_from: int  # the first integer place shown as 0 when no digit reaches it (int_places: none)


_WORDS = (("SG", "SG"), ("PL", "PL"), ("MI", "MI"), ("PR", "PR"), ("FM", "FM"))


@functools.lru_cache(maxsize=128)
def _template(fmt: str) -> _Template:
    tokens: list = []
    fill_mode = False
    i, upper = 0, fmt.upper()
    while i < len(fmt):
        c = fmt[i]
        word = next((kind for text, kind in _WORDS if upper.startswith(text, i)), None)
        if word == "FM":
            fill_mode, i = True, i + 2
        elif word is not None:
            tokens.append((word, ""))
            i += 2
        elif c in "90":
            tokens.append((c, ""))
            i += 1
        elif c in ".Dd" and not any(k == "." for k, _ in tokens):
            tokens.append((".", ""))
            i += 1
        elif c in ",Gg":
            tokens.append((",", ""))
            i += 1
        elif c in "Ss":
            tokens.append(("S", ""))
            i += 1
        elif c == '"':  # quoted text, \" inside for a quote
            i += 1
            text = []
            while i < len(fmt) and fmt[i] != '"':
                if fmt[i] == "\\" and i + 1 < len(fmt):
                    i += 1
                text.append(fmt[i])
                i += 1
            tokens.append(("lit", "".join(text)))
            i += 1
        else:
            tokens.append(("lit", c))
            i += 1
    point = next((n for n, (k, _) in enumerate(tokens) if k == "."), len(tokens))
    int_kinds = [k for k, _ in tokens[:point] if k in "90"]
    frac_places = sum(1 for k, _ in tokens[point:] if k in ("9", "0"))
    zero_from = next((n for n, k in enumerate(int_kinds) if k == "0"), len(int_kinds))
    return _Template(tuple(tokens), fill_mode, len(int_kinds), frac_places, zero_from)


def _digits(value, frac_places: int) -> tuple[bool, str, str]:
    """(negative, integer digits, fraction digits) of the value rounded to frac_places."""
    d = decimal.Decimal(value) if not isinstance(value, float) else decimal.Decimal(repr(value))
    q = d.quantize(decimal.Decimal(1).scaleb(-frac_places), rounding=decimal.ROUND_HALF_UP)
    text = format(abs(q), "f")
    whole, _, frac = text.partition(".")
    return q < 0, whole.lstrip("0"), frac.ljust(frac_places, "0")


def format_number(value, fmt: str) -> str:
    t = _template(fmt)
    negative, whole, frac = _digits(value, t.frac_places)
    overflow = len(whole) > t.int_places
    kinds = {k for k, _ in t.tokens}
    explicit_sign = bool(kinds & {"SG", "PL", "MI", "PR", "S"})
    out: list[str] = []
    place = 0  # integer places written so far
    frac_at = 0
    started = False  # a digit (or a zero fill) was written
    first_digit_at = t.int_places - len(whole)
    anchored = None  # where an S (or the implicit sign) goes: before the first digit or at the end
    s_positions = [n for n, (k, _) in enumerate(t.tokens) if k == "S"]
    if s_positions and s_positions[0] > 0 and all(k not in ("9", "0") for k, _ in t.tokens[s_positions[0]:]):
        anchored = "end"
    elif "S" in kinds or not explicit_sign:
        anchored = "start"
    sign_char = ("-" if negative else "+") if "S" in kinds else ("-" if negative else " ")
    if "PR" in kinds:  # angle brackets: < before the first digit, > at the end
        anchored, sign_char = "start", ("<" if negative else " ")
    after_point = False
    for kind, text in t.tokens:
        if kind in ("9", "0") and not after_point:
            if overflow:
                out.append("#")
            elif place >= first_digit_at:
                if not started and anchored == "start":
                    out.append(sign_char)
                out.append(whole[place - first_digit_at])
                started = True
            elif place >= t.zero_from:
                if not started and anchored == "start":
                    out.append(sign_char)
                out.append("0")
                started = True
            else:
                out.append("" if t.fill_mode else " ")
            place += 1
        elif kind in ("9", "0"):
            digit = "#" if overflow else frac[frac_at]
            out.append(digit)
            frac_at += 1
        elif kind == ".":
            if not started and anchored == "start" and not overflow:
                out.append(sign_char)  # no integer digit shown: the sign before the point
                started = True
            out.append(".")
            after_point = True
        elif kind == ",":
            out.append("," if started or after_point else ("" if t.fill_mode else " "))
        elif kind == "SG":
            out.append("-" if negative else "+")
        elif kind == "PL":
            out.append("+" if not negative else ("" if t.fill_mode else " "))
        elif kind == "MI":
            out.append("-" if negative else ("" if t.fill_mode else " "))
        elif kind == "S" and anchored == "end":
            out.append(sign_char)
        elif kind == "lit":
            out.append(text)
    if not started and anchored == "start" and not overflow:  # no digit at all (0 with 9s)
        out.append(sign_char)
    text = "".join(out)
    if "PR" in kinds:
        text += ">" if negative else " "
    if t.fill_mode:
        text = _trim_fraction(text.strip(), t, after_point)
    return text


def _trim_fraction(text: str, t: _Template, has_point: bool) -> str:
    """FM: trailing zeros of 9 places after the point dropped (0 places keep theirs)."""
    if not has_point:
        return text
    frac_kinds = []
    seen_point = False
    for kind, _ in t.tokens:
        if kind == ".":
            seen_point = True
        elif seen_point and kind in ("9", "0"):
            frac_kinds.append(kind)
    point = text.rfind(".")
    if point < 0:
        return text
    head, tail = text[:point + 1], text[point + 1:]
    digits = list(tail[:len(frac_kinds)])
    rest = tail[len(frac_kinds):]
    while digits and frac_kinds[len(digits) - 1] == "9" and digits[-1] == "0":
        digits.pop()
    return head + "".join(digits) + rest


def _to_char(value, fmt):
    if not isinstance(fmt, str):
        raise BadArguments("to_char takes a text template")
    return format_number(value, fmt)


_NUMBER_TO_CHAR = ScalarFunction("to_char_number", _to_char, lambda types: T.STRING, 2, 2)


def number_to_char_override(name: str, types) -> ScalarFunction | None:
    """to_char / to_string of a number with a template."""
    if name in ("to_char", "to_string") and len(types) == 2 and types[0].is_numeric and types[1].is_string:
        return _NUMBER_TO_CHAR
    return None
