"""Stage statements: LIST, REMOVE, PRESIGN and COPY INTO <table> FROM @stage.

Result columns follow Databend 1.2.453 (its embedded build answered LIST and COPY INTO over a
file-system stage): LIST gives name, size, md5, last_modified ('YYYY-MM-DD HH:MM:SS.fff +0000')
and creator; COPY INTO one row per loaded file (File, Rows_loaded, Errors_seen, First_error,
First_error_line), none when every file was loaded before (its load history: a file is loaded
once unless FORCE = TRUE, or until it changes). PRESIGN answers method, headers and url as the
docs show; the URL is made by the server (`Database.presigner`), which serves it.
"""

from __future__ import annotations

import datetime

from engine.catalog.stages import StageLocation, parse_location, stage_pattern
from engine.core.errors import BadArguments, EngineError
from engine.exec.result import Column, Progress, Result
from engine.io.formats import copy_file_format
from engine.io.stage_load import LoadTarget, merged_known, read_file_rows, truthy
from engine.statements.copy_query import COPY_COLUMNS as _COPY_COLUMNS
from engine.statements.copy_query import COPY_OPTIONS as _COPY_OPTIONS
from engine.statements.copy_query import copy_from_query, note_loaded
from engine.statements.insert_plan import column_plan, insert_plan
from engine.statements.writers import commit_append_steps
from engine.types import sqltype as T
from grammar import ast as A

STORAGE_UNSUPPORTED = 3902  # Databend's StorageUnsupported (PRESIGN without a server)
DEFAULT_EXPIRE_SECS = 3600
MAX_EXPIRE_SECS = 7 * 24 * 3600

_NULLABLE_STRING = T.STRING.as_nullable(True)
_LIST_COLUMNS = [("name", T.STRING), ("size", T.UINT64), ("md5", _NULLABLE_STRING),
                 ("last_modified", T.STRING), ("creator", _NULLABLE_STRING)]
_INT32 = T.SqlType("Int32")
_PRESIGN_COLUMNS = [("method", T.STRING), ("headers", T.STRING), ("url", T.STRING)]
_ON_ERROR = {"abort": "abort", "continue": "continue", "skip_file": "skip_file"}


def _rows(names_types, rows, progress: Progress | None = None) -> Result:
    schema = [Column(n, t.display()) for n, t in names_types]
    return Result(schema, iter([rows]), progress=progress or Progress(),
                  types=[t for _, t in names_types])


def _listed_time(epoch: float) -> str:
    moment = datetime.datetime.fromtimestamp(epoch, datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d} +0000"


def list_stage(session, ctx, stmt: A.ListStage) -> Result:
    """LIST @stage[/path] [PATTERN = '...'] (REMOVE: the same files, removed; it answers no
    rows)."""
    pattern = stage_pattern(ctx.limits, stmt.pattern)
    location = parse_location(stmt.location)
    stages = ctx.session.db.stages
    files = stages.choose(ctx.user, location, pattern=pattern)
    if stmt.remove:
        for path, _ in files:
            stages.remove(ctx.user, StageLocation(location.stage, path))
        return _rows([], [])
    rows = [(path, len(f.data), None, _listed_time(f.last_modified), None) for path, f in files]
    return _rows(_LIST_COLUMNS, rows)


def presign(session, ctx, stmt: A.Presign) -> Result:
    """PRESIGN [UPLOAD | DOWNLOAD] @stage/path [EXPIRE = n]: a URL of this server that lets
    its holder PUT (upload) or GET (download) that one file without credentials until it expires."""
    presigner = getattr(ctx.session.db, "presigner", None)
    if presigner is None:
        raise EngineError("storage doesn't support presign operation.", code=STORAGE_UNSUPPORTED,
                          position=stmt.pos)
    expire = DEFAULT_EXPIRE_SECS if stmt.expire is None else stmt.expire
    if not 1 <= expire <= MAX_EXPIRE_SECS:
        raise BadArguments(f"EXPIRE must be between 1 and {MAX_EXPIRE_SECS} seconds, not {expire}",
                           position=stmt.pos)
    location = parse_location(stmt.location)
    if not location.path or location.path.endswith("/"):
        raise BadArguments("PRESIGN needs a file path, e.g. @~/data.csv", position=stmt.pos)
    ctx.session.db.stages.check_stage(location)
    method = "PUT" if stmt.method == "UPLOAD" else "GET"
    headers, url = presigner(method, ctx.user, location, expire)
    return _rows(_PRESIGN_COLUMNS, [(method, headers, url)])


def copy_into_table(session, ctx, stmt: A.CopyIntoTable) -> Result:
    """COPY INTO t [(cols)] FROM @stage[/path] [FILES = (...)] [FILE_FORMAT = (...)] [PURGE]
    [FORCE] [ON_ERROR]: every file read in steps, all rows appended together at the end."""
    if stmt.query is not None:
        return copy_from_query(ctx, stmt)
    options = dict(stmt.options)
    unknown = sorted(set(options) - _COPY_OPTIONS)
    if unknown:
        raise BadArguments(f"unknown COPY option {unknown[0].upper()}", position=stmt.pos)
    pattern = stage_pattern(ctx.limits, options.get("pattern"))
    location = parse_location(stmt.location)
    stages = ctx.session.db.stages
    stages.check_stage(location)
    fmt = copy_file_format(stages, location.stage, options.get("file_format"), stmt.pos)
    named = stages.named.get(location.stage)  # a named stage's copy options, under the COPY's
    if named is not None:
        options = {**named.copy_options, **options}
    on_error = _ON_ERROR.get(str(options.get("on_error", "abort")).lower())
    if on_error is None:
        raise BadArguments(f"ON_ERROR must be ABORT, CONTINUE or SKIP_FILE, not "
                           f"{options['on_error']!r}", position=stmt.pos)
    database, name = ctx.resolve_table_name(stmt.table)
    table = ctx.catalog.table(database, name, stmt.pos)
    positions = column_plan(table, stmt.columns)
    converters, fill = insert_plan(table, positions, ctx.timezone)
    files = stages.choose(ctx.user, location, options.get("files"), pattern)
    force = truthy(options.get("force", "false"))
    history = table.copied_files
    owner = (ctx.user, location.stage)
    if not force:
        files = [(path, f) for path, f in files if history.get((*owner, path)) != f.last_modified]
    progress = Progress()
    steps = _copy_steps(ctx, database, table, LoadTarget.of(table, positions, converters, fill), fmt,
                        on_error, files, location, truthy(options.get("purge", "false")),
                        owner, progress)
    return Result([Column(n, t.display()) for n, t in _COPY_COLUMNS], steps, progress=progress,
                  types=[t for _, t in _COPY_COLUMNS])


def _copy_steps(ctx, database, table, target, fmt, on_error, files, location, purge, owner,
                progress):
    loaded, answer = [], []
    for path, staged in files:
        outcome = yield from read_file_rows(ctx, fmt, staged.data, f"@{location.stage}/{path}",
                                            target, on_error)
        loaded.append((path, staged, outcome))
        answer.append((path, len(outcome.rows), outcome.errors_seen, outcome.first_error,
                       outcome.first_error_line))
    rows = loaded[0][2].rows if len(loaded) == 1 else [row for _, _, o in loaded for row in o.rows]
    stages = ctx.session.db.stages

    def note(history):  # the table's current load history (a new version's, after ALTER)
        for path, staged, _ in loaded:
            note_loaded(history, (*owner, path), staged, purge)
            if purge:
                stages.remove(ctx.user, StageLocation(location.stage, path))

    # a large load commits in bounded steps, visible at once
    yield from commit_append_steps(ctx, database, table, rows, merged_known([o for _, _, o in loaded]), loaded=note)
    ctx.memory.release()  # the rows are the table's now
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    yield answer

