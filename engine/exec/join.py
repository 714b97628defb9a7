"""Joins: a hash join on the equi keys (the right side is built), nested loops otherwise.

A probe step emits at most the step budget of rows (Limits.step_rows): left rows are probed in
chunks sized by the largest group a left row can meet, and a left row whose group alone exceeds
the budget (duplicate keys, or the whole right side of a nested loop) is joined one slice of the
group per step. Rows come out in the same order either way: each left row in turn, its matches in
build order.
"""

from __future__ import annotations

from itertools import islice

from engine.codegen.batch_source import column_refs, map_source
from engine.core.memory import HASH_ENTRY_BYTES, batch_bytes
from engine.exec.subquery import correlated_rows, prefetching
from engine.ir.expr import And
from engine.types.keys import hash_key_source


def build_join(plan, rt, pred=None, exprs=None):
    """Hash join on the equi keys, nested loops otherwise. A filter and projection above an inner
    join are fused into the probe loop."""
    # a hash-join probe walks each left batch once; a nested loop slices it (below)
    left_run = rt.build_one_pass(plan.left) if plan.left_keys else rt.build(plan.left)
    right_run = rt.build(plan.right)
    cg = rt.codegen()
    lcols = column_refs(plan.left.layout, "l")
    rcols = column_refs(plan.right.layout, "m")
    both = {**lcols, **rcols}
    kind = plan.kind
    inner = kind in ("INNER", "CROSS")
    nl, nr = len(plan.left.layout), len(plan.right.layout)
    residual = plan.residual
    if inner and residual is not None:
        pred = residual if pred is None else And(pred.type, args=(residual, pred))
        residual = None
    key_of = None
    if plan.left_keys:
        # float keys by their hash keys (every NaN one value); other keys as they are
        lk = [hash_key_source(cg.expr(k, lcols), k.type, cg.bind) for k in plan.left_keys]
        rk_cg = rt.codegen()
        rk = [hash_key_source(rk_cg.expr(k, column_refs(plan.right.layout, "m")), k.type, rk_cg.bind)
              for k in plan.right_keys]
        lkey = lk[0] if len(lk) == 1 else "(" + ", ".join(lk) + ",)"
        rkey = rk[0] if len(rk) == 1 else "(" + ", ".join(rk) + ",)"
        null_checks = " or ".join(f"{s} is None" for s in rk)
        key_fn = rk_cg.build(["b", "p", "ht"], [
            "for m in b:",
            f"    k = {rkey}",
            f"    if {null_checks}:" if null_checks else "    if False:",
            "        continue",
            "    g = ht.get(k)",
            "    if g is None:",
            "        ht[k] = [m]",
            "    else:",
            "        g.append(m)",
        ])
        # the probe key of each left row: used only when some group exceeds the step budget
        key_of = cg.build(["b", "p"], [f"return [{lkey} for l in b]"])
    else:
        lkey = None
        key_fn = None
    empty = cg.bind(())
    unique_probe = None
    if inner:
        if exprs is not None:
            proj = "(" + "".join(cg.expr(e, both) + ", " for e in exprs) + ")"
        else:
            proj = "l + m"
        cond_src = None if pred is None else cg.pred(pred, both)
        cond = "" if pred is None else " if " + cond_src
        source = "ht.get(" + lkey + ", " + empty + ")" if lkey else "right"
        probe = cg.build(["b", "p", "ht", "right"], [f"return [{proj} for l in b for m in {source}{cond}]"])
        # one left row against one slice of its group
        piece = cg.build(["l", "p", "ms", "seen"], [f"return [{proj} for m in ms{cond}]"])
        if lkey:
            # every build key unique (a dimension table): one dict lookup per probe row, no inner loop
            extra = "" if cond_src is None else " and " + cond_src
            unique_probe = cg.build(["b", "p", "ht", "right"],
                                    [f"return [{proj} for l in b if (m := ht.get({lkey})) is not None{extra}]"])
        post = None
    else:
        nulls = cg.bind((None,) * nr)
        cond = cg.pred(residual, both) if residual is not None else "True"
        source = "ht.get(" + lkey + ", " + empty + ")" if lkey else "right"
        lines = [
            "out = []",
            "for l in b:",
            "    hit = False",
            f"    for m in {source}:",
            f"        if {cond}:",
            "            out.append(l + m)",
            "            hit = True",
        ]
        if kind == "FULL":
            lines.append("            seen.add(id(m))")
        lines += ["    if not hit:", f"        out.append(l + {nulls})", "return out"]
        probe = cg.build(["b", "p", "ht", "right", "seen"], lines)
        piece_lines = ["out = []", "for m in ms:", f"    if {cond}:", "        out.append(l + m)"]
        if kind == "FULL":
            piece_lines.append("        seen.add(id(m))")
        piece = cg.build(["l", "p", "ms", "seen"], piece_lines + ["return out"])
        post = None
        if pred is not None or exprs is not None:
            post_cg = rt.codegen()
            proj, pcond = map_source(post_cg, plan.layout, pred, exprs)
            post = post_cg.build(["b", "p"], [f"return [{proj} for r in b{pcond}]"])
    left_nulls = (None,) * nl
    right_nulls = (None,) * nr
    budget = rt.step_rows
    # a condition running a correlated subquery per pair: few pairs per step
    budget = min(budget, correlated_rows(cg, budget) or budget)

    def run(p):
        ht = {}
        right = []
        for batch in right_run(p):
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
        step_probe = probe
        if inner and unique_probe is not None and widest == 1:
            unique = {}
            items = iter(ht.items())
            while part := list(islice(items, rt.step_rows)):
                unique.update({k: g[0] for k, g in part})
                yield []
            ht = unique
            step_probe = unique_probe
        seen = set()

        def emit(rows):
            """Probe a chunk of left rows whose output fits the budget."""
            if inner:
                return step_probe(rows, p, ht, right)
            out = probe(rows, p, ht, right, seen)
            return post(out, p) if post is not None else out

        if widest <= budget:
            chunk = max(1, min(rt.batch, budget // max(widest, 1)))
            for batch in left_run(p):
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
        else:
            yield from oversize(p, ht, right, emit, seen)
        if kind == "FULL":
            for i in range(0, len(right), rt.batch):
                part = [left_nulls + m for m in right[i:i + rt.batch] if id(m) not in seen]
                yield post(part, p) if post is not None else part

    def oversize(p, ht, right, emit, seen):
        """Some left row meets more right rows than one step may emit: left rows with small groups
        are probed together while their output fits the budget; a big group is joined one slice
        of at most `budget` right rows per step."""
        slices = [right[i:i + budget] for i in range(0, len(right), budget)] if key_fn is None else None
        for batch in left_run(p):
            rows = batch if isinstance(batch, list) else list(batch)
            groups = [ht.get(k) for k in key_of(rows, p)] if key_fn is not None else None
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
                    out = piece(row, p, ms, seen)
                    hit = hit or bool(out)
                    yield post(out, p) if post is not None else out
                if not inner and not hit:
                    out = [row + right_nulls]
                    yield post(out, p) if post is not None else out
            if pending:
                yield emit(pending)

    return prefetching(cg, run)
