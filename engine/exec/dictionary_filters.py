"""A filter's test of a string column run once a distinct value, rows then selected by code.

A column kept with dictionary codes (engine.catalog.column_dictionary) hands a batch's codes and
the column's distinct values (code -> value). A simple test of engine.exec.column_filters (a
column against constants: LIKE, =, <>, IN, <...; a column's truth; fused tests of one column) is
a pure function of the value, so it is evaluated once a distinct value into a truth table (one
byte a code), kept with the Selection and extended as the column's distinct values grow; a
batch's rows are then selected by looking their codes up in it (numpy's take when installed,
else a `map` of the table's __getitem__).

The answers are the value-by-value test's: a value whose test raises (an error the row path
would raise only if such a row were tested) makes the Truth unusable and the test runs over the
values as before; NULL (code 0) is evaluated apart, and a batch holding a NULL row for a test
that raises on NULL runs over the values too.
"""

from __future__ import annotations

import operator
import sys
from functools import partial
from itertools import compress, repeat
from operator import itemgetter

NULL_RAISES = 2  # the table's byte for NULL when the test raises on NULL
# distinct values a step evaluates at most (a column may hold 65,536: a step of a filter stays
# bounded; a batch whose codes reach past the values evaluated so far is tested by value)
EXTEND_VALUES = 8_192
LOW_BYTE = 0 if sys.byteorder == "little" else 1  # where a code's low byte sits in its two


class Truth:
    """A test's truth over a column's distinct values: table[code] is 1 when the value passes."""

    __slots__ = ("values", "table", "null_raises", "failed", "_array")

    def __init__(self, values: list):
        self.values = values  # the column's code -> value list (it may grow)
        self.table = bytearray()
        self.null_raises = False
        self.failed = False  # a value's test raised: the Truth is not used
        self._array = None  # numpy's copy of the table, as long as it was made

    def extend(self, test) -> bool:
        """Evaluate `test` over the values not yet in the table, EXTEND_VALUES at most; False
        if one raised."""
        values, table = self.values, self.table
        start, stop = len(table), min(len(values), len(table) + EXTEND_VALUES)
        if start >= stop:
            return True
        if start == 0:  # NULL, apart: a test that raises on it may still serve batches without one
            try:
                table.append(1 if _evaluated(test, [None], 0, 1)[0] else 0)
            except Exception:
                table.append(NULL_RAISES)
                self.null_raises = True
            start = 1
        try:
            table += _evaluated(test, values[start:stop], start, stop)
        except Exception:
            self.failed = True
            return False
        return True

    def array(self, np):
        """The table as a numpy array of bytes (a copy made again when the table has grown)."""
        found = self._array
        if found is None or len(found) != len(self.table):
            found = self._array = np.frombuffer(bytes(self.table), dtype=np.uint8)
        return found


def _evaluated(test, values: list, start: int, stop: int) -> bytearray:
    """One byte a value of `values` (codes start..stop-1): 1 where `test` passes."""
    position, function, constant, column_first, exact = test
    if column_first is None:  # fused tests: a comprehension -> the codes that pass
        flags = bytearray(stop - start)
        for code in function(range(start, stop), values):
            flags[code - start] = 1
        return flags
    if function is None:
        selectors = values if constant else map(operator.not_, values)
    elif column_first:
        selectors = map(function, values, repeat(constant))
    else:
        selectors = map(function, repeat(constant), values)
    return bytearray(map(bool, selectors))


def coded_test(selection, index: int, coded: tuple, kept, n: int, np) -> list | None:
    """The rows of `kept` (None: all `n`) that test `index` of `selection` keeps, found by the
    codes of `coded` ((codes, values) of the batch); None when the test must run over the values
    (its Truth failed, or a NULL row meets a test that raises on NULL)."""
    codes, values = coded[0], coded[1]
    if kept is not None and len(kept) == n:  # every row so far: no row numbers to pick by
        kept = None
    truth = selection.truths[index]
    if truth is None or truth.values is not values:
        truth = selection.truths[index] = Truth(values)
    if truth.failed or not truth.extend(selection.tests[index]):
        return None
    if np is not None:
        picked = np.frombuffer(codes, dtype=np.uint16)
        if kept is not None:
            picked = picked[np.fromiter(kept, np.intp, len(kept))]
        if len(truth.table) < len(values) and len(picked) and int(picked.max()) >= len(truth.table):
            return None  # a code whose value is not evaluated yet (a later step extends further)
        flags = truth.array(np)[picked]
        if truth.null_raises and (flags == NULL_RAISES).any():
            return None
        if kept is None:
            return np.flatnonzero(flags).tolist()
        return list(compress(kept, flags.tolist()))
    if len(truth.table) > 256 or len(truth.table) < len(values):  # codes of two bytes (no faster
        return None  # than the test a value), or values not evaluated yet
    # codes below 256 are their arrays' low bytes: translated at C speed into one flag a row
    flags = codes.tobytes()[LOW_BYTE::2].translate(truth.table.ljust(256, b"\0"))
    if kept is not None:
        flags = itemgetter(*kept)(flags) if len(kept) > 1 else (flags[kept[0]],)
    if truth.null_raises and NULL_RAISES in flags:
        return None
    return list(compress(range(n) if kept is None else kept, flags))


def batch_codes(data, positions, start: int, stop: int, np) -> dict | None:
    """position -> (codes, values, fetch: () -> the batch's values) of rows [start:stop] of the
    columns at `positions` that keep
    dictionary codes and hold at most half as many distinct values as the version holds rows
    (more, and a test a distinct value saves little over a test a row) and, without numpy
    (`np` None), at most 256 (codes of one byte); None when none does."""
    coded = None
    rows = len(data)
    limit = rows // 2 if np is not None else min(rows // 2, 256)
    for position in positions:
        known = data.dictionary_values(position)
        if known is None or len(known) > limit:
            continue  # (no coding of the batch for a column the tests would not read by code)
        found = data.dictionary_codes(position, start, stop)
        if found is not None and len(found[1]) <= limit:
            if coded is None:
                coded = {}
            coded[position] = (*found, partial(data.column_values, position, start, stop))
    return coded
