"""Aggregation: GROUP BY (and global) aggregates as generated batch code, one input batch per
step; collected aggregates (median, string_agg, quantiles...) keep their values per group, folded
ones (the BITMAP aggregates) one state per group that their Folder updates row by row. Memory
held by groups is charged to the query. The generated functions come from
engine.codegen.aggregate; this module runs them."""

from __future__ import annotations

from array import array
from itertools import islice

from engine.codegen.aggregate import (
    aggregate_arguments,
    collected_final,
    distinct_final,
    global_code,
    grouped_code,
    mean_of,
    total_of,
    whole_column_arguments,
)
from engine.codegen.batch_source import resliced
from engine.core.memory import HASH_ENTRY_BYTES, LIST_SLOT_BYTES, SORT_SLOT_BYTES, charge_growth
from engine.core.steps import rows_for_cost
from engine.exec.column_scan import filtered_count, scan_batches, zipped_batches
from engine.exec.dictionary_groups import dictionary_groups_run
from engine.exec.grouped_columns import grouped_counts_run, integer_groups_run
from engine.exec.subquery import correlated_rows, prefetching
from engine.ir import plan as P
from engine.ir.expr import Expr, column_ids
from engine.types.bitmap_values import ELEMENT_BYTES
from engine.types.keys import from_sort_value

COLLECTED_VALUE_BYTES = 40  # memory: one value a collected aggregate holds (its slot and object)


def charge_folders(folders, memory) -> None:
    """Charge the numbers the folded aggregates' states gained (once per batch)."""
    for folder in folders:
        if folder.grown:
            memory.charge(folder.grown * ELEMENT_BYTES)
            folder.grown = 0


def aggregate_reads(plan: P.Aggregate) -> set | None:
    """The column ids an aggregation reads of its input rows (None: it may read any)."""
    used: set = set()
    for key in plan.keys:
        if not isinstance(key, Expr):
            return None
        column_ids(key, used)
    for spec in plan.aggs:
        if spec.collected is not None or spec.folded is not None:
            return None
        for e in (spec.arg, *spec.extra):
            if isinstance(e, Expr):
                column_ids(e, used)
            elif e is not None:
                return None
    return used


def build_aggregate(plan: P.Aggregate, rt):
    counted = filtered_count(plan, rt)  # COUNT(*) of a filter over columns: rows kept a batch
    if counted is not None:
        return _global_aggregate_run(plan, rt, global_code(plan, aggregate_arguments(plan, rt.codegen()), {}),
                                     counted)
    # a collected aggregate charges its values by the batch's length: it takes list batches
    one_pass = plan.keys and not any(a.collected is not None for a in plan.aggs)
    reads = aggregate_reads(plan)
    child_run = rt.build_one_pass(plan.child, reads) if one_pass else rt.build(plan.child, reads)
    args = aggregate_arguments(plan, rt.codegen())
    cg = args.cg
    if not plan.keys:
        whole = _whole_columns(plan, rt, args)
        if whole is not None:
            columns, positions = whole
            summarised = _summarised(plan, args, columns, positions)
            child_run = _column_batches(plan.child, rt, positions, summarised, columns)
            return _global_aggregate_run(plan, rt, global_code(plan, args, columns, summarised), child_run)
        code = global_code(plan, args)
        return prefetching(cg, _global_aggregate_run(plan, rt, code, _sliced(child_run, cg, rt)))
    scan = plan.child
    zipped = bool(one_pass and type(scan) is P.Scan and scan.data.columnar and rt.profile is None
                  and not cg.prefetched)
    code = grouped_code(plan, rt.codegen, args, zipped)
    run = _grouped_run(plan, rt, code, child_run, cg)
    coded = integer_groups_run(plan, rt, args, code, run)  # numpy, exact (engine.exec.coded_groups)
    if coded is None:  # a string key's dictionary codes (engine.exec.dictionary_groups)
        coded = dictionary_groups_run(plan, rt, args, code, run)
    if coded is not None:
        return coded
    counting = grouped_counts_run(plan, rt, args, code)
    if counting is not None:
        return counting
    return run


def _grouped_run(plan: P.Aggregate, rt, code, child_run, cg):
    """The row-by-row GROUP BY: the generated step folds a batch of rows into a dict of groups."""
    scan = plan.child
    sliced = _sliced(child_run, cg, rt)
    step, finish, folders = code.step, code.finish, code.folders
    if code.column_step is not None and sliced is child_run:
        # rows of just the columns the step reads, zipped from the scan's columns (not when
        # steps take fewer rows: correlated subqueries or costly calls a row)
        step, sliced = code.column_step, zipped_batches(scan, rt, code.column_positions)
    child_run = sliced
    out_rows = rt.batch
    # memory: values held a row (a WITHIN GROUP key is held beside each value)
    collecting = sum(1 + a.collected.sort_keys for a in plan.aggs if a.collected is not None)

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


def _sliced(child_run, cg, rt):
    """The input cut into fewer rows a step when the compiled step (`cg`: keys and arguments)
    runs a correlated subquery per row or calls functions declared costly."""
    small = correlated_rows(cg, rt.step_rows)
    costly = rows_for_cost(cg.row_cost, rt.step_rows)
    if costly < rt.step_rows:
        small = min(small or costly, costly)
    return resliced(child_run, small) if small else child_run


def _whole_columns(plan: P.Aggregate, rt, args):
    """(argument variable -> index in a column batch, the scan's column positions) when the
    global aggregation reads a table scan kept column by column and can take its arguments as
    whole columns (COUNT(*) then is a length, SUM/MIN/MAX a C call over an array slice); else
    None. EXPLAIN ANALYZE counts the scan's rows as an operator of its own: not then."""
    scan = plan.child
    if type(scan) is not P.Scan or not scan.data.columnar or rt.profile is not None:
        return None
    positions = whole_column_arguments(plan)
    if positions is None:
        return None
    position = {cid: i for i, cid in enumerate(scan.layout)}
    columns = {}
    for a, name in zip(plan.aggs, args.value_names, strict=True):
        if name is not None:
            columns[name] = 1 + positions.index(position[a.arg.column])
    return columns, positions


def _summarised(plan: P.Aggregate, args, columns: dict, positions: list) -> dict:
    """Argument variable -> the parts of its summaries it needs (engine.catalog.column_zones),
    for the variables whose columns are arrays (NULL-free numbers) that only COUNT, SUM, AVG,
    MIN and MAX read: their batches can be summaries."""
    data = plan.child.data
    if not len(data):
        return {}
    parts = {name: set() for name, index in columns.items()
             if type(data.column_values(positions[index - 1], 0, 0)) is array}
    for a, name in zip(plan.aggs, args.value_names, strict=True):
        if name not in parts:
            continue
        if a.name not in _SUMMARY_PART:
            del parts[name]
        elif _SUMMARY_PART[a.name] is not None:
            parts[name].add(_SUMMARY_PART[a.name])
    # a float column the planner knows holds no NaN: its greatest is its max (marked by a 3)
    cg = args.cg
    nan_free = {name for a, name in zip(plan.aggs, args.value_names, strict=True)
                if name in parts and a.arg.type.is_float and not cg.may_be_nan(a.arg)}
    return {name: tuple(sorted(p)) + ((3,) if name in nan_free else ()) for name, p in parts.items()}


# the part of a block summary an aggregate reads (COUNT: none, the rows)
_SUMMARY_PART = {"count": None, "sum": 0, "avg": 0, "min": 1, "max": 2}


def _column_batches(scan: P.Scan, rt, positions, summarised=None, columns=None):
    """A run yielding, per batch of the scan's snapshot (the batches a row scan makes, so sums
    of floats add up in the same order), (rows, column values...) for the columns at `positions`
    (for the argument variables `summarised` maps to the parts they need, at the index
    `columns` gives them, the values' summary instead)."""
    data, step = scan.data, rt.batch
    parts_at = [None] * len(positions)
    for name, parts in (summarised or {}).items():
        parts_at[columns[name] - 1] = parts

    nan_free = [parts is not None and 3 in parts for parts in parts_at]
    parts_at = [parts if parts is None else tuple(x for x in parts if x != 3) for parts in parts_at]

    def run(p):
        for i, stop in scan_batches(scan, rt):
            yield (stop - i, *[data.column_values(c, i, stop) if parts is None
                               else data.summary(c, i, stop, stop - i == step, parts, free)
                               for c, parts, free in zip(positions, parts_at, nan_free, strict=True)])

    return run


def _global_aggregate_run(plan, rt, code, child_run):
    """No GROUP BY: one generated step per batch folds the batch into the states; one row at the end."""
    aggs = plan.aggs
    step, folders = code.step, code.folders
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
        yield [_global_row(aggs, st, cnt, folders)]

    return run


def _global_row(aggs, st, cnt, folders) -> tuple:
    """The global aggregates' values from their final states."""
    row = []
    for i, a in enumerate(aggs):
        v = st[i]
        if a.collected is not None:
            row.append(collected_final(a)(v))
        elif a.folded is not None:
            row.append(folders[i].final(v))
        elif a.distinct:
            row.append(distinct_final(a.name, 0, a)([v]))
        elif a.name == "avg":
            row.append(mean_of(a)(v, cnt[i]))
        elif total_of(a) is not None:
            row.append(total_of(a)(v))
        elif a.name in ("min", "max") and a.arg.type.is_float:
            row.append(from_sort_value(v))
        else:
            row.append(v)
    return tuple(row)
