"""Operators that read a table kept column by column (engine.catalog.column_data.ColumnData)
column-wise instead of row by row (issue 24): a filter/projection loops over just the columns it
reads, a filter that reads more columns than it tests picks the kept rows by number, DISTINCT of
plain columns takes their values whole, and ORDER BY ... LIMIT skips the batches whose key column
holds nothing better than the rows held. Each is used only when the scan's storage says it is
`columnar`; the row path stays the one for row storage."""

from __future__ import annotations

import heapq
import operator
import re
import weakref
from array import array
from itertools import islice, repeat
from math import isnan

from engine.codegen.batch_source import RowVars, map_source, prefetching_body, row_vars
from engine.core.memory import LIST_SLOT_BYTES, charge_growth
from engine.core.steps import rows_for_cost
from engine.core.vectors import vectorised
from engine.exec.column_filters import (
    compile_selection,
    exact_codes,
    kept_rows_function,
    kept_values,
)
from engine.exec.dictionary_filters import batch_codes
from engine.exec.subquery import prefetching
from engine.ir import plan as P
from engine.ir.expr import Col, column_ids
from engine.types.keys import sort_value

# key values a top-k over columns tests at once for one beating the k-th key held (a smaller block
# skips more of the values that do not: fewer of them are walked by a Python comprehension)
TOP_K_BLOCK = 256


def columnar_map(scan: P.Scan, rt, cg, pred, exprs, reads, as_set):
    """A filter and/or projection over a scan of a table kept column by column: the generated
    comprehension loops over just the columns it reads, zipped (`for _c0, _c2 in b`), so no
    other column is touched. Filtered rows without a projection keep the scan's layout, the
    columns nobody reads None. None when the code reads no column at all (or a subquery runs
    per row, or calls declared costly make a step take fewer rows): the caller builds the row
    path."""
    cols = row_vars(scan)
    if cols is None:
        return None
    if exprs is None:
        found = rt.scan_reads.of(scan)
        read = found if reads is None else reads if found is None else found & set(reads)
        proj = "(" + "".join((cols[cid] if read is None or cid in read else "None") + ", "
                             for cid in scan.layout) + ")"
        cond = "" if pred is None else " if " + cg.pred(pred, cols)
    else:
        proj, cond = map_source(cg, scan.layout, pred, exprs, cols=cols)
        if proj == "r":  # an identity projection: the rows as the scan makes them
            return None
    if not cols.used or cg.correlated or rows_for_cost(cg.row_cost, rt.batch) < rt.batch:
        return None  # (calls declared costly: the row path takes fewer rows a step)
    positions = tuple(i for i in range(len(scan.layout)) if f"_c{i}" in cols.used)
    # calls evaluated out of process (jq) prefetch a batch's arguments in one request: the
    # zipped comprehension below does, as the row path does (engine.codegen.batch_source)
    if pred is not None and not as_set and not cg.prefetched:
        run = selected_rows(scan, rt, cg, pred, proj, positions)
        if run is not None:  # a filter with simple conjuncts, run column-wise
            return run
        tested = set()
        column_ids(pred, tested)
        if len(tested) < len(positions):  # columns read only of the rows kept
            return _selected_map(scan, rt, cg, pred, proj, positions)
    target = ", ".join(f"_c{i}" for i in positions) + ("," if len(positions) == 1 else "")
    scalar = as_set and exprs is not None and len(exprs) == 1
    if scalar:
        proj = cg.expr(exprs[0], cols)  # a set of plain values, as _build_map makes
    brackets = "{}" if as_set else "[]"
    if not cond and proj == "(" + target.rstrip(",") + ", )":  # the zipped rows are the output rows
        fn = cg.build(["b", "p"], ["return set(b)" if as_set else "return list(b)"])
    elif cg.prefetched and not as_set:
        fn = cg.build(["b", "p"], prefetching_body(cg, proj, target, cond))
    else:
        fn = cg.build(["b", "p"], [f"return {brackets[0]}{proj} for {target} in b{cond}{brackets[1]}"])
    progress, data, n, step = rt.progress, scan.data, scan.count, rt.batch
    width = max(len(scan.layout), 1) * 8

    def run(p):
        rows = data.zipped(positions)  # versions only grow: the first n stay put
        for i in range(0, n, step):
            size = min(step, n - i)
            progress.scan_rows += size
            progress.scan_bytes += size * width
            yield fn(islice(rows, size), p)

    run = prefetching(cg, run)
    run.scalar = scalar
    return run


def scan_positions(plan, rt):
    """(the scan, per output column of `plan` the scan position it is) when `plan` is a scan
    of columns or a projection of its plain columns; None otherwise."""
    scan = plan.child if type(plan) is P.Project else plan
    if type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None:
        return None
    if scan is plan:
        return scan, list(range(len(scan.layout)))
    where = {cid: i for i, cid in enumerate(scan.layout)}
    if not plan.exprs or not all(type(e) is Col and e.column in where for e in plan.exprs):
        return None
    return scan, [where[e.column] for e in plan.exprs]


def plain_columns(plan, rt):
    """The run of a projection of plain columns of a scan of columns (Project(Scan)), for a
    sort: per batch, each column's values boxed a column at a time (ColumnData.boxed), then
    zipped, so the sort walks keys that sit side by side in memory (a full sort ~10 % faster
    than over rows whose values were boxed one row at a time; a mere projection is not faster).
    None for anything else."""
    found = scan_positions(plan, rt) if type(plan) is P.Project else None
    if found is None:
        return None
    scan, positions = found
    data = scan.data

    def run(p):
        for i, stop in scan_batches(scan, rt):
            yield list(zip(*[data.boxed(c, i, stop) for c in positions], strict=True))

    run.scalar = False
    return run


def _selected_map(scan: P.Scan, rt, cg, pred, proj, positions):
    """A filter over a scan of columns whose rows read more columns than the filter tests: per
    batch, the row numbers the predicate keeps are found over just the tested columns
    (`enumerate(zip(...))`), and the other columns' values are picked at those rows only (a
    column a kept row reads is never touched, nor boxed, for the rows dropped)."""
    tested_ids: set = set()
    column_ids(pred, tested_ids)
    tested = tuple(i for i, cid in enumerate(scan.layout) if cid in tested_ids)
    test_cols = RowVars(scan.layout)
    cond = cg.pred(pred, test_cols)
    names = [f"_c{i}" for i in tested]
    if len(tested) == 1:
        select = f"[_j for _j, {names[0]} in enumerate(s[0], i) if {cond}]"
    else:
        select = (f"[_j for _j, ({', '.join(names)}) in enumerate(zip("
                  + ", ".join(f"s[{k}]" for k in range(len(tested))) + f"), i) if {cond}]")
    # the columns the kept rows read (the tested ones only where the projection reads them)
    # in the order the projection first reads them: plain columns are then zipped as they are
    found = {i: m.start() for i in positions if (m := re.search(rf"\b_c{i}\b", proj))}
    positions = sorted(found, key=found.get)
    if not positions:  # nothing read of the rows kept: their number is what counts
        fn = cg.build(["i", "s", "p"], [f"return [{proj}] * len({select})"])
        return _selected_run(scan, rt, cg, tested, fn)
    data = scan.data
    pickers = ", ".join(f"map({cg.bind(data.picker(i))}, sel)" for i in positions)
    target = ", ".join(f"_c{i}" for i in positions) + ("," if len(positions) == 1 else "")
    rows = f"list(zip({pickers}))" if proj == "(" + target.rstrip(",") + ", )" \
        else f"[{proj} for {target} in zip({pickers})]"
    fn = cg.build(["i", "s", "p"], [f"sel = {select}", f"return {rows} if sel else []"])
    return _selected_run(scan, rt, cg, tested, fn)


def _selected_run(scan, rt, cg, tested, fn):
    """The run of a `_selected_map` step `fn(first row, tested columns' values, p)`."""
    data = scan.data

    def run(p):
        for i, stop in scan_batches(scan, rt):
            yield fn(i, [data.column_values(c, i, stop) for c in tested], p)

    run = prefetching(cg, run)
    run.scalar = False
    return run


def selected_rows(scan: P.Scan, rt, cg, pred, proj, positions):
    """A filter (and projection `proj`, source over `_c<i>`) over a scan of columns whose filter
    starts with simple conjuncts (engine.exec.column_filters): per batch, the rows the
    Selection keeps, found over the tested columns' slices, then the columns the projection
    reads picked at those rows only. None when the filter's first conjunct is not simple."""
    selection, fn, read, _ = _compiled_selection(scan, cg, pred, proj, positions)
    if selection is None:
        return None
    data, select = scan.data, selection.select

    def run(p):
        for i, stop, slices, coded in coded_slices(scan, rt, selection):
            kept = select(slices, stop - i, p, coded)
            yield fn(kept, kept_values(data, read, slices, kept, i, stop - i), p) if kept else []

    run = prefetching(cg, run)
    run.scalar = False
    return run


# scan -> {(predicate id, projection source, positions): (predicate, Selection, rows function,
# positions read, declared cost a row)}: a plan the plan cache runs again reuses what its filter compiled (the
# Selection's constants and facts are its plan's, as engine.exec.executor's _MAP_FUNCTIONS)
_SELECTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _compiled_selection(scan: P.Scan, cg, pred, proj: str, positions: tuple) -> tuple:
    """(the Selection of `pred`, the function making the rows kept, the positions it reads, the
    declared cost a row of the calls compiled (engine.core.steps)); the Selection None when the
    filter's first conjunct is not simple; no function without `proj` (a count)."""
    key = (id(pred), proj, positions)
    known = _SELECTIONS.get(scan)
    if known is not None and key in known and known[key][0] is pred:
        return known[key][1:]
    selection = compile_selection(cg, pred, scan.layout)
    compiled = (selection, None, None) if selection is None or proj is None \
        else (selection, *kept_rows_function(cg, proj, positions))
    compiled = (*compiled, cg.row_cost)
    # a subquery's runner belongs to one run; out-of-process calls are prefetched by other paths
    if not cg.has_subqueries and not cg.prefetched:
        _SELECTIONS.setdefault(scan, {})[key] = (pred, *compiled)
    return compiled


def filtered_count(plan: P.Aggregate, rt):
    """COUNT(*) (one or more, nothing else, no GROUP BY) of a filter over a scan of columns:
    a run yielding per batch (rows kept,) (the batch engine.codegen.aggregate's `global_code`
    takes with no columns), or [] when a batch keeps none; None when the plan is not of that
    shape, the filter's first conjunct is not simple, calls costly functions or EXPLAIN ANALYZE
    counts rows."""
    child = plan.child
    if plan.keys or type(child) is not P.Filter or rt.profile is not None:
        return None
    scan = child.child
    if type(scan) is not P.Scan or not scan.data.columnar:
        return None
    if any(a.name != "count" or a.arg is not None or a.distinct or a.extra
           or a.collected is not None or a.folded is not None for a in plan.aggs):
        return None
    cg = rt.codegen()
    selection, _, _, row_cost = _compiled_selection(scan, cg, child.predicate, None, ())
    if selection is None or cg.correlated or cg.prefetched or rows_for_cost(row_cost, rt.batch) < rt.batch:
        return None  # (calls declared costly: the aggregation's own path takes fewer rows a step)
    count = selection.count

    def run(p):
        for i, stop, slices, coded in coded_slices(scan, rt, selection):
            kept = count(slices, stop - i, p, coded)
            yield (kept,) if kept else []

    return prefetching(cg, run)


def coded_slices(scan: P.Scan, rt, selection):
    """(start, stop, slices, coded) of each batch of the scan: `slices` per scan position the
    batch's values of the Selection's tested columns (as stored, None for the others), and `coded` its columns with dictionary codes (engine.exec.
    dictionary_filters' batch_codes: those tests then run once a distinct value), None when
    none has; a column only tested by code is not sliced (Selection fetches it if need be)."""
    data, width, np = scan.data, len(scan.layout), vectorised()
    positions = () if not hasattr(data, "dictionary_values") else \
        tuple(sorted({test[0] for test in selection.tests if data.dictionary_values(test[0]) is not None}))
    read = set() if selection.rest is None else set(selection.rest[0])  # the rest reads them
    for i, stop in scan_batches(scan, rt):
        coded = batch_codes(data, positions, i, stop, np) if positions else None
        slices = [None] * width
        for c in selection.tested:
            if coded is None or c not in coded or c in read:
                slices[c] = data.column_values(c, i, stop)
        yield i, stop, slices, coded


def scan_batches(scan: P.Scan, rt):
    """(start, stop) of each batch of the scan's snapshot, counting its progress on the way."""
    progress, n, step = rt.progress, scan.count, rt.batch
    width = max(len(scan.layout), 1) * 8
    for i in range(0, n, step):
        stop = min(i + step, n)
        progress.scan_rows += stop - i
        progress.scan_bytes += (stop - i) * width
        yield i, stop


def distinct_columns(scan: P.Scan, rt, positions):
    """DISTINCT of plain columns of a scan (at `positions`): per batch, the values of one
    column as stored (a slice), or the columns' values zipped; None if the storage is rows."""
    if not scan.data.columnar or rt.profile is not None:
        return None
    return zipped_batches(scan, rt, positions)


def zipped_batches(scan: P.Scan, rt, positions: tuple):
    """A run yielding per batch of a scan of columns the rows of just the columns at `positions`
    (one value a row when one column, else zipped tuples): DISTINCT's input, and
    GroupedCode.column_step's."""
    data = scan.data

    def run(p):
        for i, stop in scan_batches(scan, rt):
            if len(positions) == 1:
                yield data.column_values(positions[0], i, stop)
            else:
                yield zip(*[data.column_values(c, i, stop) for c in positions], strict=True)

    return run


def top_k_columns(plan: P.Sort, rt, limit, offset, passes, nan_free: bool):
    """ORDER BY one NULL-free plain key LIMIT k over a scan of columns: the best k row *numbers*
    are selected by the key column alone, and rows are built for just the k of them at the end.
    Once k are held, a block of TOP_K_BLOCK key values is looked at only when it holds a value
    that beats the k-th key held (C's max/min over the block, when the key holds no NaN), and then
    only the numbers of the values that beat it reach the selection. Ties and order as the row
    path's heap selection: the same keys in the same input order reach `heapq`. None if the
    storage is rows."""
    scan = plan.child
    if type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None:
        return None
    data, out_rows = scan.data, rt.batch
    position, desc = plan.keys[0][0], plan.keys[0][1]
    reads = rt.scan_reads.of(scan)
    pickers = [data.picker(i) if reads is None or cid in reads else None for i, cid in enumerate(scan.layout)]
    key_at = data.picker(position)  # row number -> its key value
    floats = plan.child.types[position].is_float
    pick = heapq.nlargest if passes[0][1] else heapq.nsmallest
    extreme = max if desc else min

    def number_key(numbers):
        """The key of a row number for a selection among `numbers`: the plain value, or a NaN
        as NAN_LAST (sorting after every float) when one of them is a NaN."""
        if floats and not nan_free:
            total = sum(map(key_at, numbers))  # C's float sum: NaN only with a NaN (or both infinities) in
            if total != total and any(map(isnan, map(key_at, numbers))):
                return lambda j: sort_value(key_at(j))
        return key_at

    def better(values, first, t):
        """The row numbers (from `first`) of `values` strictly better than the k-th key `t`, as
        the heap would take them: a NaN beats every float descending (`not v <= t`)."""
        if desc:
            return [j for j, v in enumerate(values, first) if not v <= t]
        return [j for j, v in enumerate(values, first) if v < t]

    def run(p):
        k = limit + offset
        if k == 0:
            return
        best: list = []  # row numbers, best first
        held = 0  # memory: most row numbers `best` held so far (charged)
        for i, stop in scan_batches(scan, rt):
            if len(best) < k:
                candidates = best + list(range(i, stop))
                best = pick(k, candidates, key=number_key(candidates))
            else:
                values = data.column_values(position, i, stop)
                t = sort_value(key_at(best[-1])) if floats and not nan_free else key_at(best[-1])
                np = vectorised() if nan_free and type(values) is array else None
                if np is not None and values.typecode in exact_codes(operator.gt, t):
                    # numpy compares the batch's keys with the k-th at once, exactly as Python
                    keys = np.frombuffer(values, dtype=values.typecode)
                    numbers = (np.flatnonzero(keys > t if desc else keys < t) + i).tolist()
                elif not nan_free:
                    numbers = better(values, i, t)
                else:
                    numbers = []
                    for lo in range(0, stop - i, TOP_K_BLOCK):
                        block = values[lo:lo + TOP_K_BLOCK]
                        if extreme(block) > t if desc else extreme(block) < t:
                            numbers += better(block, i + lo, t)
                            if len(numbers) >= k:  # select now: a tighter k-th key for the next blocks
                                candidates = best + numbers
                                best = pick(k, candidates, key=number_key(candidates))
                                t, numbers = key_at(best[-1]), []
                if numbers:
                    candidates = best + numbers
                    best = pick(k, candidates, key=number_key(candidates))
            held = charge_growth(rt.memory, best, held, LIST_SLOT_BYTES)
            yield []
        numbers = best[offset:]
        for lo in range(0, len(numbers), out_rows):
            chunk = numbers[lo:lo + out_rows]
            yield list(zip(*[repeat(None, len(chunk)) if f is None else map(f, chunk) for f in pickers], strict=True))

    return run
