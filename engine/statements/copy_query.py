"""COPY INTO <table> FROM (SELECT $1, ... FROM @stage): a load whose rows come from a query over
staged files (engine.plan.stage_scan), with COPY's answer (a row per file) and load history."""

from __future__ import annotations

from engine.catalog.stages import StageLocation, parse_location
from engine.core.errors import BadArguments, BadBytes, EngineError
from engine.core.memory import batch_bytes
from engine.exec.executor import Runtime, build
from engine.exec.result import Column, Progress, Result
from engine.io.stage_load import truthy
from engine.plan.planner import Planner
from engine.plan.stage_scan import StageReading
from engine.statements.insert_plan import column_plan, insert_plan
from engine.statements.writers import commit_append_steps
from engine.types import sqltype as T
from engine.types.variant import caster_from_variant
from grammar import ast as A

_NULLABLE_STRING = T.STRING.as_nullable(True)
_INT32 = T.SqlType("Int32")
# COPY INTO <table>'s answer, a row per file (as Databend 1.2.453 answers)
COPY_COLUMNS = [("File", T.STRING), ("Rows_loaded", _INT32), ("Errors_seen", _INT32),
                ("First_error", _NULLABLE_STRING), ("First_error_line", _INT32.as_nullable(True))]
# COPY options accepted (those without an effect here are accepted for compatibility)
COPY_OPTIONS = frozenset({"files", "pattern", "file_format", "purge", "force", "on_error",
                          "size_limit", "max_files", "split_size", "disable_variant_check",
                          "return_failed_only", "column_match_mode"})


def copy_from_query(ctx, stmt: A.CopyIntoTable) -> Result:
    """COPY INTO t [(cols)] FROM (SELECT $1, ... FROM @stage ...): the query's rows converted to
    the columns as INSERT ... SELECT converts them (a value that does not convert fails the
    statement), a result row per file read; files loaded before are skipped unless FORCE."""
    options = dict(stmt.options)
    unknown = sorted(set(options) - COPY_OPTIONS)
    if unknown:
        raise BadArguments(f"unknown COPY option {unknown[0].upper()}", position=stmt.pos)
    database, name = ctx.resolve_table_name(stmt.table)
    table = ctx.catalog.table(database, name, stmt.pos)
    positions = column_plan(table, stmt.columns)
    converters, fill = insert_plan(table, positions, ctx.timezone)
    reading = StageReading(table.copied_files, (ctx.user, _query_stage(stmt.query)),
                           truthy(options.get("force", "false")), options)
    ctx.stage_reading = reading
    planner = Planner(ctx)
    plan, _ = planner.plan_query(stmt.query)
    ctx.stage_reading = None
    if len(plan.layout) != len(positions):
        raise BadArguments(f"Fields in select statement is not equal with expected, select fields: "
                           f"{len(plan.layout)}, insert fields: {len(positions)}", position=stmt.pos)
    converters = [_from_variant(conv, table.columns[p].type) if t.name == "Variant" else conv
                  for conv, p, t in zip(converters, positions, plan.types, strict=True)]
    progress = Progress()
    run = build(plan, Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan))
    steps = _query_copy_steps(ctx, database, table, run(()), converters, fill, reading,
                              truthy(options.get("purge", "false")), progress)
    return Result([Column(n, t.display()) for n, t in COPY_COLUMNS], steps, progress=progress,
                  types=[t for _, t in COPY_COLUMNS])


def _from_variant(converter, target: T.SqlType):
    """A column's converter for VARIANT values (NDJSON's $1:field): cast as Databend casts a
    VARIANT to the column's type (JSON null is NULL); a VARIANT column takes them as they are."""
    if target.name == "Variant":
        return converter
    cast = caster_from_variant(target, converter)

    def convert(value):
        if value is None or value == "null":
            return converter(None)
        return cast(value)
    return convert


def _query_stage(query) -> str:
    """The stage a COPY's query reads (its FROM item), for the load history's key."""
    source = getattr(query, "from_", None)
    if isinstance(source, A.StageRef):
        return parse_location(source.location).stage
    raise BadArguments("COPY INTO <table> FROM (query) reads a stage: SELECT $1, ... FROM @stage")


def note_loaded(history: dict, key: tuple, staged, purged: bool) -> None:
    """A loaded file into its table's load history (which COPY reads to skip files loaded
    before), unless it is purged or temporary: a file no longer there needs no entry (one
    uploaded again at the path is a new file), and the history is in every catalog image."""
    if purged or not staged.logged:
        history.pop(key, None)
    else:
        history[key] = staged.last_modified


def _query_copy_steps(ctx, database, table, batches, converters, fill, reading, purge, progress):
    rows = []
    for batch in batches:
        ctx.memory.charge(batch_bytes(batch))
        for r in batch:
            try:
                row = tuple([conv(v) for conv, v in zip(converters, r, strict=True)])
            except EngineError as exc:
                raise BadBytes(f"{exc.message} (row {len(rows) + 1} of the COPY query)") from None
            rows.append(fill(row) if fill is not None else row)
        yield []
    stages = ctx.session.db.stages
    stage = reading.owner[1]

    def loaded(history):
        for path, staged, _ in reading.read:
            note_loaded(history, (*reading.owner, path), staged, purge)
            if purge:
                stages.remove(ctx.user, StageLocation(stage, path))

    yield from commit_append_steps(ctx, database, table, rows, loaded=loaded)  # bounded steps, visible at once
    ctx.memory.release()
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    yield [(path, count, 0, None, None) for path, _, count in reading.read]
