"""User function and sequence statements: CREATE / ALTER / DROP FUNCTION (SHOW USER FUNCTIONS is a
query of system.user_functions), CREATE / DROP / DESCRIBE SEQUENCE and SHOW SEQUENCES
(engine.catalog.routines holds them; engine.bind.routine_calls binds their calls)."""

from __future__ import annotations

import datetime

import grammar
from engine.bind.routine_calls import check_definition
from engine.catalog.catalog import TableColumn
from engine.catalog.routines import Sequence, SequenceDefault, UserFunction
from engine.core import settings as S
from engine.core.errors import InvalidArgument, SemanticError, SqlSyntaxError, Unimplemented
from engine.exec.result import Column, Progress, Result
from engine.runtime.helpers import check_like_pattern, like_predicate
from engine.statements.scripts import execute_immediate
from engine.types import sqltype as T
from grammar import ast as A

SEQUENCE_COLUMNS = [("name", T.STRING), ("interval", T.INT64), ("current", T.UINT64), ("created_on", T.TIMESTAMP),
                    ("updated_on", T.TIMESTAMP), ("comment", T.STRING.as_nullable(True))]


def _result(names_types=(), rows=()) -> Result:
    schema = [Column(n, t.display()) for n, t in names_types]
    return Result(schema, iter([list(rows)] if names_types else ()), progress=Progress(),
                  types=[t for _, t in names_types])


def statement_text(ctx, offset: int) -> str:
    """The statement's text from `offset` on, without the trailing `;` and blanks."""
    return (ctx.sql or "")[offset:].strip().rstrip(";").rstrip()


def create_function(session, ctx, stmt: A.CreateFunction) -> Result:
    if stmt.language == "SQL":
        check_definition(stmt)  # 1005: an undeclared or unused parameter, a call of itself
        if stmt.returns_table is not None:
            _check_table_body(stmt)
    udf = UserFunction(stmt.name, stmt, statement_text(ctx, stmt.source_offset))
    routines = ctx.catalog.routines
    if stmt.alter:
        routines.alter_function(udf, stmt.pos)
    else:
        routines.add_function(udf, stmt.or_replace, stmt.if_not_exists, stmt.pos)
    return _result()


def _check_table_body(stmt: A.CreateFunction) -> None:
    try:
        query = grammar.parse(stmt.body_text or "")
    except grammar.SqlSyntaxError as exc:
        raise SqlSyntaxError(f"the body of table function {stmt.name} is not a query: {exc.reason}",
                             position=stmt.pos) from None
    if not isinstance(query, A.Select | A.SetOperation | A.With | A.Values):
        raise SqlSyntaxError(f"the body of table function {stmt.name} is not a query", position=stmt.pos)


def drop_function(session, ctx, stmt: A.DropFunction) -> Result:
    ctx.catalog.routines.drop_function(stmt.name, stmt.if_exists, stmt.pos)
    return _result()


# ---------------------------------------------------------------- sequences


def _calls_nextval(node) -> bool:
    if isinstance(node, A.FunctionCall) and node.name == "nextval":
        return True
    if isinstance(node, A.Node):
        return any(_calls_nextval(getattr(node, f)) for f in node.__dataclass_fields__ if f != "pos")
    if isinstance(node, tuple):
        return any(_calls_nextval(x) for x in node)
    return False


def sequence_column(ctx, cd: A.ColumnDef, t: T.SqlType) -> TableColumn | None:
    """The column of a definition `c T DEFAULT nextval(s)` (each row not writing c takes the
    next value of s), or None for any other column. Databend allows nextval only as the whole
    DEFAULT of a number column (1065)."""
    if cd.default is None or not _calls_nextval(cd.default):
        return None
    call = cd.default
    if not (isinstance(call, A.FunctionCall) and call.name == "nextval" and len(call.args) == 1
            and isinstance(call.args[0], A.ColumnRef) and len(call.args[0].parts) == 1):
        raise SemanticError("nextval(...) must be the whole DEFAULT of a column", position=cd.default.pos)
    if not (t.is_int or t.name in ("Decimal", "Float32", "Float64")):
        raise SemanticError(f"the DEFAULT nextval(...) of column {cd.name} needs a number type, not "
                            f"{t.sql_name()}", position=cd.default.pos)
    name = call.args[0].parts[0]
    routines = ctx.catalog.routines
    routines.sequence(name, call.pos)  # 3101 when there is none
    return TableColumn(cd.name, t, SequenceDefault(routines, name), f"nextval({name})", cd.comment or "")


def create_sequence(session, ctx, stmt: A.CreateSequence) -> Result:
    if stmt.increment == 0:
        raise InvalidArgument("CREATE SEQUENCE: INCREMENT must not be 0", position=stmt.pos)
    sequence = Sequence(stmt.name, stmt.start, stmt.increment, stmt.comment)
    ctx.catalog.routines.add_sequence(sequence, stmt.or_replace, stmt.if_not_exists, stmt.pos)
    return _result()


def drop_sequence(session, ctx, stmt: A.DropSequence) -> Result:
    ctx.catalog.routines.drop_sequence(stmt.name, stmt.if_exists, stmt.pos)
    return _result()


def _local(ctx, moment: datetime.datetime) -> datetime.datetime:
    return moment.astimezone(S.timezone(ctx.timezone)).replace(tzinfo=None)


def _sequence_row(ctx, sequence: Sequence) -> tuple:
    return (sequence.name, sequence.increment, sequence.current, _local(ctx, sequence.created_on),
            _local(ctx, sequence.updated_on), sequence.comment)


def describe_sequence(session, ctx, stmt: A.DescribeSequence) -> Result:
    sequence = ctx.catalog.routines.sequence_described(stmt.name, stmt.pos)
    return _result(SEQUENCE_COLUMNS, [_sequence_row(ctx, sequence)])


def show_routines(session, ctx, stmt: A.ShowRoutines) -> Result:
    if stmt.where is not None:
        raise Unimplemented(f"SHOW {stmt.kind} ... WHERE is not supported; use LIKE", position=stmt.pos)
    match = lambda name: True  # noqa: E731
    if stmt.like is not None:
        check_like_pattern(stmt.like, ctx.limits.like_pattern_chars)
        match = like_predicate(stmt.like)
    sequences = ctx.catalog.routines.sequences
    rows = [_sequence_row(ctx, sequences[name]) for name in sorted(sequences) if match(name)]
    return _result(SEQUENCE_COLUMNS, rows)


ROUTINE_HANDLERS = {
    A.ExecuteImmediate: execute_immediate,
    A.CreateFunction: create_function,
    A.DropFunction: drop_function,
    A.CreateSequence: create_sequence,
    A.DropSequence: drop_sequence,
    A.DescribeSequence: describe_sequence,
    A.ShowRoutines: show_routines,
}
