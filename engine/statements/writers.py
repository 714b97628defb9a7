"""Rewriting statements of one table serialize instead of failing: UPDATE, DELETE, MERGE and
REPLACE build a new row list from a snapshot in bounded steps and swap it in at the end; when
another statement rewrote the table's rows in between, the statement binds again and runs its
steps again on the current rows (a bounded number of times), so both statements' effects stay,
one after the other. Rows others only appended meanwhile are kept without a new run. A table
dropped, replaced or altered meanwhile still fails the statement (2009)."""

from __future__ import annotations

from engine.catalog.transactions import is_current
from engine.core.errors import TableVersionMismatched
from engine.exec.result import Progress, Result

RETRIES = 16  # new runs of one statement before it gives up (2009)


class SnapshotChanged(TableVersionMismatched):
    """Another statement rewrote the table's rows after this statement's snapshot; nothing was
    changed. Inside `serialized` the statement runs again; elsewhere it is the 2009 error."""


def check_snapshot(ctx, database: str, table, rows: list) -> None:
    """Before a rewrite is swapped in: TableVersionMismatched (2009) when the table was dropped,
    replaced or altered since the statement looked it up, SnapshotChanged when another statement
    rewrote its rows since the snapshot `rows` (appending keeps the list: no conflict)."""
    if not is_current(ctx.catalog, database, table):
        raise TableVersionMismatched(f"table `{database}`.`{table.name}` was dropped, replaced or altered "
                                     f"by another statement while this one ran; nothing was changed")
    if table.rows is not rows:
        raise SnapshotChanged(f"table `{database}`.`{table.name}` was changed by another statement while "
                              f"this one ran; nothing was changed")


def serialized(ctx, build) -> Result:
    """The Result of `build(progress)` (a rewriting statement bound now, its steps counting into
    `progress`), whose steps bind and run the statement again when its commit finds its
    snapshot outdated."""
    progress = Progress()
    result = build(progress)
    result._rows = _runs(ctx, build, result._rows, progress)
    return result


def _runs(ctx, build, steps, progress):
    retries = 0
    while True:
        try:
            yield from steps
            return
        except SnapshotChanged as changed:
            retries += 1
            if retries > RETRIES:
                raise TableVersionMismatched(f"{changed.message} (after {RETRIES} runs again on "
                                             f"the new rows)") from None
        ctx.memory.release()  # what the outdated run held
        steps = build(progress)._rows  # bound again: a new snapshot of the current rows
