"""Windows over a scan of columns (issue 24): the common simple shapes computed column by column.

`SELECT cols, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v) FROM t` or a running SUM over a
table kept column by column: the row path boxes every row out of the columns, sorts the rows and
frees them again. Here the ROW NUMBERS are sorted instead, by the key columns' values boxed a
column at a time (each ORDER BY key a stable pass, last key first, then the partition key: the
order the row path's dict of partitions and its per-partition sorts give; with no partition and
one key already in order, as a scan of `id` for ORDER BY id, not sorted at all: the rows stay a
range and are read as slices of the columns), the functions'
values are computed a piece of rows at a time over the argument column read in that order
(itertools.accumulate, as the row path's running fold: the same addition order), and the output
rows are zipped at the end from the columns the select list reads.

Taken only where the answer is the row path's by construction: at most one PARTITION BY key, plain
ORDER BY keys, ROW_NUMBER / RANK / DENSE_RANK and running SUM / MIN / MAX of a column or COUNT(*)
with the default frame, a select list of plain columns, and, checked as the query runs, key and
argument columns holding no NULL and float keys (and MIN/MAX arguments) no NaN (then NULL and NaN
placement cannot differ: every key is a plain value). Anything else is the row path's.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from itertools import accumulate, islice
from operator import eq, ge, itemgetter, le

from engine.core.vectors import vectorised
from engine.exec.column_scan import scan_batches
from engine.exec.window_order import holds_nan, in_order, ordered_groups
from engine.exec.window_partitions import PARTITION_BYTES
from engine.ir import plan as P
from engine.ir.expr import Col
from engine.types.integer_wrap import total_wrapper

_KEY_TYPES = frozenset({"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
                        "Float32", "Float64", "String", "Date", "Timestamp"})
_ARG_TYPES = frozenset({"Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
                        "Float32", "Float64"})
_RANKS = ("row_number", "rank", "dense_rank")
_DEFAULT_FRAMES = (("RANGE", ("UNBOUNDED PRECEDING", None), ("CURRENT ROW", None)),
                   ("ROWS", ("UNBOUNDED PRECEDING", None), ("CURRENT ROW", None)))
# memory held per row: its number, and per column read a list slot and a boxed value
_ROW_BYTES = 8
_VALUE_BYTES = 8 + 32


def _simple_func(f) -> bool:
    if f.distinct or f.collected is not None or f.params:
        return False
    if f.name in _RANKS:
        return not f.args
    if f.frame not in _DEFAULT_FRAMES:
        return False
    if f.name == "count":
        return not f.args
    return f.name in ("sum", "min", "max") and len(f.args) == 1 and f.arg_type is not None \
        and f.arg_type.name in _ARG_TYPES


def window_columns(plan, rt, pred, exprs, gathers):
    """The run of Window(Sort(Scan of columns)) of a simple shape (see the module), or None.
    `gathers`: whether the window takes over the sort under it (window_partitions.gathers)."""
    sort = plan.child
    scan = sort.child if type(sort) is P.Sort else None
    if type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None or pred is not None \
            or not gathers or not plan.order or len(plan.partition) > 1 \
            or not all(map(_simple_func, plan.funcs)):
        return None
    child = sort  # the sort's rows are the scan's: its positions are the scan's columns
    if list(child.layout) != list(scan.layout):
        return None
    keys = list(plan.partition) + [pos for pos, _, _ in plan.order]
    if not all(child.types[pos].name in _KEY_TYPES for pos in keys):
        return None
    width = len(child.layout)
    layout = list(plan.layout)
    if exprs is None:
        outputs = list(range(len(layout)))
    elif all(type(e) is Col and e.column in layout for e in exprs):
        outputs = [layout.index(e.column) for e in exprs]
    else:
        return None
    if scan.count > max(1, rt.ctx.limits.sort_run_rows):
        return None  # more rows than one sort run: the row path sorts it in steps
    return _Run(plan, rt, scan, keys, outputs, width).run


class _Run:
    """One query's column-wise window (see the module)."""

    def __init__(self, plan, rt, scan, keys, outputs, width):
        self.plan, self.rt, self.scan, self.keys, self.outputs, self.width = plan, rt, scan, keys, outputs, width
        args = {f.args[0] for f in plan.funcs if f.args}
        self.read = sorted(set(keys) | args | {i for i in outputs if i < width})
        self.args = args

    def usable(self) -> bool:
        """Whether the snapshot's key and argument columns hold no NULL (checked before any is read)."""
        data = self.scan.data
        return all(data.holds_no_null(c) for c in set(self.keys) | self.args)

    def _nan_free(self, cols) -> bool:
        """Whether the float key columns and MIN/MAX float arguments hold no NaN."""
        types = self.plan.child.types
        checked = set(self.keys) | {f.args[0] for f in self.plan.funcs if f.name in ("min", "max")}
        np = vectorised()
        return not any(types[c].is_float and cols[c] is not None and holds_nan(np, cols[c]) for c in checked)

    def run(self, p, fallback):
        """The output rows, a step at a time (an empty list closing each step); `fallback(p)`:
        the row path's run, taken when a column holds a NULL or a key a NaN."""
        if not self.usable():
            yield from fallback(p)
            return
        memory = self.rt.memory
        data = self.scan.data
        # numpy sorts the row numbers when every key column is an array (window_order); else
        # the key columns are boxed (list.sort's keys) and the partitions distributed as read
        np = vectorised() if self.scan.count else None
        if np is not None and not all(type(data.column_values(c, 0, 0)) is array for c in self.keys):
            np = None
        # the other columns as stored, their values boxed only as the output rows and the
        # functions pick them
        keyset = set(self.keys) if np is None else set()
        cols: dict = {c: [] if c in keyset else None for c in self.read}
        pcol = cols[self.plan.partition[0]] if self.plan.partition and np is None else None
        parts = defaultdict(list)  # partition key -> its row numbers, in input order
        held = 0
        for i, stop in scan_batches(self.scan, self.rt):
            before = len(parts)
            for c, values in cols.items():
                if c in keyset:
                    values += data.boxed(c, i, stop)
                elif values is None:
                    cols[c] = data.column_values(c, i, stop)  # a copy: the run's own
                else:
                    values += data.column_values(c, i, stop)
            if pcol is not None:  # distributed as they come, as the row path's dict of partitions
                for row, key in enumerate(pcol[i:stop], i):
                    parts[key].append(row)
            nbytes = (stop - i) * (_ROW_BYTES + _VALUE_BYTES * len(cols)) + (len(parts) - before) * PARTITION_BYTES
            memory.charge(nbytes)
            held += nbytes
            yield []
        if not self._nan_free(cols):
            memory.release(held)
            yield from fallback(p)
            return
        flat = None  # numpy's order of all the rows (window_order), the emitted rows' order
        if np is not None:  # one step: numpy's sort of at most a sort run's rows (as the row path's)
            groups, flat = self._numpy_groups(np, cols)
            nbytes = len(groups) * PARTITION_BYTES
            memory.charge(nbytes)
            held += nbytes
            yield []
        else:
            n = self.scan.count
            if pcol is None:
                groups = [range(n)] if n else []  # a list once it needs sorting
            else:  # partitions in the order of their keys (plain values: no NULL, no NaN)
                groups = [parts[key] for key in sorted(parts)]
            parts = None
            yield from self._sort(groups, cols)
        yield from self._emit(cols, groups, np, flat)
        memory.release(held)

    def _numpy_groups(self, np, cols) -> tuple:
        """(the partitions' row numbers in the window's order, sorted by numpy (window_order);
        all of them, a numpy array): a range and None when there is no partition and the one
        key column is in order already."""
        order = [(cols[pos], desc) for pos, desc, _ in self.plan.order]
        if not self.plan.partition:
            if len(order) == 1 and in_order(np, *order[0]):
                return [range(self.scan.count)], None  # the scan's order is the sorted one (a stable sort keeps it)
            return ordered_groups(np, None, order)
        return ordered_groups(np, cols[self.plan.partition[0]], order)

    def _sort(self, groups, cols):
        """Each partition's row numbers sorted by the ORDER BY keys: stable passes, last key
        first (plain values: the row path's order), a step's rows at a time (an empty list after)."""
        step = self.rt.step_rows
        passes = [(cols[pos].__getitem__, desc) for pos, desc, _ in reversed(self.plan.order)]
        sorted_rows = 0
        for g, part in enumerate(groups):
            if sorted_rows and sorted_rows + len(part) > step:
                yield []
                sorted_rows = 0
            if type(part) is range:
                if len(passes) == 1 and _in_order(cols[self.plan.order[0][0]], passes[0][1]):
                    continue  # the scan's order is the sorted one (a stable sort keeps it): a range
                part = groups[g] = list(part)
            for key, desc in passes:
                part.sort(key=key, reverse=desc)
            sorted_rows += len(part)
        yield []

    def _emit(self, cols, groups, np, flat):
        """Output rows of each partition a piece of at most a step's rows at a time. With `flat`
        (numpy's order of all the rows, the order they are emitted in), an array column's values
        at a piece's rows are numpy's gather of `flat`'s slice; else picked by itemgetter."""
        step = self.rt.step_rows
        width = self.width
        views = {} if flat is None else {
            i: np.frombuffer(cols[i], dtype=cols[i].typecode) for i in set(self.outputs)
            if i < width and type(cols[i]) is array}  # the run's own arrays: never resized now
        picking = any(i < width and i not in views for i in self.outputs)
        out: list = []
        done = 0  # rows emitted so far: the piece's position in `flat`
        for g, part in enumerate(groups):
            groups[g] = None  # let an emitted partition go
            evaluators = [_evaluator(f, self.plan, cols) for f in self.plan.funcs]
            end = len(part)
            for lo in range(0, end, step):
                hi = min(lo + step, end)
                piece = part[lo:hi] if hi - lo < end else part
                values = [ev(piece, part, hi, end, lo) for ev in evaluators]
                # a column's values at the piece's rows picked by one C call (itemgetter)
                pick = _picker(piece) if picking else None
                at = flat[done:done + hi - lo] if views else None
                columns = [values[i - width] if i >= width else views[i][at].tolist() if i in views
                           else pick(cols[i]) for i in self.outputs]
                out += zip(*columns, strict=False) if columns else [()] * (hi - lo)
                done += hi - lo
                if len(out) >= step:
                    yield out
                    out = []
        if out:
            yield out


def _in_order(keys, desc) -> bool:
    """Whether the plain values `keys` are already in a stable sort's order (non-decreasing, or
    non-increasing for DESC): one pass of C comparisons, the sort's own."""
    return all(map(ge if desc else le, keys, islice(keys, 1, None)))


def _picker(rows):
    """column -> its values at the row numbers `rows` (one C call: itemgetter; a slice of the
    column for a range of them, the rows in the scan's order)."""
    if type(rows) is range:
        return lambda column, lo=rows.start, hi=rows.stop: column[lo:hi]
    if len(rows) == 1:
        return lambda column, i=rows[0]: (column[i],)
    return itemgetter(*rows)


def _evaluator(f, plan, cols):
    """(piece of row numbers, all of them in order, the piece's end and its partition's there,
    offset of the piece in its partition) -> the values of window function `f` for the piece,
    state kept between the pieces of a partition."""
    order_cols = [cols[pos] for pos, _, _ in plan.order]
    if len(order_cols) == 1:
        peer_key = order_cols[0].__getitem__
    else:
        def peer_key(i):
            return tuple(c[i] for c in order_cols)

    def peer_keys(rows):
        """The ORDER BY keys of the rows numbered `rows`, each picked by one C call a column."""
        pick = _picker(rows)
        if len(order_cols) == 1:
            return pick(order_cols[0])
        return zip(*[pick(c) for c in order_cols], strict=True)
    if f.name == "row_number":
        return lambda piece, order, hi, end, off: range(off + 1, off + len(piece) + 1)
    if f.name in ("rank", "dense_rank"):
        return _ranks(f.name == "rank", peer_keys)
    return _running(f, cols, peer_key, peer_keys)


def _ranks(rank, peer_keys):
    state = [None, 0, 0]  # previous key, its rank, dense rank

    def compute(piece, order, hi, end, off):
        prev, r, dense = state
        out = []
        for j, k in enumerate(peer_keys(piece), off + 1):
            if j == 1 or k != prev:
                prev, r, dense = k, j, dense + 1
            out.append(r if rank else dense)
        state[:] = [prev, r, dense]
        return out

    return compute


def _running(f, cols, peer_key, peer_keys):
    """Running SUM / MIN / MAX / COUNT(*): the row path's fold (engine.exec.window_functions
    _running_fold) over the argument read in the window's order; with a RANGE frame every row
    takes the value of its last peer."""
    fn = {"sum": None, "count": None, "min": min, "max": max}[f.name]
    arg = cols[f.args[0]] if f.args else None
    total = total_wrapper(f.arg_type) if f.name == "sum" else None
    peers = f.frame[0] == "RANGE"
    state = [None]
    # (end, fold through it) of the last peer group found going on past a piece: scanned and
    # folded once for all the pieces it spans (as the row path's _running_fold)
    group_end = [0, None]

    def fold(rows, start):
        values = [1] * len(rows) if arg is None else _picker(rows)(arg)
        return list(accumulate(values, fn)) if start is None else list(accumulate(values, fn, initial=start))[1:]

    def compute(piece, order, hi, end, off):
        out = fold(piece, state[0])
        state[0] = out[-1]
        if peers:
            keys = list(peer_keys(piece))
            last = keys[-1]
            if hi < group_end[0]:  # the piece ends inside the group an earlier piece ran into
                top = group_end[0]
            else:
                top = hi  # past the rows after the piece that are peers of its last row
                while top < end and peer_key(order[top]) == last:
                    top += 1
                if top > hi:
                    group_end[:] = [top, fold(order[hi:top], out[-1])[-1]]
            if top > hi:
                out.append(group_end[1])
                keys.append(last)
            # peers sit side by side (the rows are sorted by the keys)
            if any(map(eq, keys, islice(keys, 1, None))):
                for j in range(len(keys) - 2, -1, -1):
                    if keys[j] == keys[j + 1]:
                        out[j] = out[j + 1]
            if top > hi:
                out.pop()
        return out if total is None else list(map(total, out))

    return compute
