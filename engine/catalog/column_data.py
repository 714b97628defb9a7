"""A table version kept column by column (issue 24): `ColumnData`, one container a column, and
the helpers its writes use (engine.catalog.table_storage holds the contract it follows and
chooses which storage new tables get)."""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from itertools import compress, islice, repeat
from operator import itemgetter

from engine.catalog.column_dictionary import Dictionary, extend_keys, new_keys
from engine.catalog.column_zones import ALL_PARTS, block_summary
from engine.core.memory import value_bytes

# distinct values a string column shares (one object each) before it stops adding new ones
SHARED_VALUES = 65_536


def _boxed(column, start: int, stop: int) -> list:
    """The values of column[start:stop] as a list: an array's boxed a column at a time, so the
    values of one column sit side by side in memory (a sort or fold over rows built from them
    walks dense memory: a full sort ~15 % faster than over values boxed row by row)."""
    part = column[start:stop]
    return part.tolist() if type(part) is array else part


def transposed(rows: list[tuple], width: int) -> list[list]:
    """`rows` (each `width` values wide) as one list a column."""
    if set(map(len, rows)) != {width}:
        raise ValueError(f"rows that are not {width} values wide")
    # a C-level map a column (zip(*rows) would first unpack every row as an argument)
    return [list(map(itemgetter(i), rows)) for i in range(width)]


class ColumnData:
    """One version of a table's contents kept column by column (the TableData contract)."""

    __slots__ = ("_codes", "_columns", "_count", "_shared", "_borrowed", "_stager", "_dictionaries", "_keys")
    columnar = True

    def __init__(self, codes: tuple, shared: tuple, dictionaries: tuple | None = None):
        self._codes = codes  # per column: the array typecode while it holds no NULL, else None
        # A column object may hold more values than this version's `_count` (it is shared with
        # the version it was copied from, which went on growing): read only [0:_count].
        self._columns = [array(code) if code else [] for code in codes]
        self._count = 0
        # per column: equal values -> one object (strings), shared by every version of the table
        self._shared = shared
        # copy-on-write: the column objects belong to another version too (`copy`, `prefix`, a
        # Rewrite's first `keep` of everything); the first write copies them. STAGED: values
        # past `_count` are a large append's, staged by `_stager` (engine.catalog.staged_append)
        self._borrowed = False
        self._stager = None
        # per string column: its Dictionary (engine.catalog.column_dictionary), shared by the
        # table's versions, and the codes of a prefix of the rows (None once one found no code)
        if dictionaries is None:
            dictionaries = tuple(None if d is None else Dictionary() for d in shared)
        self._dictionaries = dictionaries
        self._keys = [new_keys(d) for d in dictionaries]

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return f"<ColumnData of {self._count} rows>"

    def rows(self, start: int = 0, stop: int | None = None, columns: tuple | None = None) -> list[tuple]:
        count = self._count
        stop = count if stop is None or stop > count else stop
        if not self._columns:
            return [()] * max(stop - start, 0)
        if columns is None:
            return list(zip(*[_boxed(c, start, stop) for c in self._columns], strict=True))
        # the columns not read: the same None repeated (no value boxed out of an array)
        n = max(stop - start, 0)
        return list(zip(*[_boxed(c, start, stop) if i in columns else repeat(None, n)
                          for i, c in enumerate(self._columns)], strict=True))

    def row(self, index: int) -> tuple:
        if index < 0 or index >= self._count:
            raise IndexError(index)
        return tuple([c[index] for c in self._columns])

    def row_iterator(self, start: int = 0, columns: tuple | None = None) -> Iterator[tuple]:
        # iterators over the column objects: a column replaced later (its first NULL) keeps its
        # values, and appends come after the rows a snapshot takes
        mine = self._columns
        if not mine:
            return iter([()] * (self._count - start))
        return zip(*[repeat(None) if columns is not None and i not in columns
                     else iter(c) if start == 0 else islice(c, start, None)
                     for i, c in enumerate(mine)], strict=False)

    def column(self, index: int, start: int = 0, stop: int | None = None) -> list:
        stop = self._count if stop is None or stop > self._count else stop
        return list(self._columns[index][start:stop])

    def column_iterator(self, index: int, start: int = 0, stop: int | None = None) -> Iterator:
        stop = self._count if stop is None or stop > self._count else stop
        column = self._columns[index]
        return iter(column) if start == 0 and stop == len(column) else iter(column[start:stop])

    # ------------------------------------------------------------ whole-column reads (issue 24)

    def column_values(self, index: int, start: int, stop: int):
        """Values of column `index` of rows [start:stop] as the stored container's slice (the
        caller's own): an `array` (a column without NULL, no value boxed yet) or a list."""
        return self._columns[index][start:stop]

    def holds_no_null(self, index: int) -> bool:
        """Whether column `index` holds no NULL (an `array`, or a list without None: a list
        longer than this version's rows may answer False for a later row's NULL)."""
        column = self._columns[index]
        return type(column) is array or None not in column

    def boxed(self, index: int, start: int, stop: int) -> list:
        """Values of column `index` of rows [start:stop] as a list of its own (`_boxed`)."""
        return _boxed(self._columns[index], start, stop)

    def summary(self, index: int, start: int, stop: int, keep: bool, parts: tuple = ALL_PARTS,
                nan_free: bool = False):
        """[sum, least, greatest] (those at `parts`) of column `index`'s values in rows
        [start:stop] (non-empty, NULL-free: rows of a column that was an array when the caller
        planned; it may have become a list since, with the same values), kept (`keep`) while
        the column is an array (engine.catalog.column_zones; `nan_free` as it takes it)."""
        return block_summary(self._columns[index], start, stop, keep, parts, nan_free)

    def zipped(self, positions: tuple, start: int = 0) -> Iterator[tuple]:
        """Rows from `start` on of just the columns at `positions`, in that order, one at a time
        (a one-pass reader takes as many as its snapshot holds, as `row_iterator`)."""
        mine = self._columns
        return zip(*[iter(mine[i]) if start == 0 else islice(mine[i], start, None) for i in positions], strict=False)

    def picker(self, index: int):
        """Row number -> the value of column `index` in that row, for the rows this version
        holds now (a later append that turns the column into a list copies those values)."""
        return self._columns[index].__getitem__

    def pick(self, index: int, getter):
        """Column `index`'s values at the rows `getter` picks (a callable such as an
        `operator.itemgetter` of row numbers this version holds): one C call for all of them."""
        return getter(self._columns[index])

    def estimated_bytes(self, count: int | None = None) -> int:
        """Per column: the array's item size, or a list slot and the first value's size."""
        n = self._count if count is None else count
        if not n or not self._count:
            return 0
        per_row = 0
        for column in self._columns:
            if type(column) is array:
                per_row += column.itemsize
            else:
                per_row += 8 + value_bytes(column[0])
        return n * per_row

    def appended_bytes(self, rows: list[tuple]) -> int:
        if not rows:
            return 0
        per_row = 0
        for column, value in zip(self._columns, rows[0], strict=True):
            per_row += column.itemsize if type(column) is array and value is not None else 8 + value_bytes(value)
        return len(rows) * per_row

    def append_rows(self, rows: list[tuple]) -> None:
        if not rows:
            return
        if len(rows) == 1:
            self._append_row(rows[0])
            return
        self.append_columns(transposed(rows, len(self._columns)), len(rows))

    def _own(self) -> None:
        """Before the first write to borrowed columns: copies of their first `_count` values;
        to columns holding a staged append past them: those values dropped."""
        count = self._count
        if self._borrowed is STAGED:
            for column in self._columns:
                del column[count:]
            self._stager = None
        else:
            self._columns = [column[:count] for column in self._columns]
        self._keys = [None if keys is None else keys[:count] for keys in self._keys]
        self._borrowed = False

    def _append_row(self, row: tuple) -> None:
        if self._borrowed:
            self._own()
        columns = self._columns
        if len(row) != len(columns):
            raise ValueError(f"a row of {len(row)} values for {len(columns)} columns")
        for i, value in enumerate(row):
            column = columns[i]
            if value is None and type(column) is array:
                column = columns[i] = column.tolist()
            shared = self._shared[i]
            if shared is not None and value is not None:
                value = shared.get(value, value) if len(shared) >= SHARED_VALUES else shared.setdefault(value, value)
            column.append(value)
        self._count += 1

    def append_columns(self, columns: list, count: int) -> None:
        mine = self._columns
        if len(columns) != len(mine) or any(len(c) != count for c in columns):
            raise ValueError("columns of unequal length, or not one for each of the table's columns")
        if self._borrowed:
            self._own()
            mine = self._columns
        for i, values in enumerate(columns):
            self.extend_column(i, values)
        self._count += count

    def extend_column(self, i: int, values) -> None:
        """Append `values` to column `i`'s object, past this version's rows (the caller counts
        them): into its array while they hold no NULL (the first NULL makes it a list), strings
        shared. Columns of owned objects only (not borrowed; a STAGED version's are its staging's)."""
        mine = self._columns
        column = mine[i]
        if type(column) is array and _into_array(column, values):
            return
        if type(column) is array:  # the column's first NULL: a list from now on
            column = mine[i] = column.tolist()
        shared = self._shared[i]
        column.extend(values if shared is None else _shared_values(shared, values))

    def extend_from(self, other: ColumnData, start: int, stop: int) -> None:
        stop = min(stop, other._count)
        if stop <= start:
            return
        if start == 0 and not self._count:  # everything from the start: share the columns
            self._columns, self._count, self._borrowed = list(other._columns), stop, True
            self._keys = list(other._keys)
            return
        if self._borrowed:
            self._own()
        self._copy_keys(other, lambda keys: keys[start:stop], stop)
        for i, column in enumerate(other._columns):
            self.extend_part(i, column[start:stop])
        self._count += stop - start

    def extend_part(self, i: int, part) -> None:
        """Append `part`, a slice of another version's column `i` (an array, or a list once that
        one held a NULL), to this version's column object, past its rows (the caller counts them)."""
        mine = self._columns
        if type(mine[i]) is array and type(part) is not array:
            mine[i] = mine[i].tolist()
        mine[i].extend(part)

    def extend_selected(self, other: ColumnData, start: int, selection: list) -> None:
        stop = start + len(selection)
        if self._borrowed:
            self._own()
        self._copy_keys(other, lambda keys: compress(keys[start:stop], selection), stop)
        mine = self._columns
        kept = 0
        for i, column in enumerate(other._columns):
            values = list(compress(column[start:stop], selection))
            kept = len(values)
            if type(mine[i]) is array and type(column) is not array:
                mine[i] = mine[i].tolist()
            mine[i].extend(values)
        if not mine:
            kept = sum(map(bool, selection))
        self._count += kept

    def _copy_keys(self, other: ColumnData, part, stop: int) -> None:
        """Before rows [..stop] of `other` are appended: `other`'s codes of them (`part`) follow
        codes that cover all of this version's rows (the others are coded when read)."""
        count = self._count
        for i, keys in enumerate(self._keys):
            theirs = other._keys[i]
            if keys is not None and len(keys) == count and theirs is not None and len(theirs) >= stop:
                keys.extend(part(theirs))

    def dictionary_values(self, index: int) -> list | None:
        """Column `index`'s code -> value list as it is now (nothing coded), None: no codes."""
        return None if self._keys[index] is None else self._dictionaries[index].values

    def dictionary_codes(self, index: int, start: int, stop: int):
        """(codes, values) of column `index`'s rows [start:stop], None when it keeps no codes
        (engine.catalog.column_dictionary: `codes` an array, the caller's own; `values` the
        table's code -> value list, never to be changed). Rows up to `stop` are coded now."""
        keys = self._keys[index]
        if keys is None:
            return None
        stop = self._count if stop > self._count else stop
        if len(keys) < stop and not extend_keys(self._dictionaries[index], keys, self._columns[index], stop):
            self._keys[index] = None
            return None
        return keys[start:stop], self._dictionaries[index].values

    def empty_like(self) -> ColumnData:
        return ColumnData(self._codes, self._shared, self._dictionaries)

    def with_rows(self, rows: list[tuple]) -> ColumnData:
        data = self.empty_like()
        data.append_rows(rows)
        return data

    def prefix(self, count: int) -> ColumnData:
        if self._count == count:
            return self
        return self.copy(count)

    def copy(self, count: int | None = None) -> ColumnData:
        """The first `count` rows, sharing this version's column objects until either writes
        (copy-on-write: a transaction's private copy costs nothing until it changes)."""
        data = self.empty_like()
        data.extend_from(self, 0, self._count if count is None else count)
        return data

    def append_version(self, other: ColumnData) -> None:
        """Append every row of `other`, a version built for this table (a bulk write's buffer,
        handed over: never written again): into an empty version its columns are taken as they
        are, and owned (a later append writes them in place)."""
        if not self._count and not other._borrowed:
            self._columns, self._count, self._borrowed = list(other._columns), other._count, False
            self._keys = list(other._keys)
            return
        self.extend_from(other, 0, other._count)


# values of a batch looked up before a full `shared` dict is looked up for all of them
SHARED_SAMPLE = 64
STAGED = "staged"  # ColumnData._borrowed of a version whose columns hold a staged append past its rows


def _shared_values(shared: dict, values):
    """`values` with each equal to one already seen replaced by that one (new ones remembered
    while fewer than SHARED_VALUES are): a C-level map of the dict's method over the values
    (None is one more key that maps to itself). Once the dict is full, a batch whose sample
    (SHARED_SAMPLE values spread over it) finds none of its values shared is taken as it is: a
    column of distinct values (ids, labels) would pay a lookup a value for nothing (a fifth of a
    recovery's time, and of a bulk write's)."""
    if len(shared) >= SHARED_VALUES:
        n = len(values)
        if n > SHARED_SAMPLE and not any(map(shared.__contains__,
                                             values[::n // SHARED_SAMPLE])):
            return values
        return list(map(shared.get, values, values))
    return list(map(shared.setdefault, values, values))


def _into_array(column: array, values) -> bool:
    """Append `values` to an array column; False (nothing appended) when they hold a NULL. A
    list goes in by `fromlist` (which takes it at C speed and, on a value it cannot hold, is
    left as it was): a NULL is looked for only then, never in a column that has none."""
    if type(values) is list:
        try:
            column.fromlist(values)
            return True
        except TypeError:
            if None in values:
                return False
            raise
    if type(values) is array:  # no NULL in an array; one of another kind goes in value by value
        if values.typecode == column.typecode:
            column.extend(values)
        else:
            column.fromlist(values.tolist())
        return True
    if None in values:
        return False
    column.extend(values)
    return True
