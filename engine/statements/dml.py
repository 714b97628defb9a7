"""UPDATE and DELETE: bind against one table, compile once, build the table's new version in
bounded steps (engine.catalog.table_storage.Rewrite, which knows the rows it kept) and swap it
in at the end.

A statement changes nothing unless every row it touches converts (atomic), and it never mutates
the version it read: scans that started earlier hold that version and keep seeing the old rows.
"""

from __future__ import annotations

from engine.bind.scope import Scope
from engine.catalog.table_storage import Rewrite
from engine.codegen.compile import Codegen
from engine.core.errors import SEMANTIC, BadArguments, EngineError
from engine.core.memory import LIST_SLOT_BYTES, batch_bytes
from engine.core.steps import rows_for_cost
from engine.exec.executor import BATCH, Runtime
from engine.exec.result import Column, Progress, Result
from engine.exec.subquery import correlated_rows, prefetch_steps, subquery_runner
from engine.ir.expr import Expr, SubqueryExpr, may_be_null
from engine.plan.planner import Planner
from engine.statements.writers import commit_rewrite, note_added_nans, serialized
from engine.types import sqltype as T
from engine.types.convert import value_converter
from grammar import ast as A

UPDATED = "number of rows updated"
DELETED = "number of rows deleted"


class _Target:
    """The table a statement writes, the snapshot it reads, and its binding context."""

    def __init__(self, ctx, stmt, progress: Progress):
        database, name = ctx.resolve_table_name(stmt.table)
        self.ctx = ctx
        self.table = ctx.catalog.table(database, name, stmt.pos)
        self.database = database
        self.planner = Planner(ctx)
        rel = self.planner.table_relation(A.TableRef(stmt.table, stmt.alias, pos=stmt.pos))
        scan = rel.plan
        self.data, self.count = scan.data, scan.count  # the snapshot
        self.scope = Scope(rel.columns)
        self.cols = {cid: f"r[{i}]" for i, cid in enumerate(scan.layout)}
        self.progress = progress
        self.runtime = Runtime(ctx, self.progress, self.planner.nonnull)
        self.codegen = Codegen(lambda sq: subquery_runner(sq, self.runtime), self.planner.nonnull)
        self.where = None if stmt.where is None else self.planner.bind_where(stmt.where, self.scope)

    def condition(self) -> str:
        """Source truthy exactly for the rows the WHERE selects ('True' without a WHERE)."""
        return "True" if self.where is None else self.codegen.pred(self.where, self.cols)

    def batches(self):
        """(start, batch) over the snapshot, counting the scan."""
        data, count, progress = self.data, self.count, self.progress
        width = max(len(self.table.columns), 1) * 8
        # compiled by now: a WHERE or SET running a correlated subquery per row takes few rows a step
        size = min(BATCH, self.runtime.step_rows)
        size = correlated_rows(self.codegen, self.runtime.step_rows) or size
        size = rows_for_cost(self.codegen.row_cost, size)  # and one calling functions declared costly
        for start in range(0, count, size):
            batch = data.rows(start, min(start + size, count))  # rows appended later are not ours
            progress.scan_rows += len(batch)
            progress.scan_bytes += len(batch) * width
            yield start, batch

    def rewrite(self) -> Rewrite:
        """A new version built from the snapshot."""
        return Rewrite(self.data, self.count)

    def commit(self, rewrite: Rewrite, changed: int, added_nans: list | None = None) -> None:
        """Swap in the new version, keeping rows other statements appended meanwhile (a rewrite
        by another statement meanwhile runs this one again: engine.statements.writers);
        `added_nans` as commit_rewrite takes it."""
        table = self.table
        commit_rewrite(self.ctx, self.database, table, rewrite, added_nans=added_nans)
        self.progress.write_rows = changed
        self.progress.write_bytes = changed * 8 * len(table.columns)


def _answer(name: str, target: _Target, steps) -> Result:
    return Result([Column(name, "UInt64")], steps, progress=target.progress, types=[T.UINT64])


# ---------------------------------------------------------------- UPDATE


def run_update(ctx, stmt: A.Update) -> Result:
    return serialized(ctx, lambda progress: _update(ctx, stmt, progress))


def _update(ctx, stmt: A.Update, progress: Progress) -> Result:
    target = _Target(ctx, stmt, progress)
    table = target.table
    assigned: dict[int, Expr] = {}
    for assignment in stmt.assignments:
        i = table.column_index(assignment.column)
        if i is None:
            raise BadArguments(f'Table "{table.database}.{table.name}" does not have a column with name '
                               f'"{assignment.column}"', position=assignment.pos)
        if i in assigned:
            raise BadArguments(f"Multiple assignments in the single statement to column `{table.columns[i].name}`",
                               position=assignment.pos)
        value = target.planner.bind(assignment.value, target.scope)
        if _has_subquery(value):
            raise EngineError("update_list in update statement can't contain subquery|window|aggregate|"
                              "udf functions|async functions", code=SEMANTIC, position=assignment.pos)
        assigned[i] = value
    cg = target.codegen
    parts = []
    for i, column in enumerate(table.columns):
        if i in assigned:
            convert = cg.bind(value_converter(column.type, column.name, "UPDATE", ctx.timezone))
            parts.append(f"{convert}({cg.expr(assigned[i], target.cols)})")
        else:
            parts.append(f"r[{i}]")
    new_row = "(" + "".join(p + ", " for p in parts) + ")"
    if target.where is None:
        every = cg.build(["b", "p"], [f"return [{new_row} for r in b]"])
        hits = None
    else:
        numbered = cg.bind(enumerate)
        hits = cg.build(["b", "p"], [f"return [(i, {new_row}) for i, r in {numbered}(b) if ({target.condition()})]"])
        every = None
    may_write_null = [i for i, e in assigned.items()
                      if table.columns[i].type.nullable and may_be_null(e, target.planner.nonnull)]
    may_write_negative = [i for i in assigned if table.columns[i].type.is_int]
    return _answer(UPDATED, target, _update_steps(target, every, hits, may_write_null, may_write_negative))


def _update_steps(target: _Target, every, hits, may_write_null, may_write_negative):
    rewrite = None  # built from the first changed batch on (no copy while nothing matches)
    changed = 0
    memory = target.ctx.memory  # charged: new rows in full, unchanged rows one list slot each
    # the new rows' NaNs, found a step's rows at a time (the commit's step then scans none)
    nans, scanned = [False] * len(target.table.columns), 0
    yield from prefetch_steps(target.codegen)
    for start, batch in target.batches():
        if every is not None:
            if rewrite is None:
                rewrite = target.rewrite()
            memory.charge(batch_bytes(batch))
            rewrite.add(every(batch, ()))
            changed += len(batch)
        else:
            found = hits(batch, ())
            if rewrite is not None or found:
                memory.charge(len(batch) * LIST_SLOT_BYTES + batch_bytes(found))
            if found:
                if rewrite is None:
                    memory.charge(start * LIST_SLOT_BYTES)
                    rewrite = target.rewrite()
                    rewrite.keep(0, start)
                rewrite.replace_in(start, len(batch), found)
                changed += len(found)
            elif rewrite is not None:
                rewrite.keep(start, len(batch))
        if rewrite is not None:
            scanned = note_added_nans(target.table, rewrite, nans, scanned)
        yield []
    if changed:
        target.commit(rewrite, changed, nans)
        for i in may_write_null:
            target.table.has_null[i] = True
        for i in may_write_negative:
            target.table.has_negative[i] = True
    yield [(changed,)]


def _has_subquery(e: Expr) -> bool:
    return isinstance(e, SubqueryExpr) or any(_has_subquery(a) for a in e.args)


# ---------------------------------------------------------------- DELETE


def run_delete(ctx, stmt: A.Delete) -> Result:
    return serialized(ctx, lambda progress: _delete(ctx, stmt, progress))


def _delete(ctx, stmt: A.Delete, progress: Progress) -> Result:
    target = _Target(ctx, stmt, progress)
    if target.where is None:
        return _answer(DELETED, target, _delete_all(target))
    # one truth value a row: the rows kept are chosen by it (and their positions known)
    keep = target.codegen.build(["b", "p"], [f"return [not ({target.condition()}) for r in b]"])
    return _answer(DELETED, target, _delete_steps(target, keep))


def _delete_all(target: _Target):
    deleted = target.count
    if deleted:
        target.commit(target.rewrite(), deleted)
    yield [(deleted,)]


def _delete_steps(target: _Target, keep):
    rewrite = None  # built from the first batch that loses a row on
    deleted = 0
    memory = target.ctx.memory  # charged: one list slot per kept row (the rows are the table's)
    yield from prefetch_steps(target.codegen)
    for start, batch in target.batches():
        selection = keep(batch, ())
        if rewrite is None and not all(selection):
            memory.charge(start * LIST_SLOT_BYTES)
            rewrite = target.rewrite()
            rewrite.keep(0, start)
        if rewrite is not None:
            kept = rewrite.keep_selected(start, selection)
            memory.charge(kept * LIST_SLOT_BYTES)
            deleted += len(batch) - kept
        yield []
    if deleted:
        target.commit(rewrite, deleted)
    yield [(deleted,)]
