"""A large append committed a step at a time: the new rows are copied into the table's storage
where no reader looks, then become rows all at once (engine.statements.writers.commit_append_steps).

Part of the storage (engine.catalog.table_storage, whose private containers it reads and
writes; that module is at its size limit). Each storage stages where its readers do not look:

- `ColumnStaging` (ColumnData): past the version's `_count`, in its own column objects (a
  reader reads [0:_count] only). The version is marked (`_borrowed` = STAGED, `_stager`): any
  other write to it first drops the staged values (ColumnData._own), and the staging, seeing
  its mark gone, starts again after the rows that write added; another large append waits
  for the marked one to publish (WAIT_STEPS). Publishing adds the count.
- `RowStaging` (TableData): a private list, the version's rows then the new ones, copied a
  chunk a step; publishing catches up with the rows others appended meanwhile and puts the
  list in place of the version's (the same row objects first: snapshots hold). It copies the
  table's rows too, so a table much larger than the append takes the append in one step, as
  before (`RowStaging.swap`).

Nothing is visible before `publish`; `abandon` drops what was staged (a failed or cancelled
write leaves the table as it was)."""

from __future__ import annotations

import sys
from operator import itemgetter

from engine.catalog.catalog import _holds_nan  # the Table's own NaN test
from engine.catalog.column_data import STAGED, ColumnData, transposed

# per step, each a few milliseconds: values a ColumnStaging copies (array slices: memory
# copies), rows a RowStaging copies (a reference counted a row), values scanned for flags
STEP_VALUES = 1 << 18
STEP_ROWS = 1 << 16
SCAN_VALUES = 1 << 16
# steps a ColumnStaging waits for another one to publish before it drops that one's values
# (which then waits in turn): two large appends to a table take turns instead of each undoing
# the other's step, and one whose client stopped reading holds no other for long
WAIT_STEPS = 1024
SWAP_RATIO = 4  # RowStaging copies the table's rows only while they are at most this many times the new


def step_rows(width: int) -> int:
    """Rows a step of a staged append of a `width`-column table copies in column storage
    (at most what one step of row storage copies: a smaller append commits at once)."""
    return max(STEP_ROWS, STEP_VALUES // max(1, width))


def scan_rows(width: int) -> int:
    """Rows a step of a staged append checks and scans for flags (chunk_flags)."""
    return max(64, SCAN_VALUES // max(1, width))


def staged_append(data, new, width: int):
    """The staging of `new` (a version built for the table, or a list of row tuples) into `data`."""
    return (ColumnStaging if data.columnar else RowStaging)(data, new, width)


class RowStaging:
    """TableData: a private list built a chunk a step, put in place of the version's at the end."""

    def __init__(self, data, new, width: int):
        self.data, self.new = data, new
        self._new_rows = new if isinstance(new, list) else new._rows
        self.step_rows = STEP_ROWS
        # copying the table's rows pays only while they are not many times the new ones
        self.swap = len(data) <= SWAP_RATIO * len(new)
        self.rows: list = []
        self.copied = 0  # rows of the version copied into `rows`
        self.added = 0  # new rows copied into `rows`
        self.restarts = 0

    def step(self) -> bool:
        """Copy one step's rows; whether more remain."""
        if not self.swap:
            return False
        budget = self.step_rows
        existing, new = self.data._rows, self._new_rows
        if self.copied < len(existing):
            budget -= self._catch_up(existing, budget)
        if budget > 0 and self.added < len(new):
            take = new[self.added:self.added + budget]
            self.rows += take
            self.added += len(take)
        return self.copied < len(existing) or self.added < len(new)

    def _catch_up(self, existing: list, budget: int | None = None) -> int:
        """Copy the version's rows not copied yet (up to `budget`) before the new ones copied
        so far (rows others appended meanwhile committed first: the new rows stay the last,
        as the log's undo of the append takes them); returns how many."""
        stop = len(existing) if budget is None else self.copied + budget
        take = existing[self.copied:stop]
        if self.added:
            self.rows[self.copied:self.copied] = take  # a move of the new rows' pointers
        else:
            self.rows += take
        self.copied += len(take)
        return len(take)

    def publish(self) -> None:
        data = self.data
        if not self.swap:
            data._rows += self._new_rows
            return
        self._catch_up(data._rows)
        rows = self.rows
        rows += self._new_rows[self.added:]
        self.rows = []
        self.old = data._rows  # freed in steps (`dispose`): a million references dropped take ms
        data._rows = rows

    def dispose(self):
        """After `publish`: the version's old list emptied a step's rows at a time (yielding
        [] between) while nothing else holds it (no reader can reach it any more; one that
        holds it frees it when done)."""
        old, self.old = getattr(self, "old", None), None
        while old and sys.getrefcount(old) <= 2:  # this frame's reference and the call's
            del old[-self.step_rows:]
            if old:
                yield []

    def abandon(self) -> None:
        self.rows = []


class ColumnStaging:
    """ColumnData: the new rows appended to the version's column objects past its count."""

    def __init__(self, data: ColumnData, new, width: int):
        self.data, self.new = data, new
        self.step_rows = step_rows(width)
        self.staged = 0
        self.restarts = 0
        self.waited = 0  # steps waited for another large append staging into the version
        # a version built for the table into an empty one is taken whole, in no time (no copy)
        self.take_whole = not data._count and not isinstance(new, list) and not new._borrowed

    def _mine(self) -> bool:
        data = self.data
        return data._borrowed is STAGED and data._stager is self

    def step(self) -> bool:
        """Stage one step's rows; whether more remain."""
        data = self.data
        if self.take_whole:
            if not data._count:
                return False
            self.take_whole = False  # another write's rows came first: copied after them after all
        if not self._mine():
            if data._borrowed is STAGED and self.waited < WAIT_STEPS:
                self.waited += 1  # another large append stages into the version: after it
                return True
            if self.staged:  # another write dropped what was staged: again, after its rows
                self.restarts += 1
            if data._borrowed:  # columns shared with another version: its own copies first
                data._own()
            data._borrowed, data._stager, self.staged = STAGED, self, 0
        start = self.staged
        stop = min(start + self.step_rows, len(self.new))
        self._stage(start, stop)
        self.staged = stop
        return stop < len(self.new)

    def _stage(self, start: int, stop: int) -> None:
        data, new = self.data, self.new
        mine = data._columns
        if isinstance(new, list):  # row tuples: as ColumnData.append_columns takes columns
            for i, values in enumerate(transposed(new[start:stop], len(mine))):
                data.extend_column(i, values)
            return
        for i, column in enumerate(new._columns):  # as ColumnData.extend_from
            data.extend_part(i, column[start:stop])

    def publish(self) -> None:
        data, new = self.data, self.new
        if self.take_whole and not data._count:
            data.append_version(new)
            return
        if not self._mine() or self.staged < len(new):  # dropped at the last, or stopped early
            if not self._mine():
                if data._borrowed:
                    data._own()
                data._borrowed, data._stager, self.staged = STAGED, self, 0
            self._stage(self.staged, len(new))
        data._count += len(new)
        data._borrowed, data._stager = False, None

    def dispose(self):
        """Nothing to free after `publish` (a generator of no steps)."""
        return iter(())

    def abandon(self) -> None:
        if self._mine():
            self.data._own()  # drops the staged values


def chunk_flags(table, new, start: int, stop: int, flags: tuple[list, list, list], known) -> None:
    """Note in `flags` (per column: a NULL, a negative integer, a NaN) what rows [start:stop]
    of `new` hold; with `known` (the writer's NULL and negative flags) only NaNs are looked for.
    The table is not changed, nor are its flags read (a TRUNCATE meanwhile clears them): the
    flags are applied when the rows are published."""
    nulls, negatives, nans = flags
    if isinstance(new, list):
        chunk = new[start:stop]

        def values(i):
            return map(itemgetter(i), chunk)
    else:
        def values(i):
            return new.column_iterator(i, start, stop)
    if known is None:
        for i, column in enumerate(table.columns):
            if not nulls[i] and column.type.nullable and None in values(i):
                nulls[i] = True
        for i in table.int_positions:
            if not negatives[i] and min(filter(None, values(i)), default=0) < 0:
                negatives[i] = True
    for i in table.float_positions:
        if not nans[i] and _holds_nan(lambda i=i: values(i)):
            nans[i] = True
