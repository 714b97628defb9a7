"""Aggregate code generation: GROUP BY and global aggregates as generated batch functions (no run state).

The run loop that feeds them one input batch per step and charges the memory the groups hold is
engine.exec.aggregate; this module only turns the plan into compiled functions and the final
value functions (collected, folded, DISTINCT, AVG, wrapped integer SUM).
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from operator import itemgetter

from engine.codegen.batch_source import column_refs, row_vars
from engine.codegen.compile import Codegen
from engine.core.errors import EngineError
from engine.ir import plan as P
from engine.ir.expr import Col
from engine.types.integer_wrap import total_wrapper, wrapped_mean
from engine.types.keys import (
    from_sort_value,
    greatest,
    hash_function,
    holds_nan,
    least,
    sort_value,
)


@dataclass(frozen=True)
class AggregateArguments:
    """The aggregates' argument sources, rendered once by the step's generator `cg`."""

    cg: Codegen
    cols: dict  # column id -> its source in a row (`r[i]`, or a loop variable when unpacked)
    unpacked: object  # the RowVars when rows are unpacked into loop variables, else None
    arg_src: dict  # argument source -> its variable (`v0`...): shared by equal arguments
    value_names: list  # each aggregate's argument variable (None for COUNT(*))


@dataclass(frozen=True)
class GroupedCode:
    """GROUP BY: `step(b, p, acc)` folds a batch into acc (key -> accumulator list);
    `finish(part)` turns (key, accumulators) pairs into output rows."""

    step: object
    finish: object
    folders: list  # the folded aggregates' Folders, whose states grow (memory)
    # (kind, argument variable or None) -> its slot in a group's accumulator list (what the
    # groups hold: engine.exec.grouped_columns counts without the step when only counts)
    slot_of: dict
    # with `zipped`, the step over rows of just the columns it reads (`column_positions`, in
    # order), zipped from a scan of columns (engine.exec.grouped_columns), built beside `step`
    # (which steps of fewer rows take); None when rows are not unpacked
    column_step: object = None
    column_positions: tuple = ()


@dataclass(frozen=True)
class GlobalCode:
    """No GROUP BY: `step(b, p, st, cnt)` folds a batch into the states `st` (and AVG counts `cnt`)."""

    step: object
    folders: dict  # aggregate position -> the Folder of a folded aggregate


def aggregate_arguments(plan: P.Aggregate, cg: Codegen) -> AggregateArguments:
    """Render each aggregate's argument once (equal arguments share one variable)."""
    unpacked = row_vars(plan.child) if plan.keys else None
    cols = unpacked or column_refs(plan.child.layout)
    arg_src = {}
    value_names = []
    for a in plan.aggs:
        if a.arg is None:
            value_names.append(None)
            continue
        src = cg.expr(a.arg, cols)
        if a.extra:  # a collected aggregate of several arguments gathers a tuple a row
            src = "(" + ", ".join([src] + [cg.expr(x, cols) for x in a.extra]) + ",)"
        if src not in arg_src:
            arg_src[src] = f"v{len(arg_src)}"
        value_names.append(arg_src[src])
    return AggregateArguments(cg, cols, unpacked, arg_src, value_names)


class _Slots:
    """The accumulator list of a group: its initial values and updates, one slot per (kind,
    argument), shared by aggregates that need the same one (SUM and AVG share the sum)."""

    def __init__(self, bind):
        self.bind = bind  # the step's Codegen.bind (MIN/MAX of floats call sort_value)
        self.init: list[str] = []
        self.update: list[str] = []
        self.slot_of: dict = {}

    def slot(self, kind, v, nullable, floats=False):
        """The accumulator slot for (kind, value). MIN/MAX of floats (`floats`) hold sort keys
        (a NaN as NAN_LAST, the greatest)."""
        init, update = self.init, self.update
        key = (kind, v if (kind != "count" or nullable) else None)
        if key in self.slot_of:
            return self.slot_of[key]
        s = self.slot_of[key] = len(init)
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
            new = f"{self.bind(sort_value)}({v})" if floats else v
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


def grouped_code(plan: P.Aggregate, new_codegen, args: AggregateArguments, zipped: bool = False) -> GroupedCode:
    """The GROUP BY step and finish functions; `new_codegen()` makes the finish's Codegen. With
    `zipped`, also the step over rows of just the columns it reads (GroupedCode.column_step)."""
    cg, cols, aggs, value_names = args.cg, args.cols, plan.aggs, args.value_names
    lines = [f"    {name} = {src}" for src, name in args.arg_src.items()]
    # a float key's NaNs made one object, so all of them are one group (other keys as they are)
    keys = [cg.hash_key(cg.expr(k, cols), k) for k in plan.keys]
    key = keys[0] if len(keys) == 1 else "(" + ", ".join(keys) + ",)"
    slots = _Slots(cg.bind)
    slot, init, update = slots.slot, slots.init, slots.update
    out_cg = new_codegen()
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
            fn = distinct_final(a.name, slot("distinct", cg.hash_key(v, a.arg), nullable), a)
            finals.append(f"{out_cg.bind(fn)}(a)")
        elif a.name == "count":
            finals.append(f"a[{slot('count', v, nullable)}]")
        elif a.name == "avg":
            s_sum, s_cnt = slot("sum", v, nullable), slot("count", v, nullable)
            if a.type.name == "Decimal" or total_of(a) is not None:
                finals.append(f"{out_cg.bind(mean_of(a))}(a[{s_sum}], a[{s_cnt}])")
            else:
                finals.append(f"(None if a[{s_cnt}] == 0 else float(a[{s_sum}]) / a[{s_cnt}])")
        elif total_of(a) is not None:  # an integer SUM: its total wrapped as Databend's
            finals.append(f"{out_cg.bind(total_of(a))}(a[{slot(a.name, v, nullable)}])")
        elif a.name in ("min", "max") and a.arg.type.is_float and cg.may_be_nan(a.arg):
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
    column_step, positions = None, ()
    if args.unpacked is not None:
        body[1] = f"for {args.unpacked.target()} in b:"
        positions = tuple(i for i in range(args.unpacked.width) if f"_c{i}" in args.unpacked.used)
        if positions and zipped:
            names = ", ".join(f"_c{i}" for i in positions)  # one column: its values, not 1-tuples
            column_step = cg.build(["b", "p", "acc"], [body[0], f"for {names} in b:", *body[2:]])
    step = cg.build(["b", "p", "acc"], body)
    key_out = "k, " if len(keys) == 1 else "".join(f"k[{i}], " for i in range(len(keys)))
    # one generated comprehension turns a chunk of (key, accumulators) into output rows
    finish = out_cg.build(["part"], [f"return [({key_out}{''.join(f + ', ' for f in finals)}) for k, a in part]"])
    return GroupedCode(step, finish, folders, slots.slot_of, column_step, positions)


def global_code(plan: P.Aggregate, args: AggregateArguments, columns: dict | None = None,
                summarised=frozenset()) -> GlobalCode:
    """No GROUP BY: per batch, gather each argument column once and fold it with builtins.
    With `columns` (argument variable -> index), the step's `b` is not rows but a row count
    followed by whole columns (engine.exec.aggregate): b[0] rows, b[index] an argument's values,
    or for the variables in `summarised` the [sum, least, greatest] of its NULL-free values
    (engine.catalog.column_zones: the parts its aggregates read)."""
    cg, aggs, value_names = args.cg, plan.aggs, args.value_names
    if columns is None:
        lines, rows = _gathered_arguments(plan, args), "len(b)"
    else:
        lines, rows = _column_arguments(plan, args, columns), "b[0]"
    summed = set()  # argument lists whose batch sum is computed already (SUM and AVG share it)
    folders = {}  # position -> the Folder of a folded aggregate
    for i, (a, v) in enumerate(zip(aggs, value_names, strict=False)):
        if v in summarised:
            lines += _summarised_lines(a, v, i, cg, rows)
            continue
        if a.collected is not None:
            lines.append(f"st[{i}].extend({v})")
        elif a.folded is not None:
            folders[i] = a.folded.folder(a.params, a.distinct)
            lines.append(f"st[{i}] = {cg.bind(folders[i].fold_many)}(st[{i}], {v})")
        elif a.distinct:
            if holds_nan(a.arg.type) and not (a.arg.type.is_float and not cg.may_be_nan(a.arg)):
                # every NaN one value
                lines.append(f"st[{i}].update(map({cg.bind(hash_function(a.arg.type))}, {v}))")
            else:
                lines.append(f"st[{i}].update({v})")
        elif a.name == "count":
            lines.append(f"st[{i}] += {rows}" if v is None else f"st[{i}] += len({v})")
        elif a.name in ("sum", "avg"):
            if v not in summed:
                summed.add(v)
                lines.append(f"s_{v} = sum({v}) if {v} else None")
            lines += [f"if s_{v} is not None:", f"    st[{i}] = s_{v} if st[{i}] is None else st[{i}] + s_{v}"]
            if a.name == "avg":
                lines.append(f"cnt[{i}] += len({v})")
        elif a.name in ("min", "max") and a.arg.type.is_float and cg.may_be_nan(a.arg):
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
    return GlobalCode(step, folders)


def _summarised_lines(a, v, i, cg, rows) -> list[str]:
    """Lines folding the batch summary `v` [sum, least, greatest] of a NULL-free column into the
    aggregate at `i`, as global_code's lines fold the column's values (their sum, min, max)."""
    if a.name == "count":
        return [f"st[{i}] += {rows}"]
    if a.name in ("sum", "avg"):
        lines = [f"st[{i}] = {v}[0] if st[{i}] is None else st[{i}] + {v}[0]"]
        return lines + [f"cnt[{i}] += {rows}"] if a.name == "avg" else lines
    extreme = f"{v}[1]" if a.name == "min" else f"{v}[2]"
    if a.arg.type.is_float and cg.may_be_nan(a.arg):
        extreme = f"{cg.bind(sort_value)}({extreme})"
        beats = f"x < st[{i}]" if a.name == "min" else f"not x <= st[{i}]"
    else:
        beats = f"x < st[{i}]" if a.name == "min" else f"x > st[{i}]"
    return [f"x = {extreme}", f"if st[{i}] is None or {beats}: st[{i}] = x"]


def _gathered_arguments(plan, args: AggregateArguments) -> list[str]:
    """Lines gathering each argument of a batch `b` into a list (its NULLs left out)."""
    cg, aggs, value_names = args.cg, plan.aggs, args.value_names
    lines = []
    nullable_of = {}
    for a, v in zip(aggs, value_names, strict=False):
        if v is not None:
            nullable_of[v] = nullable_of.get(v, False) or cg.nullable(a.arg)
    position = {cid: i for i, cid in enumerate(plan.child.layout)}
    column_of = {v: position[a.arg.column] for a, v in zip(aggs, value_names, strict=False)
                 if v is not None and isinstance(a.arg, Col) and not a.extra}
    for src, name in args.arg_src.items():
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
    return lines


def whole_column_arguments(plan: P.Aggregate) -> list | None:
    """The child's column positions a global aggregation over a table scan can take as whole
    columns (each aggregate's argument a plain column or none, nothing collected, folded or
    DISTINCT), in order; None when it cannot."""
    position = {cid: i for i, cid in enumerate(plan.child.layout)}
    positions = []
    for a in plan.aggs:
        if a.collected is not None or a.folded is not None or a.distinct or a.extra:
            return None
        if a.arg is None:
            continue
        if not isinstance(a.arg, Col) or a.name not in ("count", "sum", "avg", "min", "max", "any"):
            return None
        i = position[a.arg.column]
        if i not in positions:
            positions.append(i)
    return positions


def _column_arguments(plan, args: AggregateArguments, columns: dict) -> list[str]:
    """Lines taking each argument's values of a batch from the whole columns `b` (NULLs left out)."""
    cg, lines = args.cg, []
    nullable_of = {}
    for a, v in zip(plan.aggs, args.value_names, strict=False):
        if v is not None:
            nullable_of[v] = nullable_of.get(v, False) or cg.nullable(a.arg)
    for name, index in columns.items():
        if nullable_of.get(name):
            lines.append(f"{name} = [x for x in b[{index}] if x is not None]")
        else:
            lines.append(f"{name} = b[{index}]")
    return lines


def collected_final(agg):
    """values -> the collected aggregate's result (over distinct values for DISTINCT)."""
    final, params = agg.collected.final, agg.params
    if agg.distinct:
        return lambda values: final(list(dict.fromkeys(values)), params)
    return lambda values: final(values, params)


def total_of(agg):
    """The wrap of an integer SUM's (or AVG's) total (engine.types.integer_wrap), else None."""
    if agg.name not in ("sum", "avg") or agg.arg is None:
        return None
    return total_wrapper(agg.arg.type)


def mean_of(agg):
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


def distinct_final(name, s, agg=None):
    """accumulators -> the value of a DISTINCT aggregate over the set in slot `s`."""
    if name == "count":
        return lambda acc: len(acc[s])
    if name == "sum":
        total = total_of(agg) or (lambda v: v)
        return lambda acc: total(sum(acc[s])) if acc[s] else None
    if name == "avg":
        mean = mean_of(agg)
        return lambda acc: mean(sum(acc[s]), len(acc[s]))
    if name == "min":
        return lambda acc: least(acc[s]) if acc[s] else None
    if name == "max":
        return lambda acc: greatest(acc[s]) if acc[s] else None
    return lambda acc: next(iter(acc[s])) if acc[s] else None
