"""Which privilege each statement needs, checked when it binds (engine.catalog.users holds the grants).

`ctx.access` is None for an administrator (root, configured users, account_admin): nothing is
checked. Otherwise `check_statement` runs before a non-query statement's handler and
`check_read` wherever a FROM item names a table or view (the planner), each a few dict lookups.
"""

from __future__ import annotations

from engine.catalog.users import (
    ALTER,
    CREATE,
    DELETE,
    DROP,
    GRANT,
    INSERT,
    SELECT,
    SUPER,
    UPDATE,
)
from grammar import ast as A

# system tables anyone may read (Databend's SYSTEM_TABLES_ALLOW_LIST); information_schema too
SYSTEM_TABLES_ANYONE_READS = frozenset({
    "catalogs", "columns", "databases", "databases_with_history", "dictionaries", "tables", "views",
    "tables_with_history", "views_with_history", "password_policies", "streams", "streams_terse",
    "virtual_columns", "users", "roles", "stages", "one", "processes", "user_functions",
    "procedures", "functions", "indexes",
})


def check_read(access, database: str, name: str, pos=None, catalog=None) -> None:
    """SELECT on a table or view a query reads (not on what a view reads in its turn); with
    `catalog`, a name written in another case is checked as the table's own name."""
    if access.allows(SELECT, database, name):
        return
    lowered = database.lower()
    if lowered == "information_schema" or (lowered == "system" and name.lower() in SYSTEM_TABLES_ANYONE_READS):
        return
    if catalog is not None:
        name = _stored_name(catalog, database, name) or name
    access.require(SELECT, database, name, pos)


def _table(ctx, access, parts, *privileges, pos=None) -> None:
    """The privileges on a table; a table that does not exist is left to the statement, which
    reports it unknown (as Databend, whose binder finds that first)."""
    database, name = ctx.resolve_table_name(parts)
    for privilege in privileges:
        if not access.allows(privilege, database, name):
            stored = _stored_name(ctx.catalog, database, name)
            if stored is not None:
                access.require(privilege, database, stored, pos)


def _stored_name(catalog, database: str, name: str) -> str | None:
    """The name of the table or view `name` (found whatever its case); None: there is none."""
    tables = catalog.databases.get(database)
    if tables is None:
        return None
    if name in tables:
        return name
    lowered = name.lower()
    for key in tables:
        if key.lower() == lowered:
            return key
    view = catalog.view(database, name)
    return view.name if view is not None else None


def _database(ctx, access, database: str, privilege: int, pos=None) -> None:
    """A privilege on a database; one that does not exist is left to the statement (unknown
    database, or nothing to do for IF EXISTS), as Databend."""
    if not access.allows(privilege, database) and database in ctx.catalog.databases:
        access.require(privilege, database, None, pos)


def check_statement(ctx, stmt) -> None:
    """PermissionDenied (1063) unless the session's user may run `stmt` (a non-query statement;
    the tables its queries read are checked as they are planned)."""
    access = ctx.access
    check = _CHECKS.get(type(stmt))
    if check is not None:
        check(ctx, access, stmt)


def _create_table(ctx, access, stmt: A.CreateTable):
    database, _ = ctx.resolve_table_name(stmt.name)
    _database(ctx, access, database, CREATE, stmt.pos)
    if stmt.like is not None:
        _table(ctx, access, stmt.like, SELECT, pos=stmt.pos)


def _insert(ctx, access, stmt: A.Insert):
    privileges = (INSERT, DELETE) if stmt.overwrite else (INSERT,)
    _table(ctx, access, stmt.table, *privileges, pos=stmt.pos)


def _insert_multi(ctx, access, stmt: A.InsertMulti):
    targets = [into for _, intos in stmt.branches for into in intos] + list(stmt.else_)
    for into in targets:
        _table(ctx, access, into.table, INSERT, pos=into.pos or stmt.pos)


def _alter_table(ctx, access, stmt: A.AlterTable):
    _table(ctx, access, stmt.name, ALTER, pos=stmt.pos)


def _rename_table(ctx, access, stmt: A.RenameTable):
    _table(ctx, access, stmt.name, ALTER, DROP, pos=stmt.pos)
    database, _ = ctx.resolve_table_name(stmt.new_name)
    _database(ctx, access, database, CREATE, stmt.pos)


def _create_view(ctx, access, stmt: A.CreateView):
    if stmt.alter:
        database, _ = ctx.resolve_table_name(stmt.name)
        _database(ctx, access, database, ALTER, stmt.pos)


def _copy_into_stage(ctx, access, stmt: A.CopyIntoStage):
    if stmt.table is not None:
        database, name = ctx.resolve_table_name(stmt.table)
        check_read(access, database, name, stmt.pos, ctx.catalog)


def _describe(ctx, access, stmt: A.Describe):
    database, name = ctx.resolve_table_name(stmt.table)
    check_read(access, database, name, stmt.pos, ctx.catalog)


def _show(ctx, access, stmt: A.Show):
    if stmt.table is not None:  # SHOW CREATE TABLE / VIEW, SHOW COLUMNS
        database, name = ctx.resolve_table_name(stmt.table)
        check_read(access, stmt.database or database, name, stmt.pos, ctx.catalog)


def _set_variable(ctx, access, stmt: A.SetVariable):
    if stmt.is_global:
        access.require(SUPER, pos=stmt.pos)


def _create_database(ctx, access, stmt: A.CreateDatabase):
    """CREATE DATABASE: CREATE on *.* through the current role alone, as Databend checks it."""
    session = ctx.session
    session.db.users.current_role_access(session.user, session.current_role()).require(CREATE, pos=stmt.pos)


def _needs_grant(ctx, access, stmt):
    access.require(GRANT, pos=stmt.pos)


_CHECKS = {
    A.CreateDatabase: _create_database,
    A.DropDatabase: lambda ctx, access, stmt: _database(ctx, access, stmt.name, DROP, stmt.pos),
    A.CreateTable: _create_table,
    A.DropTable: lambda ctx, access, stmt: _table(ctx, access, stmt.name, DROP, pos=stmt.pos),
    A.TruncateTable: lambda ctx, access, stmt: _table(ctx, access, stmt.name, DELETE, pos=stmt.pos),
    A.UndropTable: lambda ctx, access, stmt: _database(ctx, access, ctx.resolve_table_name(stmt.name)[0],
                                                       DROP, stmt.pos),
    A.Insert: _insert,
    A.InsertMulti: _insert_multi,
    A.Replace: lambda ctx, access, stmt: _table(ctx, access, stmt.table, INSERT, DELETE, pos=stmt.pos),
    A.Update: lambda ctx, access, stmt: _table(ctx, access, stmt.table, UPDATE, pos=stmt.pos),
    A.Delete: lambda ctx, access, stmt: _table(ctx, access, stmt.table, DELETE, pos=stmt.pos),
    A.Merge: lambda ctx, access, stmt: _table(ctx, access, stmt.table, INSERT, UPDATE, DELETE, pos=stmt.pos),
    A.CopyIntoTable: lambda ctx, access, stmt: _table(ctx, access, stmt.table, INSERT, pos=stmt.pos),
    A.CopyIntoStage: _copy_into_stage,
    A.AlterTable: _alter_table,
    A.RenameTable: _rename_table,
    A.CreateView: _create_view,
    A.DropView: lambda ctx, access, stmt: _database(ctx, access, ctx.resolve_table_name(stmt.name)[0], DROP,
                                                    stmt.pos),
    A.Describe: _describe,
    A.Show: _show,
    A.SetVariable: _set_variable,
    A.CreateUser: _needs_grant,
    A.AlterUser: _needs_grant,
    A.DropUser: _needs_grant,
    # current Databend asks SUPER on *.* to describe any user, the session's own included
    A.DescribeUser: lambda ctx, access, stmt: access.require(SUPER, pos=stmt.pos),
    A.CreateRole: _needs_grant,
    A.DropRole: _needs_grant,
    A.GrantPrivileges: _needs_grant,
    A.GrantRole: _needs_grant,
}
