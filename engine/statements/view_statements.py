"""View statements: CREATE [OR REPLACE] VIEW, ALTER VIEW, DROP VIEW and DESCRIBE of a view."""

from __future__ import annotations

import datetime

from engine.bind.names import display
from engine.catalog.catalog import View
from engine.catalog.system import is_virtual_database
from engine.catalog.views import expand_view
from engine.core.errors import (
    BAD_DATA_ARRAY_LENGTH,
    TABLE_ENGINE_NOT_SUPPORTED,
    UNKNOWN_VIEW,
    VIEW_ALREADY_EXISTS,
    EngineError,
    Unimplemented,
    UnknownTable,
)
from engine.exec.result import Column, Progress, Result
from engine.plan.planner import Planner
from engine.statements.view_text import ViewTextPrinter, view_text
from engine.types import sqltype as T
from grammar import ast as A


def _empty() -> Result:
    return Result([], iter(()), progress=Progress(), types=[])


def create_view(session, ctx, stmt: A.CreateView) -> Result:
    database, name = ctx.resolve_table_name(stmt.name)
    catalog = ctx.catalog
    if is_virtual_database(database):
        raise Unimplemented(f"The operation is not available for the table `{database}`.`{name}`: "
                            f"the {database.lower()} tables are read-only", position=stmt.pos)
    catalog.database(database)
    existing = catalog.view(database, name)
    if stmt.alter and existing is None:
        raise EngineError(f"Unknown view '{database}'.'{name}'", code=UNKNOWN_VIEW, position=stmt.pos)
    if existing is not None and not stmt.alter and not stmt.or_replace:
        if stmt.if_not_exists:
            return _empty()
        raise EngineError(f"'{name}' as view Already Exists", code=VIEW_ALREADY_EXISTS, position=stmt.pos)
    if existing is not None:
        name = existing.name
    stored = view_text(stmt.query, database, name, stmt.columns)
    if stored is not None:  # Databend's text, which reads back as the same query
        query, text = stored
    else:  # the text as written (rebuilt from the tree when the statement's text is unknown)
        sql = ctx.sql
        written = sql[stmt.query_offset:] if sql is not None and stmt.query_offset <= len(sql) else display(stmt.query)
        query, text = _view_query_with(stmt, name, written.strip().rstrip(";").strip())
    if stmt.columns:
        count = len(view_columns(ctx, View(database, name, stmt.query, text), stmt.pos))
        if count != len(stmt.columns):
            raise EngineError(f"column name length mismatch, expect {count}, got {len(stmt.columns)}",
                              code=BAD_DATA_ARRAY_LENGTH, position=stmt.pos)
    view = View(database, name, query, text)
    # the query must plan now, as Databend checks it at creation; its columns as of now are what
    # system.columns and information_schema.columns list
    view.columns = view_columns(ctx, view, stmt.pos)
    view.updated_on = datetime.datetime.now(datetime.UTC)
    catalog.add_view(view, stmt.pos)
    return _empty()


def _view_query_with(stmt: A.CreateView, name: str, text: str):
    if not stmt.columns:
        return stmt.query, text
    query = A.Select((A.SelectItem(A.Star(pos=stmt.pos), pos=stmt.pos),),
                     from_=A.SubqueryRef(stmt.query, name, stmt.columns, pos=stmt.pos), pos=stmt.pos)
    printer = ViewTextPrinter()  # names quoted where needed, so the text reads back
    return query, f"select * from ({text}) {printer.ident(name)}{printer.column_list(stmt.columns)}"


def drop_view(session, ctx, stmt: A.DropView) -> Result:
    database, name = ctx.resolve_table_name(stmt.name)
    catalog = ctx.catalog
    if catalog.view(database, name) is None:
        tables = catalog.databases.get(database)
        if tables is not None and any(key.lower() == name.lower() for key in tables):
            raise EngineError(f"{database}.{name} is not VIEW, please use `DROP TABLE {database}.{name}`",
                              code=TABLE_ENGINE_NOT_SUPPORTED, position=stmt.pos)
        if stmt.if_exists:
            return _empty()
        raise UnknownTable(f"unknown view `{database}`.`{name}` in catalog 'default'", position=stmt.pos)
    catalog.drop_view(database, name)
    return _empty()


def view_columns(ctx, view: View, pos=None) -> list:
    """(name, SqlType) of the view's columns, from planning its query now."""
    planner = Planner(ctx)
    ref = A.TableRef((view.database, view.name), pos=pos)
    rel = expand_view(planner, view, ref)
    return [(name, t) for _, name, _, t in rel.columns]


def describe_view(ctx, view: View, pos=None) -> Result:
    rows = []
    for name, t in view_columns(ctx, view, pos):
        t = t if t.name != "Null" else T.NULL
        # a view's columns have no DEFAULT: current Databend shows NULL (1.2.453 the type's zero)
        rows.append((name, t.sql_name(), "YES" if t.can_be_null else "NO", "NULL", ""))
    schema = [Column(n, "String") for n in ("Field", "Type", "Null", "Default", "Extra")]
    return Result(schema, iter([rows]), progress=Progress(), types=[T.STRING] * 5)

