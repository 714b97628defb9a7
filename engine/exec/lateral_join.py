"""LATERAL joins: the subquery runs once per left row with that row's values as its outer
parameters. Each run is the subquery's own pipeline (bounded steps); the join gives control
back whenever the subquery does and emits at most the step budget of rows per step."""

from __future__ import annotations

from engine.codegen.batch_source import column_refs
from engine.exec.subquery import prefetching
from engine.ir.plan import LateralJoin


def build_lateral_join(plan: LateralJoin, rt):
    left_run = rt.build(plan.left)
    sub_run = rt.build(plan.sub)
    cg = rt.codegen()
    lcols = column_refs(plan.left.layout, "l")
    args_of = cg.build(["l", "p"], [f"return ({''.join(cg.expr(e, lcols) + ', ' for e in plan.params)})"])
    matches = None
    if plan.condition is not None:
        both = {**lcols, **column_refs(plan.sub.layout, "m")}
        matches = cg.build(["l", "m", "p"], [f"return {cg.pred(plan.condition, both)}"])
    outer = plan.kind == "LEFT"
    nulls = (None,) * len(plan.sub.layout)
    budget = rt.step_rows

    def run(p):
        out = []
        for batch in left_run(p):
            for row in batch:
                hit = False
                for sub in sub_run(args_of(row, p)):
                    if not sub:  # the subquery gives control back: so does the join
                        yield out
                        out = []
                        continue
                    for m in sub:
                        if matches is None or matches(row, m, p):
                            out.append(row + m)
                            hit = True
                    while len(out) >= budget:
                        yield out[:budget]
                        out = out[budget:]
                if outer and not hit:
                    out.append(row + nulls)
                if len(out) >= budget:
                    yield out
                    out = []
            yield out
            out = []

    return prefetching(cg, run)
