"""Bound expressions (names resolved to column ids, types known) and plan nodes (the logical plan)."""

from __future__ import annotations

from dataclasses import dataclass, field
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


# ---------------------------------------------------------------- plan nodes


@dataclass(eq=False)
class Plan:
    layout: list  # column ids of the output, in order
    types: list  # SqlType per output column

    def children(self) -> list:
        return []


@dataclass(eq=False)
class Scan(Plan):
    """Reads rows[:count] of a table: the snapshot taken when the statement was planned."""

    table: Any = None
    label: str = ""
    rows: list = None
    count: int = 0


@dataclass(eq=False)
class Numbers(Plan):
    count: int = 0


@dataclass(eq=False)
class OneRow(Plan):
    pass


@dataclass(eq=False)
class Materialized(Plan):
    """Rows computed when the query starts (system tables, VALUES)."""

    produce: Any = None  # function(ctx) -> list[tuple]
    label: str = ""


@dataclass(eq=False)
class Streamed(Plan):
    """Rows read while the query runs, batch by batch (staged files): produce(ctx, batch_rows)
    is an iterator of row lists, each at most batch_rows long."""

    produce: Any = None
    label: str = ""


@dataclass(eq=False)
class Filter(Plan):
    child: Plan = None
    predicate: Expr = None

    def children(self):
        return [self.child]


@dataclass(eq=False)
class Project(Plan):
    child: Plan = None
    exprs: list = field(default_factory=list)

    def children(self):
        return [self.child]


@dataclass(eq=False)
class Join(Plan):
    """kind: INNER, LEFT, FULL, CROSS. Equi keys become a hash join; residual is the rest of ON."""

    left: Plan = None
    right: Plan = None
    kind: str = "INNER"
    left_keys: list = field(default_factory=list)
    right_keys: list = field(default_factory=list)
    residual: Expr | None = None

    def children(self):
        return [self.left, self.right]


@dataclass(eq=False)
class AggSpec:
    name: str
    arg: Expr | None
    distinct: bool
    type: SqlType
    # a collected aggregate (engine.functions.collected): its further arguments and the constant
    # parameters its final function takes
    extra: tuple = ()
    params: tuple = ()
    collected: Any = None


@dataclass(eq=False)
class Aggregate(Plan):
    child: Plan = None
    keys: list = field(default_factory=list)
    aggs: list = field(default_factory=list)
    grouping_set: bool = False  # one set of GROUPING SETS: no input rows, no group (even for ())

    def children(self):
        return [self.child]


@dataclass(eq=False)
class Sort(Plan):
    child: Plan = None
    keys: list = field(default_factory=list)  # (position, desc, nulls_first)

    def children(self):
        return [self.child]


@dataclass(eq=False)
class Limit(Plan):
    child: Plan = None
    limit: int | None = None
    offset: int = 0

    def children(self):
        return [self.child]


@dataclass(eq=False)
class Distinct(Plan):
    child: Plan = None

    def children(self):
        return [self.child]


@dataclass(eq=False)
class SetOp(Plan):
    op: str = "UNION"
    all: bool = False
    left: Plan = None
    right: Plan = None

    def children(self):
        return [self.left, self.right]


@dataclass(eq=False)
class WindowFunc:
    """One window function of a Window node. args: positions in the child's rows; params: its
    constant arguments (ntile buckets, lag/lead offset and default, nth_value n); frame:
    (units, (start kind, offset), (end kind, offset)) with kinds as grammar.ast.FrameBound's."""

    name: str
    args: list
    params: tuple
    frame: tuple
    type: SqlType
    distinct: bool = False
    collected: Any = None  # a collected aggregate's registry entry (engine.functions.collected)


@dataclass(eq=False)
class Window(Plan):
    """Window functions over the child's rows, which come sorted by (partition, order): the
    output rows are the child's with one more value per function. partition: positions;
    order: (position, desc, nulls_first)."""

    child: Plan = None
    partition: list = field(default_factory=list)
    order: list = field(default_factory=list)
    funcs: list = field(default_factory=list)

    def children(self):
        return [self.child]
