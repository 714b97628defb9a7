"""DDL beyond plain CREATE/DROP TABLE: CREATE [OR REPLACE] DATABASE, CREATE TABLE ... LIKE,
UNDROP TABLE, RENAME TABLE, and the table options (TRANSIENT, CLUSTER BY) CREATE TABLE keeps."""

from __future__ import annotations

import dataclasses

from engine.catalog.catalog import VIRTUAL_DATABASES, Table, TableColumn
from engine.catalog.system import is_virtual_database, virtual_table
from engine.core.errors import (
    UNDROP_TABLE_ALREADY_EXISTS,
    UNDROP_TABLE_HAS_NO_HISTORY,
    BadArguments,
    EngineError,
    TableAlreadyExists,
    Unimplemented,
    UnknownCatalog,
    UnknownTable,
)
from engine.exec.result import Progress, Result
from engine.statements.table_options import stored_options
from engine.statements.view_text import ViewTextPrinter
from grammar import ast as A


def empty_result() -> Result:
    return Result([], iter(()), progress=Progress(), types=[])


def create_database(session, ctx, stmt: A.CreateDatabase) -> Result:
    check_database_name(stmt)
    if stmt.or_replace:
        ctx.catalog.replace_database(stmt.name)
    else:
        ctx.catalog.create_database(stmt.name, stmt.if_not_exists)
    return empty_result()


def drop_database(session, ctx, stmt: A.DropDatabase) -> Result:
    check_database_name(stmt)
    ctx.catalog.drop_database(stmt.name, stmt.if_exists)
    return empty_result()


def check_catalog(name: str | None, pos=None) -> None:
    """UnknownCatalog (1119) unless `name` (a catalog written before a database) is the one
    catalog, `default`; None (none written) passes."""
    if name is not None and name.lower() != "default":
        raise UnknownCatalog(f"Unknown catalog '{name}'", position=pos)


def check_database_name(stmt) -> None:
    """CREATE / DROP DATABASE [catalog.]db: 1119 for a catalog other than `default` (the only
    one); DROP of a system database: 1002 (they are not stored)."""
    check_catalog(stmt.catalog, stmt.pos)
    if isinstance(stmt, A.DropDatabase) and stmt.name.lower() in VIRTUAL_DATABASES:
        raise Unimplemented(f"Cannot drop the system database `{stmt.name}`", position=stmt.pos)


def ident_quoter(session):
    """A function writing a name as SHOW CREATE TABLE writes it for `session` (Databend's
    display_ident): quoted when it would not read back as itself unquoted (a character other
    than letters, digits, `_`, `$`, a leading digit, or an upper-case letter while quoted names
    keep their case), with `"`, or a backquote in the MySQL dialect."""
    mark = "`" if session.setting("sql_dialect").lower() == "mysql" else '"'
    keep_case = session.setting("quoted_ident_case_sensitive") not in ("0", 0)

    def quote(name: str) -> str:
        if (keep_case and name != name.lower()) or _needs_quote(name):
            return mark + name.replace(mark, mark + mark) + mark
        return name

    return quote


def _needs_quote(name: str) -> bool:
    if name == "~":  # a stage's name, never quoted
        return False
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return True
    return any(not (c.isalnum() or c in "_$") for c in name[1:])


# column names Databend reserves for its internal and pseudo columns (schema.rs INTERNAL_COLUMNS)
INTERNAL_COLUMNS = frozenset({
    "_row_id", "_snapshot_name", "_segment_name", "_block_name", "_base_row_id", "_base_block_ids",
    "_search_matched", "_search_score", "_vector_score", "change$action", "change$is_update", "change$row_id",
    "_predicate", "_origin_version", "_origin_block_id", "_origin_block_row_num", "metadata$filename",
    "metadata$file_row_number", "metadata$file_path", "metadata$file_basename", "metadata$file_content_key",
    "metadata$file_last_modified",
})
TABLE_WITH_INTERNAL_COLUMN_NAME = 1110


def check_column_name(name: str, pos=None) -> None:
    """1110 for a column named as one of Databend's internal columns (CREATE TABLE, ADD and
    RENAME COLUMN refuse them)."""
    if name in INTERNAL_COLUMNS:
        raise EngineError(f"Cannot create table has column with the same name as internal column: {name}",
                          code=TABLE_WITH_INTERNAL_COLUMN_NAME, position=pos)


def cluster_by_text(keys) -> str:
    """CLUSTER BY keys as system.tables and SHOW CREATE TABLE show them: '(a, "col 1")' (names
    quoted where needed, so the text parses back: engine.statements.cluster_keys)."""
    printer = ViewTextPrinter()
    return "(" + ", ".join(printer.text(k) for k in keys) + ")" if keys else ""


def table_options(stmt: A.CreateTable) -> dict:
    """The Table fields CREATE TABLE's options set (besides COMMENT)."""
    return {"cluster_by": cluster_by_text(stmt.cluster_by), "transient": stmt.transient,
            "engine": "MEMORY" if stmt.engine == "memory" else "FUSE",
            "options": stored_options(stmt.engine, stmt.options)}


def create_table_like(ctx, stmt: A.CreateTable, database: str, name: str, catalog) -> Result:
    """CREATE [OR REPLACE] TABLE t2 LIKE t: t's columns (types, defaults, comments), no rows;
    as Databend, neither t's CLUSTER BY nor its COMMENT."""
    source_db, source_name = ctx.resolve_table_name(stmt.like)
    if is_virtual_database(source_db):  # a system table's columns, as Databend copies them too
        columns = [TableColumn(n, t) for n, t in virtual_table(source_db, source_name, stmt.pos).columns]
    else:
        try:
            source = ctx.catalog.table(source_db, source_name, stmt.pos)
        except UnknownTable:
            raise UnknownTable(f"Unknown table '{source_name}'", position=stmt.pos) from None
        columns = [TableColumn(c.name, c.type, c.default, c.default_sql, c.comment) for c in source.columns]
    table = Table(database, name, columns, comment=stmt.comment or "", **table_options(stmt))
    catalog.add_table(table, stmt.if_not_exists, stmt.pos, replace=stmt.or_replace)
    return empty_result()


def undrop_table(session, ctx, stmt: A.UndropTable) -> Result:
    database, name = ctx.resolve_table_name(stmt.name)
    catalog = ctx.catalog
    tables = catalog.database(database)
    if any(key.lower() == name.lower() for key in tables) or catalog.view(database, name) is not None:
        raise EngineError(f"Undrop Table '{name}' already exists", code=UNDROP_TABLE_ALREADY_EXISTS,
                          position=stmt.pos)
    if catalog.undrop_table(database, name) is None:
        raise EngineError(f"Undrop Table '{name}' has no table id list", code=UNDROP_TABLE_HAS_NO_HISTORY,
                          position=stmt.pos)
    return empty_result()


def rename_table(ctx, name_parts, new_parts, if_exists: bool, pos) -> Result:
    """RENAME TABLE a TO b and ALTER TABLE a RENAME TO b: within one database, as Databend."""
    catalog = ctx.catalog
    database, name = ctx.resolve_table_name(name_parts)
    new_database, new_name = ctx.resolve_table_name(new_parts)
    if len(new_parts) == 1:
        new_database = database
    if new_database != database:
        raise BadArguments("Rename table not allow modify catalog or database", position=pos)
    view = catalog.view(database, name)
    if view is not None:  # RENAME TABLE renames a view too (dbt renames its new views so)
        if _name_taken(catalog, database, new_name, view):
            raise TableAlreadyExists(f"Table '{new_name}' already exists", position=pos)
        catalog.rename_view(view, new_name)
        return empty_result()
    try:
        table = catalog.table(database, name, pos)
    except UnknownTable:
        if if_exists:
            return empty_result()
        raise UnknownTable(f"Unknown table '{name}'", position=pos) from None
    if _name_taken(catalog, database, new_name, table):
        raise TableAlreadyExists(f"Table '{new_name}' already exists", position=pos)
    catalog.swap_table(table, copy_table(table, name=new_name))
    return empty_result()


def swap_tables(ctx, table: Table, action) -> Result:
    """ALTER TABLE a SWAP WITH b: the two tables (of one database) exchange their names, each
    keeping its columns and rows; done as three renames within this step (one log record)."""
    catalog = ctx.catalog
    database, other_name = ctx.resolve_table_name(action.other)
    if len(action.other) == 1:
        database = table.database
    if database != table.database:
        raise BadArguments("SWAP WITH needs two tables of one database", position=action.pos)
    try:
        other = catalog.table(database, other_name, action.pos)
    except UnknownTable:
        raise UnknownTable(f"Unknown table '{other_name}'", position=action.pos) from None
    if other is table:
        return empty_result()
    name, other_name = table.name, other.name
    parked = copy_table(table, name=name + "\x00swap")  # a name no SQL can write
    catalog.swap_table(table, parked)
    catalog.swap_table(other, copy_table(other, name=name))
    catalog.swap_table(parked, copy_table(parked, name=other_name))
    return empty_result()


def _name_taken(catalog, database: str, name: str, renamed) -> bool:
    """Whether a table or view other than `renamed` is called `name` in `database`."""
    tables = catalog.database(database)
    clash = next((t for key, t in tables.items() if key.lower() == name.lower()), None)
    view = catalog.view(database, name)
    return (clash is not None and clash is not renamed) or (view is not None and view is not renamed)


def run_rename_table(session, ctx, stmt: A.RenameTable) -> Result:
    return rename_table(ctx, stmt.name, stmt.new_name, stmt.if_exists, stmt.pos)


def copy_table(table: Table, **changes) -> Table:
    """A new version of `table` (same id, creation time and rows unless `changes` say otherwise);
    the old object stays as it was for the queries still reading it. Every field is carried over
    by construction (new ones too, e.g. COPY's load history: N7); the mutable ones are copied so
    the versions share nothing they change in place; the recorder comes with entering the catalog."""
    fields = {
        "has_null": list(table.has_null), "has_negative": list(table.has_negative),
        "copied_files": dict(table.copied_files), "insert_plans": {}, "recorder": None,
    }
    fields.update(changes)
    new = dataclasses.replace(table, **fields)
    if "columns" not in changes:  # the columns list is the version's own too
        new.columns = list(table.columns)
    return new
