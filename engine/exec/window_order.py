"""The row order of a column-wise window (engine.exec.window_columns) sorted by numpy's stable sorts.

When numpy is on (engine.core.vectors) and every PARTITION BY and ORDER BY key of a simple
window is an `array` column (an integer or float column holding no NULL, copied out of the
snapshot by the scan), the row numbers are ordered by numpy instead of Python's list.sort: a
stable argsort by the partition key, then within each partition a stable argsort (lexsort for
several keys) by the ORDER BY keys. That is the order the pure-Python path gives, exactly:

- both sorts are stable, so rows with equal keys keep the scan's order, as the row path's dict of
  partitions and its stable per-partition sorts keep it;
- the values compared are the ones Python compares: the array's own machine values (64-bit
  integers exact, doubles as doubles); NaN never reaches here (the caller falls back to the row
  path on a NaN key) and -0.0 equals 0.0 in both (a tie: input order; one partition, as one
  dict key);
- DESC: a key's order reversed without reordering ties, as list.sort(reverse=True) does: a
  float negated, an integer bit-inverted (~x = -x - 1 signed, MAX - x unsigned: no overflow).

The partitions come in ascending order of their key, as `sorted(parts)` gives them. With many
small partitions one lexsort of all the rows (the partition key first) replaces the per-partition
sorts, whose fixed cost per numpy call would dominate; the order is the same. A single key takes
the fastest sort that gives the stable order (`stable_argsort`: a radix sort of a narrow integer
range, the unstable sort of floats when they hold no tie). Measured on the benchmark's
window_rank (100,000 rows, 100 partitions): 11.5 ms with one stable argsort/lexsort per
partition, 5 ms so; the pure-Python distribution and per-partition list.sort take ~20 ms.
"""

from __future__ import annotations

from array import array
from math import isnan

# below this many rows a partition on average, one lexsort of all rows instead of one per partition
SEGMENT_ROWS = 64


def holds_nan(np, values) -> bool:
    """Whether the float values `values` (an array or a list) hold a NaN (numpy's test of an
    array when `np`: no value boxed)."""
    if np is not None and type(values) is array:
        return bool(np.isnan(np.frombuffer(values, dtype=values.typecode)).any())
    return any(map(isnan, values))


def order_key(np, values, desc: bool):
    """numpy's view of the array `values` (an array.array), in reverse order when `desc`."""
    view = np.frombuffer(values, dtype=values.typecode)
    if not desc:
        return view
    return np.negative(view) if view.dtype.kind == "f" else np.invert(view)


def in_order(np, values, desc: bool) -> bool:
    """Whether the array `values` (no NaN) is non-decreasing (non-increasing when `desc`)."""
    view = np.frombuffer(values, dtype=values.typecode)
    return bool(np.all(view[1:] <= view[:-1])) if desc else bool(np.all(view[:-1] <= view[1:]))


def sorted_order(np, keys, rows=None):
    """The stable order of `rows` (all rows when None) by `keys` (views, the first the primary)."""
    if rows is not None:
        keys = [k[rows] for k in keys]
    if len(keys) > 1:
        order = np.lexsort(keys[::-1])
    else:
        order = stable_argsort(np, keys[0])
    return order if rows is None else rows[order]


def stable_argsort(np, key):
    """The stable order of the values of `key` (no NaN).

    An integer key spanning fewer than 65,536 values is sorted as its offsets from its minimum
    in 16 bits (the same order: a shift keeps it), where numpy's stable sort is a radix sort. A
    float key is first sorted by the unstable sort (numpy's fastest); that order is the stable
    one when no two keys are equal (checked on the sorted values: -0.0 equals 0.0 there too),
    else the stable sort answers."""
    if not len(key):
        return np.argsort(key, kind="stable")
    if key.dtype.kind in "iu":
        low, high = key.min(), key.max()
        if int(high) - int(low) < 1 << 16:
            key = (key - low).astype(np.uint16)  # no wrap: each value minus the minimum fits
        return np.argsort(key, kind="stable")
    order = np.argsort(key)
    ranked = key[order]
    if (ranked[1:] == ranked[:-1]).any():  # ties: their order must be the input's
        order = np.argsort(key, kind="stable")
    return order


def ordered_groups(np, partition, orders) -> tuple:
    """(the row numbers of each partition, lists in ascending order of the partition key, sorted
    by the ORDER BY keys; all of them in that order, one numpy array). `partition`: the
    partition key's array or None; `orders`: (array, desc) of each ORDER BY key, the first the
    primary. The arrays are the caller's own copies; numpy's views of them end with this call."""
    keys = [order_key(np, values, desc) for values, desc in orders]
    if partition is None:
        order = sorted_order(np, keys)
        return [order.tolist()], order
    part = np.frombuffer(partition, dtype=partition.typecode)
    n = len(part)
    by_partition = stable_argsort(np, part)
    sorted_keys = part[by_partition]
    cuts = (np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1).tolist()
    bounds = list(zip([0] + cuts, cuts + [n], strict=True))
    if len(bounds) * SEGMENT_ROWS > n:  # many small partitions: one sort, partition key first
        order = np.lexsort(keys[::-1] + [part])
        rows = order.tolist()
        return [rows[lo:hi] for lo, hi in bounds], order
    segments = [sorted_order(np, keys, by_partition[lo:hi]) for lo, hi in bounds]
    return [segment.tolist() for segment in segments], np.concatenate(segments)
