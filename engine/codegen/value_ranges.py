"""Value ranges of integer expressions, from their types, constants and the columns the data
snapshot shows hold no negative value: what lets the code generator leave the overflow checks out
of arithmetic that cannot leave its 64 bits (an Int32 + Int32 never wraps in Int64)."""

from __future__ import annotations

from engine.ir.expr import Arith, Cast, Col, Const, Expr, Neg
from engine.types import cast as casting
from engine.types import sqltype as T

Range = tuple[int, int]

_BOOLEAN_RANGE = (0, 1)


def type_range(t: T.SqlType) -> Range | None:
    """The values an integer (or Boolean) type holds; None for other types."""
    if t.name == "Boolean":
        return _BOOLEAN_RANGE
    return T.INT_RANGES.get(t.name)


def integer_text_chars(e: Expr) -> int | None:
    """The most characters of `e` when it is an integer cast to text (its type's widest value
    written in decimal); None for anything else."""
    if not isinstance(e, Cast) or e.try_ or not e.target.is_string:
        return None
    source = e.args[0].type
    bounds = type_range(source) if source.is_int else None
    if bounds is None or casting.caster_from(source, e.target) is not str:
        return None
    return max(len(str(bounds[0])), len(str(bounds[1])))


def fits(r: Range, within: Range) -> bool:
    return within[0] <= r[0] and r[1] <= within[1]


def exact_range(op: str, a: Range, b: Range) -> Range:
    """The range of a + b, a - b or a * b computed without wrapping."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    products = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(products), max(products)


class RangeFinder:
    """Ranges of the integer expressions of one generated function (memoised per expression)."""

    def __init__(self, nonneg=frozenset()):
        self.nonneg = nonneg  # integer column ids known to hold no negative value
        self._cache: dict[int, Range | None] = {}

    def of(self, e: Expr) -> Range | None:
        """The values `e` can take (None when it is no integer); NULL aside."""
        key = id(e)
        if key in self._cache:
            return self._cache[key]
        r = self._cache[key] = self._compute(e)
        return r

    def operands(self, e: Expr) -> tuple[Range, Range] | None:
        """The ranges of a binary operator's operands, when both are integers."""
        a, b = (self.of(x) for x in e.args)
        if a is None or b is None:
            return None
        return a, b

    def _compute(self, e: Expr) -> Range | None:
        full = type_range(e.type)
        if full is None:
            return None
        if isinstance(e, Const):
            v = e.value
            return (int(v), int(v)) if isinstance(v, int) else full
        if isinstance(e, Col):
            return (max(full[0], 0), full[1]) if e.column in self.nonneg else full
        if isinstance(e, Arith) and e.op in ("+", "-", "*"):
            ops = self.operands(e)
            if ops is None:
                return full
            r = exact_range(e.op, *ops)
            return r if fits(r, full) else full  # beyond its type: it wraps, anything is possible
        if isinstance(e, (Neg, Cast)):
            inner = self.of(e.args[0])
            if inner is None:
                return full
            if isinstance(e, Neg):
                inner = (-inner[1], -inner[0])
            # a value beyond the type is an error, never a result
            lo, hi = max(inner[0], full[0]), min(inner[1], full[1])
            return (lo, hi) if lo <= hi else full
        return full
