"""Read-only virtual tables: the `system` database (databases, tables, columns, settings, one,
functions, views, temporary_tables, processes, query_log) and `information_schema` (tables,
columns, schemata, views), with Databend's column names, order and types."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from engine import functions as F
from engine.catalog.catalog import VIRTUAL_DATABASES
from engine.catalog.constraint_rows import CONSTRAINTS_COLUMNS_NAMES, constraints_rows
from engine.catalog.keywords import KEYWORDS_TEXT
from engine.catalog.processes import wall_datetime
from engine.catalog.routines import (
    PROCEDURES_COLUMNS,
    USER_FUNCTIONS_COLUMNS,
    procedure_rows,
    user_function_rows,
)
from engine.catalog.temp_tables import TEMPORARY_TABLES_COLUMNS, temporary_tables_rows
from engine.catalog.users import ROLES_COLUMNS, USERS_COLUMNS, roles_rows, users_rows
from engine.catalog.visibility import visibility, visible_database, visible_table
from engine.core import settings as S
from engine.core.errors import UnknownTable
from engine.core.version import VERSION
from engine.types import datetimes as D
from engine.types import sqltype as T

_S = T.STRING
_U64 = T.UINT64
_NULL = T.NULL
_TS = T.TIMESTAMP
_STARTED = datetime.datetime.now(datetime.UTC)
# ids of the virtual tables, apart from the ids the catalog gives stored tables
_VIRTUAL_TABLE_IDS = 1 << 62


@dataclass(frozen=True)
class VirtualTable:
    columns: list  # [(name, SqlType)]
    produce: object  # function(ctx) -> list of row tuples
    engine: str


def _local(ctx, moment: datetime.datetime) -> datetime.datetime:
    """An aware instant as a Timestamp value (naive UTC: shown in the session zone)."""
    return moment.astimezone(datetime.UTC).replace(tzinfo=None)


def _stored_tables(ctx):
    """(database, table) for every stored table the session's user may see, sorted, then the
    session's temporary tables."""
    seen = visibility(ctx)
    for db in sorted(ctx.catalog.databases):
        tables = ctx.catalog.databases[db]
        for name in sorted(tables):
            if visible_table(seen, db, name):
                yield db, tables[name]
    temps = ctx.session.temp_tables  # the session's temporary tables: its own, all visible
    if temps is not None:
        yield from temps.tables()


def _listed_virtual_tables():
    """(name, VirtualTable, id) of the system tables, which system.tables and information_schema
    list too (Databend leaves information_schema's own views out)."""
    for i, name in enumerate(sorted(SYSTEM_TABLES)):
        yield name, SYSTEM_TABLES[name], _VIRTUAL_TABLE_IDS + i


def _default_text(column) -> str:
    return column.default_sql if column.default_sql is not None else ""


# ---------------------------------------------------------------- system


def database_names(ctx) -> list[str]:
    """The databases the session's user may see (system and information_schema always), sorted."""
    seen = visibility(ctx)
    names = set(ctx.catalog.databases) | set(VIRTUAL_DATABASES)
    return [n for n in sorted(names) if visible_database(seen, n)]


def _databases(ctx):
    return [("default", n) for n in database_names(ctx)]


def _stored_views(ctx):
    """(database, view) for every view the session's user may see, sorted."""
    seen = visibility(ctx)
    for db in sorted(ctx.catalog.views):
        views = ctx.catalog.views[db]
        for name in sorted(views):
            if visible_table(seen, db, name):
                yield db, views[name]


def _tables(ctx):
    rows = []
    for db, table in _stored_tables(ctx):
        rows.append(("default", db, table.name, table.table_id, table.engine, table.engine, table.cluster_by,
                     "TRANSIENT" if table.transient else "", _local(ctx, table.created_on), None, len(table.data),
                     table.comment, "BASE TABLE"))
    for db, view in _stored_views(ctx):
        rows.append(("default", db, view.name, view.table_id, "VIEW", "VIEW", "", "", _local(ctx, view.created_on),
                     None, None, "", "VIEW"))
    started = _local(ctx, _STARTED)
    for name, vt, table_id in _listed_virtual_tables():
        rows.append(("default", "system", name, table_id, vt.engine, vt.engine, "", "", started, None, None, "",
                     "BASE TABLE"))
    return rows


def _columns(ctx):
    rows = []
    for db, table in _stored_tables(ctx):
        for c in table.columns:
            rows.append((c.name, db, table.name, c.type.display(), c.type.sql_name(),
                         "DEFAULT" if c.default_sql is not None else "", _default_text(c),
                         "YES" if c.type.nullable else "NO", c.comment))
    for db, view in _stored_views(ctx):
        for column, t in view.columns:
            rows.append((column, db, view.name, t.display(), t.sql_name(), "", "",
                         "YES" if t.can_be_null else "NO", ""))
    for name, vt, _ in _listed_virtual_tables():
        for column, t in vt.columns:
            rows.append((column, "system", name, t.display(), t.sql_name(), "", "",
                         "YES" if t.can_be_null else "NO", ""))
    return rows


def settings_rows(ctx):
    rows = []
    for name in sorted(S.SETTINGS):
        s = S.SETTINGS[name]
        if name in ctx.session_settings:
            value, level = ctx.session_settings[name], "SESSION"
        elif name in ctx.global_settings:
            value, level = ctx.global_settings[name], "GLOBAL"
        else:
            value, level = s.default, "DEFAULT"
        rows.append((name, value, s.default, S.range_text(s), level, s.description, s.type))
    return rows


def _one(ctx):
    return [(1,)]


def _functions(ctx):
    return F.function_rows()


def _views(ctx):
    return [("default", db, v.name, v.table_id, "VIEW", "VIEW", _local(ctx, v.created_on), None,
             _local(ctx, v.updated_on or v.created_on), None, "", v.text) for db, v in _stored_views(ctx)]


def _schema_views(ctx):
    """information_schema.views as current Databend fills it (view_definition is the view's query;
    Databend 1.2.453 left it NULL)."""
    return [("default", db, v.name, v.text, "NONE", 0, False, 0, 0, 0) for db, v in _stored_views(ctx)]


def _visible(ctx, user: str) -> bool:
    """Administrators (root, configured users, account_admin) see every user's statements;
    anyone else only their own (their SQL may hold data)."""
    return ctx.access is None or ctx.user == user


def processes_rows(ctx):
    """system.processes (and SHOW PROCESSLIST): one row per running statement, oldest first."""
    processes = ctx.session.db.processes
    now = processes.clock()
    rows = []
    for p in processes.processes():
        if not _visible(ctx, p.user):
            continue
        progress = p.progress
        read_rows = progress.scan_rows if progress is not None else 0
        read_bytes = progress.scan_bytes if progress is not None else 0
        write_bytes = progress.write_bytes if progress is not None else 0
        rows.append(("", p.query_id, p.handler_type, None, p.user, "Query", p.database, p.sql,
                     p.memory_usage, read_bytes, write_bytes, read_rows, read_bytes, None,
                     max(0, int(now - p.started)), p.status))
    return rows


def _query_log(ctx):
    rows = []
    for e in ctx.session.db.processes.entries():
        if not _visible(ctx, e.user):
            continue
        ended = _local(ctx, wall_datetime(e.ended_at))
        rows.append((e.log_type[0], e.log_type[1], e.handler_type, "", "", "", e.user, e.query_id,
                     e.kind, e.sql, D.timestamp_to_date(ended, D.zone(ctx.timezone)), ended, _local(ctx, wall_datetime(e.started_at)),
                     e.duration_ms, e.database, *e.counts, e.memory_usage_peak, e.exception_code,
                     e.exception_text, VERSION))
    return rows


# system.processes as Databend 1.2.453 describes it (id is our query id: one per statement)
PROCESSES_COLUMNS = [
    ("node", _S), ("id", _S), ("type", _S), ("host", _S.as_nullable(True)), ("user", _S),
    ("command", _S), ("database", _S), ("extra_info", _S), ("memory_usage", T.INT64),
    ("data_read_bytes", _U64), ("data_write_bytes", _U64), ("scan_progress_read_rows", _U64),
    ("scan_progress_read_bytes", _U64), ("mysql_connection_id", T.SqlType("UInt32").as_nullable(True)),
    ("time", _U64), ("status", _S),
]

# a subset of Databend 1.2.453's system.query_log, in its order, with its names and types
QUERY_LOG_COLUMNS = [
    ("log_type", T.SqlType("Int8")), ("log_type_name", _S), ("handler_type", _S), ("tenant_id", _S),
    ("cluster_id", _S), ("node_id", _S), ("sql_user", _S), ("query_id", _S), ("query_kind", _S),
    ("query_text", _S), ("event_date", T.DATE), ("event_time", _TS), ("query_start_time", _TS),
    ("query_duration_ms", T.INT64), ("current_database", _S), ("written_rows", _U64),
    ("written_bytes", _U64), ("scan_rows", _U64), ("scan_bytes", _U64), ("result_rows", _U64),
    ("result_bytes", _U64), ("memory_usage", _U64), ("exception_code", T.INT32),
    ("exception_text", _S), ("server_version", _S),
]


SYSTEM_TABLES = {
    "databases": VirtualTable([("catalog", _S), ("name", _S)], _databases, "SystemDatabases"),
    "tables": VirtualTable([
        ("catalog", _S), ("database", _S), ("name", _S), ("table_id", _U64), ("engine", _S), ("engine_full", _S),
        ("cluster_by", _S), ("is_transient", _S), ("created_on", _TS), ("dropped_on", _TS.as_nullable(True)),
        ("num_rows", _U64.as_nullable(True)), ("comment", _S), ("table_type", _S),
    ], _tables, "SystemTables"),
    "columns": VirtualTable([
        ("name", _S), ("database", _S), ("table", _S), ("type", _S), ("data_type", _S), ("default_kind", _S),
        ("default_expression", _S), ("is_nullable", _S), ("comment", _S),
    ], _columns, "SystemColumns"),
    "settings": VirtualTable([("name", _S), ("value", _S), ("default", _S), ("range", _S), ("level", _S), ("description", _S),
                              ("type", _S)], settings_rows, "SystemSettings"),
    "one": VirtualTable([("dummy", T.UINT8)], _one, "SystemOne"),
    "functions": VirtualTable([("name", _S), ("is_aggregate", T.BOOLEAN), ("description", _S), ("syntax", _S),
                               ("example", _S)], _functions, "SystemFunctions"),
    "views": VirtualTable([
        ("catalog", _S), ("database", _S), ("name", _S), ("table_id", _U64), ("engine", _S), ("engine_full", _S),
        ("created_on", _TS), ("dropped_on", _TS.as_nullable(True)), ("updated_on", _TS),
        ("owner", _S.as_nullable(True)), ("comment", _S), ("view_query", _S),
    ], _views, "SystemViews"),
    "temporary_tables": VirtualTable(TEMPORARY_TABLES_COLUMNS, temporary_tables_rows, "SystemTemporaryTables"),
    "processes": VirtualTable(PROCESSES_COLUMNS, processes_rows, "SystemProcesses"),
    "users": VirtualTable(USERS_COLUMNS, users_rows, "SystemUsers"),
    "roles": VirtualTable(ROLES_COLUMNS, roles_rows, "SystemRoles"),
    "constraints": VirtualTable([(n, T.STRING) for n in CONSTRAINTS_COLUMNS_NAMES], constraints_rows,
                                "SystemConstraints"),
    "query_log": VirtualTable(QUERY_LOG_COLUMNS, _query_log, "SystemQueryLog"),
    "user_functions": VirtualTable(USER_FUNCTIONS_COLUMNS,
                                   lambda ctx: user_function_rows(ctx.catalog.routines, lambda t: _local(ctx, t)),
                                   "SystemUserFunctions"),
    "procedures": VirtualTable(PROCEDURES_COLUMNS,
                               lambda ctx: procedure_rows(ctx.catalog.routines, lambda t: _local(ctx, t)),
                               "SystemProcedures"),
}


# ---------------------------------------------------------------- information_schema


def _schema_tables(ctx):
    """As Databend fills it, table_catalog is the table's database."""
    rows = []
    for db, table in _stored_tables(ctx):
        rows.append((db, db, table.name, "BASE TABLE", table.engine, _local(ctx, table.created_on), None,
                     len(table.data) * 8 * len(table.columns), None, len(table.data), None, None, None,
                     table.comment))
    for db, view in _stored_views(ctx):
        rows.append((db, db, view.name, "VIEW", "VIEW", _local(ctx, view.created_on), None, None, None, None, None,
                     None, None, ""))
    started = _local(ctx, _STARTED)
    for name, vt, _ in _listed_virtual_tables():
        rows.append(("system", "system", name, "BASE TABLE", vt.engine, started, None, None, None, None, None,
                     None, None, ""))
    return rows


_NOTHING_MORE = (None,) * 16  # character_maximum_length ... privileges: always NULL


def _schema_columns(ctx):
    """As Databend fills it, table_catalog is the table's database (JDBC's getColumns passes
    the catalog getCatalogs gave, which is that name)."""
    rows = []
    for db, table in _stored_tables(ctx):
        for position, c in enumerate(table.columns, 1):
            nullable = c.type.nullable
            rows.append((db, db, table.name, c.name, position, None, c.comment, None, int(nullable),
                         "YES" if nullable else "NO", c.type.display(), c.type.sql_name(), *_NOTHING_MORE,
                         _default_text(c), None))
    for db, view in _stored_views(ctx):
        for position, (column, t) in enumerate(view.columns, 1):
            rows.append((db, db, view.name, column, position, None, "", None, int(t.can_be_null),
                         "YES" if t.can_be_null else "NO", t.display(), t.sql_name(), *_NOTHING_MORE, "", None))
    for name, vt, _ in _listed_virtual_tables():
        for position, (column, t) in enumerate(vt.columns, 1):
            rows.append(("system", "system", name, column, position, None, "", None, int(t.can_be_null),
                         "YES" if t.can_be_null else "NO", t.display(), t.sql_name(), *_NOTHING_MORE, "", None))
    return rows


def _schemata(ctx):
    # as Databend fills it, catalog_name is the schema's own name
    return [(n, n, "default", None, None, None, None, None) for n in database_names(ctx)]


INFORMATION_SCHEMA_TABLES = {
    "tables": VirtualTable([
        ("table_catalog", _S), ("table_schema", _S), ("table_name", _S), ("table_type", _S), ("engine", _S),
        ("create_time", _TS), ("drop_time", _TS.as_nullable(True)), ("data_length", _U64.as_nullable(True)),
        ("index_length", _U64.as_nullable(True)), ("table_rows", _U64.as_nullable(True)),
        ("auto_increment", _NULL), ("table_collation", _NULL), ("data_free", _NULL), ("table_comment", _S),
    ], _schema_tables, "VIEW"),
    "columns": VirtualTable([
        ("table_catalog", _S), ("table_schema", _S), ("table_name", _S), ("column_name", _S),
        ("ordinal_position", T.UINT8), ("column_default", _NULL), ("column_comment", _S), ("column_key", _NULL),
        ("nullable", T.UINT8.as_nullable(True)), ("is_nullable", _S), ("data_type", _S), ("column_type", _S),
        *[(name, _NULL) for name in (
            "character_maximum_length", "character_octet_length", "numeric_precision", "numeric_precision_radix",
            "numeric_scale", "datetime_precision", "character_set_catalog", "character_set_schema",
            "character_set_name", "collation_catalog", "collation_schema", "collation_name", "domain_catalog",
            "domain_schema", "domain_name", "privileges")],
        ("default", _S), ("extra", _NULL),
    ], _schema_columns, "VIEW"),
    "schemata": VirtualTable([
        ("catalog_name", _S), ("schema_name", _S), ("schema_owner", _S), ("default_character_set_catalog", _NULL),
        ("default_character_set_schema", _NULL), ("default_character_set_name", _NULL),
        ("default_collation_name", _NULL), ("sql_path", _NULL),
    ], _schemata, "VIEW"),
    "keywords": VirtualTable([("keywords", _S), ("reserved", T.UINT8)],
                             lambda ctx: [(KEYWORDS_TEXT, 1)], "VIEW"),
    "views": VirtualTable([
        ("table_catalog", _S), ("table_schema", _S), ("table_name", _S), ("view_definition", _S),
        ("check_option", _S), ("is_updatable", T.UINT8), ("is_insertable_into", T.BOOLEAN),
        ("is_trigger_updatable", T.UINT8), ("is_trigger_deletable", T.UINT8),
        ("is_trigger_insertable_into", T.UINT8),
    ], _schema_views, "VIEW"),
}

_BY_DATABASE = {"system": SYSTEM_TABLES, "information_schema": INFORMATION_SCHEMA_TABLES}


def is_virtual_database(name: str) -> bool:
    return name.lower() in _BY_DATABASE


def virtual_table_names(database: str) -> list[str]:
    return sorted(_BY_DATABASE[database.lower()])


def virtual_table(database: str, name: str, pos=None) -> VirtualTable:
    """The virtual table `database`.`name` (database is system or information_schema)."""
    entry = _BY_DATABASE[database.lower()].get(name.lower())
    if entry is None:
        raise UnknownTable(f"Unknown table `{database}`.`{name}` in catalog 'default'", position=pos)
    return entry
