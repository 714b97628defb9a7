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
from engine.core.errors import Unimplemented
from engine.core.memory import LIST_SLOT_BYTES, SORT_SLOT_BYTES, batch_bytes, charge_growth
from engine.ir import plan as P
from engine.ir.expr import Col
from engine.types.keys import NAN_LAST, float_column_key, rows_key
from engine.types.type_debug import rust_debug
from engine.types.variant import variant_sort_key


def _refuse_bitmap_keys(keys, child) -> None:
    """Databend 1.2.453 sorts no BITMAP (ORDER BY, a window's ORDER BY / PARTITION BY): 1002,
    naming every key of the sort as its Rust debug form does."""
    if any(child.types[pos].name == "Bitmap" for pos, _, _ in keys):
        fields = ", ".join(f"SortField {{ data_type: {rust_debug(child.types[pos])}, asc: {str(not desc).lower()}, "
                           f"nulls_first: {str(bool(nulls_first)).lower()} }}" for pos, desc, nulls_first in keys)
        raise Unimplemented(f"Row format is not yet support for [{fields}]")


def _sort_passes(keys, child, nonnull):
    """[(key function, reverse)] to apply as successive stable sorts (last key first)."""
    _refuse_bitmap_keys(keys, child)
    groups = []
    for pos, desc, nulls_first in keys:
        nullable = child.types[pos].can_be_null and child.layout[pos] not in nonnull
        if nulls_first is None:
            nulls_first = False
        groups.append((pos, desc, nulls_first, nullable))
    # merge adjacent nullable keys with the same direction into one tuple key; a NULL-free key
    # is a pass of its own (an itemgetter: a stable sort on plain values is several times faster
    # than one on tuples of them)
    passes = []
    nan_free = nan_free_columns(child)
    # positions of float keys whose values come from a table column holding no NaN: plain keys
    plain_floats = {pos for pos, _, _, _ in groups if child.layout[pos] in nan_free} if nan_free else set()
    i = 0
    while i < len(groups):
        j = i
        while groups[i][3] and j + 1 < len(groups) and groups[j + 1][1] == groups[i][1] and groups[j + 1][3]:
            j += 1
        if child.types[groups[i][0]].name == "Variant":  # in Databend's order of VARIANT values
            j = i
            passes.append((variant_sort_key(*groups[i]), groups[i][1]))
        else:
            passes.append((_key_function(groups[i:j + 1], child.types, plain_floats), groups[i][1]))
        i = j + 1
    return passes


def nan_free_columns(plan) -> set:
    """Ids of the columns of `plan`'s output whose values are those of a table column that holds
    no NaN (Table.nan_free) in the snapshot the plan scans: found through the operators that pass
    a column's values on unchanged (filters, plain projections, joins, limits, sorts, windows).
    A table whose row list was replaced since the plan was made is not trusted."""
    if isinstance(plan, P.Scan):
        table = plan.table
        nan_free = getattr(table, "nan_free", None)
        if nan_free is None or plan.rows is not table.rows:
            return set()
        return {cid for cid, free in zip(plan.layout, nan_free, strict=False) if free}
    if isinstance(plan, P.Project):
        below = nan_free_columns(plan.child)
        return {cid for cid, e in zip(plan.layout, plan.exprs, strict=False)
                if isinstance(e, Col) and e.column in below}
    if isinstance(plan, P.Filter | P.Join | P.Limit | P.Sort | P.Window):
        free = set().union(*map(nan_free_columns, plan.children()))
        return free.intersection(plan.layout)
    return set()


def _key_function(group, types, plain_floats=frozenset()):
    # float columns: a NaN sorts after every float (nested values keep Python's tuple order),
    # but for a column known to hold none (`plain_floats`), whose values sort as they are
    floats = {pos for pos, _, _, _ in group if types[pos].is_float and pos not in plain_floats}
    if not any(nullable for _, _, _, nullable in group):
        if floats:  # one NULL-free float column (such a pass has one key)
            return float_column_key(group[0][0])
        return itemgetter(*[pos for pos, _, _, _ in group])  # one value, or a tuple of several
    cg = Codegen()
    parts = []
    for pos, desc, nulls_first, nullable in group:
        if nullable:
            # sorted ascending by (flag, value) then maybe reversed: the flag puts NULLs where asked
            # (two NULLs have equal flags and equal values, so None is never compared with <)
            null_flag_high = nulls_first == desc
            parts.append(f"(r[{pos}] is None)" if null_flag_high else f"(r[{pos}] is not None)")
        if pos in floats:  # NaN after every float, as Databend orders it (None passes)
            parts.append(f"(r[{pos}] if r[{pos}] == r[{pos}] else {cg.bind(NAN_LAST)})")
        else:
            parts.append(f"r[{pos}]")
    return cg.build(["r"], [f"return ({', '.join(parts)},)"])


def _sort_rows(rows, passes):
    for key, reverse in reversed(passes):
        rows.sort(key=rows_key(key, rows), reverse=reverse)
    return rows


def sort_rows(rows, passes):
    """The list `rows` sorted in place by `passes` (see sort_passes) at once, and returned."""
    return _sort_rows(rows, passes)


def sort_passes(keys, child, nonnull):
    """[(key function, reverse)] sorting rows of `child` by `keys` ((position, desc,
    nulls_first)) as ORDER BY does, for `sort_in_steps`; refuses BITMAP keys as a sort does."""
    return _sort_passes(keys, child, nonnull)


def sort_in_steps(rows, passes, run_rows, budget):
    """A generator sorting the list `rows` as one stable sort by `passes` would, returning the
    sorted list (`yield from`): at once and in place when it fits one run; otherwise one run of
    at most `run_rows` rows sorted, or `budget` rows merged, per step, each followed by a None."""
    if len(rows) <= run_rows:
        return _sort_rows(rows, passes)
    runs = []
    for i in range(0, len(rows), run_rows):
        runs.append(_sort_rows(rows[i:i + run_rows], passes))
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
    child_run = rt.build_one_pass(plan.child) if top_k else rt.build(plan.child)
    passes = _sort_passes(plan.keys, plan.child, rt.nonnull)
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
                        best = _sort_rows(best, passes)[:k]
                yield []
            best = _sort_rows(best, passes)[:k]
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
                runs.append(_sort_rows(rows, passes))
                rows = []
            while len(rows) >= run_rows:
                runs.append(_sort_rows(rows[:run_rows], passes))  # one run sorted per step
                rows = rows[run_rows:]
            yield []
        if rows or not runs:
            runs.append(_sort_rows(rows, passes))
        if len(runs) == 1:
            rows = runs[0]
            for i in range(0, len(rows), out_rows):
                yield rows[i:i + out_rows]
            return
        for merged in _merge_runs(runs, passes, budget):
            for i in range(0, len(merged), out_rows):
                yield merged[i:i + out_rows]

    def run(p):
        rows = run_sorted(p)
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
    """row -> a key ordering rows as `_sort_rows(rows, passes)` does."""
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
        yield _sort_rows(out, passes)
        for i in active:
            if pos[i] == len(runs[i]):
                runs[i] = None  # let a finished run go
        active = [i for i in active if runs[i] is not None]
    for i in active:
        run = runs[i]
        for lo in range(pos[i], len(run), budget):
            yield run[lo:lo + budget]
