"""Scalar and aggregate functions: implementations and result typing."""

from __future__ import annotations

import datetime
import decimal
import functools
import math
from dataclasses import dataclass, replace

from engine import bounded as B
from engine import types as T
from engine.errors import BadArguments
from engine.limits import Limits
from engine.runtime import mod_trunc
from engine.version import VERSION_STRING

AGGREGATES = frozenset({"count", "sum", "avg", "min", "max", "any"})


@dataclass(frozen=True, slots=True)
class ScalarFunction:
    """impl(*values); when strict, a NULL argument gives NULL without calling impl."""

    name: str
    impl: object
    result: object  # function(list[SqlType]) -> SqlType (non-null part when strict)
    min_args: int
    max_args: int
    strict: bool = True
    # make_impl(limits) -> impl for functions bounded by the database's Limits (engine.bounded);
    # the planner calls with_limits, so `impl` is a placeholder until then
    make_impl: object = None
    limits: Limits | None = None  # the Limits `impl` was made for


def _same(types):
    return types[0]


def _fixed(t):
    return lambda types: t


def _abs(v):
    return abs(v)


def _round_type(types):
    t = types[0]
    if t.name == "Decimal":
        return t
    if t.is_int:
        return t
    return T.FLOAT64


def _floor(v):
    return math.floor(v) if isinstance(v, float) else int(math.floor(v)) if isinstance(v, decimal.Decimal) else v


def _ceil(v):
    return math.ceil(v) if isinstance(v, float) else int(math.ceil(v)) if isinstance(v, decimal.Decimal) else v


def _int_or_float(types):
    t = types[0]
    return t if t.is_int else T.FLOAT64 if t.is_float else T.INT64


def _sqrt(v):
    v = float(v)
    return math.sqrt(v) if v >= 0 else math.nan


def _pow(a, b):
    try:
        return math.pow(float(a), float(b))
    except (OverflowError, ValueError):
        return math.nan


def _length(s):
    return len(s if isinstance(s, str) else T.render_value(s))


def _upper(s):
    return (s if isinstance(s, str) else T.render_value(s)).upper()


def _lower(s):
    return (s if isinstance(s, str) else T.render_value(s)).lower()


def _str(v):
    return v if isinstance(v, str) else T.render_value(v)


def _substring(s, start, length=None):
    s = _str(s)
    start = int(start)
    if start > 0:
        begin = start - 1
    elif start < 0:
        begin = max(len(s) + start, 0)
    else:
        return ""
    if length is None:
        return s[begin:]
    return s[begin:begin + max(int(length), 0)]


def _trim(s):
    return _str(s).strip(" ")


def _coalesce(*args):
    for a in args:
        if a is not None:
            return a
    return None


def _nullif(a, b):
    if a is None:
        return None
    return None if b is not None and a == b else a


def _if(cond, a, b):
    return a if cond is True else b


def _to_date(v):
    return T.to_date(v)


def _ltrim(s):
    return _str(s).lstrip(" ")


def _rtrim(s):
    return _str(s).rstrip(" ")


def _trim_leading(s, chars):
    s, chars = _str(s), _str(chars)
    if chars:
        while s.startswith(chars):
            s = s[len(chars):]
    return s


def _trim_trailing(s, chars):
    s, chars = _str(s), _str(chars)
    if chars:
        while s.endswith(chars):
            s = s[: -len(chars)]
    return s


def _trim_both(s, chars):
    return _trim_trailing(_trim_leading(s, chars), chars)


def _reverse(s):
    return _str(s)[::-1]


def _left(s, n):
    return _str(s)[: max(int(n), 0)]


def _right(s, n):
    n = max(int(n), 0)
    return _str(s)[-n:] if n else ""


def _locate(needle, haystack, start=1):
    start = int(start)
    if start < 1:
        return 0
    return _str(haystack).find(_str(needle), start - 1) + 1


def _instr(haystack, needle):
    return _str(haystack).find(_str(needle)) + 1


def _ascii(s):
    s = _str(s)
    return s.encode("utf-8")[0] if s else 0


def _octet_length(s):
    return len(_str(s).encode("utf-8"))


def _strcmp(a, b):
    a, b = _str(a), _str(b)
    return (a > b) - (a < b)


def _split_part(s, delimiter, n):
    parts = _str(s).split(_str(delimiter)) if _str(delimiter) else [_str(s)]
    n = int(n)
    if n > 0 and n <= len(parts):
        return parts[n - 1]
    if n < 0 and -n <= len(parts):
        return parts[n]
    return ""


def _date_plus_days(d, n):
    try:
        return d + datetime.timedelta(days=int(n))
    except OverflowError:
        raise BadArguments(f"date {d} + {n} days is out of range") from None


def _date_minus_days(d, n):
    return _date_plus_days(d, -int(n))


def _days_between(a, b):
    return (a - b).days


_DATE_PLUS_DAYS = ScalarFunction("plus", _date_plus_days, _fixed(T.DATE), 2, 2)
_DATE_MINUS_DAYS = ScalarFunction("minus", _date_minus_days, _fixed(T.DATE), 2, 2)
_DAYS_BETWEEN = ScalarFunction("minus", _days_between, _fixed(T.INT32), 2, 2)


def date_arithmetic(op, left, right):
    """Databend's Date arithmetic: Date ± integer days is a Date, Date - Date the Int32 days
    between; None for anything else."""
    if left.name != "Date" or op not in ("+", "-"):
        return None
    if right.is_int or right.name == "Null":
        return _DATE_PLUS_DAYS if op == "+" else _DATE_MINUS_DAYS
    if right.name == "Date" and op == "-":
        return _DAYS_BETWEEN
    return None


def _common(types):
    return T.common_type(types)


SCALARS: dict[str, ScalarFunction] = {}


def _register(name, impl, result, min_args, max_args=None, strict=True, aliases=(), bounded=False):
    """Register a function; when `bounded`, `impl` is a `make_*(limits)` of engine.bounded."""
    make_impl = None
    if bounded:
        make_impl, impl = impl, impl(Limits())
    fn = ScalarFunction(name, impl, result, min_args, min_args if max_args is None else max_args, strict,
                        make_impl)
    for n in (name, *aliases):
        SCALARS[n] = fn


@functools.lru_cache(maxsize=256)
def with_limits(fn: ScalarFunction, limits: Limits) -> ScalarFunction:
    """`fn` with its implementation made for `limits` (unchanged when fn is not bounded)."""
    if fn.make_impl is None or fn.limits == limits:
        return fn
    return replace(fn, impl=fn.make_impl(limits), limits=limits)


_register("abs", _abs, _same, 1)
_register("round", B.make_round, _round_type, 1, 2, bounded=True)
_register("truncate", B.make_truncate, _round_type, 1, 2, bounded=True)
_register("floor", _floor, _int_or_float, 1)
_register("ceil", _ceil, _int_or_float, 1, aliases=("ceiling",))
_register("sqrt", _sqrt, _fixed(T.FLOAT64), 1)
_register("pow", _pow, _fixed(T.FLOAT64), 2, aliases=("power",))
_register("mod", mod_trunc, lambda ts: T.arithmetic_type("%", ts[0], ts[1]), 2)
_register("length", _length, _fixed(T.UINT64), 1, aliases=("char_length", "character_length"))
_register("upper", _upper, _fixed(T.STRING), 1, aliases=("ucase",))
_register("lower", _lower, _fixed(T.STRING), 1, aliases=("lcase",))
_register("concat", B.make_concat, _fixed(T.STRING), 1, 1000, bounded=True)
_register("concat_ws", B.make_concat_ws, lambda ts: T.STRING.as_nullable(ts[0].can_be_null), 2, 1000,
          strict=False, bounded=True)
_register("ltrim", _ltrim, _fixed(T.STRING), 1)
_register("rtrim", _rtrim, _fixed(T.STRING), 1)
_register("trim_both", _trim_both, _fixed(T.STRING), 2)
_register("trim_leading", _trim_leading, _fixed(T.STRING), 2)
_register("trim_trailing", _trim_trailing, _fixed(T.STRING), 2)
_register("replace", B.make_replace, _fixed(T.STRING), 3, bounded=True)
_register("reverse", _reverse, _fixed(T.STRING), 1)
_register("repeat", B.make_repeat, _fixed(T.STRING), 2, bounded=True)
_register("left", _left, _fixed(T.STRING), 2)
_register("right", _right, _fixed(T.STRING), 2)
_register("lpad", B.make_lpad, _fixed(T.STRING), 3, bounded=True)
_register("rpad", B.make_rpad, _fixed(T.STRING), 3, bounded=True)
_register("locate", _locate, _fixed(T.UINT64), 2, 3, aliases=("position",))
_register("instr", _instr, _fixed(T.UINT64), 2)
_register("ascii", _ascii, _fixed(T.UINT8), 1)
_register("space", B.make_space, _fixed(T.STRING), 1, bounded=True)
_register("octet_length", _octet_length, _fixed(T.UINT64), 1)
_register("strcmp", _strcmp, _fixed(T.SqlType("Int8")), 2)
_register("split_part", _split_part, _fixed(T.STRING), 3)
_register("substring", _substring, _fixed(T.STRING), 2, 3, aliases=("substr",))
_register("trim", _trim, _fixed(T.STRING), 1)
_register("coalesce", _coalesce, _common, 1, 1000, strict=False)
_register("ifnull", _coalesce, _common, 2, strict=False)
_register("nullif", _nullif, lambda ts: ts[0].as_nullable(True), 2, strict=False)
_register("if", _if, lambda ts: T.common_type(ts[1:]), 3, strict=False)
_register("to_date", _to_date, _fixed(T.DATE), 1)
_register("to_string", _str, _fixed(T.STRING), 1)


def context_value(name: str, ctx):
    """Functions answered from the session context (evaluated once per query)."""
    if name == "version":
        return VERSION_STRING, T.STRING
    if name in ("database", "currentdatabase", "current_database", "schema"):
        return ctx.database, T.STRING
    if name in ("current_user", "user", "currentuser"):
        return f"'{ctx.user}'@'%'", T.STRING
    if name in ("now", "current_timestamp", "localtimestamp"):
        return ctx.now, T.TIMESTAMP
    if name in ("today", "current_date", "curdate"):
        return ctx.now.date(), T.DATE
    if name == "yesterday":
        return ctx.now.date() - datetime.timedelta(days=1), T.DATE
    if name == "tomorrow":
        return ctx.now.date() + datetime.timedelta(days=1), T.DATE
    if name == "pi":
        return math.pi, T.FLOAT64
    return None


CONTEXT_FUNCTIONS = frozenset({
    "version", "database", "currentdatabase", "current_database", "schema", "current_user", "user",
    "currentuser", "now", "current_timestamp", "localtimestamp", "today", "current_date", "curdate",
    "yesterday", "tomorrow", "pi",
})


def aggregate_type(name: str, arg: T.SqlType | None) -> T.SqlType:
    if name == "count":
        return T.UINT64
    if name == "avg":
        return T.FLOAT64.as_nullable(True)
    if name == "sum":
        if arg.is_int:
            return (T.INT64 if not arg.name.startswith("U") else T.UINT64).as_nullable(True)
        if arg.name == "Decimal":
            return T.SqlType("Decimal", True, 38 if arg.precision <= 38 else 76, arg.scale)
        if arg.name == "Boolean":
            return T.UINT64.as_nullable(True)
        return T.FLOAT64.as_nullable(True)
    return arg.as_nullable(True)


def all_function_names() -> list[str]:
    return sorted(set(SCALARS) | AGGREGATES | CONTEXT_FUNCTIONS | {"typeof", "to_date"})
