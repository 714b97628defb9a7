"""The catalog: databases -> tables -> columns, and each table's row storage (grow-only lists)."""

from __future__ import annotations

import datetime
import itertools
from dataclasses import dataclass, field
from operator import itemgetter

from engine.errors import (
    DatabaseAlreadyExists,
    TableAlreadyExists,
    Unimplemented,
    UnknownDatabase,
    UnknownTable,
)
from engine.types import SqlType


@dataclass(slots=True)
class TableColumn:
    name: str
    type: SqlType
    default: object = None  # a bound constant expression source (AST) or None
    default_sql: str | None = None
    comment: str = ""


@dataclass(eq=False, slots=True)
class Table:
    """Rows are tuples in a list that only ever grows: a scan remembers the list and the length
    it saw at start (a snapshot); TRUNCATE, DROP, UPDATE and DELETE put a new list in its place
    instead of changing the old one."""

    database: str
    name: str
    columns: list[TableColumn]
    rows: list[tuple] = field(default_factory=list)
    engine: str = "FUSE"
    has_null: list[bool] = field(default_factory=list)  # per column: a NULL was ever stored
    # per column: a negative integer was ever stored (lets MOD / DIV of such a column skip the
    # sign handling of truncated division)
    has_negative: list[bool] = field(default_factory=list)
    int_positions: tuple = ()  # positions of the integer columns (set from `columns`)
    insert_plans: dict = field(default_factory=dict)  # written column positions -> converters
    table_id: int = 0  # given by the catalog when the table is added
    created_on: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    comment: str = ""
    # COPY INTO's load history: (user, stage, path) -> the loaded file's last_modified
    copied_files: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.has_null:
            self.has_null = [False] * len(self.columns)
        if not self.has_negative:
            self.has_negative = [False] * len(self.columns)
        self.int_positions = tuple(i for i, c in enumerate(self.columns) if c.type.is_int)

    def append(self, rows: list[tuple]) -> None:
        """Append rows (already converted); the only way rows enter a table."""
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
        self.rows.extend(rows)

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
        self.rows = []
        self.has_null = [False] * len(self.columns)
        self.has_negative = [False] * len(self.columns)


# Databases whose tables the engine computes (engine.system); nothing can be created in them.
VIRTUAL_DATABASES = ("system", "information_schema")


class Catalog:
    def __init__(self):
        self.databases: dict[str, dict[str, Table]] = {"default": {}}
        self._table_ids = itertools.count(1)

    def has_database(self, name: str) -> bool:
        """A stored database, or one of the virtual ones (USE system is valid)."""
        return name in self.databases or name in VIRTUAL_DATABASES

    def database(self, name: str) -> dict[str, Table]:
        try:
            return self.databases[name]
        except KeyError:
            raise UnknownDatabase(f"Unknown database '{name}'") from None

    def create_database(self, name: str, if_not_exists: bool) -> None:
        if name in self.databases or name.lower() in VIRTUAL_DATABASES:
            if if_not_exists:
                return
            raise DatabaseAlreadyExists(f"Database '{name}' already exists")
        self.databases[name] = {}

    def drop_database(self, name: str, if_exists: bool) -> None:
        tables = self.databases.pop(name, None)
        if tables is None:
            if if_exists:
                return
            raise UnknownDatabase(f"Unknown database '{name}'")
        for table in tables.values():
            table.rows = []

    def table(self, database: str, name: str, pos=None) -> Table:
        tables = self.databases.get(database)
        table = tables.get(name) if tables is not None else None
        if table is None and tables is not None:
            lowered = name.lower()
            for key, candidate in tables.items():
                if key.lower() == lowered:
                    table = candidate
                    break
        if table is None:
            if tables is None and database.lower() in VIRTUAL_DATABASES:
                raise Unimplemented(f"The operation is not available for the table `{database}`.`{name}`: "
                                    f"the {database.lower()} tables are read-only", position=pos)
            if tables is None:
                raise UnknownDatabase(f"Unknown database '{database}'", position=pos)
            raise UnknownTable(f"Unknown table `{database}`.`{name}` in catalog 'default'", position=pos)
        return table

    def add_table(self, table: Table, if_not_exists: bool, pos=None) -> bool:
        tables = self.database(table.database)
        if table.name in tables:
            if if_not_exists:
                return False
            raise TableAlreadyExists(f"Table '{table.name}' already exists", position=pos)
        table.table_id = next(self._table_ids)
        tables[table.name] = table
        return True

    def drop_table(self, database: str, name: str, if_exists: bool, pos=None) -> None:
        try:
            table = self.table(database, name, pos)
        except (UnknownTable, UnknownDatabase):
            if if_exists:
                return
            raise
        del self.databases[database][table.name]
        table.rows = []
