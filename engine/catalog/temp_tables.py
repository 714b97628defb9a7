"""Temporary tables as Databend keeps them: a client session's own tables (CREATE TEMP TABLE),
which shadow the shared tables of the same name for that session, are invisible to every other
session, and are gone with the session.

A `TempTables` container holds one client session's temporary tables; an engine Session has a
private one by default, and a server attaches the client session's container to each request's
Session (`session.temp_tables = container`). While the container holds a table, a statement's
catalog is a `SessionCatalog`: the shared catalog seen through the container, which it asks first.
Temporary tables have no recorder: nothing about them reaches the data directory's log or
checkpoints (a restart loses them, by design), and a statement that writes only them waits for no
fsync. Their rows count against the server's memory budget (engine.core.memory) like a running
query's, charged at the commit point before any change (MemoryExceedsLimit, 2411, changes nothing),
and are released when a table is dropped or the container is emptied or freed."""

from __future__ import annotations

import datetime
import itertools
import weakref

from engine.core.errors import BadArguments, TableAlreadyExists
from engine.core.memory import QueryMemory
from engine.types import sqltype as T
from grammar import ast as A

# ids of temporary tables: apart from the catalog's (which a data directory persists) and the
# virtual tables' (1 << 62)
_TEMP_TABLE_IDS = itertools.count(1 << 61)


def _find(tables: dict, name: str):
    found = tables.get(name)
    if found is None:
        lowered = name.lower()
        found = next((t for key, t in tables.items() if key.lower() == lowered), None)
    return found


class TempTables:
    """One client session's temporary tables: database -> name -> Table, and the memory they hold.
    `session_id` names the client session in system.temporary_tables (a server sets it)."""

    def __init__(self, session_id: str | None = None):
        self.databases: dict[str, dict] = {}
        self.session_id = session_id
        self._charged: dict = {}  # Table -> bytes charged for its rows
        self._memory: QueryMemory | None = None

    def is_empty(self) -> bool:
        return not self._charged

    def tables(self):
        """(database, table) of every temporary table, sorted."""
        for database in sorted(self.databases):
            tables = self.databases[database]
            for name in sorted(tables):
                yield database, tables[name]

    def table(self, database: str, name: str):
        tables = self.databases.get(database)
        return _find(tables, name) if tables else None

    def holds(self, table) -> bool:
        """Whether `table` is the current version of one of the container's tables."""
        return table in self._charged

    def add(self, table, if_not_exists: bool, pos, replace: bool, server_memory) -> bool:
        """Add `table` (its rows charged first), in place of the one of that name with `replace`;
        TableAlreadyExists (2302) or False (`if_not_exists`) when the name is taken."""
        tables = self.databases.setdefault(table.database, {})
        existing = _find(tables, table.name)
        if existing is not None and not replace:
            if if_not_exists:
                return False
            raise TableAlreadyExists(f"Table '{table.name}' already exists", position=pos)
        self.charge(table, table.data.estimated_bytes(), server_memory)
        if existing is not None:
            self.remove(existing)
            tables = self.databases.setdefault(table.database, {})
        table.table_id = next(_TEMP_TABLE_IDS)
        table.temporary = self
        table.recorder = None
        tables[table.name] = table
        return True

    def remove(self, table) -> None:
        """Drop `table`: gone for good (no UNDROP), its memory released."""
        tables = self.databases.get(table.database, {})
        if tables.get(table.name) is table:
            del tables[table.name]
            if not tables:
                del self.databases[table.database]
        self._release(table)

    def swap(self, old, new) -> None:
        """`new` (ALTER TABLE's or RENAME's new version) in place of `old`; its charge moves along
        (commit_version charged the new rows first)."""
        tables = self.databases[old.database]
        del tables[old.name]
        self.databases.setdefault(new.database, {})[new.name] = new
        new.temporary = self
        new.recorder = None
        if new not in self._charged:
            self._charged[new] = self._charged.get(old, 0)
        self._charged.pop(old, None)

    def drop_database(self, database: str) -> None:
        for table in list(self.databases.get(database, {}).values()):
            self.remove(table)

    def drop_all(self) -> None:
        """Drop every table and release their memory (the client session ended)."""
        for _, table in list(self.tables()):
            table.data = table.data.empty_like()
        self.databases.clear()
        self._charged.clear()
        if self._memory is not None:
            self._memory.release()

    def charge(self, table, nbytes: int, server_memory) -> None:
        """Count `nbytes` as what `table`'s rows hold (more or less than before), or raise
        MemoryExceedsLimit (2411) and change nothing."""
        memory = self._memory
        if memory is None:
            memory = self._memory = QueryMemory(server_memory, 0)
            weakref.finalize(self, memory.release)  # a container nobody holds gives its memory back
        before = self._charged.get(table, 0)
        if nbytes > before:
            memory.charge(nbytes - before)
        else:
            memory.release(before - nbytes)
        self._charged[table] = nbytes

    def _release(self, table) -> None:
        nbytes = self._charged.pop(table, 0)
        if self._memory is not None:
            self._memory.release(nbytes)

    def charged_bytes(self, table) -> int:
        return self._charged.get(table, 0)

    @property
    def held_bytes(self) -> int:
        return self._memory.held if self._memory is not None else 0


def charge_temporary(server_memory, changes) -> None:
    """Charge each (table, bytes its rows will hold) whose table is temporary, all or none (2411)."""
    done = []
    try:
        for table, nbytes in changes:
            owner = table.temporary
            if owner is not None and owner.holds(table):
                done.append((owner, table, owner.charged_bytes(table)))
                owner.charge(table, nbytes, server_memory)
    except BaseException:
        for owner, table, before in done:
            owner.charge(table, before, server_memory)
        raise


class SessionCatalog:
    """The shared catalog as a session with temporary tables sees it: a temporary table first,
    then the shared catalog's. With `creating`, tables added go to the container (CREATE TEMP
    TABLE) and name checks see only its tables."""

    def __init__(self, shared, temps: TempTables, creating: bool = False, server_memory=None):
        self.shared = shared
        self.temps = temps
        self.creating = creating
        self.server_memory = server_memory

    def temp_table(self, database: str, name: str):
        return self.temps.table(database, name)

    def table(self, database: str, name: str, pos=None):
        table = self.temps.table(database, name)
        return table if table is not None else self.shared.table(database, name, pos)

    def view(self, database: str, name: str):
        if self.creating or self.temps.table(database, name) is not None:
            return None  # a temporary table shadows a view of its name
        return self.shared.view(database, name)

    def database(self, name: str) -> dict:
        """The tables of database `name` the session sees (UnknownDatabase, 1003, for none)."""
        shared = self.shared.database(name)
        temps = self.temps.databases.get(name)
        if self.creating:
            return temps or {}
        return {**shared, **temps} if temps else shared

    @property
    def databases(self):
        if self.creating:
            return {name: self.temps.databases.get(name, {}) for name in self.shared.databases}
        return self.shared.databases

    def add_table(self, table, if_not_exists: bool, pos=None, replace: bool = False) -> bool:
        if self.creating:
            self.shared.database(table.database)  # UnknownDatabase (1003) when there is none
            return self.temps.add(table, if_not_exists, pos, replace, self.server_memory)
        return self.shared.add_table(table, if_not_exists, pos, replace)

    def drop_table(self, database: str, name: str, if_exists: bool, pos=None, purge: bool = False) -> None:
        table = self.temps.table(database, name)
        if table is None:
            self.shared.drop_table(database, name, if_exists, pos, purge=purge)
        else:
            self.temps.remove(table)

    def swap_table(self, old, new) -> None:
        if self.temps.holds(old):
            self.temps.swap(old, new)
        else:
            self.shared.swap_table(old, new)

    def drop_database(self, name: str, if_exists: bool) -> None:
        self.shared.drop_database(name, if_exists)
        self.temps.drop_database(name)

    def is_current(self, database: str, table) -> bool:
        if table.temporary is not None:
            return self.temps.holds(table) and self.temps.table(database, table.name) is table
        return self.shared.databases.get(database, {}).get(table.name) is table

    def __getattr__(self, name):
        return getattr(self.shared, name)


def is_temp_table(catalog, database: str, name: str) -> bool:
    """Whether `database`.`name` is one of the session's temporary tables in `catalog` (a
    statement's catalog: shared, SessionCatalog, or a transaction's view of either)."""
    find = getattr(catalog, "temp_table", None)
    return find is not None and find(database, name) is not None


def session_catalog(session, shared, creating: bool = False):
    """The catalog a statement of `session` sees outside a transaction."""
    temps = session.temp_tables
    if temps is None or (temps.is_empty() and not creating):
        return shared
    return SessionCatalog(shared, temps, creating, session.db.memory)


def creating_catalog(ctx, stmt):
    """The catalog CREATE TEMP TABLE adds its table to: the session's container (made when a
    server attached none), over the statement's catalog; 1006 for an engine other than FUSE or
    MEMORY, as Databend."""
    if stmt.engine not in (None, "fuse", "memory"):
        raise BadArguments("Temporary table is only supported for FUSE and MEMORY engine", position=stmt.pos)
    session = ctx.session
    if session.temp_tables is None:
        session.temp_tables = TempTables()
    return SessionCatalog(ctx.catalog, session.temp_tables, True, session.db.memory)


def _utc(moment: datetime.datetime) -> datetime.datetime:
    """An aware instant as a Timestamp value (naive UTC)."""
    return moment.astimezone(datetime.UTC).replace(tzinfo=None)


# system.temporary_tables as current Databend describes it
TEMPORARY_TABLES_COLUMNS = [
    ("database", T.STRING), ("name", T.STRING), ("table_id", T.UINT64), ("engine", T.STRING), ("user", T.STRING),
    ("session_id", T.STRING), ("session_type", T.STRING), ("is_current_session", T.BOOLEAN),
    ("created_on", T.TIMESTAMP), ("updated_on", T.TIMESTAMP), ("compressed_data_bytes", T.UINT64),
    ("index_data_bytes", T.UINT64), ("num_rows", T.UINT64), ("num_segments", T.UINT64.as_nullable(True)),
    ("num_blocks", T.UINT64.as_nullable(True)), ("node", T.STRING),
]


def temporary_tables_rows(ctx) -> list[tuple]:
    """system.temporary_tables: the session's own temporary tables (is_current_session true; the
    tables of other sessions are not listed). num_segments / num_blocks are NULL: the engine
    keeps no blocks."""
    session = ctx.session
    temps = session.temp_tables
    if temps is None:
        return []
    session_id = temps.session_id or session.connection_id
    session_type = "HTTPQuery" if temps.session_id else "Local"
    return [(database, t.name, t.table_id, t.engine, session.user, session_id, session_type, True,
             _utc(t.created_on), _utc(t.created_on), temps.charged_bytes(t), 0, len(t.data), None, None, "")
            for database, t in temps.tables()]


def _written_tables(stmt) -> tuple:
    """The names of the tables a write statement changes; () for other statements (and for
    those that change more than tables: a load from a stage keeps a load history or purges)."""
    if isinstance(stmt, A.Insert | A.Replace):
        return () if stmt.stage is not None else (stmt.table,)
    if isinstance(stmt, A.Update | A.Delete | A.Merge):
        return (stmt.table,)
    if isinstance(stmt, A.TruncateTable | A.DropTable | A.AlterTable | A.RenameTable):
        return (stmt.name,)
    if isinstance(stmt, A.InsertMulti):
        targets = [t for _, intos in stmt.branches for t in intos] + list(stmt.else_)
        return tuple(t.table for t in targets)
    return ()


def writes_only_temporary(session, stmt) -> bool:
    """Whether `stmt` (not yet run) changes nothing but the session's temporary tables: it is then
    not logged, and a server does not wait for an fsync."""
    if isinstance(stmt, A.CreateTable):
        return stmt.temporary
    temps = session.temp_tables
    if temps is None or temps.is_empty():
        return False
    written = _written_tables(stmt)
    return bool(written) and all(temps.table(*_resolved(session, parts)) is not None for parts in written)


def _resolved(session, parts: tuple) -> tuple[str, str]:
    return (session.database, parts[0]) if len(parts) == 1 else (parts[-2], parts[-1])
