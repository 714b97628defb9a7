"""Summaries of blocks of a number column kept as an `array` (issue 24): the sum, least and
greatest of its values in rows [start, stop), computed once and kept beside the array while it
lives, so a whole-table SUM/MIN/MAX over an unchanged table reads a few numbers a block instead of
every value (zone maps).

Sound because a ColumnData never changes a value of a column object in place: versions only
append to them, and rewrites, NULLs and copies make new objects (engine.catalog.table_storage).
A summary is exactly what the whole-column aggregate computes of the block's slice itself (the
same builtin calls over the same values in the same order), so answers do not change."""

from __future__ import annotations

import weakref
from array import array

from engine.types.keys import greatest, least

# id(array) -> (a weak reference to it, whose callback drops the entry; {(start, stop): summary})
_SUMMARIES: dict[int, tuple] = {}
# blocks kept an array (a column of 2,048-row blocks: 134 million rows)
MAX_BLOCKS = 1 << 16


def _greatest(values, total):
    """engine.types.keys' `greatest` of non-empty float values whose sum is `total`: a sum that
    is not a NaN says no value is one (a NaN propagates), which spares greatest's scan for one."""
    m = max(values)
    if m != m or total == total:  # a NaN first (max returns it), or no NaN at all
        return m
    return greatest(values)  # a NaN, or infinities of both signs, in the sum


_PARTS = (sum, least, greatest)  # a summary's parts, as computed of a block of floats
_INTEGER_PARTS = (sum, min, max)  # of integers or floats without NaN (least and greatest are min and max)
ALL_PARTS = (0, 1, 2)


def block_summary(column, start: int, stop: int, keep: bool, parts: tuple = ALL_PARTS,
                  nan_free: bool = False) -> list:
    """[sum, least, greatest] of column[start:stop] (non-empty), as `sum` and engine.types.keys'
    `least` and `greatest` give them, the ones at `parts` computed (the others may be None);
    remembered when `keep` (whole blocks: a growing table's last, partial block is summed
    anew; kept only of an array). `nan_free`: the caller knows the rows hold no NaN (the
    planner's snapshot facts), so greatest is max. The list is the cache's own: read, never
    changed."""
    key = id(column)
    entry = _SUMMARIES.get(key)
    found = None if entry is None else entry[1].get((start, stop))
    if found is not None and all(found[i] is not None for i in parts):
        return found
    if found is None:
        found = [None, None, None]
    values = column[start:stop]
    # a list: an array's values after a NULL appended past them (least/greatest of integers
    # are their min/max)
    compute = _INTEGER_PARTS if nan_free or type(column) is array and column.typecode not in "fd" else _PARTS
    floats = compute is _PARTS and not nan_free
    if floats and 2 in parts and found[2] is None and found[0] is None:
        found[0] = sum(values)  # what tells greatest that no value is a NaN (a C pass)
    for i in parts:
        if found[i] is None:
            found[i] = _greatest(values, found[0]) if floats and i == 2 else compute[i](values)
    if keep and type(column) is array:
        if entry is None:
            entry = _SUMMARIES[key] = (weakref.ref(column, lambda _ref, key=key: _SUMMARIES.pop(key, None)), {})
        if len(entry[1]) < MAX_BLOCKS:
            entry[1][(start, stop)] = found
    return found
