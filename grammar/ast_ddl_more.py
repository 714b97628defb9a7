"""Syntax tree nodes of ALTER DATABASE, EXISTS TABLE, ALTER TABLE ... REFRESH CACHE and the
other catalog statements added beside grammar.ast_ddl (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node

__all__ = ["AlterDatabase", "AlterRole", "CheckConstraint", "DropConstraint", "ExistsTable", "ModifyColumns",
           "RefreshCache", "SetComment", "SwapTables", "UnsetGlobal"]


@dataclass(frozen=True, slots=True)
class AlterDatabase(Node):
    """ALTER DATABASE [IF EXISTS] [catalog.]db RENAME TO new_name, or REFRESH CACHE (new_name
    None). catalog: the catalog written before the database (None: the current one)."""

    name: str
    new_name: str | None
    catalog: str | None = None
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class ExistsTable(Node):
    """EXISTS TABLE [db.]t: one row, 1 when the table (or view) exists, else 0."""

    name: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RefreshCache(Node):
    """ALTER TABLE t REFRESH CACHE: the cache of an external table's metadata (none here)."""


@dataclass(frozen=True, slots=True)
class AlterRole(Node):
    """ALTER ROLE [IF EXISTS] r SET COMMENT = '...' | UNSET COMMENT (comment None)."""

    name: str
    comment: str | None
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class CheckConstraint(Node):
    """CHECK (expr) of CREATE TABLE (of a column or the table; name None: Databend names it), or
    ALTER TABLE ... ADD CONSTRAINT name CHECK (expr)."""

    name: str | None
    expr: Node


@dataclass(frozen=True, slots=True)
class DropConstraint(Node):
    """ALTER TABLE ... DROP CONSTRAINT name."""

    name: str


@dataclass(frozen=True, slots=True)
class ModifyColumns(Node):
    """ALTER TABLE t MODIFY [COLUMN] c1 type, [COLUMN] c2 type, ...: one rewrite (ModifyColumn each)."""

    columns: tuple


@dataclass(frozen=True, slots=True)
class SetComment(Node):
    """ALTER TABLE t COMMENT = '...' and COMMENT ON TABLE (column None); MODIFY [COLUMN] c
    COMMENT '...' and COMMENT ON COLUMN t.c (column c)."""

    comment: str
    column: str | None = None


@dataclass(frozen=True, slots=True)
class SwapTables(Node):
    """ALTER TABLE a SWAP WITH b: the two tables exchange their names."""

    other: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnsetGlobal(Node):
    """UNSET GLOBAL name, ... | (name, ...): the settings' global values dropped (and the
    session's own, as Databend)."""

    names: tuple[str, ...]
