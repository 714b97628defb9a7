"""unnest(array) in a SELECT list, alone or inside an expression (`unnest(a) + 1`): a projection
computes the arrays beside the input columns, `UnnestRows` turns each row into one row per
element (several arrays go side by side, the shorter padded with NULL; a NULL or empty array
gives no row), then the select expressions read the elements, as Databend's set-returning unnest.

This module is the run loop of `UnnestRows` (engine.ir.plan); the planning is engine.plan.unnest,
the binder's rewrite of unnest(range(a, b)) engine.bind.unnest."""

from __future__ import annotations

from engine.ir.plan import UnnestRows


def build_unnest_rows(plan: UnnestRows, rt):
    child_run = rt.build(plan.child)
    positions = plan.positions
    budget = rt.step_rows

    def run(p):
        for batch in child_run(p):
            out = []
            for row in batch:
                arrays = [row[i] for i in positions]
                count = max([len(a) for a in arrays if a is not None], default=0)
                for k in range(count):
                    values = list(row)
                    for i, a in zip(positions, arrays, strict=True):
                        values[i] = a[k] if a is not None and k < len(a) else None
                    out.append(tuple(values))
                    if len(out) >= budget:  # within a row too: one array may hold a million elements
                        yield out
                        out = []
            yield out

    return run
