"""Executor: turns a logical plan into a pipeline of generators over row batches (lists of tuples).

Every operator does bounded work per step: a breaker (sort, aggregate, join build) consumes one
input batch per step and yields [] meanwhile, so callers can interleave other work, and no step
emits more than the step budget (Limits.step_rows) of rows. Joins are in engine/exec/join.py, sorts in
engine/exec/sort.py, aggregation in engine/exec/aggregate.py, windows in engine/exec/window.py.
"""

from __future__ import annotations

import weakref
from itertools import chain, islice
from operator import itemgetter

from engine.codegen.batch_source import (
    column_refs,
    map_source,
    prefetching_body,
    resliced,
    row_vars,
)
from engine.codegen.compile import Codegen
from engine.core.memory import HASH_ENTRY_BYTES, batch_bytes, charge_growth
from engine.core.steps import rows_for_cost
from engine.exec.aggregate import build_aggregate
from engine.exec.column_scan import columnar_map, distinct_columns
from engine.exec.join import build_join
from engine.exec.lateral_join import build_lateral_join
from engine.exec.recursive import build_recursive_union, build_work_table_scan
from engine.exec.scan_reads import ScanReads
from engine.exec.semi_join import build_semi_join
from engine.exec.sort import build_sort, limit_batches
from engine.exec.subquery import correlated_rows, prefetching, subquery_runner
from engine.exec.unnest import build_unnest_rows
from engine.exec.window import build_window
from engine.ir import plan as P
from engine.ir.expr import Col, column_ids
from engine.types.keys import hash_function, row_hash_function

BATCH = 2048
class Runtime:
    """What a running query shares: the session context and its progress counters."""

    def __init__(self, ctx, progress, nonnull=frozenset(), nonneg=frozenset(), nonnan=frozenset()):
        self.ctx = ctx
        self.progress = progress
        # the step budget: no step emits more rows (tests shrink it to make bounds visible)
        self.step_rows = max(1, ctx.limits.step_rows)
        self.batch = min(BATCH, self.step_rows)  # rows per scan batch and per output chunk
        self.nonnull = nonnull  # column ids that hold no NULL in the planned snapshot
        self.nonneg = nonneg  # integer column ids that hold no negative value in it
        self.nonnan = nonnan  # float column ids that hold no NaN in it
        self.memory = ctx.memory  # engine.core.memory.QueryMemory: breakers charge the rows they hold
        self.profile = None  # EXPLAIN ANALYZE's engine.statements.explain.Profile, else None
        self.scan_reads = ScanReads()  # the columns each table scan of the plans built reads

    # Operators in other modules (engine.exec.join, engine.exec.sort, engine.exec.subquery) build their inputs
    # through these, so they need not import this module (which imports them).
    def build(self, plan, reads=None):
        """The run of `plan`; `reads`, when given, are the column ids the consumer reads of its
        rows (a table scan may leave the others None: engine.catalog.table_storage)."""
        return build(plan, self, reads)

    def build_one_pass(self, plan, reads=None):
        return _build_one_pass(plan, self, reads)

    def codegen(self):
        return _codegen(self)


def build(plan: P.Plan, rt: Runtime, reads=None):
    """plan -> run(p) returning an iterator of batches; p is the tuple of outer values. `reads`
    as Runtime.build takes it."""
    builder = _BUILDERS.get(type(plan))
    if builder is None:
        raise TypeError(f"the executor has no operator for the plan node {type(plan).__name__}")
    rt.scan_reads.cover(plan)
    if reads is not None and type(plan) in (P.Scan, P.Filter, P.Project):
        run = _scan(plan, rt, reads=reads) if type(plan) is P.Scan else _build_map(plan, rt, reads=reads)
    else:
        run = builder(plan, rt)
    if rt.profile is not None:  # EXPLAIN ANALYZE: count rows and time per operator
        run = rt.profile.wrap(plan, run)
    return run


def _codegen(rt):
    return Codegen(lambda sq: subquery_runner(sq, rt), rt.nonnull, rt.nonneg, rt.nonnan)


def _map_parts(plan):
    """Collapse Project(Filter(child)) / Filter(child) / Project(child) -> (child, predicate, exprs)."""
    exprs = None
    if isinstance(plan, P.Project):
        exprs = plan.exprs
        plan = plan.child
        if isinstance(plan, P.Filter):
            return plan.child, plan.predicate, exprs
        return plan, None, exprs
    return plan.child, plan.predicate, None


def _build_map(plan, rt, as_set=False, reads=None):
    """Filter and/or projection as one generated comprehension per batch (a set comprehension
    when feeding DISTINCT); `reads` as Runtime.build takes it."""
    child, pred, exprs = _map_parts(plan)
    scan_reads = _map_reads(pred, exprs, reads) if isinstance(child, P.Scan) else None
    if isinstance(child, P.Join) and child.kind in ("INNER", "CROSS") and not as_set:
        return _build_join(child, rt, pred, exprs)
    if isinstance(child, P.Window) and not as_set:
        return build_window(child, rt, pred, exprs)  # the select list and QUALIFY run in its pieces
    if isinstance(child, P.Sort) and pred is None and exprs is not None and not as_set:
        swapped = _project_before_sort(plan, child, exprs)
        if swapped is not None:
            return _build_sort(swapped, rt)
    if isinstance(child, P.Scan) and child.data.columnar:
        run = columnar_map(child, rt, _codegen(rt), pred, exprs, scan_reads, as_set)
        if run is not None:
            return run
    fn, cg = _map_function(plan, child, pred, exprs, rt, as_set, scan_reads)
    if fn is None:  # the rows pass as they are
        return build(child, rt, scan_reads)
    small = correlated_rows(cg, rt.step_rows) if cg is not None else 0
    # calls declared costly: fewer rows a step, so the step's work stays within its budget (a
    # join or a sort may pass batches of up to step_rows)
    costly = rows_for_cost(fn.row_cost, rt.step_rows)
    if small or (costly < rt.step_rows and not isinstance(child, P.Scan | P.OneRow)):
        run_child = resliced(build(child, rt), min(small or costly, costly))

        def run(p):
            for batch in run_child(p):
                yield fn(batch, p) if batch else batch
    elif isinstance(child, P.Scan):
        run = _scan(child, rt, fn, reads=scan_reads, step=min(costly, rt.batch))
    elif isinstance(child, P.OneRow):
        def run(p):  # SELECT without FROM: one generator, not two
            yield fn(_ONE_ROW, p)
    else:
        run_child = build(child, rt)

        def run(p):
            for batch in run_child(p):
                yield fn(batch, p) if batch else batch

    if cg is not None:
        run = prefetching(cg, run)
    run.scalar = getattr(fn, "scalar", False)
    return run


# plan node -> {(as a set, columns read): its generated function, None for a pass-through}.
# A node keeps one plan's data facts (nonnull...) for its life, so what it generates is the
# same on every build; the plan cache builds its plans again on every execution.
_MAP_FUNCTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _map_function(plan, child, pred, exprs, rt, as_set, scan_reads):
    """(the comprehension of a filter / projection over `child`'s batches, the Codegen that
    made it): None for the function when the rows pass unchanged, None for the Codegen when
    the function was made before (kept only when it calls no subquery, which is bound to a
    query's run)."""
    key = (as_set, None if scan_reads is None else frozenset(scan_reads))
    kept = _MAP_FUNCTIONS.get(plan)
    if kept is not None and key in kept:
        return kept[key], None
    cg = _codegen(rt)
    cols = None
    if isinstance(child, P.Scan | P.Numbers) and exprs is not None \
            and [e.column if isinstance(e, Col) else None for e in exprs] != list(child.layout):
        cols = row_vars(child)  # not for an identity projection: that one passes `r` on
    unpacked = cols is not None
    if not unpacked:
        cols = column_refs(child.layout)
    proj, cond = map_source(cg, child.layout, pred, exprs, cols=cols)
    fn = None
    if proj != "r" or cond or as_set:
        scalar = as_set and exprs is not None and len(exprs) == 1
        if scalar:
            # one column: a set of plain values (cheaper to hash than 1-tuples); tupled on output
            proj = cg.expr(exprs[0], cols)
        target = cols.target() if unpacked and proj != "r" else "r"
        if as_set:
            fn = cg.build(["b", "p"], [f"return {{{proj} for {target} in b{cond}}}"])
            fn.scalar = scalar
        else:
            fn = cg.build(["b", "p"], prefetching_body(cg, proj, target, cond) if cg.prefetched
                          else [f"return [{proj} for {target} in b{cond}]"])
    if fn is not None:
        fn.row_cost = cg.row_cost  # kept with the function: a kept one is built without its Codegen
    if not cg.has_subqueries:
        _MAP_FUNCTIONS.setdefault(plan, {})[key] = fn
    return fn, cg


def _scan(plan: P.Scan, rt, fn=None, lazy=False, reads=None, step=None):
    """Batches of the table's snapshot: lists, or with `lazy` one-pass iterators over the rows.
    With `reads` (column ids), the other columns may be None in the rows (columns underneath
    then box only the values read). Batches of `step` rows (default rt.batch).

    A single-pass consumer (a generated comprehension or row loop) gets `lazy` batches: a slice
    would be a fresh container referencing thousands of old rows, which every young-generation
    garbage collection triggered by the consumer's own allocations walks again (~20% of a
    projection's time)."""
    progress = rt.progress
    width = max(len(plan.layout), 1) * 8

    data, n = plan.data, plan.count  # the snapshot: later appends are not seen
    step = step or rt.batch
    columns = None
    # what the pass over the whole plan found, and what the caller says it reads: both hold
    # every column the consumer reads
    found = rt.scan_reads.of(plan) if data.columnar else None  # row storage reads whole rows
    if found is not None:
        reads = found if reads is None else found & set(reads)
    if reads is not None and data.columnar:
        columns = tuple(i for i, cid in enumerate(plan.layout) if cid in reads)
        if len(columns) == len(plan.layout):
            columns = None

    if fn is not None or lazy:
        def run_lazy(p):
            it = data.row_iterator(0, columns)  # versions only grow: the first n stay put
            for i in range(0, n, step):
                size = min(step, n - i)
                progress.scan_rows += size
                progress.scan_bytes += size * width
                batch = islice(it, size)
                yield fn(batch, p) if fn is not None else batch

        return run_lazy

    def run(p):
        for i in range(0, n, step):
            batch = data.rows(i, min(i + step, n), columns)
            progress.scan_rows += len(batch)
            progress.scan_bytes += len(batch) * width
            yield batch

    return run


def _build_one_pass(plan, rt, reads=None):
    """`build` for a consumer that walks each batch once: a table scan hands out lazy batches.
    `reads` as Runtime.build takes it."""
    if isinstance(plan, P.Scan):
        rt.scan_reads.cover(plan)
        return _scan(plan, rt, lazy=True, reads=reads)
    return build(plan, rt, reads)


def _map_reads(pred, exprs, reads) -> set | None:
    """The column ids a filter / projection over a scan reads of the scan's rows (None: all)."""
    if exprs is None:  # whole rows go on: what the consumer reads
        if reads is None:
            return None
        used = set(reads)
    else:
        used = set()
        for e in exprs:
            column_ids(e, used)
    if pred is not None:
        column_ids(pred, used)
    return used


def _build_scan(plan, rt):
    return _scan(plan, rt)


def _build_numbers(plan: P.Numbers, rt):
    count = plan.count
    progress = rt.progress
    step = rt.batch

    def run(p):
        for start in range(0, count, step):
            batch = list(zip(range(start, min(start + step, count))))
            progress.scan_rows += len(batch)
            progress.scan_bytes += len(batch) * 8
            yield batch

    return run


_ONE_ROW = ((),)


def _build_one(plan, rt):
    def run(p):
        yield [()]

    return run


def _build_materialized(plan: P.Materialized, rt):
    step = rt.batch

    def run(p):
        rows = plan.produce(rt.ctx)
        rt.memory.charge(batch_bytes(rows))
        for i in range(0, len(rows), step):
            yield rows[i:i + step]

    return run


def _build_streamed(plan: P.Streamed, rt):
    progress = rt.progress

    def run(p):
        for batch in plan.produce(rt.ctx, rt.batch):
            progress.scan_rows += len(batch)
            yield batch

    return run


# ---------------------------------------------------------------- joins


def _build_join(plan: P.Join, rt, pred=None, exprs=None):
    if plan.kind in ("SEMI", "ANTI"):
        return build_semi_join(plan, rt)
    return build_join(plan, rt, pred, exprs)


# ---------------------------------------------------------------- aggregation


# ---------------------------------------------------------------- sort, limit, distinct, set ops


def _project_before_sort(plan, sort: P.Sort, exprs):
    """Project(Sort(x)) as Sort(Project(x)) when every sort key is a projected column: the
    projection then reads the rows in storage order and the sort moves the narrower output rows,
    instead of projecting rows picked from all over memory after sorting (~20% of a full sort).
    Every row is projected either way, so the same values (and errors) come out."""
    position = {}
    for i, e in enumerate(exprs):
        if isinstance(e, Col):
            position.setdefault(e.column, i)
    keys = []
    for pos, desc, nulls_first in sort.keys:
        i = position.get(sort.child.layout[pos])
        if i is None:
            return None
        keys.append((i, desc, nulls_first))
    inner = P.Project(plan.layout, plan.types, child=sort.child, exprs=exprs)
    return P.Sort(plan.layout, plan.types, child=inner, keys=keys)


def _build_sort(plan: P.Sort, rt, limit=None, offset=0):
    return build_sort(plan, rt, limit, offset)


def _build_limit(plan: P.Limit, rt):
    if isinstance(plan.child, P.Sort) and plan.limit is not None:
        return _build_sort(plan.child, rt, plan.limit, plan.offset)
    if isinstance(plan.child, P.Distinct):
        child_run = _build_distinct(plan.child, rt, streaming=True)
    else:
        child_run = build(plan.child, rt)
    limit, offset = plan.limit, plan.offset

    def run(p):
        if limit == 0:
            return
        yield from limit_batches(child_run(p), limit, offset)

    return run


def _build_distinct(plan: P.Distinct, rt, streaming=False):
    """DISTINCT. By default a pipeline breaker: each step folds one batch into a set with C-level
    builtins (set.update over a map or a generated set comprehension), and the set is emitted at
    the end. Under a LIMIT (`streaming`) only the rows new in each batch go on at once, so the
    limit can stop the scan early. Output order is not promised either way."""
    values_run, scalar = _distinct_values(plan.child, rt)
    canonical = row_hash_function(plan.types)
    if canonical is not None:  # a float column: every NaN one value (free for other types)
        values_run = _hash_keyed(values_run, hash_function(plan.types[0]) if scalar else canonical)

    def run_sets(p):
        seen = set()
        held = 0  # memory: distinct rows charged so far
        for values in values_run(p):
            if values is None:
                yield []
                continue
            if not isinstance(values, set):
                values = set(values)
            fresh = values - seen if seen else values  # iterates the batch's set, not `seen`
            seen |= fresh
            held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield fresh

    def run_breaker(p):
        seen = set()
        held = 0  # memory: distinct rows charged so far
        for values in values_run(p):
            if values is not None:
                seen.update(values)
                held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield []
        yield from _chunks(seen, scalar, rt.batch)

    def run_streaming(p):
        for fresh in run_sets(p):
            yield list(zip(fresh)) if scalar else list(fresh)

    return run_streaming if streaming else run_breaker


def _hash_keyed(values_run, key):
    """`values_run` with each value (or row) replaced by its hash key (engine.types.keys)."""
    def run(p):
        for values in values_run(p):
            yield None if values is None else map(key, values)

    return run


def _chunks(values, scalar, size):
    """A collection as output batches of at most `size` rows (1-tuples made when `scalar`)."""
    it = iter(values)
    while True:
        part = list(zip(islice(it, size))) if scalar else list(islice(it, size))
        if not part:
            return
        yield part


def _distinct_values(child, rt):
    """(run yielding per batch an iterable of the rows to deduplicate, or None for a step
    without rows; whether those are bare values of one column rather than row tuples)."""
    if isinstance(child, (P.Project, P.Filter)):
        source, pred, exprs = _map_parts(child)
        if pred is None and exprs and all(isinstance(e, Col) for e in exprs) \
                and not (isinstance(source, P.Join) and source.kind in ("INNER", "CROSS")):
            # plain columns: an itemgetter over the row (one C call per row, no generated loop)
            pos = {cid: i for i, cid in enumerate(source.layout)}
            if isinstance(source, P.Scan):
                rt.scan_reads.cover(source)
                whole = distinct_columns(source, rt, [pos[e.column] for e in exprs])
                if whole is not None:
                    return whole, len(exprs) == 1
            getter = itemgetter(*[pos[e.column] for e in exprs])
            source_run = _build_one_pass(source, rt)

            def run_columns(p):
                for batch in source_run(p):
                    yield map(getter, batch) if batch else None

            return run_columns, len(exprs) == 1
        sets_run = _build_map(child, rt, as_set=True)

        def run_sets(p):
            for values in sets_run(p):
                yield values if values else None

        return run_sets, sets_run.scalar
    child_run = build(child, rt)

    def run_rows(p):
        for batch in child_run(p):
            yield batch if batch else None

    return run_rows, False


def _build_setop(plan: P.SetOp, rt):
    left_run = build(plan.left, rt)
    right_run = build(plan.right, rt)
    op, all_ = plan.op, plan.all
    canonical = row_hash_function(plan.types)
    if canonical is not None and not (op == "UNION" and all_):
        # rows of float columns compared by their hash keys (every NaN one value)
        left_run, right_run = _hash_keyed(left_run, canonical), _hash_keyed(right_run, canonical)

    def run(p):
        if op == "UNION":
            if all_:
                yield from left_run(p)
                yield from right_run(p)
                return
            seen = set()
            add = seen.add
            held = 0  # memory: distinct rows charged so far
            for batch in chain(left_run(p), right_run(p)):
                out = [r for r in batch if not (r in seen or add(r))]
                held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
                yield out
            return
        other = set()
        held = 0  # memory: rows of `other` and then of `seen` charged so far
        for batch in right_run(p):
            other.update(batch)
            held = charge_growth(rt.memory, other, held, HASH_ENTRY_BYTES)
            yield []
        seen = set()
        add = seen.add
        held = 0
        for batch in left_run(p):
            if op == "EXCEPT":
                out = [r for r in batch if r not in other and not (r in seen or add(r))]
            else:
                out = [r for r in batch if r in other and not (r in seen or add(r))]
            held = charge_growth(rt.memory, seen, held, HASH_ENTRY_BYTES)
            yield out

    return run


# plan node class -> its operator's builder(plan, rt) (exact classes: a subclass of a plan node
# is a different node and needs its own entry)
_BUILDERS = {
    P.Scan: _build_scan,
    P.Numbers: _build_numbers,
    P.OneRow: _build_one,
    P.Materialized: _build_materialized,
    P.Streamed: _build_streamed,
    P.Filter: _build_map,
    P.Project: _build_map,
    P.Join: _build_join,
    P.Aggregate: build_aggregate,
    P.Sort: _build_sort,
    P.Limit: _build_limit,
    P.Distinct: _build_distinct,
    P.SetOp: _build_setop,
    P.RecursiveUnion: build_recursive_union,
    P.WorkTableScan: build_work_table_scan,
    P.LateralJoin: build_lateral_join,
    P.UnnestRows: build_unnest_rows,
    P.Window: build_window,
}


# ---------------------------------------------------------------- EXPLAIN


def explain(plan: P.Plan, indent: int = 0) -> list[str]:
    lines = ["    " * indent + describe(plan)]
    for c in plan.children():
        lines.extend(explain(c, indent + 1))
    return lines


def describe(plan: P.Plan) -> str:
    """One plan node as EXPLAIN shows it: its kind and details."""
    kind = type(plan).__name__
    detail = ""
    if isinstance(plan, P.Scan):
        detail = f" table: {plan.label}, rows: {len(plan.table.data)}"
    elif isinstance(plan, P.Numbers):
        detail = f" numbers({plan.count})"
    elif isinstance(plan, (P.Materialized, P.Streamed)):
        detail = f" {plan.label}"
    elif isinstance(plan, P.Join):
        detail = f" {plan.kind}" + (" hash" if plan.left_keys else " nested loop") + \
            (f", {len(plan.left_keys)} key(s)" if plan.left_keys else "")
    elif isinstance(plan, P.Aggregate):
        detail = f" keys: {len(plan.keys)}, aggregates: {', '.join(a.name for a in plan.aggs)}"
    elif isinstance(plan, P.Sort):
        detail = " keys: " + ", ".join(f"#{k[0]}{' DESC' if k[1] else ''}" for k in plan.keys)
    elif isinstance(plan, P.Limit):
        detail = f" limit: {plan.limit}, offset: {plan.offset}"
    elif isinstance(plan, P.SetOp):
        detail = f" {plan.op}{' ALL' if plan.all else ''}"
    elif isinstance(plan, P.Project):
        detail = f" {len(plan.exprs)} column(s)"
    elif isinstance(plan, P.Window):
        detail = " functions: " + ", ".join(f.name for f in plan.funcs)
    return f"{kind}{detail}"
