"""Bound expressions: names resolved to column ids, types known, one frozen class per kind (plan
nodes: engine.plan)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.types import SqlType

if TYPE_CHECKING:
    from engine.functions.registry import ScalarFunction


# Every expression compares by identity (eq=False): the code generator caches per expression
# object (by id), the planner maps calls to their columns by id, and two equal-looking
# expressions (two calls of rand()) are not the same expression.
@dataclass(eq=False, frozen=True, slots=True)
class Expr:
    """A bound expression: its SQL type and its operand expressions (`args`); the subclasses add
    what each kind needs. Never instantiated itself."""

    type: SqlType
    args: tuple = field(default=(), kw_only=True)

    # transitional: the kind name and the one value legacy readers switch on (removed once every
    # reader matches on the class)
    kind: ClassVar[str] = ""

    @property
    def value(self) -> Any:
        return None

    @property
    def nullable(self) -> bool:
        return self.type.nullable or self.type.name == "Null"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Const(Expr):
    """A constant value (None for NULL)."""

    value: Any
    kind: ClassVar[str] = "const"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Col(Expr):
    """A column of the input rows, by column id."""

    column: int
    kind: ClassVar[str] = "col"

    @property
    def value(self) -> Any:
        return self.column


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Param(Expr):
    """A value of the enclosing query passed into a subquery: p[index] of the outer values."""

    index: int
    kind: ClassVar[str] = "param"

    @property
    def value(self) -> Any:
        return self.index


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Arith(Expr):
    """args[0] op args[1], op one of + - * / DIV %."""

    op: str
    kind: ClassVar[str] = "arith"

    @property
    def value(self) -> Any:
        return self.op


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Neg(Expr):
    """-args[0]."""

    kind: ClassVar[str] = "neg"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Cmp(Expr):
    """args[0] op args[1], op one of = <> < <= > >=."""

    op: str
    kind: ClassVar[str] = "cmp"

    @property
    def value(self) -> Any:
        return self.op


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class And(Expr):
    """Three-valued AND of all args (two or more, none itself an And)."""

    kind: ClassVar[str] = "and"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Or(Expr):
    """Three-valued OR of all args (two or more, none itself an Or)."""

    kind: ClassVar[str] = "or"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Not(Expr):
    """NOT args[0]."""

    kind: ClassVar[str] = "not"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class IsNull(Expr):
    """args[0] IS NULL (IS NOT NULL when negated)."""

    negated: bool
    kind: ClassVar[str] = "isnull"

    @property
    def value(self) -> Any:
        return self.negated


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class InList(Expr):
    """args[0] [NOT] IN (args[1], args[2], ...)."""

    negated: bool
    kind: ClassVar[str] = "inlist"

    @property
    def value(self) -> Any:
        return self.negated


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Like(Expr):
    """args[0] [NOT] LIKE pattern. matcher: (how, argument) from engine.runtime.like_matcher for a
    constant pattern (args = operand), or ("dynamic", matcher function) for a pattern computed per
    row (args = operand, pattern)."""

    negated: bool
    matcher: tuple
    kind: ClassVar[str] = "like"

    @property
    def value(self) -> Any:
        return (self.negated, self.matcher)


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Case(Expr):
    """CASE WHEN args[0] THEN args[1] WHEN args[2] THEN args[3] ... ELSE args[-1] END."""

    kind: ClassVar[str] = "case"


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Cast(Expr):
    """CAST (TRY_CAST when try_) of args[0] to `target`."""

    target: SqlType
    try_: bool
    kind: ClassVar[str] = "cast"

    @property
    def value(self) -> Any:
        return (self.target, self.try_)


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Func(Expr):
    """A scalar function call fn(*args)."""

    fn: ScalarFunction
    kind: ClassVar[str] = "func"

    @property
    def value(self) -> Any:
        return self.fn


@dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class SubqueryExpr(Expr):
    """A subquery's value (mode scalar), EXISTS, or the [NOT] IN / quantified comparison of
    args[0] with its rows."""

    subquery: Subquery
    kind: ClassVar[str] = "subquery"

    @property
    def value(self) -> Any:
        return self.subquery


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
