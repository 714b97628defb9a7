"""Multi-table INSERT ALL | FIRST: each row of the source query goes INTO every target of every
WHEN branch whose condition holds (ALL) or of the first one (FIRST), or of ELSE when none holds.
Rows are converted in bounded steps and appended to all the tables at the end (atomic)."""

from __future__ import annotations

from engine.bind.scope import Scope
from engine.core.errors import BadArguments
from engine.core.memory import batch_bytes
from engine.exec.executor import Runtime
from engine.exec.result import Column, Progress, Result
from engine.exec.subquery import prefetch_steps
from engine.ir.expr import Col
from engine.plan.planner import Planner
from engine.statements.writers import commit_appends
from engine.types import sqltype as T
from grammar import ast as A


def run_insert_multi(ctx, stmt: A.InsertMulti, insert_plan, column_plan) -> Result:
    """`insert_plan(table, positions)` -> (converters, fill) and `column_plan(table, names)` ->
    positions come from the INSERT statement, so every INSERT converts values the same way."""
    planner = Planner(ctx)
    plan, names = planner.plan_query(stmt.query)
    scope = Scope([(None, n, c, t) for n, c, t in zip(names, plan.layout, plan.types, strict=False)])
    cols = {cid: f"r[{i}]" for i, cid in enumerate(plan.layout)}
    progress = Progress()
    runtime = Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan)
    cg = runtime.codegen()
    tables: dict = {}  # (database, name) -> (table, buffer), in order of first mention

    def target(into: A.IntoTarget):
        database, name = ctx.resolve_table_name(into.table)
        key = (database, name)
        if key not in tables:
            tables[key] = (ctx.catalog.table(database, name, into.pos), [])
        table, buffer = tables[key]
        positions = column_plan(table, into.columns)
        if into.values is not None:
            exprs = [planner.bind(v, scope) for v in into.values]
        else:
            exprs = [Col(t, column=c) for c, t in zip(plan.layout, plan.types, strict=False)]
        if len(exprs) != len(positions):
            raise BadArguments("The number of columns in the target and the source must be the same",
                               position=into.pos)
        make = cg.build(["r", "p"], [f"return ({''.join(cg.expr(e, cols) + ', ' for e in exprs)})"])
        converters, fill = insert_plan(table, positions)
        return make, converters, fill, buffer

    branches = []
    for condition, intos in stmt.branches:
        test = None
        if condition is not None:
            cond = planner.binder.boolean(planner.bind(condition, scope))
            test = cg.build(["r", "p"], [f"return {cg.pred(cond, cols)}"])
        branches.append((test, [target(i) for i in intos]))
    else_targets = [target(i) for i in stmt.else_]
    run = runtime.build(plan)
    names_out = [f"number of rows inserted into {d}.{n}" for d, n in tables]
    targets = [(database, table, buffer) for (database, _), (table, buffer) in tables.items()]
    steps = _steps(ctx, run, branches, else_targets, stmt.first, targets, progress, cg)
    return Result([Column(n, "UInt64") for n in names_out], steps, progress=progress, types=[T.UINT64] * len(names_out))


def _steps(ctx, run, branches, else_targets, first, tables, progress, cg):
    memory = ctx.memory
    yield from prefetch_steps(cg)

    def put(outs, r):
        for make, converters, fill, buffer in outs:
            values = make(r, ())
            row = tuple([conv(v) for conv, v in zip(converters, values, strict=False)])
            buffer.append(fill(row) if fill is not None else row)

    for batch in run(()):
        before = [len(b) for _, _, b in tables]
        for r in batch:
            hit = False
            for test, outs in branches:
                if test is None or test(r, ()):
                    hit = True
                    put(outs, r)
                    if first:
                        break
            if not hit and else_targets:
                put(else_targets, r)
        for (_, _, buffer), n in zip(tables, before, strict=False):
            memory.charge(batch_bytes(buffer[n:]))
        yield []
    commit_appends(ctx, tables)
    memory.release()
    progress.write_rows = sum(len(b) for _, _, b in tables)
    yield [tuple(len(b) for _, _, b in tables)]
