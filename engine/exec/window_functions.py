"""Window function evaluators: for one partition (a list of rows sorted by the window's ORDER
BY), each evaluator computes the values of consecutive row ranges [lo, hi), keeping running
state between ranges, so a partition is computed a step budget of rows at a time.

Frames move forward only (both ends never go back as the row advances), so aggregates slide:
rows entering the frame are added and rows leaving it removed (min/max keep a monotonic
deque); a frame starting at UNBOUNDED PRECEDING only ever adds. Work is amortized O(1) per row.
"""

from __future__ import annotations

import decimal
from collections import Counter, deque
from itertools import accumulate
from operator import add, itemgetter

from engine.types.integer_wrap import total_wrapper, wrapped_mean
from engine.types.keys import greatest, hash_value, least, sort_value


def constant_key(_row):
    return None


class Peers:
    """Peer groups (rows with equal ORDER BY keys) of a partition, found by a forward pointer."""

    __slots__ = ("rows", "key", "n", "start", "end")

    def __init__(self, rows, key):
        self.rows = rows
        self.key = key
        self.n = len(rows)
        self.start = 0
        self.end = 0

    def group(self, i):
        """(first, last + 1) of the peer group of row i; i never goes back."""
        if i >= self.end:
            rows, key, n = self.rows, self.key, self.n
            k = key(rows[i])
            j = i + 1
            while j < n and key(rows[j]) == k:
                j += 1
            self.start, self.end = i, j
        return self.start, self.end


class Frame:
    """The frame bounds [start, end) of consecutive rows of a partition."""

    def __init__(self, frame, rows, key, order_key, desc, nulls_first=False):
        units, (self.skind, self.soff), (self.ekind, self.eoff) = frame
        self.rows = rows
        self.n = len(rows)
        self.range = units == "RANGE"
        self.peers = Peers(rows, key) if self.range else None
        self.value = order_key  # the one ORDER BY value (RANGE with offsets)
        self.desc = desc
        self.nulls_first = nulls_first
        self.s = 0  # forward pointers of RANGE offset bounds
        self.e = 0

    def bounds(self, lo, hi):
        n = self.n
        if not self.range:
            starts = self._rows_bound(self.skind, self.soff, lo, hi, 0)
            ends = self._rows_bound(self.ekind, self.eoff, lo, hi, 1)
        else:
            starts, ends = [], []
            for i in range(lo, hi):
                s, e = self._range_bounds(i)
                starts.append(s)
                ends.append(e)
        return [(s, e if e > s else s) for s, e in zip(starts, ends, strict=False)], n

    def _rows_bound(self, kind, off, lo, hi, shift):
        n = self.n
        if kind == "UNBOUNDED PRECEDING":
            return [0] * (hi - lo)
        if kind == "UNBOUNDED FOLLOWING":
            return [n] * (hi - lo)
        d = shift + (0 if kind == "CURRENT ROW" else int(off) if kind == "FOLLOWING" else -int(off))
        return [min(max(i + d, 0), n) for i in range(lo, hi)]

    def _range_bounds(self, i):
        n = self.n
        skind, ekind = self.skind, self.ekind
        if skind == "UNBOUNDED PRECEDING":
            s = 0
        elif skind == "CURRENT ROW":
            s = self.peers.group(i)[0]
        else:
            s = None
        if ekind == "UNBOUNDED FOLLOWING":
            e = n
        elif ekind == "CURRENT ROW":
            e = self.peers.group(i)[1]
        else:
            e = None
        if s is None or e is None:
            v = self.value(self.rows[i])
            if v is None:
                # as Databend 1.2.453: a NULL row's offset bounds are its peer group's bounds,
                # but UNBOUNDED PRECEDING .. n PRECEDING after values keeps the last value's end
                first, last = self.peers.group(i)
                if e is None:
                    e = self.e if ekind == "PRECEDING" and skind == "UNBOUNDED PRECEDING" and first > 0 else last
                return (first if s is None else s), e
            if s is None:
                s = self._range_start(v, skind, self.soff)
            if e is None:
                e = self._range_end(v, ekind, self.eoff)
        return s, e

    def _range_start(self, v, kind, off):
        """The first row whose value is within the start bound (values ascend, or descend with
        desc). As in Databend 1.2.453, NULLs count as beyond every value on their side: skipped
        when they come first, within a FOLLOWING start's reach when they come last."""
        if self.desc:
            limit = v + off if kind == "PRECEDING" else v - off
        else:
            limit = v - off if kind == "PRECEDING" else v + off
        rows, value, desc, n = self.rows, self.value, self.desc, self.n
        s = self.s
        while s < n:
            x = value(rows[s])
            if x is None:
                if not self.nulls_first:
                    break
                s += 1
                continue
            if x > limit if desc else x < limit:
                s += 1
                continue
            break
        self.s = s
        return s

    def _range_end(self, v, kind, off):
        """One past the last row whose value is within the end bound."""
        if self.desc:
            limit = v - off if kind == "FOLLOWING" else v + off
        else:
            limit = v + off if kind == "FOLLOWING" else v - off
        rows, value, desc, n = self.rows, self.value, self.desc, self.n
        e = self.e
        while e < n:
            x = value(rows[e])
            if x is None:
                if e < self.s or (e > 0 and value(rows[e - 1]) is None):
                    e += 1  # NULLs first: they come before every value
                    continue
                if e == 0:
                    e += 1
                    continue
                break
            if (x < limit) if desc else (x > limit):
                break
            e += 1
        self.e = e
        return e


# ---------------------------------------------------------------- ranking


def make_ranking(func, order_key):
    name = func.name
    key = order_key or constant_key

    def row_number(rows):
        return lambda lo, hi: range(lo + 1, hi + 1)

    def ranks(rows):
        peers = Peers(rows, key)
        n = len(rows)
        state = [0, 0]  # dense rank so far, start of the current group

        def compute(lo, hi):
            out = []
            for i in range(lo, hi):
                first, last = peers.group(i)
                if first == i:
                    state[0] += 1
                if name == "rank":
                    out.append(first + 1)
                elif name == "dense_rank":
                    out.append(state[0])
                elif name == "percent_rank":
                    out.append(first / (n - 1) if n > 1 else 0.0)
                else:  # cume_dist
                    out.append(last / n)
            return out

        return compute

    def ntile(rows):
        buckets = func.params[0]
        n = len(rows)
        size, extra = divmod(n, buckets)
        big = extra * (size + 1)

        def bucket(i):
            if i < big:
                return i // (size + 1) + 1
            return (i - big) // size + extra + 1

        return lambda lo, hi: [bucket(i) for i in range(lo, hi)]

    if name == "row_number":
        return row_number
    if name == "ntile":
        return ntile
    return ranks


# ---------------------------------------------------------------- values


def make_value(func, frame_of):
    name = func.name
    pos = func.args[0]
    if name in ("lag", "lead"):
        offset, default = func.params
        if name == "lag":
            offset = -offset

        def shifted(rows):
            n = len(rows)
            return lambda lo, hi: [rows[j][pos] if 0 <= (j := i + offset) < n else default
                                   for i in range(lo, hi)]

        return shifted
    nth = func.params[0] if name == "nth_value" else 1

    def framed(rows):
        frame = frame_of(rows)

        def compute(lo, hi):
            bounds, _ = frame.bounds(lo, hi)
            if name == "last_value":
                return [rows[e - 1][pos] if e > s else None for s, e in bounds]
            return [rows[s + nth - 1][pos] if s + nth - 1 < e else None for s, e in bounds]

        return compute

    return framed


# ---------------------------------------------------------------- aggregates


def make_aggregate(func, frame_of, running, peer_key=None, nullable=True, whole=False):
    """`running`: the frame is UNBOUNDED PRECEDING .. CURRENT ROW, of ROWS, or of RANGE with
    `peer_key` (then a row's value is the fold through its last peer). `nullable`: whether the
    argument column may hold NULLs. `whole`: every row's frame is the whole partition."""
    if func.collected is not None:
        return _collected(func, frame_of)
    name = func.name
    pos = func.args[0] if func.args else None
    final = _final(func)
    # float arguments: MIN/MAX in Databend's order (a NaN the greatest), every NaN one DISTINCT value
    floats = pos is not None and func.arg_type is not None and func.arg_type.is_float
    if running and not func.distinct and (name in ("sum", "min", "max") and pos is not None
                                          or name == "count" and pos is None):
        total = total_wrapper(func.arg_type) if name == "sum" else None
        fold = _running_fold(name, pos, peer_key, nullable and pos is not None, floats)
        return fold if total is None else _mapped(fold, total)

    def sliding(rows):
        frame = frame_of(rows)
        acc = _Sliding(name, func.distinct, rows, pos, floats)

        def compute(lo, hi):
            bounds, _ = frame.bounds(lo, hi)
            move = acc.move
            return [final(move(s, e)) for s, e in bounds]

        def compute_whole(lo, hi):
            if not value:  # (the first frame was folded by `prepare`, when the partition is large)
                value.append(final(acc.move(0, len(rows))))
            return [value[0]] * (hi - lo)

        value: list = []  # with `whole`: the one frame's value, once folded

        def prepare(step):
            """Fold the first row's frame (up to the whole partition) a step of rows at a time."""
            if not rows:
                return
            (s, e), = frame.bounds(0, 1)[0]
            for end in range(s + step, e + step, step):
                acc.move(s, min(end, e))
                yield

        compute = compute_whole if whole else compute
        compute.prepare = prepare
        return compute

    return sliding


_FOLDS = {"sum": add, "count": add, "min": min, "max": max}


def _nan_min(a, b):
    """min(a, b) of floats in Databend's order: a NaN is the greatest."""
    return a if a <= b or b != b else b


def _nan_max(a, b):
    """max(a, b) of floats in Databend's order: a NaN is the greatest."""
    return a if b <= a or a != a else b


_NAN_FOLDS = {"min": _nan_min, "max": _nan_max}


def _mapped(evaluator, fn):
    """`evaluator` with `fn` applied to each value it gives (an integer SUM's running totals are
    kept exact and wrapped only as they are given out)."""

    def for_rows(rows):
        compute = evaluator(rows)
        return lambda lo, hi: list(map(fn, compute(lo, hi)))

    return for_rows


def _running_fold(name, pos, peer_key, nullable=True, floats=False):
    """SUM/MIN/MAX of the column at `pos`, or COUNT(*) (pos None: the sum of a 1 per row), over
    a running frame: itertools.accumulate over each piece of values (a C-level fold when the
    piece holds no NULL: the argument column holds none, or the piece has none), then, for
    RANGE frames, every row takes the value of its last peer. MIN/MAX of `floats` fold in
    Databend's order (a NaN the greatest) where the piece or the fold so far holds a NaN."""
    nan_op = _NAN_FOLDS.get(name) if floats else None
    op = nan_op or _FOLDS[name]
    builtin = _FOLDS[name]
    getter = itemgetter(pos) if pos is not None else None

    def skip_null(a, b):
        if b is None:
            return a
        return b if a is None else op(a, b)

    def run(values, start):
        if nullable and None in values:
            fn = skip_null
        elif name in ("min", "max"):
            fn = builtin
            if nan_op is not None:
                total = sum(values)  # C's float sum: NaN only with a NaN (or both infinities) in
                if total != total or start != start:
                    fn = nan_op
        else:
            fn = None  # (accumulate adds with no function: no call per value)
        # (accumulate reads initial=None as no initial value: the first value starts the fold)
        return list(accumulate(values, fn)) if start is None else list(accumulate(values, fn, initial=start))[1:]

    def fold(rows):
        state = [None]  # the fold of the rows before the piece
        peers = Peers(rows, peer_key) if peer_key is not None else None
        group_end = [None, None]  # (end, value) of a peer group reaching past a piece, once folded

        def values(piece):
            return [1] * len(piece) if pos is None else list(map(getter, piece))

        def compute(lo, hi):
            if hi <= lo:
                return []
            piece = rows if hi - lo == len(rows) else rows[lo:hi]
            running = run(values(piece), state[0])
            state[0] = running[-1]
            top = peers.group(hi - 1)[1] if peers is not None else hi
            if peers is None or top == hi and _distinct(piece, peer_key):
                return running
            if top > hi and group_end[0] != top:
                # the last peer group goes on past the piece: its value is the fold through its end,
                # folded once for all the pieces it spans
                group_end[:] = [top, run(values(rows[hi:top]), running[-1])[-1]]
            # each row takes the value at its last peer: peer group ends found walking back
            keys = list(map(peer_key, piece))
            out = [None] * (hi - lo)
            value = group_end[1] if top > hi else running[-1]
            for j in range(hi - lo - 1, -1, -1):
                if j < hi - lo - 1 and keys[j] != keys[j + 1]:
                    value = running[j]
                out[j] = value
            return out

        return compute

    return fold


def _distinct(rows, key):
    """Whether `rows` have pairwise different keys (no peers: a running ROWS fold)."""
    try:
        return len(set(map(key, rows))) == len(rows)
    except TypeError:  # unhashable keys: check neighbours
        keys = list(map(key, rows))
        return all(a != b for a, b in zip(keys, keys[1:], strict=False))


def _collected(func, frame_of):
    """A collected aggregate (median, string_agg...) over each row's frame: computed once for
    a frame covering the whole partition, and once per distinct frame otherwise (rows of a
    peer group share theirs); the values of a frame are gathered anew, O(frame) per frame."""
    final, params = func.collected.final, func.params
    getter = itemgetter(*func.args)
    whole = func.frame[1][0] == "UNBOUNDED PRECEDING" and func.frame[2][0] == "UNBOUNDED FOLLOWING"

    def value(rows, s, e):
        values = list(map(getter, rows[s:e]))
        if func.distinct:
            values = list(dict.fromkeys(values))
        return final(values, params)

    def for_rows(rows):
        frame = frame_of(rows)
        last = [None, None]  # the previous frame and its value

        def compute(lo, hi):
            if whole:
                if last[0] is None:
                    last[:] = [(0, len(rows)), value(rows, 0, len(rows))]
                return [last[1]] * (hi - lo)
            bounds, _ = frame.bounds(lo, hi)
            out = []
            for s, e in bounds:
                if last[0] != (s, e):
                    last[:] = [(s, e), value(rows, s, e)]
                out.append(last[1])
            return out

        return compute

    return for_rows


class _Sliding:
    """The aggregate state of the rows [s, e) of a partition, moved forward one frame at a time."""

    def __init__(self, name, distinct, rows, pos, floats=False):
        self.name = name
        self.distinct = distinct
        self.floats = floats  # float values: compared by their sort keys, DISTINCT by hash keys
        self.rows = rows
        self.pos = pos
        self.s = 0
        self.e = 0
        self.reset()

    def reset(self):
        self.count = 0
        self.total = None
        self.values = Counter() if self.distinct else None
        self.extreme = deque()  # min/max/any: indices of candidate rows

    def move(self, s, e):
        if s >= self.e or s < self.s:
            self.reset()
            self.s = self.e = s
        add, remove = self._add, self._remove
        for i in range(self.e, e):
            add(i)
        for i in range(self.s, s):
            remove(i)
        self.s, self.e = s, max(e, s)
        return self

    def _value(self, i):
        return 1 if self.pos is None else self.rows[i][self.pos]

    def _add(self, i):
        v = self._value(i)
        if v is None:
            return
        name = self.name
        if self.distinct:
            self.values[hash_value(v) if self.floats else v] += 1
            return
        self.count += 1
        if name in ("sum", "avg"):
            self.total = v if self.total is None else self.total + v
        elif name in ("min", "max"):
            dq = self.extreme
            rows, pos = self.rows, self.pos
            if self.floats:
                self._add_float_extreme(i, sort_value(v))
                return
            if name == "min":
                while dq and rows[dq[-1]][pos] > v:
                    dq.pop()
            else:
                while dq and rows[dq[-1]][pos] < v:
                    dq.pop()
            dq.append(i)
        elif name == "any":
            self.extreme.append(i)

    def _add_float_extreme(self, i, key):
        """min/max of floats: the monotonic deque kept by sort keys (a NaN the greatest)."""
        dq, rows, pos = self.extreme, self.rows, self.pos
        if self.name == "min":
            while dq and sort_value(rows[dq[-1]][pos]) > key:
                dq.pop()
        else:
            while dq and sort_value(rows[dq[-1]][pos]) < key:
                dq.pop()
        dq.append(i)

    def _remove(self, i):
        v = self._value(i)
        if v is None:
            return
        if self.distinct:
            if self.floats:
                v = hash_value(v)
            self.values[v] -= 1
            if not self.values[v]:
                del self.values[v]
            return
        self.count -= 1
        name = self.name
        if name in ("sum", "avg"):
            self.total = None if self.count == 0 else self.total - v
        elif self.extreme and self.extreme[0] == i:
            self.extreme.popleft()

    def result(self):
        """(count, total, extreme value) of the frame."""
        if self.distinct:
            values = list(self.values)
            name = self.name
            if name in ("min", "max"):
                return len(values), None, (least(values) if name == "min" else greatest(values)) if values else None
            return len(values), sum(values) if values else None, values[0] if values else None
        extreme = self.rows[self.extreme[0]][self.pos] if self.extreme else None
        return self.count, self.total, extreme


def _final(func):
    name = func.name
    if name == "count":
        return lambda acc: acc.result()[0]
    if name == "sum":
        total = total_wrapper(func.arg_type)
        if total is not None:  # integers: the total wrapped as Databend's
            return lambda acc: total(acc.result()[1])
        return lambda acc: acc.result()[1]
    if name == "avg":
        integers = wrapped_mean(func.arg_type)
        if integers is not None:

            def integer_average(acc):
                count, total, _ = acc.result()
                return integers(total, count)

            return integer_average
        if func.type.name == "Decimal":
            unit = decimal.Decimal(1).scaleb(-func.type.scale)
            context = decimal.Context(prec=100)

            def mean(acc):
                count, total, _ = acc.result()
                if count == 0:
                    return None
                return context.divide(decimal.Decimal(total), count).quantize(
                    unit, rounding=decimal.ROUND_DOWN, context=context)

            return mean

        def average(acc):
            count, total, _ = acc.result()
            return None if count == 0 else float(total) / count

        return average
    return lambda acc: acc.result()[2]
