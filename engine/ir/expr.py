"""Bound expressions: names resolved to column ids, types known, one frozen class per kind (plan
nodes: engine.ir.plan)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.functions.registry import CAST_ROW_COSTS, ScalarFunction
from engine.types.sqltype import SqlType


# Every expression compares by identity (eq=False): the code generator caches per expression
# object (by id), the planner maps calls to their columns by id, and two equal-looking
# expressions (two calls of rand()) are not the same expression.
@dataclass(eq=False, frozen=True, slots=True)
class Expr:
    """A bound expression: its SQL type and its operand expressions (`args`); the subclasses add
    what each kind needs. Never instantiated itself."""

    type: SqlType
    args: tuple = field(default=(), kw_only=True)
    # whether this is a Const: function families (engine.functions), which sit below the IR and
    # never import it, read a constant argument's `value` when this says there is one
    is_constant: ClassVar[bool] = False

    @property
    def nullable(self) -> bool:
        return self.type.nullable or self.type.name == "Null"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Const(Expr):
    """A constant value (None for NULL)."""

    value: Any
    is_constant: ClassVar[bool] = True


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Col(Expr):
    """A column of the input rows, by column id."""

    column: int


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Param(Expr):
    """A value of the enclosing query passed into a subquery: p[index] of the outer values."""

    index: int


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Arith(Expr):
    """args[0] op args[1], op one of + - * / DIV %."""

    op: str


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Neg(Expr):
    """-args[0]."""


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Cmp(Expr):
    """args[0] op args[1], op one of = <> < <= > >=."""

    op: str


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class And(Expr):
    """Three-valued AND of args, evaluated left to right (stops at the first FALSE)."""


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Or(Expr):
    """Three-valued OR of args, evaluated left to right (stops at the first TRUE)."""


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Not(Expr):
    """NOT args[0]."""


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class IsNull(Expr):
    """args[0] IS NULL (IS NOT NULL when negated)."""

    negated: bool


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class InList(Expr):
    """args[0] [NOT] IN (args[1], args[2], ...)."""

    negated: bool


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Like(Expr):
    """args[0] [NOT] LIKE pattern. matcher: (how, argument) from engine.runtime.helpers.like_matcher for a
    constant pattern (args = operand), or ("dynamic", matcher function) for a pattern computed per
    row (args = operand, pattern)."""

    negated: bool
    matcher: tuple


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Case(Expr):
    """CASE WHEN args[0] THEN args[1] WHEN args[2] THEN args[3] ... ELSE args[-1] END."""


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Cast(Expr):
    """CAST (TRY_CAST when try_) of args[0] to `target`."""

    target: SqlType
    try_: bool


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Func(Expr):
    """A scalar function call fn(*args)."""

    fn: ScalarFunction


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class SubqueryExpr(Expr):
    """A subquery's value (mode scalar), EXISTS, or the [NOT] IN / quantified comparison of
    args[0] with its rows."""

    subquery: Subquery


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
    match e:
        case Col(column=column):
            out.add(column)
        case SubqueryExpr(subquery=sq):
            for p in sq.params:
                column_ids(p, out)
    for a in e.args:
        column_ids(a, out)
    return out


def row_cost(e: Expr) -> int:
    """The declared cost, in microseconds, of one evaluation of `e`'s function calls and casts
    (ScalarFunction.row_cost, CAST_ROW_COSTS; both branches of a conditional counted, subqueries
    not entered): what engine.codegen.compile.Codegen.row_cost sums as it compiles."""
    match e:
        case Func(fn=fn):
            own = fn.row_cost
        case Cast(target=target):
            own = CAST_ROW_COSTS.get(target.name, 0)
        case _:
            own = 0
    return own + sum(row_cost(a) for a in e.args)


def may_be_null(e: Expr, nonnull) -> bool:
    """Whether `e` can evaluate to NULL, given column ids known to hold no NULL."""
    match e:
        case Col(column=column):
            return e.type.can_be_null and column not in nonnull
        case Const(value=value):
            return value is None
        case Arith() | Neg() | Cmp() | Not() | And() | Or() | InList() | Like():
            return any(may_be_null(a, nonnull) for a in e.args)
        case IsNull():
            return False
        case Cast(target=target, try_=try_):
            return try_ or target.name == "Null" or may_be_null(e.args[0], nonnull)
        case Func(fn=fn):
            if fn.strict:
                return e.type.can_be_null and any(may_be_null(a, nonnull) for a in e.args)
            return e.type.can_be_null
        case Case(args=args):
            results = [args[i] for i in range(1, len(args) - 1, 2)] + [args[-1]]
            return any(may_be_null(r, nonnull) for r in results)
    return e.type.can_be_null


def has_param(e: Expr) -> bool:
    """Whether `e` reads a value of an enclosing query (directly or through a subquery)."""
    match e:
        case Param():
            return True
        case SubqueryExpr(subquery=sq) if any(has_param(p) for p in sq.params):
            return True
    return any(has_param(a) for a in e.args)
