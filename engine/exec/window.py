"""Window operator: computes the window functions over each partition of rows sorted by the
window's ORDER BY (engine.exec.window_partitions finds them) and emits the rows with their values,
in bounded steps.

A partition is computed a step budget of rows at a time (the evaluators of
engine.exec.window_functions keep running state between the pieces); a step computes at most the
budget of rows. Each piece's output rows come from one generated comprehension over the
partition's rows and the functions' value columns side by side: the rows with the values
appended, or, when the window runs under the select list and QUALIFY, the projected rows that
pass the filter (the rows with the values appended are then never built).
"""

from __future__ import annotations

from operator import itemgetter

from engine.codegen.batch_source import column_refs, map_source
from engine.core.steps import rows_for_cost
from engine.exec import window_partitions
from engine.exec.subquery import correlated_rows, prefetching
from engine.exec.window_columns import window_columns
from engine.exec.window_functions import (
    Frame,
    constant_key,
    make_aggregate,
    make_ranking,
    make_value,
)
from engine.exec.window_partitions import partition_source
from engine.functions.windows import RANKING, VALUE
from engine.ir.expr import Col
from engine.types.keys import columns_key


def _evaluator(func, order_key, value_key, desc, nulls_first, nullable):
    """rows -> compute(lo, hi) for one window function; nullable(position): whether that column
    of the rows may hold NULLs."""
    if func.name in RANKING:
        return make_ranking(func, order_key)
    key = order_key or constant_key

    def frame_of(rows):
        return Frame(func.frame, rows, key, value_key, desc, nulls_first)

    if func.name in VALUE:
        return make_value(func, frame_of)
    units, (skind, _), (ekind, _) = func.frame
    running = skind == "UNBOUNDED PRECEDING" and ekind == "CURRENT ROW"
    peer_key = None
    # without ORDER BY every row is a peer: a RANGE frame's CURRENT ROW bound is the partition's
    all_peers = units == "RANGE" and order_key is None
    if units == "RANGE":
        running = running and not all_peers
        peer_key = order_key
    whole = (skind == "UNBOUNDED PRECEDING" or all_peers and skind == "CURRENT ROW") \
        and (ekind == "UNBOUNDED FOLLOWING" or all_peers and ekind == "CURRENT ROW")
    return make_aggregate(func, frame_of, running, peer_key, any(map(nullable, func.args)), whole)


def build_window(plan, rt, pred=None, exprs=None):
    """Window(child): rows of the child with the window functions' values appended; with
    `exprs` and/or `pred` (a Project / Filter over the window: the select list and QUALIFY),
    the projected rows that pass the predicate instead, computed by one generated
    comprehension per piece over the child's rows and the value columns side by side, so no
    row with the values appended is ever built."""
    partitions = partition_source(plan, rt)
    order_positions = [pos for pos, _, _ in plan.order]
    # peers are rows of equal ORDER BY values, all NaNs equal (engine.types.keys)
    order_key = columns_key(order_positions, plan.child.types)
    value_key = itemgetter(order_positions[0]) if order_positions else None
    desc = bool(plan.order) and plan.order[0][1]
    nulls_first = bool(plan.order) and bool(plan.order[0][2])
    child = plan.child

    def nullable(pos):
        return child.types[pos].can_be_null and child.layout[pos] not in rt.nonnull

    makers = [_evaluator(f, order_key, value_key, desc, nulls_first, nullable) for f in plan.funcs]
    step = rt.step_rows
    cg = rt.codegen()
    shape = _shape(cg, plan, pred, exprs)
    # a select list running a correlated subquery per row: fewer rows per piece and per step
    # (engine.exec.subquery); one calling functions declared costly too (engine.core.steps)
    piece_rows = correlated_rows(cg, step) or step
    piece_rows = rows_for_cost(cg.row_cost, piece_rows)

    def run(p):
        out: list = []
        work = 0  # rows computed in this step: `out` holds at most that many
        for part in partitions(p):
            if part is None:  # the source ended a step (it gathered a batch, sorted a run)
                yield out
                out = []
                work = 0
                continue
            evaluators = [make(part) for make in makers]
            n = len(part)
            if n > step:
                for ev in evaluators:
                    prepare = getattr(ev, "prepare", None)
                    if prepare is not None:  # a large first frame folded a step of rows at a time
                        for _ in prepare(step):
                            yield out
                            out = []
                            work = 0
            lo = 0
            while lo < n:
                if work and work + n - lo > piece_rows:  # the rest does not fit this step
                    yield out
                    out = []
                    work = 0
                hi = min(lo + piece_rows, n)
                rows = part if hi - lo == n else part[lo:hi]
                out += shape(rows, *[ev(lo, hi) for ev in evaluators], p)
                work += hi - lo
                lo = hi
        if out:
            yield out

    # the simple shapes over a scan of columns: row numbers sorted, values column by column
    over_columns = window_columns(plan, rt, pred, exprs, window_partitions.gathers(plan))
    if over_columns is not None:
        return prefetching(cg, lambda p: over_columns(p, run))
    return prefetching(cg, run)


def _shape(cg, plan, pred, exprs):
    """(rows, *value columns, p) -> the output rows of one piece: a generated comprehension
    over zip(rows, v0, v1...), reading the child's columns as r[i] and function j's value
    as _w<j>."""
    width = len(plan.child.layout)
    values = [f"v{j}" for j in range(len(plan.funcs))]
    loop = [f"_w{j}" for j in range(len(plan.funcs))]
    cols = column_refs(plan.child.layout)
    cols.update(zip(plan.layout[width:], loop, strict=True))
    if exprs is not None and [e.column if isinstance(e, Col) else None for e in exprs] == list(plan.layout):
        exprs = None  # the window's own rows
    if exprs is None:
        proj = f"r + ({''.join(v + ', ' for v in loop)})"
        cond = "" if pred is None else " if " + cg.pred(pred, cols)
    else:
        proj, cond = map_source(cg, plan.layout, pred, exprs, cols=cols)
    return cg.build(["b", *values, "p"],
                    [f"return [{proj} for r, {', '.join(loop)} in zip(b, {', '.join(values)}){cond}]"])
