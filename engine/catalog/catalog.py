"""The catalog: databases -> tables (columns, and their rows in engine.catalog.table_storage's
versions) and views, and the last dropped version of each table name (for UNDROP TABLE)."""

from __future__ import annotations

import datetime
import math
import os
import threading
from dataclasses import dataclass, field
from operator import itemgetter

from engine.catalog.column_data import transposed
from engine.catalog.routines import Routines
from engine.catalog.table_storage import Rewrite, TableData, table_data
from engine.core.errors import (
    TABLE_ENGINE_NOT_SUPPORTED,
    UNIMPLEMENTED,
    VIEW_ALREADY_EXISTS,
    DatabaseAlreadyExists,
    EngineError,
    TableAlreadyExists,
    Unimplemented,
    UnknownDatabase,
    UnknownTable,
)
from engine.types.sqltype import SqlType


@dataclass(slots=True)
class TableColumn:
    name: str
    type: SqlType
    default: object = None  # a bound constant expression source (AST) or None
    default_sql: str | None = None
    comment: str = ""


def _holds_nan(values) -> bool:
    """Whether `values()` (an iterator of one column's values) holds a NaN: a C-level float sum
    (NaN only with a NaN, or with both infinities in; filter drops NULLs and zeros), an isnan
    scan only when it is NaN."""
    total = sum(filter(None, values()))
    return total != total and any(map(math.isnan, filter(None, values())))


@dataclass(eq=False, slots=True)
class Table:
    """A table's definition and its current contents, `data` (engine.catalog.table_storage): a
    version that only ever grows. A scan remembers the version and the row count it saw at start
    (a snapshot); TRUNCATE, DROP, UPDATE and DELETE put a new version in its place instead of
    changing the old one. Rows enter only through `append` / `append_columns` and change only
    through `replace` (the recorder hears of both)."""

    database: str
    name: str
    columns: list[TableColumn]
    data: TableData = None  # an empty version of the storage new tables get when not given
    engine: str = "FUSE"
    has_null: list[bool] = field(default_factory=list)  # per column: a NULL was ever stored
    # per column: a negative integer was ever stored (lets MOD / DIV of such a column skip the
    # sign handling of truncated division)
    has_negative: list[bool] = field(default_factory=list)
    int_positions: tuple = ()  # positions of the integer columns (set from `columns`)
    float_positions: tuple = ()  # positions of the float columns (set from `columns`)
    # per column: the rows hold no NaN (float columns; True for the others), for the current row
    # list: a sort of such a column needs no NaN-aware key. A tuple, replaced whole (never changed
    # in place), so a copy of the table (a transaction's private one) shares nothing mutable
    nan_free: tuple | None = None
    insert_plans: dict = field(default_factory=dict)  # written column positions -> converters
    table_id: int = 0  # given by the catalog when the table is added
    created_on: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    comment: str = ""
    # COPY INTO's load history: (user, stage, path) -> the loaded file's last_modified
    copied_files: dict = field(default_factory=dict)
    cluster_by: str = ""  # CLUSTER BY keys as SHOW CREATE TABLE writes them: '(a, b)', or ''
    transient: bool = False
    # told of every change of the rows (engine.storage.journal's recorder when the database persists;
    # None for tables outside the catalog: a transaction's private copy, a recursive CTE's work)
    recorder: object = None
    # the engine.catalog.temp_tables.TempTables holding a temporary table (CREATE TEMP TABLE), else None
    temporary: object = None
    # CHECK constraints: name -> the expression's SQL text (engine.statements.constraints); a
    # new version gets a new dict, never a changed one
    constraints: dict = field(default_factory=dict)
    # table options as CREATE TABLE wrote them (lower-case name -> value text, Fuse's
    # enable_auto_analyze added), shown by SHOW CREATE TABLE when hide_options_in_show_create_table
    # is 0; a new version gets a new dict, never a changed one
    options: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.data is None:
            self.data = table_data([c.type for c in self.columns])
        if not self.has_null:
            self.has_null = [False] * len(self.columns)
        if not self.has_negative:
            self.has_negative = [False] * len(self.columns)
        self.int_positions = tuple(i for i, c in enumerate(self.columns) if c.type.is_int)
        self.float_positions = tuple(i for i, c in enumerate(self.columns) if c.type.is_float)
        if self.nan_free is None or len(self.nan_free) != len(self.columns):
            self.nan_free = self._nan_free_of(self.data)

    def append(self, rows: list[tuple], known: tuple[list, list] | None = None) -> None:
        """Append rows (already converted); the only way rows enter a table. `known` is, when
        the caller knows them, per column whether the rows hold a NULL and a negative integer
        (a bulk load learns them while converting, a COMMIT from its private copy): the rows
        are then not scanned for them."""
        if known is None and len(rows) > 1 and self.data.columnar:
            # transposed once: the flags are then scanned column by column (`None in list`, no
            # itemgetter a row) and the storage takes the same lists
            self.append_columns(transposed(rows, len(self.columns)), len(rows))
            return
        if known is not None:
            self.note_flags(known)
            self._note_nans(rows)
        else:
            self.scan_flags(rows)
        self.data.append_rows(rows)
        if self.recorder is not None:
            self.recorder.appended(self, rows)

    def append_columns(self, columns: list, count: int, known: tuple[list, list] | None = None) -> None:
        """Append `count` rows given column by column (one list per table column), as `append`:
        the flags are found column by column, and the storage takes the columns whole."""
        if len(columns) != len(self.columns):
            raise ValueError(f"{len(columns)} columns for a table of {len(self.columns)}")
        if known is not None:
            self.note_flags(known)
        else:
            self._scan_column_flags(columns)
        floats = [i for i in self.float_positions if self.nan_free[i]
                  and _holds_nan(lambda i=i: iter(columns[i]))]
        if floats:
            self.nan_free = tuple(free and i not in floats for i, free in enumerate(self.nan_free))
        data = self.data
        data.append_columns(columns, count)
        if self.recorder is not None and count:  # the log reads the new rows' range of the version
            self.recorder.appended_range(self, data, len(data) - count, len(data))

    def append_version(self, data: TableData, known: tuple[list, list]) -> None:
        """Append every row of `data`, a version built for this table by a bulk writer (from
        `self.data.empty_like()`, handed over: never changed after), `known` as `append` takes
        it: the storage takes the columns whole, and the log encodes them from `data`."""
        count = len(data)
        if not count:
            return
        self.note_flags(known)
        floats = [i for i in self.float_positions if self.nan_free[i]
                  and _holds_nan(lambda i=i: data.column_iterator(i))]
        if floats:
            self.nan_free = tuple(free and i not in floats for i, free in enumerate(self.nan_free))
        self.data.append_version(data)
        if self.recorder is not None:
            self.recorder.appended_range(self, data, 0, count)

    def append_staged(self, staging, flags: tuple[list, list, list]) -> None:
        """Make the rows of a staged append (engine.catalog.staged_append, copied into the
        storage in earlier steps) the table's at once; `flags` per column: a NULL, a negative
        integer, a NaN among them (found in those steps too). The log encodes the writer's rows."""
        nulls, negatives, nans = flags
        self.note_flags((nulls, negatives))
        if any(nans):
            self.nan_free = tuple(free and not nan for free, nan in zip(self.nan_free, nans, strict=True))
        staging.publish()
        new = staging.new
        if self.recorder is not None:
            if isinstance(new, list):
                self.recorder.appended(self, new)
            else:
                self.recorder.appended_range(self, new, 0, len(new))

    def _scan_column_flags(self, columns: list) -> None:
        has_null, has_negative = self.has_null, self.has_negative
        for i, values in enumerate(columns):
            if not has_null[i] and self.columns[i].type.nullable and None in values:
                has_null[i] = True
        for i in self.int_positions:
            if not has_negative[i] and min(filter(None, columns[i]), default=0) < 0:
                has_negative[i] = True

    def note_flags(self, known: tuple[list, list]) -> None:
        """has_null / has_negative set where `known` (per column: a NULL, a negative integer)
        says so; they are cleared only by TRUNCATE (a flag may stay set: it only costs the
        generated code a check)."""
        for flags, seen in zip((self.has_null, self.has_negative), known, strict=True):
            for i, flag in enumerate(seen):
                if flag:
                    flags[i] = True

    def scan_flags(self, rows: list[tuple]) -> None:
        """has_null / has_negative / nan_free for `rows` entering the table, found by scanning them."""
        self._note_nans(rows)
        has_null = self.has_null
        if len(rows) == 1:
            row = rows[0]
            if None in row:
                for i, v in enumerate(row):
                    if v is None:
                        has_null[i] = True
        else:
            for i, flag in enumerate(has_null):
                # `in` over a C iterator: identity is checked first, no Python frame per row
                if not flag and self.columns[i].type.nullable and None in map(itemgetter(i), rows):
                    has_null[i] = True
        has_negative = self.has_negative
        for i in self.int_positions:
            if not has_negative[i]:
                if len(rows) == 1:
                    v = rows[0][i]
                    if v is not None and v < 0:
                        has_negative[i] = True
                # filter(None, ...) drops NULLs (and zeros, which do not matter here)
                elif min(filter(None, map(itemgetter(i), rows)), default=0) < 0:
                    has_negative[i] = True

    def replace(self, new: TableData, rewrite: Rewrite | None = None, added_nans: list | None = None) -> None:
        """Put a new version in place of the current one (UPDATE, DELETE, MERGE, REPLACE,
        TRUNCATE): the only way rows leave or change. The old version is never changed, so scans
        that hold it keep their snapshot. `rewrite`, when the new version was built by one from
        the current version, tells the log which rows were kept (only the new ones are written);
        `added_nans`, per column whether its added rows hold a NaN, when the writer found that
        in its steps (writers.note_added_nans)."""
        old = self.data
        if rewrite is not None and rewrite.old is old:  # the rows kept are old's: only new ones scanned
            self.nan_free = self._nan_free_rewritten(new, rewrite.added, added_nans)
        else:
            self.nan_free = self._nan_free_of(new)
        self.data = new
        if self.recorder is not None:
            self.recorder.replaced(self, old, new, rewrite)

    def replace_rows(self, new_rows: list[tuple]) -> None:
        """`replace` with a version holding `new_rows` (the list is handed over)."""
        self.replace(self.data.with_rows(new_rows))

    def restore(self, data: TableData, rescan: bool = True) -> None:
        """Put `data` in place as the current version without telling the recorder (the undo of
        a change the log did not take; recovery replaying the log, which keeps nan_free up to
        date from the new rows instead of a `rescan` of the whole version)."""
        self.data = data
        if rescan:
            self.nan_free = self._nan_free_of(data)

    def _note_nans(self, rows: list) -> None:
        """nan_free cleared for the float columns where `rows` hold a NaN."""
        floats = self.float_positions
        if not floats:
            return
        nan_free = self.nan_free
        if len(rows) == 1:  # a single-row INSERT: the values themselves (a NaN is unequal to itself)
            row = rows[0]
            for i in floats:  # a plain loop: the common case finds nothing and builds nothing
                v = row[i]
                if v != v:
                    break
            else:
                return
            found = [i for i in floats if nan_free[i] and row[i] != row[i]]
        else:
            found = [i for i in floats if nan_free[i]
                     and _holds_nan(lambda i=i: map(itemgetter(i), rows))]
        if found:
            self.nan_free = tuple(free and i not in found for i, free in enumerate(nan_free))

    def _nan_free_rewritten(self, new: TableData, added: list, added_nans: list | None) -> tuple:
        """nan_free of a version rewritten from the current one, which kept some of its rows
        and added `added`: a column free of NaN stays so unless an added row holds one (no
        scan of the kept rows: a DELETE's commit scans nothing), nor the added rows when
        `added_nans` says; the others are scanned whole (a NaN may have left)."""
        floats = self.float_positions
        nan_free = self.nan_free
        if added_nans is not None:
            return tuple(i not in floats or (not added_nans[i] if nan_free[i] else self._nan_free_of(new, i))
                         for i in range(len(self.columns)))
        return tuple(i not in floats or (not _holds_nan(lambda i=i: map(itemgetter(i), added))
                                         if nan_free[i] else self._nan_free_of(new, i))
                     for i in range(len(self.columns)))

    def _nan_free_of(self, data: TableData, column: int | None = None) -> tuple | bool:
        """nan_free of a whole version: each float column scanned (of one `column` when given)."""
        if column is not None:
            return not _holds_nan(lambda: data.column_iterator(column))
        floats = self.float_positions
        return tuple(i not in floats or not _holds_nan(lambda i=i: data.column_iterator(i))
                     for i in range(len(self.columns)))

    def column_index(self, name: str) -> int | None:
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        lowered = name.lower()
        for i, c in enumerate(self.columns):
            if c.name.lower() == lowered:
                return i
        return None

    def truncate(self) -> None:
        self.replace(self.data.empty_like())
        self.has_null = [False] * len(self.columns)
        self.has_negative = [False] * len(self.columns)


@dataclass(eq=False, slots=True)
class View:
    """A view: its query (planned afresh wherever the view is read, so it sees current data) and
    that query's text as SHOW CREATE TABLE and system.views give it."""

    database: str
    name: str
    query: object  # the query's syntax tree
    text: str
    table_id: int = 0
    created_on: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    updated_on: datetime.datetime | None = None
    engine: str = "VIEW"
    columns: list = field(default_factory=list)  # (name, SqlType) when it was created


def _find(items: dict, name: str):
    """items[name], else the entry whose name matches case-insensitively, else None."""
    found = items.get(name)
    if found is None:
        lowered = name.lower()
        for key, candidate in items.items():
            if key.lower() == lowered:
                return candidate
    return found


# Whether the catalog checks that it is used from its owner thread (the one that created it:
# the event loop's in a server). Off by default (a check per lookup); the test suite turns it
# on through QUERYHTTP_CHECK_THREAD=1 (tests/conftest.py), servers it starts included.
CHECK_OWNER_THREAD = os.environ.get("QUERYHTTP_CHECK_THREAD", "") not in ("", "0")


class WrongThread(AssertionError):
    """The catalog was used from a thread that does not own it (a bug: see engine/__init__.py)."""


# Databases whose tables the engine computes (engine.catalog.system); nothing can be created in them.
VIRTUAL_DATABASES = ("system", "information_schema")


class Catalog:
    def __init__(self):
        self.databases: dict[str, dict[str, Table]] = {"default": {}}
        self.views: dict[str, dict[str, View]] = {}  # database -> view name -> View
        # (database, table name) -> the last dropped version of that table, for UNDROP TABLE
        self.dropped: dict[tuple[str, str], Table] = {}
        self._next_table_id = 1
        # bumped by every change of the definitions (tables, views, databases): the plan cache's key
        self.version = 0
        # user functions, sequences and procedures (engine.catalog.routines): of no database
        self.routines = Routines()
        # told of tables entering the catalog with rows (engine.storage.durability's recorder), or None
        self.recorder = None
        # the only thread that may read or change the catalog (checked when CHECK_OWNER_THREAD)
        self.owner_thread = threading.get_ident()

    def check_thread(self) -> None:
        """Raise WrongThread unless the calling thread owns the catalog."""
        if threading.get_ident() != self.owner_thread:
            raise WrongThread(f"the catalog belongs to thread {self.owner_thread}, not to "
                              f"{threading.current_thread().name} ({threading.get_ident()})")

    def new_table_id(self) -> int:
        table_id = self._next_table_id
        self._next_table_id += 1
        return table_id

    def peek_table_id(self) -> int:
        """The id the next new table or view gets."""
        return self._next_table_id

    def reset_table_ids(self, next_id: int) -> None:
        self._next_table_id = next_id

    def _entered(self, table: Table, old_data: TableData | None) -> None:
        """`table` is in the catalog now (new, replacing or renamed): it reports its changes
        from here on, and rows it brought that `old_data` (None: nothing) did not hold are recorded."""
        recorder = self.recorder
        table.recorder = recorder
        if recorder is not None and table.data is not old_data:
            recorder.replaced(table, old_data if old_data is not None else TableData(), table.data)

    def view(self, database: str, name: str) -> View | None:
        if CHECK_OWNER_THREAD:
            self.check_thread()
        views = self.views.get(database)
        return _find(views, name) if views else None

    def add_view(self, view: View, pos=None) -> None:
        """Add (or replace, when one of that name exists) a view; a table of that name is an error."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        tables = self.database(view.database)
        if _find(tables, view.name) is not None:
            raise EngineError(f"'{view.name}' as view Already Exists", code=VIEW_ALREADY_EXISTS, position=pos)
        views = self.views.setdefault(view.database, {})
        old = _find(views, view.name)
        if old is not None:
            del views[old.name]
            view.table_id = old.table_id
            view.created_on = old.created_on
        else:
            view.table_id = self.new_table_id()
        views[view.name] = view

    def rename_view(self, view: View, new_name: str) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        views = self.views[view.database]
        del views[view.name]
        view.name = new_name
        views[new_name] = view

    def drop_view(self, database: str, name: str) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        view = self.view(database, name)
        if view is not None:
            del self.views[database][view.name]

    def has_database(self, name: str) -> bool:
        """A stored database, or one of the virtual ones (USE system is valid)."""
        if CHECK_OWNER_THREAD:
            self.check_thread()
        return name in self.databases or name in VIRTUAL_DATABASES

    def database(self, name: str) -> dict[str, Table]:
        if CHECK_OWNER_THREAD:
            self.check_thread()
        try:
            return self.databases[name]
        except KeyError:
            raise UnknownDatabase(f"Unknown database '{name}'") from None

    def create_database(self, name: str, if_not_exists: bool) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        if name in self.databases or name.lower() in VIRTUAL_DATABASES:
            if if_not_exists:
                return
            raise DatabaseAlreadyExists(f"Database '{name}' already exists")
        self.databases[name] = {}

    def replace_database(self, name: str) -> None:
        """CREATE OR REPLACE DATABASE: an empty database of that name, whatever was there."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if name.lower() in VIRTUAL_DATABASES:
            raise DatabaseAlreadyExists(f"Database '{name}' already exists")
        self.drop_database(name, True)
        self.databases[name] = {}

    def drop_database(self, name: str, if_exists: bool) -> None:
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        tables = self.databases.pop(name, None)
        if tables is None:
            if if_exists:
                return
            raise UnknownDatabase(f"Unknown database '{name}'")
        self.views.pop(name, None)
        for key in [k for k in self.dropped if k[0] == name]:
            del self.dropped[key]
        for table in tables.values():
            table.data = table.data.empty_like()
            table.recorder = None

    def table(self, database: str, name: str, pos=None) -> Table:
        if CHECK_OWNER_THREAD:
            self.check_thread()
        tables = self.databases.get(database)
        table = tables.get(name) if tables is not None else None
        if table is None and tables is not None:
            lowered = name.lower()
            for key, candidate in tables.items():
                if key.lower() == lowered:
                    table = candidate
                    break
        if table is None:
            if tables is not None and self.view(database, name) is not None:
                raise EngineError(f"The 'append_data' operation is not available for the table '{name}'. "
                                  f"Current table engine: 'VIEW'.", code=UNIMPLEMENTED, position=pos)
            if tables is None and database.lower() in VIRTUAL_DATABASES:
                raise Unimplemented(f"The operation is not available for the table `{database}`.`{name}`: "
                                    f"the {database.lower()} tables are read-only", position=pos)
            if tables is None:
                raise UnknownDatabase(f"Unknown database '{database}'", position=pos)
            raise UnknownTable(f"Unknown table `{database}`.`{name}` in catalog 'default'", position=pos)
        return table

    def add_table(self, table: Table, if_not_exists: bool, pos=None, replace: bool = False) -> bool:
        """Add a table (a new id); with `replace`, in place of the table of that name if any."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        tables = self.database(table.database)
        existing = _find(tables, table.name)
        if existing is not None and replace:
            del tables[existing.name]
            existing.data = existing.data.empty_like()
            existing.recorder = None  # a replaced version never logs again
        elif existing is not None or self.view(table.database, table.name) is not None:
            if if_not_exists:
                return False
            raise TableAlreadyExists(f"Table '{table.name}' already exists", position=pos)
        table.table_id = self.new_table_id()
        tables[table.name] = table
        self._entered(table, None)
        return True

    def swap_table(self, old: Table, new: Table) -> None:
        """Put `new` (ALTER TABLE's new version, maybe renamed) in place of `old`; scans already
        started keep reading `old` and its rows."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        del self.databases[old.database][old.name]
        self.databases[new.database][new.name] = new
        old.recorder = None  # a replaced version never logs again (N1)
        self._entered(new, old.data)

    def undrop_table(self, database: str, name: str) -> Table | None:
        """The last dropped version of `database`.`name` back in the catalog (None: none kept)."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        key = next((k for k in self.dropped if k[0] == database and k[1].lower() == name.lower()), None)
        if key is None:
            return None
        table = self.dropped.pop(key)
        self.database(database)[table.name] = table
        table.recorder = self.recorder
        return table

    def drop_table(self, database: str, name: str, if_exists: bool, pos=None, purge: bool = False) -> None:
        """Drop a table; it is kept for UNDROP TABLE unless `purge` (DROP TABLE ... ALL)."""
        self.version += 1  # plans made before are stale (engine.plan.plan_cache)
        if CHECK_OWNER_THREAD:
            self.check_thread()
        tables = self.databases.get(database)
        if tables is not None and _find(tables, name) is None and self.view(database, name) is not None:
            raise EngineError(f"{database}.{name} engine is VIEW that doesn't support drop, use `DROP VIEW "
                              f"{database}.{name}` instead", code=TABLE_ENGINE_NOT_SUPPORTED, position=pos)
        try:
            table = self.table(database, name, pos)
        except (UnknownTable, UnknownDatabase):
            if if_exists:
                return
            raise
        del self.databases[database][table.name]
        # kept (rows and all) as the last dropped version of its name, for UNDROP TABLE, which
        # gives it its recorder back; until then it never logs
        table.recorder = None
        if not purge:
            self.dropped[(database, table.name)] = table
