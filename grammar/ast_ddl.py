"""Syntax tree nodes of views, ALTER TABLE, RENAME and UNDROP (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from grammar.ast_base import Node

if TYPE_CHECKING:  # annotations only
    from grammar.ast_statements import ColumnDef

__all__ = ["CreateView", "DropView", "AddColumn", "DropColumn", "RenameColumn", "ModifyColumn",
           "RenameTableTo", "SetTableOptions", "AlterTable", "RenameTable", "UndropTable"]


@dataclass(frozen=True, slots=True)
class CreateView(Node):
    """CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v [(cols)] AS query, or ALTER VIEW (alter=True).
    query_offset: where the query's text starts in the statement's SQL."""

    name: tuple[str, ...]
    columns: tuple[str, ...] | None
    query: Node
    query_offset: int
    or_replace: bool = False
    if_not_exists: bool = False
    alter: bool = False


@dataclass(frozen=True, slots=True)
class DropView(Node):
    name: tuple[str, ...]
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class AddColumn(Node):
    """ALTER TABLE ... ADD [COLUMN] def [FIRST | AFTER c]."""

    column: ColumnDef
    first: bool = False
    after: str | None = None
    if_not_exists: bool = False  # ADD COLUMN IF NOT EXISTS: nothing to do when c exists


@dataclass(frozen=True, slots=True)
class DropColumn(Node):
    name: str


@dataclass(frozen=True, slots=True)
class RenameColumn(Node):
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class ModifyColumn(Node):
    """MODIFY [COLUMN] c type [NULL | NOT NULL] [DEFAULT x]: the column's new definition."""

    column: ColumnDef


@dataclass(frozen=True, slots=True)
class RenameTableTo(Node):
    new_name: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetTableOptions(Node):
    """ALTER TABLE t SET OPTIONS (k = v, ...), or UNSET OPTIONS (k, ...) (values empty)."""

    options: tuple[tuple[str, str], ...]
    unset: bool = False


@dataclass(frozen=True, slots=True)
class AlterTable(Node):
    """ALTER TABLE [IF EXISTS] t <action>: action is AddColumn, DropColumn, RenameColumn,
    ModifyColumn or RenameTableTo."""

    name: tuple[str, ...]
    action: Node
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class RenameTable(Node):
    """RENAME TABLE [IF EXISTS] a TO b."""

    name: tuple[str, ...]
    new_name: tuple[str, ...]
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class UndropTable(Node):
    name: tuple[str, ...]
