"""Syntax tree nodes of stage statements: LIST, REMOVE, PRESIGN, COPY INTO, stages, file formats,
and @stage in FROM (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node

__all__ = ["ListStage", "Presign", "CopyIntoTable", "CopyIntoStage", "CreateStage",
           "CreateFileFormat", "DropStageObject", "ShowStageObjects", "StageRef"]


@dataclass(frozen=True, slots=True)
class ListStage(Node):
    """LIST @stage[/path] [PATTERN = '...'] (and REMOVE, with remove=True)."""

    location: str
    pattern: str | None = None
    remove: bool = False


@dataclass(frozen=True, slots=True)
class Presign(Node):
    """PRESIGN [UPLOAD | DOWNLOAD] @stage/path [EXPIRE = seconds]."""

    method: str  # "UPLOAD" or "DOWNLOAD"
    location: str
    expire: int | None = None


@dataclass(frozen=True, slots=True)
class CopyIntoTable(Node):
    """COPY INTO t [(cols)] FROM @stage[/path] [FILES = (...)] [PATTERN = ...] [FILE_FORMAT = (...)]
    [PURGE = b] [FORCE = b] [ON_ERROR = ...] ... : options as (lower-case name, value) pairs;
    a value is a str, or a tuple of (name, value) pairs for a group such as FILE_FORMAT, or a
    tuple of strings for a list such as FILES."""

    table: tuple[str, ...]
    columns: tuple[str, ...] | None
    location: str | None  # None when the rows come from `query` (a SELECT ... FROM @stage)
    options: tuple = ()
    query: Node | None = None


@dataclass(frozen=True, slots=True)
class CopyIntoStage(Node):
    """COPY INTO @stage[/prefix] FROM t | (query) [FILE_FORMAT = (...)] [SINGLE = b]
    [MAX_FILE_SIZE = n] ...: options as in CopyIntoTable."""

    location: str
    table: tuple[str, ...] | None
    query: Node | None
    options: tuple = ()


@dataclass(frozen=True, slots=True)
class CreateStage(Node):
    """CREATE [OR REPLACE] STAGE [IF NOT EXISTS] s [FILE_FORMAT = (...)] [COMMENT = '...'] ..."""

    name: str
    or_replace: bool
    if_not_exists: bool
    options: tuple = ()


@dataclass(frozen=True, slots=True)
class CreateFileFormat(Node):
    """CREATE [OR REPLACE] FILE FORMAT [IF NOT EXISTS] f TYPE = CSV ..."""

    name: str
    or_replace: bool
    if_not_exists: bool
    options: tuple = ()


@dataclass(frozen=True, slots=True)
class DropStageObject(Node):
    """DROP STAGE / DROP FILE FORMAT [IF EXISTS] name (kind: "STAGE" or "FILE FORMAT")."""

    kind: str
    name: str
    if_exists: bool


@dataclass(frozen=True, slots=True)
class ShowStageObjects(Node):
    """SHOW STAGES [LIKE ...], SHOW FILE FORMATS, DESC STAGE s (kind: STAGES, FILE FORMATS,
    DESC STAGE; name for DESC)."""

    kind: str
    like: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class StageRef(Node):
    """@stage[/path] [(FILE_FORMAT => ..., FILES => (...), PATTERN => ...)] [AS alias] in FROM:
    the records of staged files, their fields as $1, $2 ... (options as in CopyIntoTable)."""

    location: str
    options: tuple = ()
    alias: str | None = None
