"""ORDER BY over a scan of columns sorted by numpy: the row *numbers* are ordered by the key
columns, then the output columns are gathered at those numbers, a batch at a time.

Used when numpy is on (engine.core.vectors), the sort's input is a scan of columns (or a
projection of its plain columns) and every ORDER BY key is an integer or float column kept in an
`array` (no NULL) holding no NaN; anything else (a NULL or NaN found at run time included) is the
row path of engine.exec.sort. The order is the row path's, exactly:

- numpy's sorts used are stable (or give the stable order: window_order's `stable_argsort`), so
  rows with equal keys keep the scan's order, as the row path's stable list.sort and its merge;
- the values compared are the ones Python compares: the array's own machine values (64-bit
  integers exact, doubles as doubles; -0.0 equals 0.0 in both: a tie, input order);
- DESC reverses a key's order without reordering ties, as list.sort(reverse=True) does: a float
  negated, an integer bit-inverted (~x = -x - 1 signed, MAX - x unsigned: no overflow);
- NaN: the row path puts it after every float (NAN_LAST); a key holding one falls back to it.

Bounded steps, as the row path's: the scan copies the columns a batch a step; up to
Limits.sort_run_rows rows are ordered in one step (one argsort/lexsort); a larger sort (one key
only: several keys fall back) is ordered a run of that many rows a step, then the runs merged at
most a step's budget of rows a step (`merged_runs`, the row path's `_merge_runs` over numpy's
sorted keys). Output batches are gathered a batch at a time (numpy's take of an array column,
then `tolist`; a list column's values picked by number).

The numpy sorts are a column-wise window's (engine.exec.window_order: `order_key`,
`sorted_order`, `stable_argsort`), one module of them for both.
"""

from __future__ import annotations

from array import array
from itertools import repeat

from engine.catalog.table_storage import array_typecode
from engine.core.memory import LIST_SLOT_BYTES
from engine.core.vectors import vectorised
from engine.exec.column_scan import scan_batches, scan_positions
from engine.exec.window_order import order_key, sorted_order, stable_argsort
from engine.ir import plan as P


def sorted_columns(plan: P.Sort, rt, run_rows: int, fallback):
    """The run of ORDER BY `plan` ordered by numpy over a scan of columns (module docstring),
    `fallback(p)` (the row path's run) taking over when a key turns out to hold a NULL or a NaN;
    None where the row path is the one (no numpy, other inputs, other key types)."""
    np = vectorised()
    found = scan_positions(plan.child, rt) if np is not None and plan.keys else None
    if found is None:
        return None
    scan, positions = found
    types = plan.child.types
    if not all(array_typecode(types[pos].name) for pos, _, _ in plan.keys):
        return None
    if len(plan.keys) > 1 and scan.count > run_rows:  # the runs' merge takes one key
        return None
    keys = [(positions[pos], desc) for pos, desc, _ in plan.keys]
    reads = rt.scan_reads.of(scan) if scan is plan.child else None
    outputs = [c if reads is None or scan.layout[c] in reads else None for c in positions]
    return _Sorted(np, scan, rt, keys, outputs, run_rows, fallback).run


class _Sorted:
    """One ORDER BY over columns: `keys` ((scan position, desc), the first the primary),
    `outputs` (per output column its scan position, None for a column nothing reads)."""

    def __init__(self, np, scan, rt, keys, outputs, run_rows, fallback):
        self.np, self.scan, self.rt = np, scan, rt
        self.keys, self.outputs = keys, outputs
        self.run_rows, self.fallback = run_rows, fallback

    def run(self, p):
        data, np, memory = self.scan.data, self.np, self.rt.memory
        key_columns = {c for c, _ in self.keys}
        if not all(type(data.column_values(c, 0, 0)) is array for c in key_columns):
            yield from self.fallback(p)  # a key column holds a NULL
            return
        # the key columns and the array output columns copied: the run's own (numpy's views of a
        # table's array would stop it growing); list columns are picked by number at the end
        own = {c: array(data.column_values(c, 0, 0).typecode) for c in sorted(key_columns)}
        for c in self.outputs:
            if c is not None and c not in own and type(data.column_values(c, 0, 0)) is array:
                own[c] = array(data.column_values(c, 0, 0).typecode)
        held = 0
        for i, stop in scan_batches(self.scan, self.rt):
            for c, values in own.items():
                values.extend(data.column_values(c, i, stop))  # a list slice if it became one since
            nbytes = (stop - i) * (8 * len(own) + LIST_SLOT_BYTES)  # the copies and the order
            memory.charge(nbytes)
            held += nbytes
            yield []
        views = {c: np.frombuffer(values, dtype=values.typecode) for c, values in own.items()}
        sort_keys = [order_key(np, own[c], desc) for c, desc in self.keys]
        if any(k.dtype.kind == "f" and np.isnan(k).any() for k in sort_keys):
            memory.release(held)
            yield from self.fallback(p)  # NaN after every float: the row path's rule
            return
        pickers = {c: data.picker(c) for c in self.outputs if c is not None and c not in own}
        n = self.scan.count
        if n <= self.run_rows:
            pieces = [sorted_order(np, sort_keys)]
            yield []  # the sort's step
        else:
            pieces = yield from merged_runs(np, sort_keys[0], self.run_rows, self.rt.step_rows)
        for order in pieces:
            yield from self._gather(order, views, pickers, n)
        memory.release(held)

    def _gather(self, order, views, pickers, n):
        """The output rows at the row numbers `order` (a numpy array), a batch at a time."""
        out_rows = self.rt.batch
        for lo in range(0, len(order), out_rows):
            at = order[lo:lo + out_rows]
            numbers = at.tolist() if pickers else None
            columns = [repeat(None, len(at)) if c is None else views[c][at].tolist() if c in views
                       else list(map(pickers[c], numbers)) for c in self.outputs]
            yield list(zip(*columns, strict=True)) if columns else [()] * len(at)


def merged_runs(np, key, run_rows: int, budget: int):
    """A generator ordering the rows by the one key `key` (no NaN) in bounded steps: a run of
    `run_rows` rows sorted a step, then the runs merged into pieces of at most `budget` rows a
    step (each step followed by a yielded []), as engine.exec.sort's `_merge_runs`: each step looks
    at the next `budget // runs` keys of every run; the smallest of their last keys, t, bounds
    what goes out now (the runs before the one it ends take their keys <= t, the later ones their
    keys < t: equal keys in run order), stably sorted. Returns the pieces (numpy arrays of row
    numbers) in order."""
    runs = []  # (sorted keys, their row numbers)
    for lo in range(0, len(key), run_rows):
        order = stable_argsort(np, key[lo:lo + run_rows])
        runs.append((key[lo:lo + run_rows][order], order + lo))
        yield []
    pos = [0] * len(runs)
    active = list(range(len(runs)))
    pieces = []
    while len(active) > 1:
        width = max(1, budget // len(active))
        ends = [min(pos[i] + width, len(runs[i][0])) for i in active]
        lasts = [runs[i][0][end - 1] for i, end in zip(active, ends, strict=True)]
        # numpy scalars of the keys' own type: a UInt64 beyond Int64 compared exactly by searchsorted
        first = min(range(len(active)), key=lasts.__getitem__)  # min keeps the first of equals
        t = lasts[first]
        keys, numbers = [], []
        for m, (i, end) in enumerate(zip(active, ends, strict=True)):
            ranked, lo = runs[i][0], pos[i]
            if m == first:
                cut = end
            else:
                cut = lo + int(np.searchsorted(ranked[lo:end], t, side="right" if m < first else "left"))
            if cut > lo:
                keys.append(ranked[lo:cut])
                numbers.append(runs[i][1][lo:cut])
                pos[i] = cut
        numbers = np.concatenate(numbers)
        pieces.append(numbers[np.argsort(np.concatenate(keys), kind="stable")])
        yield []
        active = [i for i in active if pos[i] < len(runs[i][0])]
    for i in active:
        pieces.append(runs[i][1][pos[i]:])
    return pieces
