"""Joins: a hash join on the equi keys (the right side is built), nested loops otherwise.

A probe step emits at most the step budget of rows (Limits.step_rows): left rows are probed in
chunks sized by the largest group a left row can meet, and a left row whose group alone exceeds
the budget (duplicate keys, or the whole right side of a nested loop) is joined one slice of the
group per step. Rows come out in the same order either way: each left row in turn, its matches in
build order. The generated functions come from engine.codegen.join; this module runs them.
"""

from __future__ import annotations

from itertools import islice

from engine.codegen.batch_source import resliced
from engine.codegen.join import column_probe_code, join_code
from engine.core.memory import HASH_ENTRY_BYTES, batch_bytes
from engine.core.steps import rows_for_cost
from engine.exec.column_scan import scan_batches
from engine.exec.join_vector import vector_probe
from engine.exec.subquery import correlated_rows, prefetching
from engine.ir import plan as P


def build_join(plan, rt, pred=None, exprs=None):
    """Hash join on the equi keys, nested loops otherwise. A filter and projection above an inner
    join are fused into the probe loop."""
    # a hash-join probe walks each left batch once; a nested loop slices it (below)
    left_run = rt.build_one_pass(plan.left) if plan.left_keys else rt.build(plan.left)
    right_run = rt.build(plan.right)
    code = join_code(plan, rt.codegen, pred, exprs)
    budget = rt.step_rows
    # a condition running a correlated subquery per pair: few pairs per step
    budget = min(budget, correlated_rows(code.cg, budget) or budget)
    # a condition or projection calling functions declared costly: fewer pairs per step
    budget = rows_for_cost(code.cg.row_cost, budget)
    if code.add_to_table is not None:  # right keys calling costly functions: fewer right rows a build step
        build_rows = rows_for_cost(code.add_to_table.row_cost, rt.step_rows)
        if build_rows < rt.step_rows:
            right_run = resliced(right_run, build_rows)
    steps = _JoinSteps(plan, rt, code, left_run, right_run, budget)
    steps.columns = _column_probe(plan, rt, pred, exprs, code)
    return prefetching(code.cg, steps.run)


def _column_probe(plan, rt, pred, exprs, code):
    """(the left scan, its ColumnProbe) for an inner hash join whose left side is a scan of
    columns (issue 24): the probe then reads just the left columns it uses and builds only the
    joined rows; None otherwise (the row path: EXPLAIN ANALYZE, subqueries, out-of-process calls)."""
    left = plan.left
    if type(left) is not P.Scan or not left.data.columnar or rt.profile is not None \
            or code.cg.has_subqueries or code.cg.prefetched:
        return None
    probe = column_probe_code(plan, rt.codegen, pred, exprs)
    if probe is None:
        return None
    return left, probe


class _JoinSteps:
    """The run loop of one join: build the right side a batch per step, then probe the left."""

    def __init__(self, plan, rt, code, left_run, right_run, budget):
        self.rt = rt
        self.code = code
        self.kind = plan.kind
        self.left_run = left_run
        self.right_run = right_run
        self.budget = budget
        self.left_nulls = (None,) * len(plan.left.layout)
        self.columns = None  # (the left scan, its ColumnProbe): `_column_probe`
        self.right_nulls = (None,) * len(plan.right.layout)

    def run(self, p):
        rt, code, kind = self.rt, self.code, self.kind
        key_fn, inner, post = code.add_to_table, code.inner, code.post
        ht = {}
        right = []
        for batch in self.right_run(p):
            rt.memory.charge(batch_bytes(batch, HASH_ENTRY_BYTES if key_fn is not None else 0))
            if key_fn is not None:
                key_fn(batch, p, ht)
            if key_fn is None or kind == "FULL":
                right.extend(batch)
            yield []
        if inner and not ht and not right:
            return
        # the most rows one left row can produce: its group (or every right row), and at least
        # the NULL-extended row of an outer join; groups are measured a budget of keys per step
        widest = 0 if key_fn is not None else len(right)
        if key_fn is not None:
            groups = iter(ht.values())
            while part := list(islice(groups, rt.step_rows)):
                widest = max(widest, max(map(len, part)))
                yield []
        if not inner:
            widest = max(widest, 1)
        step_probe = code.probe
        columns = self.columns if widest <= self.budget else None
        if columns is not None:
            # the left rows are never built: the probe loops over the left columns it reads
            code = columns[1]
            step_probe = code.probe
        vector = None  # the join_vector probe
        if inner and code.unique_probe is not None and widest == 1:
            unique = {}
            items = iter(ht.items())
            while part := list(islice(items, rt.step_rows)):
                unique.update({k: g[0] for k, g in part})
                yield []
            ht = unique
            step_probe = code.unique_probe
            if columns is not None:  # a dimension table: whole-column steps where they apply
                vector = yield from vector_probe(code.vector, ht, rt)
        seen = set()

        def emit(rows):
            """Probe a chunk of left rows whose output fits the budget."""
            if inner:
                return step_probe(rows, p, ht, right)
            out = step_probe(rows, p, ht, right, seen)
            return post(out, p) if post is not None else out

        if columns is not None:
            yield from self._fitting_columns(emit, widest, *columns, vector)
        elif widest <= self.budget:
            yield from self._fitting(p, emit, widest)
        else:
            yield from self._oversize(p, ht, right, emit, seen)
        if kind == "FULL":
            left_nulls = self.left_nulls
            for i in range(0, len(right), rt.batch):
                part = [left_nulls + m for m in right[i:i + rt.batch] if id(m) not in seen]
                yield post(part, p) if post is not None else part

    def _fitting_columns(self, emit, widest, scan, probe, vector):
        """`_fitting` over a left scan of columns: each chunk of left rows is handed to the probe
        as the values of the columns it reads (to the `vector` probe first, when there is one)."""
        rt, data, positions = self.rt, scan.data, probe.positions
        chunk = max(1, min(rt.batch, self.budget // max(widest, 1)))
        for start, stop in scan_batches(scan, rt):
            for i in range(start, stop, chunk):
                end = min(i + chunk, stop)
                values = [data.column_values(c, i, end) for c in positions]
                out = None if vector is None else vector.probe(values)
                yield emit(values) if out is None else out

    def _fitting(self, p, emit, widest):
        """Every left row's output fits the budget: left rows probed in chunks of budget // widest."""
        rt = self.rt
        chunk = max(1, min(rt.batch, self.budget // max(widest, 1)))
        for batch in self.left_run(p):
            if not isinstance(batch, list):
                if chunk >= rt.batch:
                    yield emit(batch)  # a lazy scan batch of at most rt.batch rows
                    continue
                batch = list(batch)
            if len(batch) <= chunk:
                yield emit(batch)
                continue
            for i in range(0, len(batch), chunk):
                yield emit(batch[i:i + chunk])

    def _oversize(self, p, ht, right, emit, seen):
        """Some left row meets more right rows than one step may emit: left rows with small groups
        are probed together while their output fits the budget; a big group is joined one slice
        of at most `budget` right rows per step."""
        code, budget, inner, post = self.code, self.budget, self.code.inner, self.code.post
        keyed = code.add_to_table is not None
        slices = [right[i:i + budget] for i in range(0, len(right), budget)] if not keyed else None
        for batch in self.left_run(p):
            rows = batch if isinstance(batch, list) else list(batch)
            groups = [ht.get(k) for k in code.probe_keys(rows, p)] if keyed else None
            pending = []
            pending_out = 0
            for i, row in enumerate(rows):
                group = right if groups is None else groups[i]
                n = 0 if group is None else len(group)
                if n <= budget:
                    cost = n if inner else max(n, 1)
                    if pending and pending_out + cost > budget:
                        yield emit(pending)
                        pending, pending_out = [], 0
                    pending.append(row)
                    pending_out += cost
                    continue
                if pending:
                    yield emit(pending)
                    pending, pending_out = [], 0
                hit = False
                parts = slices if groups is None else (group[j:j + budget] for j in range(0, n, budget))
                for ms in parts:
                    out = code.piece(row, p, ms, seen)
                    hit = hit or bool(out)
                    yield post(out, p) if post is not None else out
                if not inner and not hit:
                    out = [row + self.right_nulls]
                    yield post(out, p) if post is not None else out
            if pending:
                yield emit(pending)
