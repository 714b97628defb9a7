"""Sorts in bounded steps: runs of at most Limits.sort_run_rows are sorted one per step, then
merged a step budget of rows per step; ORDER BY ... LIMIT k keeps a heap of the best k rows.

Merging takes, in each step, a prefix of every run whose rows are known to come before anything
not taken yet, and sorts just those (CPython's sort merges the pre-sorted pieces in linear time),
so a step touches at most the budget of rows whatever the directions of the keys. Equal keys
keep their input order, as one stable sort of everything would.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from itertools import chain
from operator import itemgetter

from engine.codegen.compile import Codegen
from engine.codegen.sort_keys import sort_passes, sort_rows
from engine.core.memory import LIST_SLOT_BYTES, SORT_SLOT_BYTES, batch_bytes, charge_growth
from engine.exec.column_scan import plain_columns, top_k_columns
from engine.exec.sort_columns import sorted_columns
from engine.types.keys import rows_key


def sort_in_steps(rows, passes, run_rows, budget):
    """A generator sorting the list `rows` as one stable sort by `passes` would, returning the
    sorted list (`yield from`): at once and in place when it fits one run; otherwise one run of
    at most `run_rows` rows sorted, or `budget` rows merged, per step, each followed by a None."""
    if len(rows) <= run_rows:
        return sort_rows(rows, passes)
    runs = []
    for i in range(0, len(rows), run_rows):
        runs.append(sort_rows(rows[i:i + run_rows], passes))
        yield None
    out: list = []
    for merged in _merge_runs(runs, passes, budget):
        out += merged
        yield None
    return out


def build_sort(plan, rt, limit=None, offset=0):
    """ORDER BY (with `limit`: ORDER BY ... LIMIT limit OFFSET offset)."""
    budget = rt.step_rows
    # a top-k heap while it stays within the budget; a larger k is a full sort cut to the limit
    top_k = limit is not None and limit + offset <= budget
    # top-k walks each batch once (heap selection); a full sort extends its buffer with whole lists
    if top_k:
        child_run = rt.build_one_pass(plan.child)
    else:
        child_run = plain_columns(plan.child, rt) or rt.build(plan.child)
    passes = sort_passes(plan.keys, plan.child, rt.nonnull)
    out_rows = rt.batch
    run_rows = max(1, rt.ctx.limits.sort_run_rows)
    better = None
    if top_k and len(plan.keys) == 1 and isinstance(getattr(passes[0][0], "plain", passes[0][0]), itemgetter):
        # one NULL-free key: once k rows are held, a generated comprehension keeps only the rows
        # of a batch that beat the k-th key (strictly, as the heap would), so the heap selection
        # runs on a few candidates instead of every row. The k-th key of a float column may be
        # NAN_LAST, and a NaN beats every float in a descending order: `not v <= t` keeps it
        pos, desc = plan.keys[0][0], plan.keys[0][1]
        test = f"not r[{int(pos)}] <= t" if desc else f"r[{int(pos)}] < t"
        better = Codegen().build(["b", "t"], [f"return [r for r in b if {test}]"])
        key_id = plan.child.layout[pos]
        nan_free = not plan.types[pos].is_float or key_id in rt.nonnan
        over_columns = top_k_columns(plan, rt, limit, offset, passes, nan_free)
        if over_columns is not None:
            return over_columns

    def run_top_k(p):
        k = limit + offset
        if k == 0:
            return
        best = []
        held = 0  # memory: most rows `best` held so far (charged)
        if len(passes) == 1:
            key, reverse = passes[0]
            pick = heapq.nlargest if reverse else heapq.nsmallest
            for batch in child_run(p):
                if batch:
                    if better is not None and len(best) == k:
                        batch = better(batch, key(best[-1]))  # best is sorted: [-1] is k-th
                    if batch:
                        candidates = best + batch if isinstance(batch, list) else list(chain(best, batch))
                        best = pick(k, candidates, key=rows_key(key, candidates))
                        held = charge_growth(rt.memory, best, held, LIST_SLOT_BYTES)
                yield []
        else:
            for batch in child_run(p):
                if batch:
                    best.extend(batch)
                    held = charge_growth(rt.memory, best, held, SORT_SLOT_BYTES + LIST_SLOT_BYTES)
                    if len(best) > max(4 * k, out_rows):
                        best = sort_rows(best, passes)[:k]
                yield []
            best = sort_rows(best, passes)[:k]
        rows = best[offset:]
        for i in range(0, len(rows), out_rows):
            yield rows[i:i + out_rows]

    def run_sorted(p):
        runs = []
        rows = []
        for batch in child_run(p):
            rt.memory.charge(batch_bytes(batch, SORT_SLOT_BYTES))
            rows.extend(batch)
            if len(rows) == run_rows:  # the usual case (batches divide the run): no copy
                runs.append(sort_rows(rows, passes))
                rows = []
            while len(rows) >= run_rows:
                runs.append(sort_rows(rows[:run_rows], passes))  # one run sorted per step
                rows = rows[run_rows:]
            yield []
        if rows or not runs:
            runs.append(sort_rows(rows, passes))
        if len(runs) == 1:
            rows = runs[0]
            for i in range(0, len(rows), out_rows):
                yield rows[i:i + out_rows]
            return
        for merged in _merge_runs(runs, passes, budget):
            for i in range(0, len(merged), out_rows):
                yield merged[i:i + out_rows]

    # over columns with numpy: the row numbers ordered by the key columns (the row path when not)
    by_numbers = None if top_k else sorted_columns(plan, rt, run_rows, run_sorted)

    def run(p):
        rows = (by_numbers or run_sorted)(p)
        if limit is None and not offset:
            return rows
        return limit_batches(rows, limit, offset)

    return run_top_k if top_k else run


def limit_batches(batches, limit, offset):
    """The batches of a sorted stream, without the first `offset` rows and after `limit` rows."""
    skip, remaining = offset, limit
    try:
        for batch in batches:
            if skip:
                if len(batch) <= skip:
                    skip -= len(batch)
                    yield []
                    continue
                batch = batch[skip:]
                skip = 0
            if remaining is not None:
                if len(batch) >= remaining:
                    yield batch[:remaining]
                    return
                remaining -= len(batch)
            yield batch
    finally:
        batches.close()


class _Reversed:
    """A key whose order is the reverse of the wrapped key's."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __lt__(self, other):
        return other.key < self.key


class _PassKeys:
    """The keys of one row for every pass, ordered as the passes sort (most significant first,
    each ascending or descending): lets a merge compare rows one at a time."""

    __slots__ = ("keys",)
    reverse: tuple = ()

    def __init__(self, keys):
        self.keys = keys

    def __lt__(self, other):
        for a, b, reverse in zip(self.keys, other.keys, self.reverse, strict=False):
            if a != b:
                return b < a if reverse else a < b
        return False


def _order_key(passes):
    """row -> a key ordering rows as `sort_rows(rows, passes)` does."""
    if len(passes) == 1:
        key, reverse = passes[0]
        return key if not reverse else lambda r: _Reversed(key(r))
    keys = [key for key, _ in passes]

    class Keys(_PassKeys):
        __slots__ = ()
        reverse = tuple(r for _, r in passes)

    return lambda r: Keys([key(r) for key in keys])


def _merge_runs(runs, passes, budget):
    """Sorted runs merged into batches of at most `budget` rows, one batch per step.

    Each step looks at the next `budget // len(runs)` rows of every run. The smallest of their
    last keys, t, bounds what may go out now: every row ordered before t is among them, and so
    are the rows equal to t from runs up to the first one whose slice ends at t (later runs' rows
    equal to t wait, keeping equal keys in run order). Those prefixes are concatenated in run order
    and sorted stably."""
    order = _order_key(passes)
    pos = [0] * len(runs)
    active = list(range(len(runs)))
    while len(active) > 1:
        width = max(1, budget // len(active))
        ends = [min(pos[i] + width, len(runs[i])) for i in active]
        lasts = [order(runs[i][end - 1]) for i, end in zip(active, ends, strict=False)]
        first = min(range(len(active)), key=lasts.__getitem__)  # min keeps the first of equals
        t = lasts[first]
        out = []
        for n, (i, end) in enumerate(zip(active, ends, strict=False)):
            run, lo = runs[i], pos[i]
            if n < first:
                cut = bisect_right(run, t, lo, end, key=order)
            elif n == first:
                cut = end
            else:
                cut = bisect_left(run, t, lo, end, key=order)
            if cut > lo:
                out += run[lo:cut]
                pos[i] = cut
        yield sort_rows(out, passes)
        for i in active:
            if pos[i] == len(runs[i]):
                runs[i] = None  # let a finished run go
        active = [i for i in active if runs[i] is not None]
    for i in active:
        run = runs[i]
        for lo in range(pos[i], len(run), budget):
            yield run[lo:lo + budget]
