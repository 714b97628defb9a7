"""unnest(array) in a SELECT list: the projection computes the arrays, then `UnnestRows` turns
each row into one row per element (several unnest columns go side by side, the shorter padded
with NULL; a NULL or empty array gives no row), as Databend's set-returning unnest does."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.expr import Expr, Plan


@dataclass(eq=False)
class UnnestRows(Plan):
    """positions: the columns of `child` that hold the arrays to spread over rows."""

    child: Plan = None
    positions: list = field(default_factory=list)

    def children(self):
        return [self.child]


def is_unnest(e: Expr) -> bool:
    return e.kind == "func" and e.value.name == "unnest"


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
                if len(out) >= budget:
                    yield out
                    out = []
            yield out

    return run
