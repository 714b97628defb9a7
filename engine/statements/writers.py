"""The one commit point of every table write, and the serialization of rewriting statements.

Every writer ends in `commit_append` (INSERT, INSERT ALL/FIRST, INSERT OVERWRITE, COPY INTO,
stage attachments, TRUNCATE), `commit_rewrite` (UPDATE, DELETE, MERGE, REPLACE) or
`commit_version` (ALTER TABLE's rewritten version): each checks that the table the statement
read is still the catalog's version (else 2009, nothing changed), applies the change, and
seals it into one log record at once. The record is the commit: when the log cannot take it
the Recorder undoes the change before anything else runs (engine.storage.durability), and the
statement fails with 4000. A temporary table (engine.catalog.temp_tables) has no record: its
new rows are charged against the server's memory first (2411 changes nothing). A dropped or replaced version has no recorder, so it can never log.

Rewriting statements of one table serialize instead of failing: UPDATE, DELETE, MERGE and
REPLACE build a new version of the rows (engine.catalog.table_storage.Rewrite) from a snapshot
in bounded steps and swap it in at the end; when another statement rewrote the table's rows in between, the statement binds again and runs its
steps again on the current rows (a bounded number of times), so both statements' effects stay,
one after the other. Rows others only appended meanwhile are kept without a new run. A table
dropped, replaced or altered meanwhile still fails the statement (2009)."""

from __future__ import annotations

from engine.catalog import staged_append as staged_storage
from engine.catalog.staged_append import chunk_flags, scan_rows, staged_append
from engine.catalog.temp_tables import charge_temporary
from engine.catalog.transactions import is_current
from engine.core.errors import StorageError, TableVersionMismatched
from engine.exec.result import Progress, Result
from engine.statements.constraints import check_rows

RETRIES = 16  # new runs of one statement before it gives up (2009)


class SnapshotChanged(TableVersionMismatched):
    """Another statement rewrote the table's rows after this statement's snapshot; nothing was
    changed. Inside `serialized` the statement runs again; elsewhere it is the 2009 error."""


def check_current(ctx, database: str, table) -> None:
    """TableVersionMismatched (2009) when `table` was dropped, replaced or altered since the
    statement looked it up (its rows then belong to no table anyone can read)."""
    if not is_current(ctx.catalog, database, table):
        raise TableVersionMismatched(f"table `{database}`.`{table.name}` was dropped, replaced or altered "
                                     f"by another statement while this one ran; nothing was changed")


def check_snapshot(ctx, database: str, table, data) -> None:
    """Before a rewrite is swapped in: TableVersionMismatched (2009) when the table was dropped,
    replaced or altered since the statement looked it up, SnapshotChanged when another statement
    rewrote its rows since the snapshot `data` (a TableData; appending keeps the version: no
    conflict)."""
    check_current(ctx, database, table)
    if table.data is not data:
        raise SnapshotChanged(f"table `{database}`.`{table.name}` was changed by another statement while "
                              f"this one ran; nothing was changed")


def commit_append(ctx, database: str, table, rows: list, known=None, overwrite: bool = False,
                  loaded=None, purge=None, staged=None) -> None:
    """The commit of an appending writer: `rows` (converted) appended to `table`, in place of
    its rows with `overwrite` (INSERT OVERWRITE, TRUNCATE); `known` as Table.append takes it.
    `loaded(history)` updates COPY's load history and `purge()` removes the loaded files, both
    in the rows' log record (a file is never loaded twice, nor its rows lost). 2009 when the
    table is no longer the catalog's version; 4000 (nothing changed) when the log cannot take
    the record. `staged` (commit_append_steps): (the staging of `rows`, their flags), checked
    and copied in earlier steps: only made the table's here."""
    check_current(ctx, database, table)
    version = not isinstance(rows, list)  # a version built for the table (converted_rows)
    if table.constraints and staged is None:  # CHECK constraints: 1133, nothing written
        check_rows(ctx, table, rows.rows() if version else rows)
    if table.temporary is not None:  # its rows count against the server's memory (2411: no change)
        held = 0 if overwrite else table.temporary.charged_bytes(table)
        added = rows.estimated_bytes() if version else table.data.appended_bytes(rows)
        charge_temporary(ctx.session.db.memory, [(table, held + added)])
    recorder = table.recorder
    if loaded is not None and recorder is not None:
        history = dict(table.copied_files)
        recorder.undo_with(lambda: _restore_history(table, history))
    if overwrite:
        if recorder is not None:  # TRUNCATE clears the flags, which the old rows need back
            flags = (table.has_null, table.has_negative)
            recorder.undo_with(lambda: _restore_flags(table, flags))
        table.truncate()
    if staged is not None:
        table.append_staged(*staged)
    else:
        append_converted(table, rows, known)
    if loaded is not None:
        loaded(table.copied_files)
    if purge is not None:
        purge()
    _publish(ctx, recorder, loaded is not None)


def commit_append_steps(ctx, database: str, table, rows, known=None, loaded=None, purge=None):
    """commit_append of a large write in bounded steps (a generator: `yield from` it in a
    writer's steps; it yields [] between them): the rows are checked, their flags found and
    they are copied into the table's storage where no reader looks (engine.catalog.
    staged_append) a step at a time, then made the table's, logged and sealed at once in the
    last step: readers and other writers never see a part, and a failure before or in that
    step (2009, 1133, 2411, 4000, a cancelled statement) leaves nothing visible nor logged.
    Rows others append meanwhile are kept, before these. A write of at most a step's rows
    commits at once."""
    count = len(rows)
    width = len(table.columns)
    if count <= staged_storage.STEP_ROWS:
        commit_append(ctx, database, table, rows, known, loaded=loaded, purge=purge)
        return
    version = not isinstance(rows, list)
    staging = None
    versions = 0  # the table's versions staged into (a TRUNCATE, UPDATE meanwhile: another)
    # rows checked and scanned for flags (nothing to do: no CHECK, flags known, no float column)
    checked = 0 if table.constraints or known is None or table.float_positions else count
    flags = ([False] * width, [False] * width, [False] * width)
    try:
        while True:
            check_current(ctx, database, table)  # dropped, replaced, altered: 2009 at once
            if staging is None or staging.data is not table.data:  # a new version (TRUNCATE, UPDATE)
                if staging is not None:
                    staging.abandon()
                staging = staged_append(table.data, rows, width)
                versions += 1
            more = staging.step()
            if checked < count:  # the rows' CHECK constraints and flags, a step's worth
                stop = min(checked + scan_rows(width), count)
                if table.constraints:
                    check_rows(ctx, table, rows.rows(checked, stop) if version else rows[checked:stop])
                chunk_flags(table, rows, checked, stop, flags, known)
                checked = stop
            # every row checked and scanned (never skipped: the commit takes the flags found), and
            # staged, or restarted too often by other writes to the table: the rest of the
            # staging in the last step
            if checked >= count and (not more or staging.restarts + versions > RETRIES):
                break
            yield []
        if known is not None:
            flags = (known[0], known[1], flags[2])
        commit_append(ctx, database, table, rows, known, loaded=loaded, purge=purge, staged=(staging, flags))
    except BaseException:
        if staging is not None:
            staging.abandon()  # a no-op once published
        raise
    yield from staging.dispose()  # committed: what the new version replaced, freed in steps


def append_converted(table, rows, known=None) -> None:
    """Append what a writer converted: row tuples (a list) through Table.append, or a version
    built for the table (engine.statements.insert_plan.converted_rows, whose `known` it has)
    through Table.append_version, which takes its columns whole."""
    if isinstance(rows, list):
        table.append(rows, known)
    else:
        table.append_version(rows, known)


def commit_appends(ctx, targets: list) -> None:
    """The commit of INSERT ALL / FIRST: (database, table, rows) for each table, all appended
    in one log record, or none (2009 when any table is no longer the catalog's version, 4000
    when the log cannot take the record)."""
    for database, table, rows in targets:
        check_current(ctx, database, table)
        if table.constraints:
            check_rows(ctx, table, rows)
    charge_temporary(ctx.session.db.memory, [(table, table.temporary.charged_bytes(table) + table.data.appended_bytes(rows))
                                             for _, table, rows in targets if table.temporary is not None])
    recorder = None
    for _, table, rows in targets:
        table.append(rows)
        recorder = recorder or table.recorder
    _publish(ctx, recorder, False)


def _restore_flags(table, flags: tuple[list, list]) -> None:
    table.has_null, table.has_negative = flags


def _restore_history(table, history: dict) -> None:
    table.copied_files.clear()
    table.copied_files.update(history)


def note_added_nans(table, rewrite, nans: list, scanned: int) -> int:
    """In a rewriting statement's step: note in `nans` (per column) the float columns where the
    rows `rewrite` added since its first `scanned` hold a NaN; returns how many it added in
    all. Handed to commit_rewrite, this spares its step the scan of every added row."""
    added = rewrite.added
    if scanned < len(added):
        chunk_flags(table, added, scanned, len(added), ([True] * len(nans), [True] * len(nans), nans), True)
    return len(added)


def commit_rewrite(ctx, database: str, table, rewrite, appended=None, added_nans=None) -> None:
    """The commit of a rewriting writer: the version `rewrite` (a table_storage.Rewrite) built
    from the first rows of its snapshot in place of the table's rows, keeping the rows others
    appended meanwhile, then `appended` (MERGE's inserts, REPLACE's rows) after them.
    SnapshotChanged when another statement rewrote the rows since the snapshot, 2009 when the
    table was replaced, 4000 when the log cannot take the record (nothing changed in all three).
    `added_nans`: note_added_nans's finding over all the rows the rewrite added."""
    snapshot = rewrite.old
    check_snapshot(ctx, database, table, snapshot)
    if table.constraints:  # the rows the statement wrote (the ones it kept are not checked again)
        check_rows(ctx, table, rewrite.added + list(appended or ()))
    new = rewrite.finish()
    if table.temporary is not None:
        charge_temporary(ctx.session.db.memory, [(table, new.estimated_bytes() + new.appended_bytes(appended or []))])
    table.replace(new, rewrite, added_nans)
    if appended:
        table.append(appended)
    _publish(ctx, table.recorder, False)


def commit_version(ctx, old, new, snapshot) -> None:
    """The commit of ALTER TABLE's rewritten version: `new` in place of `old`, when `old` is
    still the catalog's version and its rows are still the `snapshot` (a TableData) the rewrite
    read (2009 otherwise); 4000 (nothing changed) when the log cannot take the record."""
    check_snapshot(ctx, old.database, old, snapshot)
    if old.temporary is not None:  # the charge moves to the new version with the swap
        charge_temporary(ctx.session.db.memory, [(old, new.data.estimated_bytes())])
    ctx.catalog.swap_table(old, new)
    recorder = new.recorder
    if recorder is not None:
        recorder.undo_with(lambda: ctx.catalog.swap_table(new, old))
    _publish(ctx, recorder, True)


def _publish(ctx, recorder, definitions: bool) -> None:
    """Seal the change into its log record now (a table outside the catalog, e.g. a
    transaction's private copy, has no recorder: its COMMIT is the record)."""
    if recorder is None or not recorder.durable:  # a private copy's engine.catalog.lineage
        return
    durability = ctx.session.db.durability
    if durability is None:
        return
    try:
        durability.seal(definitions)
    except OSError as exc:  # the Recorder has undone the change
        raise StorageError(str(exc)) from None


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
