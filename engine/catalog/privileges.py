"""Which privilege each statement needs, checked when it binds (engine.catalog.users holds the grants).

`ctx.access` is None for an administrator (root, configured users, account_admin): nothing is
checked. Otherwise `check_statement` runs before a non-query statement's handler and
`check_read` wherever a FROM item names a table or view (the planner), each a few dict lookups.

Default-deny: every statement type has an entry in `_CHECKS` or in `NO_PRIVILEGE_NEEDED` (which
says why none is needed); `check_statement` refuses a type in neither (a test enumerates the
statement handlers against both). Named stages follow Databend: READ to read their files, WRITE
to change them, both to drop one, held through a grant on the stage or on *.*, or by the
stage's creator (its owner); a user's own stage `@~` needs nothing.
"""

from __future__ import annotations

from engine.catalog.stages import USER_STAGE, parse_location
from engine.catalog.temp_tables import is_temp_table
from engine.catalog.users import (
    ALTER,
    CREATE,
    DELETE,
    DROP,
    GRANT,
    INSERT,
    READ,
    SELECT,
    SUPER,
    UPDATE,
    WRITE,
    identity,
)
from engine.core.errors import PermissionDenied
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
        if is_temp_table(catalog, database, name):
            return  # the session's own temporary table: no privilege to check (as Databend)
        name = _stored_name(catalog, database, name) or name
    access.require(SELECT, database, name, pos)


def _table(ctx, access, parts, *privileges, pos=None) -> None:
    """The privileges on a table; a table that does not exist is left to the statement, which
    reports it unknown (as Databend, whose binder finds that first)."""
    database, name = ctx.resolve_table_name(parts)
    if is_temp_table(ctx.catalog, database, name):
        return  # the session's own temporary table (as Databend, which checks nothing on one)
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
    the tables its queries read are checked as they are planned). A statement type with no
    declared check is refused: a new statement is denied until it says what it needs."""
    access = ctx.access
    check = _CHECKS.get(type(stmt))
    if check is not None:
        check(ctx, access, stmt)
    elif type(stmt) not in NO_PRIVILEGE_NEEDED:
        raise PermissionDenied(f"Permission denied: {type(stmt).__name__} declares no privilege check, "
                               f"so user {identity(access.user)} may not run it",
                               position=getattr(stmt, "pos", None))


# ---------------------------------------------------------------- stages


def stage_owner_or_granted(access, stages, stage: str, privilege: int) -> bool:
    """Whether the user of `access` (None: an administrator) holds `privilege` on the stage:
    its own user stage, a stage it created, or through a grant (on the stage or *.*). A
    stage that does not exist passes: the statement reports it unknown."""
    if access is None or stage == USER_STAGE:
        return True
    named = stages.named.get(stage)
    return named is None or named.creator == access.user or access.allows_stage(privilege, stage)


def check_stage(ctx, stage: str, privilege: int, pos=None) -> None:
    """PermissionDenied (1063, Databend's text) unless the session may use the stage so."""
    access = ctx.access
    if not stage_owner_or_granted(access, ctx.session.db.stages, stage, privilege):
        access.require_stage(privilege, stage, pos)


def check_user_stage(db, user: str, stage: str, privilege: int) -> None:
    """PermissionDenied unless `user` may use the stage so, outside a statement (an upload)."""
    access = db.users.access(user)
    if not stage_owner_or_granted(access, db.stages, stage, privilege):
        access.require_stage(privilege, stage)


def stage_visible(access, stages, stage: str) -> bool:
    """SHOW STAGES and DESC STAGE show a stage its user may read or write (or owns)."""
    return (stage_owner_or_granted(access, stages, stage, READ)
            or stage_owner_or_granted(access, stages, stage, WRITE))


def _location_stage(text: str) -> str:
    return parse_location(text).stage


def _list_stage(ctx, access, stmt: A.ListStage):
    stage = _location_stage(stmt.location)
    if stmt.remove:  # REMOVE
        check_stage(ctx, stage, WRITE, stmt.pos)
    elif not stage_owner_or_granted(access, ctx.session.db.stages, stage, READ):
        # LIST is Databend's list_stage table function, whose refusal reads so
        raise PermissionDenied(f"Permission denied: privilege READ is required on stage {stage} for user "
                               f"{identity(access.user)}", position=stmt.pos)


def _presign(ctx, access, stmt: A.Presign):
    check_stage(ctx, _location_stage(stmt.location), WRITE if stmt.method == "UPLOAD" else READ, stmt.pos)


def _copy_into_table(ctx, access, stmt: A.CopyIntoTable):
    """INSERT on the table; READ on the stage read (a query's stages are checked as it is
    planned), and WRITE too with PURGE, which removes the loaded files."""
    if stmt.query is None:  # the stage first, as Databend checks them
        stage = _location_stage(stmt.location)
        check_stage(ctx, stage, READ, stmt.pos)
        if str(dict(stmt.options).get("purge", "false")).lower() in ("true", "1"):
            check_stage(ctx, stage, WRITE, stmt.pos)
    _table(ctx, access, stmt.table, INSERT, pos=stmt.pos)


def _create_stage(ctx, access, stmt: A.CreateStage):
    """CREATE [OR REPLACE] STAGE: SUPER on *.* through the current role, as Databend checks it;
    replacing a stage also needs WRITE on it (its files are dropped)."""
    session = ctx.session
    session.db.users.current_role_access(session.user, session.current_role()).require(SUPER, pos=stmt.pos)
    if stmt.or_replace:
        check_stage(ctx, stmt.name, WRITE, stmt.pos)


def _drop_stage_object(ctx, access, stmt: A.DropStageObject):
    if stmt.kind == "STAGE":
        check_stage(ctx, stmt.name, READ, stmt.pos)
        check_stage(ctx, stmt.name, WRITE, stmt.pos)
    else:  # FILE FORMAT
        access.require(SUPER, pos=stmt.pos)


def _show_stage_objects(ctx, access, stmt: A.ShowStageObjects):
    if stmt.kind == "FILE FORMATS":
        access.require(SUPER, pos=stmt.pos)
    elif stmt.kind != "STAGES" and not stage_visible(access, ctx.session.db.stages, stmt.name):
        check_stage(ctx, stmt.name, READ, stmt.pos)  # DESC STAGE; SHOW STAGES lists the visible


def _kill(ctx, access, stmt: A.Kill):
    """KILL: SUPER on *.* (Databend's rule), except for a statement of the user's own. Any other
    id is refused alike, whether it exists or not."""
    if access.allows(SUPER):
        return
    process = ctx.session.db.processes.find(stmt.object_id)
    if process is None or process.user != access.user:
        access.require(SUPER, pos=stmt.pos)


def _create_table(ctx, access, stmt: A.CreateTable):
    database, _ = ctx.resolve_table_name(stmt.name)
    if not stmt.temporary:  # a temporary table needs no CREATE on its database (as Databend)
        _database(ctx, access, database, CREATE, stmt.pos)
    if stmt.like is not None:
        _table(ctx, access, stmt.like, SELECT, pos=stmt.pos)


def _insert(ctx, access, stmt: A.Insert):
    _stage_source(ctx, stmt)
    privileges = (INSERT, DELETE) if stmt.overwrite else (INSERT,)
    _table(ctx, access, stmt.table, *privileges, pos=stmt.pos)


def _replace(ctx, access, stmt: A.Replace):
    _stage_source(ctx, stmt)
    _table(ctx, access, stmt.table, INSERT, DELETE, pos=stmt.pos)


def _stage_source(ctx, stmt) -> None:
    """`INSERT|REPLACE ... FROM @stage`: READ on the stage read, as COPY INTO <table> from it
    (and WRITE too with PURGE, which removes the loaded file)."""
    source = stmt.stage
    if source is None:
        return
    stage = _location_stage(source.location)
    check_stage(ctx, stage, READ, source.pos)
    if str(dict(source.options).get("purge", "false")).lower() in ("true", "1"):
        check_stage(ctx, stage, WRITE, source.pos)


def _insert_multi(ctx, access, stmt: A.InsertMulti):
    targets = [into for _, intos in stmt.branches for into in intos] + list(stmt.else_)
    for into in targets:
        _table(ctx, access, into.table, INSERT, pos=into.pos or stmt.pos)


def _alter_table(ctx, access, stmt: A.AlterTable):
    _table(ctx, access, stmt.name, ALTER, pos=stmt.pos)
    if isinstance(stmt.action, A.SwapTables):  # both tables change (Databend: owning both)
        _table(ctx, access, stmt.action.other, ALTER, pos=stmt.pos)


def _rename_table(ctx, access, stmt: A.RenameTable):
    if is_temp_table(ctx.catalog, *ctx.resolve_table_name(stmt.name)):
        return
    _table(ctx, access, stmt.name, ALTER, DROP, pos=stmt.pos)
    database, _ = ctx.resolve_table_name(stmt.new_name)
    _database(ctx, access, database, CREATE, stmt.pos)


def _create_view(ctx, access, stmt: A.CreateView):
    if stmt.alter:
        database, _ = ctx.resolve_table_name(stmt.name)
        _database(ctx, access, database, ALTER, stmt.pos)


def _copy_into_stage(ctx, access, stmt: A.CopyIntoStage):
    """WRITE on the stage written; SELECT on the table read (a query's as it is planned)."""
    check_stage(ctx, _location_stage(stmt.location), WRITE, stmt.pos)
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


def _create_function(ctx, access, stmt: A.CreateFunction):
    """CREATE FUNCTION: SUPER on *.* through the current role; ALTER FUNCTION: ALTER on *.*
    (Databend's rules)."""
    if stmt.alter:
        access.require(ALTER, pos=stmt.pos)
        return
    session = ctx.session
    session.db.users.current_role_access(session.user, session.current_role()).require(SUPER, pos=stmt.pos)


def _drop_function(ctx, access, stmt: A.DropFunction):
    """DROP FUNCTION: DROP on *.*; nothing for IF EXISTS of a function that is not there."""
    if stmt.if_exists and ctx.catalog.routines.function(stmt.name) is None:
        return
    access.require(DROP, pos=stmt.pos)


def _create_procedure(ctx, access, stmt: A.CreateProcedure):
    session = ctx.session
    session.db.users.current_role_access(session.user, session.current_role()).require(SUPER, pos=stmt.pos)


def _super(ctx, access, stmt):
    access.require(SUPER, pos=stmt.pos)


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
    A.Replace: _replace,
    A.Update: lambda ctx, access, stmt: _table(ctx, access, stmt.table, UPDATE, pos=stmt.pos),
    A.Delete: lambda ctx, access, stmt: _table(ctx, access, stmt.table, DELETE, pos=stmt.pos),
    A.Merge: lambda ctx, access, stmt: _table(ctx, access, stmt.table, INSERT, UPDATE, DELETE, pos=stmt.pos),
    A.CopyIntoTable: _copy_into_table,
    A.CopyIntoStage: _copy_into_stage,
    A.AlterTable: _alter_table,
    A.RenameTable: _rename_table,
    A.CreateView: _create_view,
    A.DropView: lambda ctx, access, stmt: _database(ctx, access, ctx.resolve_table_name(stmt.name)[0], DROP,
                                                    stmt.pos),
    A.Describe: _describe,
    # ALTER DATABASE: ALTER on *.* (Databend's rule for RENAME DATABASE; REFRESH CACHE asks none
    # there, but it names only databases the user could alter)
    A.AlterDatabase: lambda ctx, access, stmt: access.require(ALTER, pos=stmt.pos),
    A.Show: _show,
    A.SetVariable: _set_variable,
    A.UnsetGlobal: lambda ctx, access, stmt: access.require(SUPER, pos=stmt.pos),  # as SET GLOBAL
    A.CreateUser: _needs_grant,
    A.AlterUser: _needs_grant,
    A.DropUser: _needs_grant,
    # current Databend asks SUPER on *.* to describe any user, the session's own included
    A.DescribeUser: lambda ctx, access, stmt: access.require(SUPER, pos=stmt.pos),
    A.CreateRole: _needs_grant,
    A.DropRole: _needs_grant,
    A.AlterRole: lambda ctx, access, stmt: access.require(ALTER, pos=stmt.pos),  # Databend: ALTER on *.*
    A.GrantPrivileges: _needs_grant,
    A.GrantRole: _needs_grant,
    A.ListStage: _list_stage,
    A.Presign: _presign,
    A.CreateStage: _create_stage,
    A.DropStageObject: _drop_stage_object,
    A.ShowStageObjects: _show_stage_objects,
    # current Databend asks SUPER on *.* for every file format statement
    A.CreateFileFormat: lambda ctx, access, stmt: access.require(SUPER, pos=stmt.pos),
    A.Kill: _kill,
    A.CreateFunction: _create_function,
    A.DropFunction: _drop_function,
    # sequences: SUPER on *.* (Databend without its experimental sequence privileges)
    A.CreateSequence: _super,
    A.DropSequence: _super,
    A.DescribeSequence: _super,
    A.ShowRoutines: _super,
    # scripts: SUPER on *.* (the statements inside are checked one by one as they run)
    A.ExecuteImmediate: _super,
    # procedures: SUPER on *.* (Databend's rule for a role without procedure grants)
    A.CreateProcedure: _create_procedure,
    A.DropProcedure: _super,
    A.DescribeProcedure: _super,
    A.CallProcedure: _super,
}

# statement types that need no privilege, and why (default-deny: a type in neither this nor
# _CHECKS is refused)
NO_PRIVILEGE_NEEDED = {
    A.Explain: "EXPLAIN takes queries only; their tables and stages are checked as they are planned",
    A.SetRole: "SET ROLE chooses among the session's own roles (it checks the role is available)",
    A.ShowAccounts: "SHOW USERS and ROLES read what anyone may; SHOW GRANTS FOR another checks GRANT itself",
    A.TransactionStatement: "BEGIN, COMMIT and ROLLBACK change only the session; its writes are checked",
    A.UnsetVariable: "UNSET changes only the session's settings",
    A.SetSessionVariables: "SET VARIABLE changes only the session; the tables its query reads are checked as planned",
    A.UnsetSessionVariables: "UNSET VARIABLE changes only the session",
    A.ExistsTable: "EXISTS TABLE tells only whether a name is taken (Databend checks nothing)",
    A.UseDatabase: "USE changes only the session's current database; what it reads there is checked",
}
