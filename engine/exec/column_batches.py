"""A query's output column by column, for a bulk writer into a table kept in columns (INSERT ...
SELECT into engine.catalog.column_data.ColumnData): a projection over numbers() or over a
column-kept table's scan evaluates each select item over the whole batch at once (one generated
comprehension an item, `[expr for _c0 in b]`), so no row tuple is built only to be taken apart
again into the target's columns. Only the plain shapes qualify (no filter, no subquery, no
sequence); everything else runs the row path (engine.exec.executor.build)."""

from __future__ import annotations

from engine.codegen.batch_source import RowVars
from engine.exec.column_scan import scan_batches
from engine.ir import plan as P
from engine.ir.expr import Col, Const, column_ids
from engine.types import sqltype as T


def column_batches(plan, rt):
    """run(p) yielding, per batch of at most rt.batch rows, (one sequence of values per output
    column, the row count); None when the plan is not a projection (or the identity) over
    numbers() or a column-kept table's scan, or calls what must run row by row (subqueries,
    nextval, calls prefetched out of process)."""
    if rt.ctx.uses_sequences:  # nextval's values follow the rows' order across the items
        return None
    exprs = None
    if isinstance(plan, P.Project):
        exprs, plan = plan.exprs, plan.child
    if isinstance(plan, P.Numbers):
        source = _numbers_slices(plan, rt)
    elif isinstance(plan, P.Scan) and plan.data.columnar and plan.layout:
        source = _scan_slices(plan, rt)
    else:
        return None
    if exprs is None:
        exprs = [Col(cid) for cid in plan.layout]
    made = _item_functions(plan.layout, exprs, rt)
    if made is None:
        return None
    items, read = made

    def run(p):
        for slices, count in source(read):
            yield [slices[item] if type(item) is int else item(slices, p, count) for item in items], count

    run.column_batches = True
    # numbers() taken as they come hold no more than its count: a type that says so lets the
    # writer take them unchecked (engine.statements.insert_plan.unchecked_column)
    run.known_types = [_numbers_type(plan.count) if isinstance(plan, P.Numbers) and type(item) is int else None
                       for item in items]
    return run


def _numbers_type(count: int):
    """The narrowest unsigned integer type that holds 0 .. count - 1."""
    for bits, t in ((8, T.UINT8), (16, T.SqlType("UInt16")), (32, T.UINT32)):
        if count <= 1 << bits:
            return t
    return T.UINT64


def _item_functions(layout, exprs, rt):
    """(per select item: the position of the source column it is (its values are taken as they
    come), or a generated function (source slices, p, row count) -> its values for the batch;
    the positions of the source columns read). None when an item needs the row path."""
    position = {cid: i for i, cid in enumerate(layout)}
    items: list = []
    read: set = set()
    for e in exprs:
        if isinstance(e, Col) and e.column in position:
            items.append(position[e.column])
            read.add(position[e.column])
            continue
        ids: set = set()
        column_ids(e, ids)
        if not ids <= position.keys():  # reads what the batch does not hold (an outer column)
            return None
        cg = rt.codegen()
        cols = RowVars(layout)
        source = cg.expr(e, cols)
        if cg.has_subqueries or cg.prefetched:
            return None
        used = sorted(int(name[2:]) for name in cols.used)
        read.update(used)
        if isinstance(e, Const):  # the same value in every row
            body = f"return [{source}] * n"
        elif not used:  # no column read, yet evaluated once a row (rand(), uuid())
            body = f"return [{source} for _ in {cg.bind(range)}(n)]"
        elif len(used) == 1:
            body = f"return [{source} for _c{used[0]} in s[{used[0]}]]"
        else:
            names = ", ".join(f"_c{i}" for i in used)
            body = f"return [{source} for {names} in zip({', '.join(f's[{i}]' for i in used)})]"
        items.append(cg.build(["s", "p", "n"], [body]))
    return items, frozenset(read)


def _numbers_slices(plan: P.Numbers, rt):
    """numbers()' batches as ([the numbers, a list], count), counting the scan's progress."""
    count, step, progress = plan.count, rt.batch, rt.progress

    def slices(read):
        for start in range(0, count, step):
            numbers = list(range(start, min(start + step, count)))
            progress.scan_rows += len(numbers)
            progress.scan_bytes += len(numbers) * 8
            yield [numbers], len(numbers)

    return slices


def _scan_slices(scan: P.Scan, rt):
    """A column-kept scan's batches as (each column's values: the stored container's slice, an
    `array` or a list, the caller's own; None for a column in no position `read`), counting
    the scan's progress. Only the snapshot's first `count` rows are read (versions only grow)."""
    data, width = scan.data, len(scan.layout)

    def slices(read):
        for start, stop in scan_batches(scan, rt):
            yield [data.column_values(i, start, stop) if i in read else None for i in range(width)], stop - start

    return slices
