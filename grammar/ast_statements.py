"""Syntax tree nodes of the core statements: CREATE / DROP, INSERT, UPDATE, DELETE, SET, SHOW,
DESCRIBE, EXPLAIN, KILL, transactions (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from grammar.ast_base import Node

if TYPE_CHECKING:  # annotations only
    from grammar.ast_expr import TypeName

__all__ = [
    "CreateDatabase",
    "DropDatabase",
    "UseDatabase",
    "ColumnDef",
    "CreateTable",
    "DropTable",
    "TruncateTable",
    "StageSource",
    "Insert",
    "Assignment",
    "Update",
    "Delete",
    "SetVariable",
    "UnsetVariable",
    "Show",
    "Describe",
    "Explain",
    "Kill",
    "TransactionStatement",
]


# ---------------------------------------------------------------- statements
# A query (Select, SetOperation, With) is itself a statement.


@dataclass(frozen=True, slots=True)
class CreateDatabase(Node):
    name: str
    if_not_exists: bool = False
    or_replace: bool = False
    catalog: str | None = None  # `CREATE DATABASE catalog.db`: the catalog written


@dataclass(frozen=True, slots=True)
class DropDatabase(Node):
    name: str
    if_exists: bool = False
    catalog: str | None = None  # `DROP DATABASE catalog.db`: the catalog written


@dataclass(frozen=True, slots=True)
class UseDatabase(Node):
    name: str


@dataclass(frozen=True, slots=True)
class ColumnDef(Node):
    name: str
    type: TypeName
    default: Node | None = None  # nullability is type.nullable (None: nullable)
    comment: str | None = None
    checks: tuple = ()  # CHECK (expr) written with the column (grammar.ast_ddl_more.CheckConstraint)


@dataclass(frozen=True, slots=True)
class CreateTable(Node):
    name: tuple[str, ...]
    columns: tuple[ColumnDef, ...] = ()
    if_not_exists: bool = False
    as_query: Node | None = None
    comment: str | None = None  # COMMENT = '...' among the table options
    or_replace: bool = False
    transient: bool = False
    like: tuple[str, ...] | None = None  # CREATE TABLE t2 LIKE t
    cluster_by: tuple[Node, ...] = ()  # CLUSTER BY (expr, ...)
    temporary: bool = False  # CREATE TEMP[ORARY] TABLE: the session's own table
    engine: str | None = None  # ENGINE = name, lower-cased (None: unsaid)
    options: tuple[tuple[str, str], ...] = ()  # other table options: (lower-case name, value text)
    constraints: tuple = ()  # CHECK constraints, columns' and table's, in order (CheckConstraint)


@dataclass(frozen=True, slots=True)
class DropTable(Node):
    name: tuple[str, ...]
    if_exists: bool = False
    purge: bool = False     # DROP TABLE t ALL: the data goes at once (no UNDROP)


@dataclass(frozen=True, slots=True)
class TruncateTable(Node):
    name: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StageSource(Node):
    """`[VALUES (?, ...)] FROM @stage[/path] [FILE_FORMAT = (...)] [copy options]` of an INSERT or
    REPLACE: the rows of a staged file. options as in CopyIntoTable ((lower-case name, value)
    pairs, a group such as FILE_FORMAT a tuple of pairs); values the VALUES row, if written."""

    location: str
    options: tuple = ()
    values: tuple[Node, ...] | None = None


@dataclass(frozen=True, slots=True)
class Insert(Node):
    """INSERT INTO t [(cols)] VALUES (...), ... | SELECT ...
    At most one of rows / query is set. rows holds expressions (usually Literal); neither is set
    for `INSERT INTO t [(cols)] VALUES [(?, ...)]`, whose rows come from a stage attachment, or
    from `stage` (`... FROM @stage FILE_FORMAT = (...)`)."""

    table: tuple[str, ...]
    columns: tuple[str, ...] | None = None
    rows: tuple[tuple[Node, ...], ...] | None = None
    query: Node | None = None
    overwrite: bool = False  # INSERT OVERWRITE: the rows replace the table's
    stage: StageSource | None = None


@dataclass(frozen=True, slots=True)
class Assignment(Node):
    """`column = value` in UPDATE ... SET."""

    column: str
    value: Node
    qualifier: str | None = None  # `t.c = v`: the target table (or alias) written before the column


@dataclass(frozen=True, slots=True)
class Update(Node):
    """UPDATE t [[AS] alias] SET col = expr, ... [WHERE cond]; where None updates every row."""

    table: tuple[str, ...]
    assignments: tuple[Assignment, ...]
    where: Node | None = None
    alias: str | None = None
    from_: Node | None = None  # UPDATE ... FROM other: a FROM item joined to the table


@dataclass(frozen=True, slots=True)
class Delete(Node):
    """DELETE FROM t [[AS] alias] [WHERE cond]; where None deletes every row."""

    table: tuple[str, ...]
    where: Node | None = None
    alias: str | None = None


@dataclass(frozen=True, slots=True)
class SetVariable(Node):
    """SET [GLOBAL] name = value; name lower-cased."""

    name: str
    value: Node
    is_global: bool = False


@dataclass(frozen=True, slots=True)
class UnsetVariable(Node):
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Show(Node):
    """kind: 'DATABASES', 'TABLES', 'SETTINGS', 'CREATE_TABLE', 'FUNCTIONS'.
    database: for SHOW TABLES FROM db; table: for SHOW CREATE TABLE; like: a LIKE pattern."""

    kind: str
    database: str | None = None
    table: tuple[str, ...] | None = None
    like: str | None = None
    full: bool = False


@dataclass(frozen=True, slots=True)
class Describe(Node):
    table: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Explain(Node):
    statement: Node
    kind: str = ""  # "" (the plan), "SYNTAX" or "ANALYZE"


@dataclass(frozen=True, slots=True)
class Kill(Node):
    """KILL QUERY|CONNECTION id; target is 'QUERY' or 'CONNECTION'."""

    target: str
    object_id: str


@dataclass(frozen=True, slots=True)
class TransactionStatement(Node):
    """BEGIN [TRANSACTION] | COMMIT | ABORT | ROLLBACK; action is 'BEGIN', 'COMMIT' or 'ABORT'
    (ROLLBACK is ABORT, as Databend parses it)."""

    action: str
