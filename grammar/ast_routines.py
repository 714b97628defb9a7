"""Syntax tree nodes of user functions, sequences, stored procedures and scripts (re-exported
by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node
from grammar.ast_expr import TypeName

__all__ = ["UdfParam", "CreateFunction", "DropFunction", "CreateSequence", "DropSequence", "DescribeSequence",
           "ShowRoutines", "ExecuteImmediate", "CreateProcedure", "DropProcedure", "DescribeProcedure",
           "CallProcedure"]


@dataclass(frozen=True, slots=True)
class UdfParam(Node):
    """A parameter of a user function: its name, and its type when declared (`(p INT) -> ...`)."""

    name: str
    type: TypeName | None = None


@dataclass(frozen=True, slots=True)
class CreateFunction(Node):
    """CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] f AS (a, b) -> body [DESC = '...'] (a lambda
    UDF), f (a T, ...) RETURNS T AS $$ expr $$ (a scalar SQL UDF: body is the expression),
    f (a T) RETURNS TABLE (c T, ...) AS $$ query $$ (a table function: body is the query), or
    one in another language (`language` not 'SQL': kept, not run). ALTER FUNCTION is alter=True.

    name keeps its case when quoted (as Databend's function names); `source_offset` is where
    the definition after the name starts in the statement's text (the catalog keeps that text
    and parses it back); `body_text` is the text between $$ and $$, parsed when bound."""

    name: str
    params: tuple[UdfParam, ...]
    body: Node | None
    source_offset: int
    body_text: str | None = None
    description: str = ""
    returns: TypeName | None = None
    returns_table: tuple[tuple[str, TypeName], ...] | None = None
    language: str = "SQL"
    or_replace: bool = False
    if_not_exists: bool = False
    alter: bool = False


@dataclass(frozen=True, slots=True)
class DropFunction(Node):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class CreateSequence(Node):
    """CREATE [OR REPLACE] SEQUENCE [IF NOT EXISTS] s [START [=|WITH] n] [INCREMENT [=|BY] n] [COMMENT = '...']."""

    name: str
    start: int = 1
    increment: int = 1
    comment: str | None = None
    or_replace: bool = False
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropSequence(Node):
    name: str
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class DescribeSequence(Node):
    name: str


@dataclass(frozen=True, slots=True)
class ShowRoutines(Node):
    """SHOW SEQUENCES / SHOW PROCEDURES [LIKE '...' | WHERE expr] (kind 'SEQUENCES' | 'PROCEDURES')."""

    kind: str
    like: str | None = None
    where: Node | None = None


@dataclass(frozen=True, slots=True)
class ExecuteImmediate(Node):
    """EXECUTE IMMEDIATE $$ script $$ (or '...'): a script of Databend's language (engine.statements.scripts)."""

    script: str


@dataclass(frozen=True, slots=True)
class CreateProcedure(Node):
    """CREATE [OR REPLACE] PROCEDURE [IF NOT EXISTS] p (a T, ...) RETURNS T LANGUAGE SQL
    [COMMENT = '...'] AS $$ script $$; `source_offset` as CreateFunction's."""

    name: str
    params: tuple[UdfParam, ...]
    returns: TypeName | None
    returns_table: tuple[tuple[str, TypeName], ...] | None
    script: str
    source_offset: int
    comment: str = ""
    or_replace: bool = False
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropProcedure(Node):
    name: str
    types: tuple[TypeName, ...]
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class DescribeProcedure(Node):
    name: str
    types: tuple[TypeName, ...]


@dataclass(frozen=True, slots=True)
class CallProcedure(Node):
    name: str
    args: tuple[Node, ...]
