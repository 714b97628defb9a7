"""A table's contents, one version at a time: the only code that knows how rows are stored.

Every reader and writer of a table's rows goes through `TableData` (and `Rewrite`, which builds
the next version), never through the stored containers, so the storage underneath can change
(row tuples today; columns next, issue 24) without touching them. The contract:

- a version only grows (appends); rows leave or change only in a new version (`Rewrite`), so a
  reader that keeps (version, count) holds a snapshot: identity says whether a version is still
  the table's, and the first `count` rows never change;
- rows handed out are tuples the caller may keep but never changes; lists handed out are the
  caller's own;
- a `Rewrite` knows which old rows it kept and where (runs over the old version), so the log's
  edit record needs no comparison of rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, groupby, islice
from operator import itemgetter

from engine.core.memory import batch_bytes


class TableData:
    """One version of a table's contents: rows in order, appended to, never changed in place."""

    __slots__ = ("_rows",)

    def __init__(self, rows: list | None = None):
        # the list becomes the version's own: the caller hands it over and keeps no reference
        self._rows: list[tuple] = [] if rows is None else rows

    @classmethod
    def from_columns(cls, columns: list, count: int) -> TableData:
        """A version holding `count` rows given column by column (each a sequence of `count` values)."""
        data = cls()
        data.append_columns(columns, count)
        return data

    def __len__(self) -> int:
        return len(self._rows)

    def __repr__(self) -> str:
        return f"<TableData of {len(self._rows)} rows>"

    # ------------------------------------------------------------ reading

    def rows(self, start: int = 0, stop: int | None = None) -> list[tuple]:
        """Rows [start:stop] as a new list (the caller's own)."""
        rows = self._rows
        if start == 0 and stop is None:
            return rows[:]
        return rows[start:stop]

    def row(self, index: int) -> tuple:
        return self._rows[index]

    def row_iterator(self, start: int = 0) -> Iterator[tuple]:
        """The rows from `start` on, one at a time, without building a list: a one-pass reader
        takes as many as its snapshot holds (rows appended meanwhile come after them)."""
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

    # ------------------------------------------------------------ writing (only Table calls these)

    def append_rows(self, rows: list[tuple]) -> None:
        self._rows.extend(rows)

    def append_columns(self, columns: list, count: int) -> None:
        """Append `count` rows given column by column."""
        if columns:
            self._rows.extend(zip(*columns, strict=True))
        else:  # a table of no columns (not reachable through SQL): empty rows
            self._rows.extend([()] * count)

    # ------------------------------------------------------------ new versions

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

    __slots__ = ("old", "count", "runs", "added", "_rows", "_next")

    def __init__(self, old: TableData, count: int):
        self.old = old
        self.count = count
        self.runs: list[int] = []  # flat (start, n): n old rows from start; start -1: n added rows
        self.added: list[tuple] = []  # the rows the runs with start -1 take, in order
        self._rows: list[tuple] = []
        self._next = -2  # the old index that extends the last run, or -1 when it takes added rows

    def __len__(self) -> int:
        return len(self._rows)

    def keep(self, start: int, n: int) -> None:
        """Old rows [start:start + n] follow, unchanged."""
        if n <= 0:
            return
        runs = self.runs
        if runs and self._next == start:
            runs[-1] += n
        else:
            runs += (start, n)
        self._next = start + n
        self._rows += self.old._rows[start:start + n]

    def keep_runs(self, runs: list[int]) -> None:
        """Old rows by runs (flat (start, n) pairs), in order."""
        for i in range(0, len(runs), 2):
            self.keep(runs[i], runs[i + 1])

    def keep_selected(self, start: int, selection: list) -> int:
        """Old rows from `start` on that `selection` (a truth value a row) keeps; returns how many."""
        old = self.old._rows
        before = len(self._rows)
        self._rows += compress(old[start:start + len(selection)], selection)
        kept = len(self._rows) - before
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
        self._rows += rows

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

    def estimated_bytes(self) -> int:
        """Bytes the finished version will hold, as the memory budget counts them."""
        total = len(self._rows) + len(self.old) - self.count
        sample = self._rows[:1] or self.old._rows[:1]
        return total * batch_bytes(sample)

    def finish(self) -> TableData:
        """The new version: the rows built, then the old rows past the snapshot's `count` (rows
        other statements appended meanwhile are kept)."""
        self.keep(self.count, len(self.old) - self.count)
        rows, self._rows = self._rows, []
        return TableData(rows)
