"""Subqueries: evaluated per tuple of outer values and memoised, in steps where a pipeline can
yield between them (uncorrelated ones before the first row, correlated ones a few rows a step)."""

from __future__ import annotations

from dataclasses import fields

from engine.core.errors import INTERNAL, EngineError
from engine.core.memory import HASH_ENTRY_BYTES, growth_bytes
from engine.core.steps import rows_for_cost
from engine.exec.quantified import decide, summarise, summary_bytes
from engine.functions.registry import AggSpec
from engine.ir import plan as P
from engine.ir.expr import Expr, row_cost
from engine.types.keys import hash_function

CORRELATED_ROWS = 16  # outer rows per step when each row runs a correlated subquery


def correlated_rows(cg, step_rows):
    """Outer rows per step for code that runs a correlated subquery per row (0 when it runs
    none): a step then does the work of a few subquery runs, not of a whole batch's. Fewer rows
    (down to 1) when the subquery reads more than the step budget of rows, or when the calls
    it makes over the rows it reads are declared to cost more than a step's work
    (engine.core.steps.rows_for_cost)."""
    if not cg.correlated:
        return 0
    reads = [_rows_read(sq.plan) for sq in cg.correlated]
    rows = max(1, min(CORRELATED_ROWS, step_rows // max(max(reads), 1)))
    return rows_for_cost(max(r * _row_cost(sq.plan) for r, sq in zip(reads, cg.correlated, strict=True)), rows)


def _rows_read(plan) -> int:
    """The table and numbers() rows a plan reads (an estimate of one run's work)."""
    own = plan.count if isinstance(plan, (P.Scan, P.Numbers)) else 0
    return own + sum(_rows_read(c) for c in plan.children())


def _row_cost(plan) -> int:
    """The declared cost of the calls a plan's expressions make for a row (every node's, as if
    every row read went through them all: an estimate of one run's work per row read)."""
    own = 0
    for f in fields(plan):
        value = getattr(plan, f.name)
        for item in value if isinstance(value, list | tuple) else (value,):
            if isinstance(item, Expr):
                own += row_cost(item)
            elif isinstance(item, AggSpec):
                own += sum(row_cost(e) for e in (item.arg, *item.extra) if isinstance(e, Expr))
    return own + sum(_row_cost(c) for c in plan.children())


def subquery_runner(sq: P.Subquery, rt):
    """A function evaluating a subquery for one tuple of outer values, memoised on those values.

    Its `prefetch()` is a generator that evaluates an uncorrelated subquery one step of the
    subquery's pipeline per next(), so a pipeline runs it before its first batch instead of
    inside one step (see prefetch_steps)."""
    run = None
    cache: dict = {}

    def execute(params):
        nonlocal run
        if run is None:
            run = rt.build(sq.plan)
        return run(params)

    cached_bytes = [0]  # memory: bytes charged for the IN sets held in `cache`

    def store(params, entry, held_bytes=0):
        if len(cache) > 100_000:
            cache.clear()
            rt.memory.release(cached_bytes[0])  # the sets dropped with the cache
            cached_bytes[0] = 0
        if held_bytes:
            rt.memory.charge(held_bytes)
            cached_bytes[0] += held_bytes
        cache[params] = entry

    if sq.mode == "scalar":
        return _scalar(sq, execute, store, cache)
    if sq.mode == "exists":
        return _exists(sq, execute, store, cache)
    if sq.mode == "quantified":
        return _quantified(sq, execute, store, cache)
    return _in_set(sq, execute, store, cache)


def _scalar(sq, execute, store, cache):
    """`(subquery)` as a value. As in Databend: an uncorrelated scalar subquery gives its first
    row, a correlated one returning more than one row is an error."""
    at_most_one_row = sq.correlated

    def fill(params):
        value = None
        seen = 0
        for batch in execute(params):
            if batch:
                if not seen:
                    value = batch[0][0]
                seen += len(batch)
                if not at_most_one_row or seen > 1:
                    break
            yield
        if seen > 1 and at_most_one_row:
            raise EngineError("Scalar subquery can't return more than one row", code=INTERNAL)
        store(params, value)

    def scalar(params):
        if params not in cache:
            for _ in fill(params):
                pass
        return cache[params]

    return _with_prefetch(scalar, fill, cache)


def _exists(sq, execute, store, cache):
    """`[NOT] EXISTS (subquery)`: whether it gives a row (it stops at the first)."""
    negated = sq.negated

    def fill(params):
        hit = False
        for batch in execute(params):
            if batch:
                hit = True
                break
            yield
        store(params, hit)

    def exists(params):
        hit = cache.get(params)
        if hit is None:
            for _ in fill(params):
                pass
            hit = cache[params]
        return hit != negated

    return _with_prefetch(exists, fill, cache)


def _in_set(sq, execute, store, cache):
    """`x [NOT] IN (subquery)`: the subquery's values gathered into a set once per tuple of
    outer values (its memory charged), three-valued as SQL's IN."""
    negated = sq.negated
    # the values of a float column by their hash keys (every NaN one value), as `= ANY` has them
    key = hash_function(sq.plan.types[0])

    def fill(params):
        values = set()
        for batch in execute(params):
            values.update(r[0] for r in batch)
            yield
        if key is not None:
            values = set(map(key, values))
        has_null = None in values
        values.discard(None)
        store(params, (values, has_null), growth_bytes(values, len(values), HASH_ENTRY_BYTES))

    def contains(params, x):
        entry = cache.get(params)
        if entry is None:
            for _ in fill(params):
                pass
            entry = cache[params]
        values, has_null = entry
        if not values and not has_null:
            return negated
        if x is None:
            return None
        if (x if key is None else key(x)) in values:
            return not negated
        return None if has_null else negated

    return _with_prefetch(contains, fill, cache)


def _quantified(sq, execute, store, cache):
    """`x op ALL|ANY (subquery)`: the subquery summarised once per tuple of outer values."""
    op, quantifier = sq.quantifier
    key = hash_function(sq.plan.types[0])

    def fill(params):
        steps = summarise(execute(params), key)
        summary = next(steps)
        while summary is None:
            yield
            summary = next(steps)
        store(params, summary, summary_bytes(summary))

    def compare(params, x):
        summary = cache.get(params)
        if summary is None:
            for _ in fill(params):
                pass
            summary = cache[params]
        return decide(op, quantifier, x if key is None else key(x), summary)

    return _with_prefetch(compare, fill, cache)


def _with_prefetch(evaluate, fill, cache):
    """`evaluate` with a `prefetch()` generator computing its uncorrelated value in steps. A
    failure is not raised there: the value stays uncomputed, so the error comes (as before)
    only if and when an expression needs the value."""
    def prefetch():
        if () in cache:
            return
        try:
            for _ in fill(()):
                yield []
        except Exception:  # noqa: BLE001 - raised again by `evaluate` if the value is used
            cache.pop((), None)

    evaluate.prefetch = prefetch
    return evaluate


def prefetch_steps(cg):
    """Steps (each yielding []) that evaluate the uncorrelated subqueries `cg` compiled in."""
    for runner in cg.uncorrelated:
        yield from runner.prefetch()


def prefetching(cg, run):
    """`run` preceded by the steps that evaluate its uncorrelated subqueries (an uncorrelated
    subquery otherwise runs whole inside the first step that needs it)."""
    if not cg.uncorrelated:
        return run

    def run_after_subqueries(p):
        yield from prefetch_steps(cg)
        yield from run(p)

    return run_after_subqueries
