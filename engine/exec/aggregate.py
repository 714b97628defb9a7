"""Aggregation: GROUP BY (and global) aggregates as generated batch code, one input batch per
step; collected aggregates (median, string_agg, quantiles...) keep their values per group, folded
ones (the BITMAP aggregates) one state per group that their Folder updates row by row. Memory
held by groups is charged to the query."""

from __future__ import annotations

import decimal
from itertools import islice
from operator import itemgetter

from engine.codegen.batch_source import column_refs, resliced, row_vars
from engine.core.errors import EngineError
from engine.core.memory import HASH_ENTRY_BYTES, LIST_SLOT_BYTES, SORT_SLOT_BYTES, charge_growth
from engine.exec.subquery import correlated_rows, prefetching
from engine.ir import plan as P
from engine.ir.expr import Col
from engine.types.bitmap_values import ELEMENT_BYTES
from engine.types.integer_wrap import total_wrapper, wrapped_mean
from engine.types.keys import (
    from_sort_value,
    greatest,
    hash_function,
    hash_key_source,
    holds_nan,
    least,
    sort_value,
)

COLLECTED_VALUE_BYTES = 40  # memory: one value a collected aggregate holds (its slot and object)


def collected_final(agg):
    """values -> the collected aggregate's result (over distinct values for DISTINCT)."""
    final, params = agg.collected.final, agg.params
    if agg.distinct:
        return lambda values: final(list(dict.fromkeys(values)), params)
    return lambda values: final(values, params)


def charge_folders(folders, memory) -> None:
    """Charge the numbers the folded aggregates' states gained (once per batch)."""
    for folder in folders:
        if folder.grown:
            memory.charge(folder.grown * ELEMENT_BYTES)
            folder.grown = 0


def build_aggregate(plan: P.Aggregate, rt):
    # a collected aggregate charges its values by the batch's length: it takes list batches
    one_pass = plan.keys and not any(a.collected is not None for a in plan.aggs)
    child_run = rt.build_one_pass(plan.child) if one_pass else rt.build(plan.child)
    cg = rt.codegen()
    unpacked = row_vars(plan.child) if plan.keys else None
    cols = unpacked or column_refs(plan.child.layout)
    aggs = plan.aggs
    arg_src = {}
    lines = []
    value_names = []
    for a in aggs:
        if a.arg is None:
            value_names.append(None)
            continue
        src = cg.expr(a.arg, cols)
        if a.extra:  # a collected aggregate of several arguments gathers a tuple a row
            src = "(" + ", ".join([src] + [cg.expr(x, cols) for x in a.extra]) + ",)"
        if src not in arg_src:
            arg_src[src] = f"v{len(arg_src)}"
        value_names.append(arg_src[src])
    small = correlated_rows(cg, rt.step_rows)
    if small:
        child_run = resliced(child_run, small)
    if not plan.keys:
        return prefetching(cg, _build_global_aggregate(plan, rt, cg, cols, arg_src, value_names, child_run))
    for src, name in arg_src.items():
        lines.append(f"    {name} = {src}")
    # a float key's NaNs made one object, so all of them are one group (other keys as they are)
    keys = [hash_key_source(cg.expr(k, cols), k.type, cg.bind) for k in plan.keys]
    key = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ",)"
    init: list[str] = []
    update: list[str] = []
    slot_of: dict = {}

    def slot(kind, v, nullable, floats=False):
        """The accumulator slot for (kind, value), shared by aggregates that need the same one.
        MIN/MAX of floats (`floats`) hold sort keys (a NaN as NAN_LAST, the greatest)."""
        key = (kind, v if (kind != "count" or nullable) else None)
        if key in slot_of:
            return slot_of[key]
        s = slot_of[key] = len(init)
        if kind == "count":
            if key[1] is None:
                init.append("1")
                update.append(f"a[{s}] += 1")
            else:
                init.append(f"(0 if {v} is None else 1)")
                update.append(f"if {v} is not None: a[{s}] += 1")
        elif kind == "distinct":
            init.append(f"({{{v}}} if {v} is not None else set())" if nullable else f"{{{v}}}")
            update.append(f"if {v} is not None: a[{s}].add({v})" if nullable else f"a[{s}].add({v})")
        elif kind == "sum":
            init.append(v)
            update.append(f"if {v} is not None: a[{s}] = {v} if a[{s}] is None else a[{s}] + {v}"
                          if nullable else f"a[{s}] += {v}")
        elif kind in ("min", "max"):
            # `not v <= a` is `v > a` for every value but a NaN, which is greater than all
            beats = f"{v} < a[{s}]" if kind == "min" else f"not {v} <= a[{s}]"
            new = f"{cg.bind(sort_value)}({v})" if floats else v
            init.append(new)
            update.append(f"if {v} is not None and (a[{s}] is None or {beats}): a[{s}] = {new}"
                          if nullable else f"if {beats}: a[{s}] = {new}")
        elif kind == "any":
            init.append(v)
            if nullable:
                update.append(f"if a[{s}] is None: a[{s}] = {v}")
        elif kind == "collect":
            init.append(f"[{v}]")
            update.append(f"a[{s}].append({v})")
        else:
            raise EngineError(f"unknown aggregate {kind}")
        return s

    out_cg = rt.codegen()
    finals = []  # source of each aggregate's value from the accumulator list `a`
    folders = []  # memory: the folded aggregates' Folders, whose states grow
    for i, a in enumerate(aggs):
        v = value_names[i]
        nullable = a.arg is not None and cg.nullable(a.arg)
        if a.collected is not None:
            finals.append(f"{out_cg.bind(collected_final(a))}(a[{slot('collect', v, nullable)}])")
        elif a.folded is not None:  # a state a group (never shared: each Folder has its own)
            folder = a.folded.folder(a.params, a.distinct)
            folders.append(folder)
            s, fold = len(init), cg.bind(folder.fold)
            init.append(f"{fold}(None, {v})")
            update.append(f"a[{s}] = {fold}(a[{s}], {v})")
            finals.append(f"{out_cg.bind(folder.final)}(a[{s}])")
        elif a.distinct and v is not None:
            fn = _distinct_final(a.name, slot("distinct", hash_key_source(v, a.arg.type, cg.bind), nullable), a)
            finals.append(f"{out_cg.bind(fn)}(a)")
        elif a.name == "count":
            finals.append(f"a[{slot('count', v, nullable)}]")
        elif a.name == "avg":
            s_sum, s_cnt = slot("sum", v, nullable), slot("count", v, nullable)
            if a.type.name == "Decimal" or _total(a) is not None:
                finals.append(f"{out_cg.bind(_mean(a))}(a[{s_sum}], a[{s_cnt}])")
            else:
                finals.append(f"(None if a[{s_cnt}] == 0 else float(a[{s_sum}]) / a[{s_cnt}])")
        elif _total(a) is not None:  # an integer SUM: its total wrapped as Databend's
            finals.append(f"{out_cg.bind(_total(a))}(a[{slot(a.name, v, nullable)}])")
        elif a.name in ("min", "max") and a.arg.type.is_float:
            finals.append(f"{out_cg.bind(from_sort_value)}(a[{slot(a.name, v, nullable, floats=True)}])")
        else:
            finals.append(f"a[{slot(a.name, v, nullable)}]")
    body = ["get = acc.get", "for r in b:"] + lines + [
        f"    k = {key}",
        "    a = get(k)",
        "    if a is None:",
        f"        acc[k] = [{', '.join(init)}]",
    ]
    if update:
        body += ["    else:"] + ["        " + u for u in update]
    if unpacked is not None:
        body[1] = f"for {unpacked.target()} in b:"
    step = cg.build(["b", "p", "acc"], body)
    key_out = "k, " if len(keys) == 1 else "".join(f"k[{i}], " for i in range(len(keys)))
    # one generated comprehension turns a chunk of (key, accumulators) into output rows
    finish = out_cg.build(["part"], [f"return [({key_out}{''.join(f + ', ' for f in finals)}) for k, a in part]"])

    out_rows = rt.batch
    # memory: values held a row (a WITHIN GROUP key is held beside each value)
    collecting = sum(1 + a.collected.sort_keys for a in aggs if a.collected is not None)

    def run(p):
        acc = {}
        groups = 0  # memory: groups charged so far
        for batch in child_run(p):
            if batch:
                step(batch, p, acc)
                groups = charge_growth(rt.memory, acc, groups, HASH_ENTRY_BYTES)
                if collecting:
                    rt.memory.charge(len(batch) * collecting * COLLECTED_VALUE_BYTES)
                if folders:
                    charge_folders(folders, rt.memory)
            yield []
        # the groups in chunks straight off the dict (no step copies every group at once)
        items = iter(acc.items())
        acc = None
        while part := list(islice(items, out_rows)):
            yield finish(part)

    return prefetching(cg, run)


def _total(agg):
    """The wrap of an integer SUM's (or AVG's) total (engine.types.integer_wrap), else None."""
    if agg.name not in ("sum", "avg") or agg.arg is None:
        return None
    return total_wrapper(agg.arg.type)


def _mean(agg):
    """(total, count) -> AVG value: Float64 (of the wrapped total for integers), or for a Decimal
    argument a Decimal of the result scale (Databend rounds AVG half up, and truncates
    AVG(DISTINCT))."""
    integers = wrapped_mean(agg.arg.type) if agg.arg is not None else None
    if integers is not None:
        return integers
    if agg.type.name != "Decimal":
        return lambda total, count: None if count == 0 else float(total) / count
    unit = decimal.Decimal(1).scaleb(-agg.type.scale)
    rounding = decimal.ROUND_DOWN if agg.distinct else decimal.ROUND_HALF_UP
    context = decimal.Context(prec=100)

    def mean(total, count):
        if count == 0:
            return None
        return context.divide(decimal.Decimal(total), count).quantize(unit, rounding=rounding, context=context)

    return mean


def _distinct_final(name, s, agg=None):
    if name == "count":
        return lambda acc: len(acc[s])
    if name == "sum":
        total = _total(agg) or (lambda v: v)
        return lambda acc: total(sum(acc[s])) if acc[s] else None
    if name == "avg":
        mean = _mean(agg)
        return lambda acc: mean(sum(acc[s]), len(acc[s]))
    if name == "min":
        return lambda acc: least(acc[s]) if acc[s] else None
    if name == "max":
        return lambda acc: greatest(acc[s]) if acc[s] else None
    return lambda acc: next(iter(acc[s])) if acc[s] else None


def _build_global_aggregate(plan, rt, cg, cols, arg_src, value_names, child_run):
    """No GROUP BY: per batch, gather each argument column once and fold it with builtins."""
    aggs = plan.aggs
    lines = []
    nullable_of = {}
    for a, v in zip(aggs, value_names, strict=False):
        if v is not None:
            nullable_of[v] = nullable_of.get(v, False) or cg.nullable(a.arg)
    position = {cid: i for i, cid in enumerate(plan.child.layout)}
    column_of = {v: position[a.arg.column] for a, v in zip(aggs, value_names, strict=False)
                 if v is not None and isinstance(a.arg, Col) and not a.extra}
    for src, name in arg_src.items():
        if name in column_of:
            # a plain column: gathered by a C-level itemgetter map
            values = f"map({cg.bind(itemgetter(column_of[name]))}, b)"
            if nullable_of.get(name):
                lines.append(f"{name} = [x for x in {values} if x is not None]")
            else:
                lines.append(f"{name} = list({values})")
        elif nullable_of.get(name):
            lines.append(f"{name} = [x for r in b if (x := {src}) is not None]")
        else:
            lines.append(f"{name} = [{src} for r in b]")
    summed = set()  # argument lists whose batch sum is computed already (SUM and AVG share it)
    folders = {}  # position -> the Folder of a folded aggregate
    for i, (a, v) in enumerate(zip(aggs, value_names, strict=False)):
        if a.collected is not None:
            lines.append(f"st[{i}].extend({v})")
        elif a.folded is not None:
            folders[i] = a.folded.folder(a.params, a.distinct)
            lines.append(f"st[{i}] = {cg.bind(folders[i].fold_many)}(st[{i}], {v})")
        elif a.distinct:
            if holds_nan(a.arg.type):  # every NaN one value
                lines.append(f"st[{i}].update(map({cg.bind(hash_function(a.arg.type))}, {v}))")
            else:
                lines.append(f"st[{i}].update({v})")
        elif a.name == "count":
            lines.append(f"st[{i}] += len({'b' if v is None else v})")
        elif a.name in ("sum", "avg"):
            if v not in summed:
                summed.add(v)
                lines.append(f"s_{v} = sum({v}) if {v} else None")
            lines += [f"if s_{v} is not None:", f"    st[{i}] = s_{v} if st[{i}] is None else st[{i}] + s_{v}"]
            if a.name == "avg":
                lines.append(f"cnt[{i}] += len({v})")
        elif a.name in ("min", "max") and a.arg.type.is_float:
            # in Databend's order: the batch's extreme (least/greatest see NaNs), then as a sort
            # key (NAN_LAST, the greatest) against the extreme so far
            extreme = cg.bind(least if a.name == "min" else greatest)
            beats = f"x < st[{i}]" if a.name == "min" else f"not x <= st[{i}]"
            lines += [f"if {v}:", f"    x = {cg.bind(sort_value)}({extreme}({v}))",
                      f"    if st[{i}] is None or {beats}: st[{i}] = x"]
        elif a.name in ("min", "max"):
            op = "<" if a.name == "min" else ">"
            lines += [f"if {v}:", f"    x = {a.name}({v})",
                      f"    if st[{i}] is None or x {op} st[{i}]: st[{i}] = x"]
        elif a.name == "any":
            lines += [f"if {v} and st[{i}] is None:", f"    st[{i}] = {v}[0]"]
    step = cg.build(["b", "p", "st", "cnt"], lines or ["pass"])

    distinct_slots = [i for i, a in enumerate(aggs) if a.distinct and a.folded is None]  # memory: sets that grow

    # memory: lists that grow, and the bytes a value costs beyond itself (its slot; with WITHIN
    # GROUP also the key slot its final sort holds)
    collected = {i: LIST_SLOT_BYTES + (SORT_SLOT_BYTES if a.collected.sort_keys else 0)
                 for i, a in enumerate(aggs) if a.collected is not None}

    def run(p):
        st = [[] if a.collected is not None else None if a.folded is not None else set() if a.distinct
              else 0 if a.name == "count" else None for a in aggs]
        cnt = [0] * len(aggs)
        held = [0] * len(aggs)  # memory: values of each DISTINCT set or collected list charged so far
        seen = False  # any input row (the empty grouping set of no rows is no group)
        for batch in child_run(p):
            if batch:
                seen = True
                step(batch, p, st, cnt)
                for i in distinct_slots:
                    held[i] = charge_growth(rt.memory, st[i], held[i], HASH_ENTRY_BYTES)
                for i in collected:
                    held[i] = charge_growth(rt.memory, st[i], held[i], collected[i])
                if folders:
                    charge_folders(folders.values(), rt.memory)
            yield []
        if plan.grouping_set and not seen:
            return
        row = []
        for i, a in enumerate(aggs):
            v = st[i]
            if a.collected is not None:
                row.append(collected_final(a)(v))
            elif a.folded is not None:
                row.append(folders[i].final(v))
            elif a.distinct:
                row.append(_distinct_final(a.name, 0, a)([v]))
            elif a.name == "avg":
                row.append(_mean(a)(v, cnt[i]))
            elif _total(a) is not None:
                row.append(_total(a)(v))
            elif a.name in ("min", "max") and a.arg.type.is_float:
                row.append(from_sort_value(v))
            else:
                row.append(v)
        yield [tuple(row)]

    return run
