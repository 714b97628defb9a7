"""REPLACE INTO t ON (keys): the source's rows replace the table's rows with the same key values and
the others are inserted. The source is converted in bounded steps, the kept rows are picked a step
budget at a time, and the new version is swapped in at the end (nothing changes on a failure;
rows another statement rewrote meanwhile are picked again, engine.statements.writers)."""

from __future__ import annotations

from engine.catalog.table_storage import Rewrite
from engine.core.errors import STORAGE_OTHER, EngineError
from engine.core.memory import LIST_SLOT_BYTES, batch_bytes
from engine.statements.writers import RETRIES, SnapshotChanged, check_snapshot, commit_rewrite
from engine.types import render as R


def replace_steps(ctx, table, database: str, keys: list[int], batches, progress):
    """Steps of REPLACE: `batches` yields lists of the table's full rows (converted) or []."""
    memory = ctx.memory
    budget = max(1, ctx.limits.step_rows)
    incoming = []
    for batch in batches:
        if batch:
            memory.charge(batch_bytes(batch))
            incoming.extend(batch)
        yield []
    replaced = set()  # keys with a NULL never match (as Databend: such rows are only inserted)
    for start in range(0, len(incoming), budget):
        for n, r in enumerate(incoming[start:start + budget], start):
            key = tuple(r[i] for i in keys)
            if None in key:
                continue
            if key in replaced:
                shown = ", ".join(f'"{table.columns[i].name}":{R.render_value(r[i])}' for i in keys)
                raise EngineError("duplicated data detected in the values being replaced into (only the first "
                                  f"one will be described): at row {n}, [{shown}]", code=STORAGE_OTHER)
            replaced.add(key)
        yield []
    for retry in range(RETRIES + 1):
        data, count = table.data, len(table.data)  # the snapshot
        kept = Rewrite(data, count)
        for start in range(0, count, budget):
            kept.keep_selected(start, [tuple(r[i] for i in keys) not in replaced
                                       for r in data.rows(start, min(start + budget, count))])
            memory.charge(min(budget, count - start) * LIST_SLOT_BYTES)
            progress.scan_rows += min(budget, count - start)
            yield []
        try:
            check_snapshot(ctx, database, table, data)
            break
        except SnapshotChanged:  # another statement rewrote the rows: pick the kept ones again
            memory.release(count * LIST_SLOT_BYTES)
            if retry == RETRIES:
                raise
    # rows other statements appended meanwhile are kept, then the incoming rows follow
    commit_rewrite(ctx, database, table, kept, incoming)
    memory.release()
    progress.write_rows = len(incoming)
    progress.write_bytes = len(incoming) * 8 * len(table.columns)
