"""SHOW statements that tools read: SHOW [FULL] TABLES, SHOW [FULL] VIEWS, SHOW CREATE VIEW (and
SHOW CREATE TABLE of a view), SHOW CREATE DATABASE, SHOW [FULL] COLUMNS, SHOW TABLE STATUS and
SHOW ENGINES, with Databend's column names and types."""

from __future__ import annotations

import datetime

from engine.catalog.catalog import TableColumn, View
from engine.catalog.system import is_virtual_database, virtual_table, virtual_table_names
from engine.catalog.visibility import visibility, visible_table
from engine.core import settings as S
from engine.core.errors import UNKNOWN_VIEW, EngineError, UnknownDatabase, UnknownTable
from engine.exec.result import Column, Progress, Result
from engine.runtime.helpers import check_like_pattern, like_predicate
from engine.statements.session_variables import show_variables
from engine.statements.view_statements import view_columns
from engine.types import sqltype as T
from grammar import ast as A

INTROSPECTION_KINDS = frozenset({"TABLES", "VIEWS", "CREATE_VIEW", "CREATE_DATABASE", "COLUMNS", "TABLE_STATUS",
                                 "ENGINES", "VARIABLES"})

_S = T.STRING
_S_NULL = T.STRING.as_nullable(True)
_U64_NULL = T.UINT64.as_nullable(True)
_TS = T.TIMESTAMP
_NULL = T.NULL
_STARTED = datetime.datetime.now(datetime.UTC)

# SHOW ENGINES as Databend 1.2.453 answers it
ENGINES = [
    ("DELTA", "DELTA Storage Engine"), ("FUSE", "FUSE Storage Engine"), ("ICEBERG", "ICEBERG Storage Engine"),
    ("MEMORY", "MEMORY Storage Engine"), ("NULL", "NULL Storage Engine"), ("RANDOM", "RANDOM Storage Engine"),
    ("STREAM", "STREAM Storage Engine"), ("VIEW", "VIEW Storage (LOGICAL VIEW)"),
]


def _rows_result(names_types, rows) -> Result:
    schema = [Column(n, t.display()) for n, t in names_types]
    batches = [rows[i:i + 2048] for i in range(0, len(rows), 2048)] or [[]]
    return Result(schema, iter(batches), progress=Progress(), types=[t for _, t in names_types])


def _like_filter(pattern, limits):
    if pattern is None:
        return lambda s: True
    check_like_pattern(pattern, limits.like_pattern_chars)
    return like_predicate(pattern)


def _local(ctx, moment: datetime.datetime) -> datetime.datetime:
    return moment.astimezone(S.timezone(ctx.session.setting("timezone"))).replace(tzinfo=None)


def run_show(session, ctx, stmt: A.Show) -> Result:
    handler = _SHOW[stmt.kind]
    return handler(ctx, stmt, _like_filter(stmt.like, ctx.limits))


def data_size(table) -> int:
    """The estimate of a table's bytes that information_schema.tables and SHOW report."""
    return len(table.data) * 8 * len(table.columns)


# ---------------------------------------------------------------- tables and views


def _database_entries(ctx, db: str):
    """(name, kind, object) of the database's tables and views the session's user may see,
    sorted by name; kind is 'table', 'view' or 'system' (a virtual table)."""
    if is_virtual_database(db):
        return [(n, "system", virtual_table(db, n)) for n in virtual_table_names(db)]
    tables = ctx.catalog.database(db)
    entries = [(name, "table", t) for name, t in tables.items()]
    entries += [(name, "view", v) for name, v in ctx.catalog.views.get(db, {}).items()]
    seen = visibility(ctx)
    return sorted((e for e in entries if visible_table(seen, db, e[0])), key=lambda e: e[0])


_FULL_TABLES_COLUMNS = [
    ("table_type", _S), ("database", _S), ("catalog", _S), ("owner", _S_NULL), ("engine", _S),
    ("cluster_by", _S), ("create_time", _TS), ("num_rows", _U64_NULL), ("data_size", _U64_NULL),
    ("data_compressed_size", _U64_NULL), ("index_size", _U64_NULL),
]


def _show_tables(ctx, stmt: A.Show, match) -> Result:
    db = stmt.database or ctx.database
    entries = [e for e in _database_entries(ctx, db) if match(e[0])]
    if not stmt.full:
        return _rows_result([(f"Tables_in_{db}", _S)], [(name,) for name, _, _ in entries])
    rows = []
    started = _local(ctx, _STARTED)
    for name, kind, obj in entries:
        if kind == "table":
            size = data_size(obj)
            rows.append((name, "BASE TABLE", db, "default", "public", obj.engine, obj.cluster_by,
                         _local(ctx, obj.created_on), len(obj.data), size, size, 0))
        elif kind == "view":
            rows.append((name, "VIEW", db, "default", "public", "VIEW", "", _local(ctx, obj.created_on),
                         None, None, None, None))
        else:
            rows.append((name, "BASE TABLE", db.lower(), "default", None, obj.engine, "", started,
                         None, None, None, None))
    return _rows_result([("tables", _S), *_FULL_TABLES_COLUMNS], rows)


def _show_views(ctx, stmt: A.Show, match) -> Result:
    db = stmt.database or ctx.database
    if is_virtual_database(db):
        views = []
    else:
        ctx.catalog.database(db)
        views = sorted(ctx.catalog.views.get(db, {}).values(), key=lambda v: v.name)
    seen = visibility(ctx)
    views = [v for v in views if match(v.name) and visible_table(seen, db, v.name)]
    if not stmt.full:
        return _rows_result([(f"Views_in_{db}", _S), ("view_query", _S)], [(v.name, v.text) for v in views])
    rows = [(v.name, db, "default", "public", "VIEW", _local(ctx, v.created_on), v.text) for v in views]
    return _rows_result([("views", _S), ("database", _S), ("catalog", _S), ("owner", _S_NULL), ("engine", _S),
                         ("create_time", _TS), ("view_query", _S)], rows)


def create_view_text(view: View) -> str:
    return f"CREATE VIEW `{view.database}`.`{view.name}` AS {view.text}"


def _view(ctx, stmt: A.Show) -> View:
    database, name = ctx.resolve_table_name(stmt.table)
    view = ctx.catalog.view(database, name)
    if view is None:
        raise EngineError(f"Unknown view '{database}'.'{name}'", code=UNKNOWN_VIEW, position=stmt.pos)
    return view


def _show_create_view(ctx, stmt: A.Show, match) -> Result:
    view = _view(ctx, stmt)
    if stmt.kind == "CREATE_TABLE":  # SHOW CREATE TABLE of a view, as Databend 1.2.453 answers it
        return _rows_result([("Table", _S), ("Create Table", _S)], [(view.name, create_view_text(view))])
    return _rows_result([("View", _S), ("Create View", _S)], [(view.name, create_view_text(view))])


def _show_create_database(ctx, stmt: A.Show, match) -> Result:
    name = stmt.database
    if not ctx.catalog.has_database(name):
        raise UnknownDatabase(f"Unknown database '{name}'", position=stmt.pos)
    return _rows_result([("Database", _S), ("Create Database", _S)],
                        [(name, f"CREATE DATABASE `{name}` ENGINE=DEFAULT")])


# ---------------------------------------------------------------- columns


def _columns_of(ctx, stmt: A.Show) -> list[TableColumn]:
    database, name = ctx.resolve_table_name(stmt.table)
    if is_virtual_database(database):
        return [TableColumn(n, t) for n, t in virtual_table(database, name, stmt.pos).columns]
    view = ctx.catalog.view(database, name)
    if view is not None:
        return [TableColumn(n, t) for n, t in view_columns(ctx, view, stmt.pos)]
    try:
        return ctx.catalog.table(database, name, stmt.pos).columns
    except UnknownTable:
        raise UnknownTable(f"Unknown table '{name}'", position=stmt.pos) from None


def _show_columns(ctx, stmt: A.Show, match) -> Result:
    rows = []
    for c in _columns_of(ctx, stmt):
        if not match(c.name):
            continue
        nullable = c.type.can_be_null
        default = c.default_sql if c.default_sql is not None else ""  # only a written default shows
        row = (c.name, c.type.sql_name(), "YES" if nullable else "NO", default, None, None)
        if stmt.full:
            comment = f"'{c.comment}'" if c.comment else ""
            row += (None, None, comment)
        rows.append(row)
    names = [("Field", _S), ("Type", _S), ("Null", _S), ("Default", _S), ("Extra", _NULL), ("Key", _NULL)]
    if stmt.full:
        names += [("Collation", _NULL), ("Privileges", _NULL), ("Comment", _S)]
    return _rows_result(names, rows)


# ---------------------------------------------------------------- status and engines


_TABLE_STATUS_COLUMNS = [
    ("name", _S), ("engine", _S), ("version", T.UINT8), ("row_format", _NULL), ("rows", _U64_NULL),
    ("avg_row_length", _NULL), ("data_length", _U64_NULL), ("max_data_length", _NULL), ("index_length", _U64_NULL),
    ("data_free", _NULL), ("auto_increment", _NULL), ("create_time", _TS), ("update_time", _NULL),
    ("check_time", _NULL), ("collation", _NULL), ("checksum", _NULL), ("comment", _S), ("cluster_by", _S),
]


def _show_table_status(ctx, stmt: A.Show, match) -> Result:
    db = stmt.database or ctx.database
    rows = []
    started = _local(ctx, _STARTED)
    for name, kind, obj in _database_entries(ctx, db):
        if not match(name):
            continue
        if kind == "table":
            rows.append((name, obj.engine, 0, None, len(obj.data), None, data_size(obj), None, 0, None, None,
                         _local(ctx, obj.created_on), None, None, None, None, obj.comment, obj.cluster_by))
        elif kind == "view":
            rows.append((name, "VIEW", 0, None, None, None, None, None, None, None, None,
                         _local(ctx, obj.created_on), None, None, None, None, "", ""))
        else:
            rows.append((name, obj.engine, 0, None, None, None, None, None, None, None, None, started,
                         None, None, None, None, "", ""))
    return _rows_result(_TABLE_STATUS_COLUMNS, rows)


def _show_engines(ctx, stmt: A.Show, match) -> Result:
    return _rows_result([("Engine", _S), ("Comment", _S)], list(ENGINES))


_SHOW = {
    "TABLES": _show_tables,
    "VIEWS": _show_views,
    "CREATE_VIEW": _show_create_view,
    "CREATE_TABLE": _show_create_view,  # reached only for a view
    "CREATE_DATABASE": _show_create_database,
    "COLUMNS": _show_columns,
    "TABLE_STATUS": _show_table_status,
    "ENGINES": _show_engines,
    "VARIABLES": lambda ctx, stmt, match: show_variables(ctx.session, match),
}


