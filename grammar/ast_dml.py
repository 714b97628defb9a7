"""Syntax tree nodes of DML beyond INSERT/UPDATE/DELETE and of query clauses: REPLACE, MERGE,
multi-table INSERT, VALUES, LATERAL, quantified comparisons... (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from grammar.ast_base import Node

if TYPE_CHECKING:  # annotations only
    from grammar.ast_expr import OrderItem
    from grammar.ast_statements import Assignment, StageSource

__all__ = ["Default", "IsDistinctFrom", "IsTruth", "QuantifiedComparison", "Values",
           "ValuesRef", "LateralRef", "NamedArg", "LateralFunction", "Replace", "MergeClause", "Merge",
           "IntoTarget",
           "InsertMulti"]


@dataclass(frozen=True, slots=True)
class Default(Node):
    """DEFAULT as a VALUES item: the column's default value."""


@dataclass(frozen=True, slots=True)
class IsDistinctFrom(Node):
    """left IS [NOT] DISTINCT FROM right (NULLs compare equal; never NULL)."""

    left: Node
    right: Node
    negated: bool = False


@dataclass(frozen=True, slots=True)
class IsTruth(Node):
    """operand IS [NOT] TRUE|FALSE (never NULL)."""

    operand: Node
    value: bool
    negated: bool = False


@dataclass(frozen=True, slots=True)
class QuantifiedComparison(Node):
    """operand op ALL|ANY|SOME (query); op as BinaryOp's; quantifier 'ALL', 'ANY' or 'SOME'."""

    op: str
    operand: Node
    quantifier: str
    query: Node


@dataclass(frozen=True, slots=True)
class Values(Node):
    """VALUES (...), (...) as a query; columns are named col0, col1... (or by a table alias)."""

    rows: tuple[tuple[Node, ...], ...]
    order_by: tuple[OrderItem, ...] = ()
    limit: Node | None = None
    offset: Node | None = None


@dataclass(frozen=True, slots=True)
class ValuesRef(Node):
    """(VALUES ...) [AS] alias [(columns)] in FROM."""

    values: Values
    alias: str | None = None
    column_aliases: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class LateralRef(Node):
    """LATERAL (query) [AS] alias [(columns)] in FROM: the query reads the FROM items before it."""

    query: Node
    alias: str | None = None
    column_aliases: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class NamedArg(Node):
    """`name => value`, an argument of a table function given by name (FLATTEN(input => v))."""

    name: str
    value: Node


@dataclass(frozen=True, slots=True)
class LateralFunction(Node):
    """LATERAL f(args) [AS] alias in FROM: a table function whose arguments read the FROM items
    before it (LATERAL FLATTEN(input => t.v) f)."""

    function: Node  # the TableFunction


@dataclass(frozen=True, slots=True)
class Replace(Node):
    """REPLACE INTO t [(cols)] ON (keys) VALUES ... | SELECT ...: rows whose keys match an
    existing row replace it; the others are inserted."""

    table: tuple[str, ...]
    columns: tuple[str, ...] | None
    keys: tuple[str, ...]
    rows: tuple[tuple[Node, ...], ...] | None = None
    query: Node | None = None
    stage: StageSource | None = None  # `... FROM @stage FILE_FORMAT = (...)`


@dataclass(frozen=True, slots=True)
class MergeClause(Node):
    """action: 'UPDATE' (assignments; None for UPDATE *), 'DELETE', 'INSERT' (columns, values;
    values None for INSERT *). condition: the clause's AND condition, or None."""

    action: str
    condition: Node | None = None
    assignments: tuple[Assignment, ...] | None = None
    columns: tuple[str, ...] | None = None
    values: tuple[Node, ...] | None = None


@dataclass(frozen=True, slots=True)
class Merge(Node):
    table: tuple[str, ...]
    alias: str | None
    source: Node  # a FROM item: TableRef or SubqueryRef
    on: Node
    clauses: tuple[MergeClause, ...]


@dataclass(frozen=True, slots=True)
class IntoTarget(Node):
    """INTO t [(cols)] [VALUES (exprs over the source's columns)] of a multi-table INSERT."""

    table: tuple[str, ...]
    columns: tuple[str, ...] | None = None
    values: tuple[Node, ...] | None = None


@dataclass(frozen=True, slots=True)
class InsertMulti(Node):
    """INSERT ALL|FIRST: branches are (condition or None, targets); else_ the ELSE targets."""

    first: bool
    branches: tuple[tuple[Node | None, tuple[IntoTarget, ...]], ...]
    else_: tuple[IntoTarget, ...]
    query: Node
