"""A table's contents, one version at a time: the only code that knows how rows are stored.

Every reader and writer of a table's rows goes through a version's methods (and `Rewrite`, which
builds the next version), never through the stored containers, so the storage underneath can
change without touching them: `ColumnData` keeps one container a column (issue 24; the
default), `TableData` row tuples (QUERYHTTP_COLUMNS=0); `table_data` says which new tables
get. The contract:

- a version only grows (appends); rows leave or change only in a new version (`Rewrite`), so a
  reader that keeps (version, count) holds a snapshot: identity says whether a version is still
  the table's, and the first `count` rows never change;
- rows handed out are tuples the caller may keep but never changes; lists handed out are the
  caller's own;
- a `Rewrite` knows which old rows it kept and where (runs over the old version), so the log's
  edit record needs no comparison of rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import compress, groupby, islice
from operator import itemgetter

from engine.catalog.column_data import ColumnData
from engine.core.memory import batch_bytes


class TableData:
    """One version of a table's contents: rows in order, appended to, never changed in place."""

    __slots__ = ("_rows",)
    # whether whole columns are cheaper to read than rows (`column_values`, `zipped`): operators
    # that can work column by column ask (engine.exec), and bulk writers then hand the storage
    # whole columns (a version built with `empty_like` and `append_columns`) rather than rows
    columnar = False

    def __init__(self, rows: list | None = None):
        # the list becomes the version's own: the caller hands it over and keeps no reference
        self._rows: list[tuple] = [] if rows is None else rows

    def __len__(self) -> int:
        return len(self._rows)

    def __repr__(self) -> str:
        return f"<TableData of {len(self._rows)} rows>"

    # ------------------------------------------------------------ reading

    def rows(self, start: int = 0, stop: int | None = None, columns: tuple | None = None) -> list[tuple]:
        """Rows [start:stop] as a new list (the caller's own). `columns`, when given, are the
        positions the caller reads: the others may be None in the rows handed out."""
        rows = self._rows
        if start == 0 and stop is None:
            return rows[:]
        return rows[start:stop]

    def row(self, index: int) -> tuple:
        return self._rows[index]

    def row_iterator(self, start: int = 0, columns: tuple | None = None) -> Iterator[tuple]:
        """The rows from `start` on, one at a time, without building a list: a one-pass reader
        takes as many as its snapshot holds (rows appended meanwhile come after them).
        `columns` as `rows` takes it."""
        rows = self._rows
        return iter(rows) if start == 0 else islice(rows, start, None)

    def column(self, index: int, start: int = 0, stop: int | None = None) -> list:
        """Values of column `index` of rows [start:stop], as a new list."""
        rows = self._rows
        if start == 0 and (stop is None or stop >= len(rows)):
            return list(map(itemgetter(index), rows))
        return list(map(itemgetter(index), islice(rows, start, stop)))

    def column_iterator(self, index: int, start: int = 0, stop: int | None = None) -> Iterator:
        """Values of column `index` of rows [start:stop], one at a time (a C-level iterator)."""
        rows = self._rows
        if start == 0 and stop is None:
            return map(itemgetter(index), rows)
        return map(itemgetter(index), islice(rows, start, stop))

    def estimated_bytes(self, count: int | None = None) -> int:
        """Bytes the first `count` rows (all by default) hold, as the memory budget counts them."""
        rows = self._rows
        n = len(rows) if count is None else count
        return n * batch_bytes(rows[:1]) if rows else 0

    def appended_bytes(self, rows: list[tuple]) -> int:
        """Bytes appending `rows` adds, as the memory budget counts them."""
        return batch_bytes(rows)

    # ------------------------------------------------------------ writing (only Table calls these)

    def append_rows(self, rows: list[tuple]) -> None:
        self._rows.extend(rows)

    def append_columns(self, columns: list, count: int) -> None:
        """Append `count` rows given column by column."""
        if columns:
            self._rows.extend(zip(*columns, strict=True))
        else:  # a table of no columns (not reachable through SQL): empty rows
            self._rows.extend([()] * count)

    def extend_from(self, other: TableData, start: int, stop: int) -> None:
        """Append rows [start:stop] of `other` (a version of the same storage)."""
        self._rows += other._rows[start:stop]

    def append_version(self, other: TableData) -> None:
        """Append every row of `other` (a version of the same storage, handed over)."""
        self._rows += other._rows

    def extend_selected(self, other: TableData, start: int, selection: list) -> None:
        """Append the rows of `other` from `start` on that `selection` (a truth value a row) keeps."""
        self._rows += compress(other._rows[start:start + len(selection)], selection)

    # ------------------------------------------------------------ new versions

    def empty_like(self) -> TableData:
        """A new, empty version of the same storage (and columns)."""
        return TableData()

    def with_rows(self, rows: list[tuple]) -> TableData:
        """A new version of the same storage holding `rows` (handed over)."""
        return TableData(rows)

    def prefix(self, count: int) -> TableData:
        """The version of the first `count` rows: itself when it holds no more, else a new one
        (the undo of an append the log did not take)."""
        if len(self._rows) == count:
            return self
        return TableData(self._rows[:count])

    def copy(self, count: int | None = None) -> TableData:
        """A new version holding the first `count` rows (all by default): a transaction's
        private copy, which then grows and is rewritten on its own."""
        rows = self._rows
        return TableData(rows[:] if count is None else rows[:count])


def runs_of_selection(start: int, selection: list) -> list[int]:
    """The runs (flat (start, count) pairs) of the old rows that `selection` (one truth value a
    row, for rows from `start` on) keeps: one pair per kept stretch, found at C speed."""
    runs: list[int] = []
    position = start
    for kept, group in groupby(selection, bool):
        n = sum(1 for _ in group)
        if kept:
            runs += (position, n)
        position += n
    return runs


class Rewrite:
    """The next version of a table, built from the first `count` rows of `old` in steps: stretches
    of old rows kept (`keep`), new rows added (`add`), in order. It records the runs that describe
    the result over the old rows, so the log writes only the rows that are new."""

    __slots__ = ("old", "count", "runs", "added", "_new", "_next")

    def __init__(self, old: TableData, count: int, into: TableData | None = None):
        self.old = old
        self.count = count
        self.runs: list[int] = []  # flat (start, n): n old rows from start; start -1: n added rows
        self.added: list[tuple] = []  # the rows the runs with start -1 take, in order
        # the version being built: the same storage as the old, or `into` (empty) when given
        self._new = old.empty_like() if into is None else into
        self._next = -2  # the old index that extends the last run, or -1 when it takes added rows

    def __len__(self) -> int:
        return len(self._new)

    def keep(self, start: int, n: int) -> None:
        """Old rows [start:start + n] follow, unchanged."""
        if n <= 0:
            return
        self._keep_run(start, n)
        self._new.extend_from(self.old, start, start + n)

    def keep_runs(self, runs: list[int]) -> None:
        """Old rows by runs (flat (start, n) pairs), in order."""
        for i in range(0, len(runs), 2):
            self.keep(runs[i], runs[i + 1])

    def keep_selected(self, start: int, selection: list) -> int:
        """Old rows from `start` on that `selection` (a truth value a row) keeps; returns how many."""
        before = len(self._new)
        self._new.extend_selected(self.old, start, selection)
        kept = len(self._new) - before
        # the runs, found only when some rows were dropped: one run a stretch
        if kept == len(selection):
            self._keep_run(start, kept)
        else:
            runs = runs_of_selection(start, selection)
            for i in range(0, len(runs), 2):
                self._keep_run(runs[i], runs[i + 1])
        return kept

    def _keep_run(self, start: int, n: int) -> None:
        if n <= 0:
            return
        runs = self.runs
        if runs and self._next == start:
            runs[-1] += n
        else:
            runs += (start, n)
        self._next = start + n

    def add(self, rows: list[tuple]) -> None:
        """New rows follow."""
        if not rows:
            return
        runs = self.runs
        if runs and self._next == -1:
            runs[-1] += len(rows)
        else:
            runs += (-1, len(rows))
            self._next = -1
        self.added += rows
        self._new.append_rows(rows)

    def replace_in(self, start: int, n: int, replaced: list) -> None:
        """Old rows [start:start + n] follow with some replaced: `replaced` holds (offset, row)
        pairs in ascending offsets within the stretch."""
        position = start
        for offset, row in replaced:
            i = start + offset
            self.keep(position, i - position)
            self.add([row])
            position = i + 1
        self.keep(position, start + n - position)

    def take(self, data, runs: list[int], added: list) -> None:
        """The whole of `data` (a version of the same storage, handed over; shared, not copied)
        follows, which `runs` and `added` describe over the old version as `self.runs` and
        `self.added` do (a transaction's private version, engine.catalog.lineage)."""
        self._new.extend_from(data, 0, len(data))
        self.runs += runs
        self.added += added
        self._next = -2 if not runs else -1 if runs[-2] < 0 else runs[-2] + runs[-1]

    def estimated_bytes(self) -> int:
        """Bytes the finished version will hold, as the memory budget counts them."""
        new, old = self._new, self.old
        return new.estimated_bytes() + old.estimated_bytes(len(old) - self.count)

    def finish(self) -> TableData:
        """The new version: the rows built, then the old rows past the snapshot's `count` (rows
        other statements appended meanwhile are kept)."""
        self.keep(self.count, len(self.old) - self.count)
        new, self._new = self._new, self.old.empty_like()
        return new


# ---------------------------------------------------------------- columns (issue 24, step 3)

# Integers and floats are kept in `array`s while their column holds no NULL (the first NULL turns
# that column into a list); everything else is a list. Float32 values are Python floats already
# rounded to 32 bits: kept as doubles, so reading one back gives the very same value.
_TYPECODES = {"Int8": "b", "UInt8": "B", "Int16": "h", "UInt16": "H", "Int32": "i", "UInt32": "I",
              "Int64": "q", "UInt64": "Q", "Float32": "d", "Float64": "d"}
# the column types whose equal values a ColumnData keeps as one object: strings (dates are
# shared where they are built: engine.types.datetimes for casts, engine.storage.row_codec for
# the log and checkpoints; sharing them here too costs a bulk write 0.2 s per million rows)
_SHARED_TYPES = frozenset({"String"})
# Whether new tables keep columns: the default (a fifth of the memory a row of row tuples takes,
# docs "Table storage"); QUERYHTTP_COLUMNS=0 gives new tables row tuples, so row storage stays
# served and tested (CI runs the storage-specific tests in both). Either storage opens a data
# directory the other wrote: the log and checkpoints hold columns of JSON values either way.
def columns_by_default(environ=os.environ) -> bool:
    """Whether new tables keep columns: yes unless QUERYHTTP_COLUMNS is 0 (docs/architecture.rst,
    "Columns by default": why, and what was measured)."""
    return environ.get("QUERYHTTP_COLUMNS", "1").strip() != "0"


COLUMNS = columns_by_default()


def array_typecode(type_name: str) -> str | None:
    """The `array` typecode a NULL-free column of this type is kept in (None: a list)."""
    return _TYPECODES.get(type_name)


def table_data(types: list, rows: list | None = None):
    """A new version for columns of `types` holding `rows` (handed over): the storage new tables get."""
    if not COLUMNS:
        return TableData(rows)
    data = ColumnData(tuple(_TYPECODES.get(t.name) for t in types),
                      tuple({} if t.name in _SHARED_TYPES else None for t in types))
    if rows:
        data.append_rows(rows)
    return data
