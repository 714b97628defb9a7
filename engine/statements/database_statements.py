"""ALTER DATABASE [IF EXISTS] [catalog.]db RENAME TO / REFRESH CACHE, and EXISTS TABLE."""

from __future__ import annotations

from engine.catalog.catalog import VIRTUAL_DATABASES
from engine.core.errors import (
    DatabaseAlreadyExists,
    Unimplemented,
    UnknownDatabase,
)
from engine.exec.result import Column, Progress, Result
from engine.statements.ddl import check_catalog, copy_table, empty_result
from engine.types import sqltype as T
from grammar import ast as A


def _refuse_virtual(name: str, pos) -> None:
    """The system and information_schema databases cannot be renamed (1002)."""
    if name.lower() in VIRTUAL_DATABASES:
        raise Unimplemented(f"Cannot rename the system database `{name}`", position=pos)


def alter_database(session, ctx, stmt: A.AlterDatabase) -> Result:
    """RENAME TO: the database's tables, views and dropped tables move under the new name (each
    table a new version carrying its rows, swapped in as ALTER TABLE ... RENAME does);
    REFRESH CACHE: nothing to refresh (no external catalogs)."""
    check_catalog(stmt.catalog, stmt.pos)
    catalog = ctx.catalog
    _refuse_virtual(stmt.name, stmt.pos)
    if stmt.new_name is None:  # REFRESH CACHE
        if not catalog.has_database(stmt.name) and not stmt.if_exists:
            raise UnknownDatabase(f"Unknown database '{stmt.name}'", position=stmt.pos)
        return empty_result()
    if stmt.name not in catalog.databases:
        if stmt.if_exists:
            return empty_result()
        raise UnknownDatabase(f"Unknown database '{stmt.name}'", position=stmt.pos)
    new_name = stmt.new_name
    _refuse_virtual(new_name, stmt.pos)
    if new_name in catalog.databases:
        raise DatabaseAlreadyExists(f"Database '{new_name}' already exists", position=stmt.pos)
    if new_name == stmt.name:
        return empty_result()
    rename_database(catalog, stmt.name, new_name)
    if session.database == stmt.name:  # the session follows its database, as USE would
        session.database = new_name
    return empty_result()


def rename_database(catalog, old: str, new: str) -> None:
    """Move database `old` with all it holds to the name `new` (which is free)."""
    catalog.create_database(new, False)
    for table in list(catalog.database(old).values()):
        catalog.swap_table(table, copy_table(table, database=new))
    views = catalog.views.pop(old, None)
    if views:
        for view in views.values():
            view.database = new
        catalog.views[new] = views
    for key in [k for k in catalog.dropped if k[0] == old]:
        table = catalog.dropped.pop(key)
        table.database = new
        catalog.dropped[(new, key[1])] = table
    catalog.drop_database(old, False)  # empty now: nothing of it is lost


def exists_table(session, ctx, stmt: A.ExistsTable) -> Result:
    """EXISTS TABLE [db.]t: 1 when the table or view exists, else 0 (an unknown database: 0)."""
    database, name = ctx.resolve_table_name(stmt.name)
    catalog = ctx.catalog
    tables = catalog.databases.get(database)
    found = tables is not None and (any(key.lower() == name.lower() for key in tables)
                                    or catalog.view(database, name) is not None)
    return Result([Column("result", T.UINT8.display())], iter([[(int(found),)]]), progress=Progress(),
                  types=[T.UINT8])


DATABASE_HANDLERS = {
    A.AlterDatabase: alter_database,
    A.ExistsTable: exists_table,
}
