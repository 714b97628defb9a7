"""Bound expressions: names resolved to column ids, types known (plan nodes: engine.plan)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.types import SqlType


@dataclass(eq=False, slots=True)
class Expr:
    """kind: const (value), col (value=column id), param (value=index into the outer values),
    arith/cmp (value=operator), neg, and, or, not, isnull (value=negated), inlist (value=negated;
    args = operand, items...), like (value=(negated, pattern info)), case (args = cond, result, ...,
    else), cast (value=(SqlType, try_)), func (value=ScalarFunction), subquery (value=Subquery)."""

    kind: str
    type: SqlType
    args: tuple = ()
    value: Any = None

    @property
    def nullable(self) -> bool:
        return self.type.nullable or self.type.name == "Null"


@dataclass(eq=False, slots=True)
class Subquery:
    """mode: 'scalar', 'exists', 'in', 'quantified'. params: expressions in the outer query's terms whose values
    the subquery reads as p[0], p[1]..."""

    mode: str
    plan: Any
    params: list
    negated: bool = False
    correlated: bool = False
    quantifier: tuple | None = None  # mode 'quantified': (comparison operator, 'ALL' or 'ANY')


def column_ids(e: Expr, out: set) -> set:
    """Every column id an expression reads (including those passed into subqueries)."""
    if e.kind == "col":
        out.add(e.value)
    elif e.kind == "subquery":
        for p in e.value.params:
            column_ids(p, out)
    for a in e.args:
        column_ids(a, out)
    return out


def may_be_null(e: Expr, nonnull) -> bool:
    """Whether `e` can evaluate to NULL, given column ids known to hold no NULL."""
    kind = e.kind
    if kind == "col":
        return e.type.can_be_null and e.value not in nonnull
    if kind == "const":
        return e.value is None
    if kind in ("arith", "neg", "cmp", "not", "and", "or", "inlist", "like"):
        return any(may_be_null(a, nonnull) for a in e.args)
    if kind == "isnull":
        return False
    if kind == "cast":
        target, try_ = e.value
        return try_ or target.name == "Null" or may_be_null(e.args[0], nonnull)
    if kind == "func":
        if e.value.strict:
            return e.type.can_be_null and any(may_be_null(a, nonnull) for a in e.args)
        return e.type.can_be_null
    if kind == "case":
        results = [e.args[i] for i in range(1, len(e.args) - 1, 2)] + [e.args[-1]]
        return any(may_be_null(r, nonnull) for r in results)
    return e.type.can_be_null


def has_param(e: Expr) -> bool:
    if e.kind == "param":
        return True
    if e.kind == "subquery" and any(has_param(p) for p in e.value.params):
        return True
    return any(has_param(a) for a in e.args)
