"""Window operator: streams the partitions of rows sorted by (partition, order) keys and appends
each window function's value to every row, in bounded steps.

A step folds one input batch into the current partition (itertools.groupby on the partition
key finds the partition ends); a finished partition is computed and emitted a step budget of
rows at a time (the evaluators of engine.window_functions keep running state between the
pieces). The rows of the partition being buffered are charged to the query's memory and
released once the partition is out.
"""

from __future__ import annotations

from itertools import groupby
from operator import itemgetter

from engine.memory import batch_bytes
from engine.window_functions import (
    RANKING,
    VALUE,
    Frame,
    constant_key,
    make_aggregate,
    make_ranking,
    make_value,
)

_NO_PARTITION = object()


def _key(positions):
    if not positions:
        return None
    return itemgetter(*positions)


def _evaluator(func, order_key, value_key, desc, nulls_first):
    """rows -> compute(lo, hi) for one window function."""
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
    if units == "RANGE":
        # without ORDER BY every row is a peer: the frame is the whole partition
        running = running and order_key is not None
        peer_key = order_key
    return make_aggregate(func, frame_of, running, peer_key)


def build_window(plan, rt):
    """Window(child): rows of the child with the window functions' values appended."""
    child_run = rt.build(plan.child)
    partition_key = _key(plan.partition)
    order_positions = [pos for pos, _, _ in plan.order]
    order_key = _key(order_positions)
    value_key = itemgetter(order_positions[0]) if order_positions else None
    desc = bool(plan.order) and plan.order[0][1]
    nulls_first = bool(plan.order) and bool(plan.order[0][2])
    makers = [_evaluator(f, order_key, value_key, desc, nulls_first) for f in plan.funcs]
    step = rt.step_rows
    memory = rt.memory

    def emit(rows):
        """A finished partition's output rows, at most `step` of them per piece; None for a
        step that only prepared (folded a large first frame a step of rows at a time)."""
        evaluators = [make(rows) for make in makers]
        for ev in evaluators:
            prepare = getattr(ev, "prepare", None)
            if prepare is not None and len(rows) > step:
                for _ in prepare(step):
                    yield None
        n = len(rows)
        for lo in range(0, n, step):
            hi = min(lo + step, n)
            if len(evaluators) == 1:
                values = evaluators[0](lo, hi)
                yield [r + (v,) for r, v in zip(rows[lo:hi], values, strict=False)]
            else:
                columns = [ev(lo, hi) for ev in evaluators]
                yield [r + t for r, t in zip(rows[lo:hi], zip(*columns, strict=False), strict=False)]

    def run(p):
        part: list = []
        held = 0  # memory charged for the rows of `part`
        current = _NO_PARTITION
        out: list = []
        for batch in child_run(p):
            if not batch:
                yield []
                continue
            if partition_key is None:
                groups = ((None, batch),)
            else:
                groups = groupby(batch, partition_key)
            for key, group in groups:
                if part and key != current:
                    for piece in emit(part):
                        if piece is None:
                            yield out
                            out = []
                            continue
                        if out and len(out) + len(piece) > step:
                            yield out
                            out = []
                        out.extend(piece)
                    memory.release(held)
                    held = 0
                    part = []
                current = key
                part.extend(group)
            nbytes = batch_bytes(batch)
            memory.charge(nbytes)
            held += nbytes
            yield out
            out = []
        if part:
            for piece in emit(part):
                yield piece if piece is not None else []
        memory.release(held)

    return run
