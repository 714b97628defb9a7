"""Plan nodes: the logical plan a query is planned into and the executor builds code from.
They hold bound expressions (engine.ir.expr), re-exported here for modules that use both, as is
the aggregate call spec (engine.functions.registry.AggSpec)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.functions.registry import AggSpec
from engine.ir.expr import Expr, Subquery, column_ids, has_param, may_be_null
from engine.types.sqltype import SqlType

__all__ = ["AggSpec", "Expr", "Subquery", "column_ids", "has_param", "may_be_null"]


@dataclass(eq=False)
class Plan:
    layout: list  # column ids of the output, in order
    types: list  # SqlType per output column

    def children(self) -> list:
        return []


@dataclass(eq=False)
class Scan(Plan):
    """Reads the first `count` rows of a table version (`data`, an
    engine.catalog.table_storage.TableData): the snapshot taken when the statement was planned."""

    table: Any = None
    label: str = ""
    data: Any = None
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
    arg_type: SqlType | None = None  # SUM / AVG: their argument's type (integer totals wrap)


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


@dataclass(eq=False)
class WorkTable:
    """The rows of the current iteration, read by the step's scans of the CTE (of `types`)."""

    name: str
    names: list
    types: list
    rows: list = field(default_factory=list)


@dataclass(eq=False)
class WorkTableScan(Plan):
    """The rows of a recursive CTE's working table, read by its step."""

    work: WorkTable = None


@dataclass(eq=False)
class RecursiveUnion(Plan):
    """WITH RECURSIVE: the anchor's rows, then the step's over the working table until it adds none."""

    anchor: Plan = None
    step: Plan = None
    work: WorkTable = None
    all: bool = True
    name: str = ""

    def children(self):
        return [self.anchor, self.step]


@dataclass(eq=False)
class LateralJoin(Plan):
    """kind: INNER (also CROSS and comma) or LEFT; params: expressions over the left columns
    (and the query's own outer values) that the subquery reads as its p; condition: a LEFT JOIN's ON."""

    left: Plan = None
    sub: Plan = None
    params: list = field(default_factory=list)
    kind: str = "INNER"
    condition: Expr | None = None

    def children(self):
        return [self.left, self.sub]


@dataclass(eq=False)
class UnnestRows(Plan):
    """positions: the columns of `child` that hold the arrays to spread over rows."""

    child: Plan = None
    positions: list = field(default_factory=list)

    def children(self):
        return [self.child]
