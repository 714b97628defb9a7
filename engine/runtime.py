"""Helpers that generated query code calls at run time (imports only errors and the stdlib).

Generated code and the modules that build it (compile, planner, functions, statements) import
from here; nothing here imports them back, which keeps the engine's import graph acyclic.
"""

from __future__ import annotations

import decimal
import functools
import math
import re

from engine.errors import BadArguments


def div_trunc(a, b):
    if not b:
        raise ZeroDivisionError
    if isinstance(a, float) or isinstance(b, float):
        return int(a / b)
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


def like_dynamic(s, pattern):
    kind, arg = like_matcher(pattern)
    if kind == "equals":
        return s == arg
    if kind == "contains":
        return arg in s
    if kind == "prefix":
        return s.startswith(arg)
    if kind == "suffix":
        return s.endswith(arg)
    return arg(s) is not None


_LIKE_SPECIAL = re.compile(r"[%_\\]")


@functools.lru_cache(maxsize=256)
def like_matcher(pattern: str):
    """('contains'|'prefix'|'suffix'|'equals', text) for simple patterns, else ('regex', compiled).
    Cached: a pattern taken from a column is matched per row."""
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
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    return ("regex", re.compile("".join(out), re.DOTALL).fullmatch)
