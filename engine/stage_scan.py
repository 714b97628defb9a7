"""Staged files as a relation: SELECT $1, $2 ... FROM @stage[/path] (FILE_FORMAT => ...,
FILES => (...)) and COPY INTO t FROM (SELECT ... FROM @stage).

As Databend 1.2.453 answers: the fields of a CSV/TSV record are the columns $1 .. $n, each
Nullable(String) (NULL for the format's NULL text); `FILE_FORMAT =>` names a file format object
or a type ('csv', 'tsv'); files are read while the query runs, a batch of records per step.
NDJSON ($1 would be a VARIANT) and Parquet are not supported here yet.
"""

from __future__ import annotations

from engine import types as T
from engine.errors import BadArguments, Unimplemented
from engine.plan import Streamed
from engine.scope import Rel
from engine.stage_load import FileFormat, record_batches, text_stream
from engine.stage_objects import resolve_file_format
from engine.stages import StageLocation, parse_location, stage_pattern
from grammar import ast as A

FIELD_TYPE = T.STRING.as_nullable(True)
_ARGS = frozenset({"file_format", "files", "pattern"})
_TYPES = frozenset({"csv", "tsv", "ndjson", "parquet"})


class StageReading:
    """What a COPY INTO t FROM (SELECT ... FROM @stage) needs to know of the files its query
    reads: which to skip (load history, unless FORCE) and, once read, their record counts."""

    def __init__(self, history: dict, owner: tuple, force: bool):
        self.history = history
        self.owner = owner
        self.force = force
        self.read: list[tuple[str, object, int]] = []  # (path, StagedFile, records)


def stage_format(stages, location: StageLocation, name: str | None) -> FileFormat:
    """The file format of a stage scan: FILE_FORMAT => a type or a named format, else the named
    stage's own, else CSV."""
    named = stages.named.get(location.stage)
    options = dict(named.file_format) if named else {}
    if name is not None:
        if name.lower() in _TYPES:
            options = {"type": name.lower()}
        else:
            options = resolve_file_format(stages, {"format_name": name})
    return FileFormat.from_options(options)


def stage_relation(planner, node: A.StageRef) -> Rel:
    ctx = planner.ctx
    options = dict(node.options)
    unknown = sorted(set(options) - _ARGS)
    if unknown:
        raise BadArguments(f"unknown stage table option {unknown[0].upper()}", position=node.pos)
    stages = ctx.session.db.stages
    location = parse_location(node.location)
    file_format = options.get("file_format")
    if file_format is not None and not isinstance(file_format, str):
        raise BadArguments("FILE_FORMAT => takes a format name or type, e.g. 'csv'", position=node.pos)
    fmt = stage_format(stages, location, file_format)
    if fmt.type not in ("csv", "tsv"):
        raise Unimplemented(f"SELECT from a staged {fmt.type.upper()} file is not supported yet "
                            "(CSV and TSV are)", position=node.pos)
    files = stages.choose(ctx.user, location, options.get("files"),
                          stage_pattern(ctx.limits, options.get("pattern")))
    width = _width(fmt, files)  # of all the files, also those a COPY will skip
    reading: StageReading | None = getattr(ctx, "stage_reading", None)
    if reading is not None and not reading.force:
        files = [(p, f) for p, f in files
                 if reading.history.get((*reading.owner, p)) != f.last_modified]
    layout = [planner.cid() for _ in range(width)]
    null = fmt.null_display

    def produce(query_ctx, batch_rows: int):
        for path, staged in files:
            count = 0
            for _, records in record_batches(fmt, text_stream(staged.data, fmt.compression),
                                             batch_rows):
                if fmt.skip_header and count == 0:
                    records = records[fmt.skip_header:]
                rows = [tuple([None if v == null else v
                               for v in (r if len(r) == width else (r + [None] * width)[:width])])
                        for r in records]
                count += len(records)
                yield rows
            if reading is not None:
                reading.read.append((path, staged, count))

    plan = Streamed(layout, [FIELD_TYPE] * width, produce=produce, label=f"stage {location.text}")
    alias = node.alias or location.stage
    return Rel(plan, [(alias, f"${i + 1}", cid, FIELD_TYPE) for i, cid in enumerate(layout)])


def _width(fmt: FileFormat, files) -> int:
    """Fields of the first record of the first file (at least 1): the columns $1 .. $n."""
    for _, staged in files:
        for _, records in record_batches(fmt, text_stream(staged.data, fmt.compression), 1 + fmt.skip_header):
            records = records[fmt.skip_header:]
            if records:
                return max(1, len(records[0]))
            break
    return 1
