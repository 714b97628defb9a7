"""SEMI and ANTI joins: the rows of the kept (left) side that have, or have not, a match on the other.

The other side is built first (a set of its keys, or with a residual condition its rows grouped
by key), one batch per step. Probing without a residual is one generated comprehension per
batch. With a residual each kept row is tested against its group: a step tests at most the step
budget of (row, match) pairs, slicing a big group over several steps, so no step's work grows
with the data. Rows come out in the kept side's order; a NULL key never matches (an ANTI join
keeps the row, as Databend does).
"""

from __future__ import annotations

from engine.codegen.batch_source import column_refs
from engine.core.memory import HASH_ENTRY_BYTES, batch_bytes
from engine.exec.subquery import prefetching
from engine.types.keys import hash_key_source


def build_semi_join(plan, rt):
    anti = plan.kind == "ANTI"
    left_run = rt.build(plan.left)
    right_run = rt.build(plan.right)
    cg = rt.codegen()
    lcols = column_refs(plan.left.layout, "l")
    rcols = column_refs(plan.right.layout, "m")
    budget = rt.step_rows
    keyed = bool(plan.left_keys)
    if keyed:
        # float keys by their hash keys (every NaN one value); other keys as they are
        lk = [hash_key_source(cg.expr(k, lcols), k.type, cg.bind) for k in plan.left_keys]
        rk = [hash_key_source(cg.expr(k, rcols), k.type, cg.bind) for k in plan.right_keys]
        lkey = lk[0] if len(lk) == 1 else "(" + ", ".join(lk) + ",)"
        rkey = rk[0] if len(rk) == 1 else "(" + ", ".join(rk) + ",)"
        null_checks = " or ".join(f"{s} is None" for s in rk)
        key_of = cg.build(["b", "p"], [f"return [{lkey} for l in b]"])
    residual = plan.residual
    if residual is None and keyed:
        add = cg.build(["b", "p", "ht"], [
            "for m in b:",
            f"    k = {rkey}",
            f"    if {null_checks}:",
            "        continue",
            "    ht.add(k)",
        ])
        test = "not in" if anti else "in"
        probe = cg.build(["b", "p", "ht"], [f"return [l for l in b if {lkey} {test} ht]"])
    else:
        if keyed:
            add = cg.build(["b", "p", "ht"], [
                "for m in b:",
                f"    k = {rkey}",
                f"    if {null_checks}:",
                "        continue",
                "    g = ht.get(k)",
                "    if g is None:",
                "        ht[k] = [m]",
                "    else:",
                "        g.append(m)",
            ])
        cond = "True" if residual is None else cg.pred(residual, {**lcols, **rcols})
        # whether one kept row matches one of the rows `ms`
        matches = cg.build(["l", "p", "ms"], ["for m in ms:", f"    if {cond}:", "        return True",
                                              "return False"])

    def build_side(p):
        table = set() if residual is None and keyed else {}
        rows = []
        for batch in right_run(p):
            if batch:
                rt.memory.charge(batch_bytes(batch, HASH_ENTRY_BYTES))
                if keyed:
                    add(batch, p, table)
                else:
                    rows.extend(batch)
            yield None
        yield (table, rows)

    def run(p):
        built = None
        for built in build_side(p):
            if built is None:
                yield []
        table, rows = built
        if residual is None and keyed:
            for batch in left_run(p):
                if batch:
                    yield probe(batch if isinstance(batch, list) else list(batch), p, table)
            return
        for batch in left_run(p):
            groups = key_of(batch, p) if keyed else None
            out = []
            work = 0
            for i, row in enumerate(batch):
                group = rows if groups is None else table.get(groups[i], ())
                hit = False
                done = 0
                while done < len(group):
                    if work >= budget:
                        yield out
                        out, work = [], 0
                    part = group[done:done + budget - work]  # the pairs this step may still test
                    done += len(part)
                    work += len(part)
                    if matches(row, p, part):
                        hit = True
                        break
                if hit != anti:
                    out.append(row)
                work += 1
            yield out

    return prefetching(cg, run)
