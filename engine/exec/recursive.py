"""WITH RECURSIVE: a CTE `anchor UNION [ALL] step` whose step reads the CTE itself.

The anchor's rows are the first working table; each iteration runs the step over the working
table and its new rows become the next one, until an iteration adds none. Rows stream out as they
are made, a batch per step (operators below bound each step); the working tables are charged to
the query's memory, and more iterations than Limits.recursive_cte_iterations is an error naming
that limit. Planning is in engine.plan.recursive, the plan nodes in engine.ir.plan; this module
holds their run loops.
"""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.core.memory import HASH_ENTRY_BYTES, batch_bytes
from engine.ir.plan import RecursiveUnion, WorkTableScan


def build_work_table_scan(plan: WorkTableScan, rt):
    step = rt.batch

    def run(p):
        rows = plan.work.rows
        for i in range(0, len(rows), step):
            yield rows[i:i + step]

    return run


def build_recursive_union(plan: RecursiveUnion, rt):
    anchor_run = rt.build(plan.anchor)
    step_run = rt.build(plan.step)
    limit = rt.ctx.limits.recursive_cte_iterations
    memory = rt.memory
    work = plan.work

    def run(p):
        seen = None if plan.all else set()
        held = 0  # bytes charged for the working tables (and the distinct rows seen)

        def fresh(batch):
            if seen is None:
                return batch
            out = []
            for r in batch:
                if r not in seen:
                    seen.add(r)
                    out.append(r)
            return out

        current = []
        for batch in anchor_run(p):
            out = fresh(batch)
            if out:
                nbytes = batch_bytes(out, 0 if seen is None else HASH_ENTRY_BYTES)
                memory.charge(nbytes)
                held += nbytes
                current.extend(out)
            yield out
        iterations = 0
        while current:
            iterations += 1
            work.rows = current
            following = []
            following_bytes = 0
            for batch in step_run(p):
                out = fresh(batch)
                if out:
                    nbytes = batch_bytes(out, 0 if seen is None else HASH_ENTRY_BYTES)
                    memory.charge(nbytes)
                    following_bytes += nbytes
                    following.extend(out)
                yield out
                if following and iterations > limit:  # one more iteration that adds rows
                    raise BadArguments(f"recursive CTE `{plan.name}` did not finish within "
                                       f"recursive_cte_iterations = {limit} iterations")
            if seen is None:  # UNION ALL: the finished working table is dropped
                memory.release(held)
                held = 0
            held += following_bytes
            current = following
        work.rows = []

    return run
