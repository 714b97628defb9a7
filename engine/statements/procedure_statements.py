"""Stored procedures: CREATE / DROP / DESCRIBE PROCEDURE and CALL PROCEDURE (the script runs as
EXECUTE IMMEDIATE's does, in engine.statements.scripts; SHOW PROCEDURES is a query of
system.procedures)."""

from __future__ import annotations

import re

import grammar
from engine.catalog.routines import Procedure, procedure_type_text
from engine.core.errors import EngineError
from engine.exec.result import Column, Progress, Result
from engine.statements.routine_statements import statement_text
from engine.statements.scripts import constant, script_result
from engine.types import sqltype as T
from grammar import ast as A
from grammar.script import parse_script


def _script(text: str, pos):
    try:
        return parse_script(text)
    except grammar.SqlSyntaxError as exc:
        raise EngineError(exc.message, code=exc.code, position=pos) from None


def create_procedure(session, ctx, stmt: A.CreateProcedure) -> Result:
    _script(stmt.script, stmt.pos)  # a script that does not parse is refused now (1005)
    procedure = Procedure(stmt.name, stmt, statement_text(ctx, stmt.source_offset))
    ctx.catalog.routines.add_procedure(procedure, stmt.or_replace, stmt.if_not_exists, stmt.pos)
    return Result([], iter(()), progress=Progress(), types=[])


def drop_procedure(session, ctx, stmt: A.DropProcedure) -> Result:
    ctx.catalog.routines.drop_procedure(stmt.name, stmt.types, stmt.if_exists, stmt.pos)
    return Result([], iter(()), progress=Progress(), types=[])


def describe_procedure(session, ctx, stmt: A.DescribeProcedure) -> Result:
    procedure = ctx.catalog.routines.procedure_of(stmt.name, stmt.types, stmt.pos)
    if procedure is None:
        ctx.catalog.routines.drop_procedure(stmt.name, stmt.types, False, stmt.pos)  # 3130, Databend's text
    d = procedure.definition
    if d.returns_table is not None:
        returns = ", ".join(f"{n} {procedure_type_text(t)}" for n, t in d.returns_table)
    else:
        returns = procedure_type_text(d.returns)
    rows = [("signature", "(" + ",".join(p.name for p in d.params) + ")"), ("returns", f"({returns})"),
            ("language", "SQL"), ("body", re.sub(r"\s+", " ", d.script).strip())]
    names_types = [("Property", T.STRING), ("Value", T.STRING)]
    return Result([Column(n, t.display()) for n, t in names_types], iter([rows]), progress=Progress(),
                  types=[t for _, t in names_types])


def call_procedure(session, ctx, stmt: A.CallProcedure) -> Result:
    procedure = ctx.catalog.routines.procedure(stmt.name, len(stmt.args), stmt.pos)
    d = procedure.definition
    statements = _script(d.script, stmt.pos)
    arguments = A.Select(tuple(A.SelectItem(A.Cast(a, p.type)) for a, p in zip(stmt.args, d.params, strict=True)))
    returns = d.returns

    def start(script):
        """The arguments, evaluated and cast to the parameters' types, become the variables."""
        if not d.params:
            return
        found = yield from script.query(arguments)
        for i, p in enumerate(d.params):
            script.variables[p.name.lower()] = (found.rows[0][i], found.types[i])

    def finish(script, returned):
        if returned is None or returned[0] != "scalar" or returns is None:
            return returned
        cast = A.Select((A.SelectItem(A.Cast(constant(returned[1], returned[2]), returns)),))
        found = yield from script.query(cast)
        return ("scalar", found.rows[0][0], found.types[0])

    return script_result(session, ctx, statements, start=start, finish=finish)


PROCEDURE_HANDLERS = {
    A.CreateProcedure: create_procedure,
    A.DropProcedure: drop_procedure,
    A.DescribeProcedure: describe_procedure,
    A.CallProcedure: call_procedure,
}
