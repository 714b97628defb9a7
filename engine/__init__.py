"""queryhttp's embeddable SQL engine: Database -> Session -> Result (no HTTP, no Twisted).

    db = engine.Database()
    s = db.session()
    list(s.execute("SELECT 1"))      # -> [(1,)]

This is the contract web/ relies on (see ARCHITECTURE.md section 2):
- `Database()` owns the catalog; `db.session(database="default", settings=None, user="root")`.
- `session.execute(sql) -> Result` parses and binds at once and raises `EngineError` (with a
  Databend `code`) for any error found before the first row.
- `Result.schema` is a list of `Column(name, type)` known before any row; `type` is the Databend
  display name ('UInt8', 'Nullable(Int32)', 'String', 'Decimal(10, 2)'...).
- `Result.affect` is None, `UseDB` or `ChangeSettings`; `session.database` / `session.settings`
  (session-level values as strings) hold the state after the statement.
- `Result.batches()` yields lists of row tuples of Python values; each step does bounded work and
  may yield []. `Result.progress` counts scan/write/result rows and bytes so far.
- `Result.renderer(null_as_str)` returns a function turning a batch into wire rows (lists of
  strings, None for NULL unless null_as_str, then "NULL").
- `Result.close()` stops the pipeline; idempotent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.errors import EngineError, SqlSyntaxError

__all__ = [
    "ChangeSettings",
    "Column",
    "Database",
    "EngineError",
    "Progress",
    "Result",
    "Session",
    "UseDB",
]


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class UseDB:
    name: str


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    keys: tuple[str, ...]
    values: tuple[str, ...]
    is_globals: tuple[bool, ...]


@dataclass(slots=True)
class Progress:
    scan_rows: int = 0
    scan_bytes: int = 0
    write_rows: int = 0
    write_bytes: int = 0
    result_rows: int = 0
    result_bytes: int = 0


@dataclass(eq=False)
class Result:
    schema: list[Column]
    _rows: Iterator[list[tuple]]
    affect: UseDB | ChangeSettings | None = None
    progress: Progress = field(default_factory=Progress)
    _closed: bool = False

    def batches(self) -> Iterator[list[tuple]]:
        for batch in self._rows:
            if self._closed:
                return
            self.progress.result_rows += len(batch)
            yield batch

    def renderer(self, null_as_str: bool) -> Callable[[list[tuple]], list[list[str | None]]]:
        null = "NULL" if null_as_str else None

        def render(batch: list[tuple]) -> list[list[str | None]]:
            return [[null if v is None else str(v) for v in row] for row in batch]

        return render

    def close(self) -> None:
        self._closed = True

    def __iter__(self) -> Iterator[tuple]:
        for batch in self.batches():
            yield from batch


class Session:
    def __init__(self, db: Database, database: str = "default", settings=None, user="root"):
        self.db = db
        self.database = database
        self.settings: dict[str, str] = dict(settings or {})
        self.user = user

    def execute(self, sql: str) -> Result:
        # Foundation slice: only `SELECT <integer>`; the real planner replaces this.
        m = re.fullmatch(r"\s*select\s+(\d+)\s*;?\s*", sql, re.IGNORECASE)
        if not m:
            raise SqlSyntaxError(f"cannot parse SQL: {sql!r}")
        value = int(m.group(1))
        return Result([Column(m.group(1), "UInt8" if value < 256 else "UInt64")], iter([[(value,)]]))


class Database:
    def __init__(self):
        self.databases = {"default": {}}

    def session(self, database: str = "default", settings=None, user: str = "root") -> Session:
        return Session(self, database, settings, user)
