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


def block_summary(column: array, start: int, stop: int, keep: bool) -> tuple:
    """(sum, least, greatest) of column[start:stop] (non-empty), as `sum`, engine.types.keys'
    `least` and `greatest` give them (for integers `min` and `max`, the same values); remembered
    when `keep` (whole blocks: a growing table's last, partial block is summed anew)."""
    key = id(column)
    entry = _SUMMARIES.get(key)
    if entry is not None:
        found = entry[1].get((start, stop))
        if found is not None:
            return found
    values = column[start:stop]
    if column.typecode in "fd":
        summary = (sum(values), least(values), greatest(values))
    else:
        summary = (sum(values), min(values), max(values))
    if keep:
        if entry is None:
            entry = _SUMMARIES[key] = (weakref.ref(column, lambda _ref, key=key: _SUMMARIES.pop(key, None)), {})
        if len(entry[1]) < MAX_BLOCKS:
            entry[1][(start, stop)] = summary
    return summary
