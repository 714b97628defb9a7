"""Staged files as a relation: SELECT $1, $2 ... FROM @stage[/path] (FILE_FORMAT => ...,
FILES => (...)) and COPY INTO t FROM (SELECT ... FROM @stage).

As Databend's "Querying Staged Files" says: the fields of a CSV/TSV record are the columns
$1 .. $n, each Nullable(String) (NULL for the format's NULL text); an NDJSON record is the one
column $1, a VARIANT (the whole record: `$1:name` reads a field); a Parquet file's columns are
read by name with the file's types (every file must have the first one's schema), and by
position as $1 .. $n. `FILE_FORMAT =>` names a file format object or a type ('csv', 'tsv',
'ndjson', 'parquet'); files are read while the query runs, a batch of records per step.
"""

from __future__ import annotations

from itertools import islice

from engine.bind.scope import Rel
from engine.catalog.privileges import check_stage
from engine.catalog.stages import StageLocation, parse_location, stage_pattern
from engine.catalog.users import READ
from engine.core.errors import BadArguments, UnreadableFile
from engine.io.formats import copy_file_format, resolve_file_format
from engine.io.parquet_files import scan_batches, scan_schema
from engine.io.stage_load import (
    READ_ERRORS,
    FileFormat,
    file_error,
    json_row_problem,
    record_batches,
    text_stream,
)
from engine.ir.plan import Streamed
from engine.types import sqltype as T
from engine.types.variant import try_parse_json
from grammar import ast as A

FIELD_TYPE = T.STRING.as_nullable(True)
VARIANT = T.SqlType("Variant")
_ARGS = frozenset({"file_format", "files", "pattern"})
_TYPES = frozenset({"csv", "tsv", "ndjson", "parquet"})


class StageReading:
    """What a COPY INTO t FROM (SELECT ... FROM @stage) needs to know of the files its query
    reads: which to skip (load history, unless FORCE) and, once read, their record counts."""

    def __init__(self, history: dict, owner: tuple, force: bool, options: dict | None = None):
        self.history = history
        self.owner = owner
        self.force = force
        # the COPY's FILE_FORMAT = (...), FILES = (...) and PATTERN = '...', which apply to its
        # query's stage unless the stage's own arguments (FILE_FORMAT => ...) say otherwise
        self.options = options or {}
        self.read: list[tuple[str, object, int]] = []  # (path, StagedFile, records)


def scan_format(stages, location: StageLocation, name: str | None, copy_format, pos) -> FileFormat:
    """The file format of a stage scan: FILE_FORMAT => a type or a named format; else as the
    COPY whose query this is reads the stage (its FILE_FORMAT = (...), else the named stage's
    own format, else CSV: copy_file_format)."""
    if name is None:
        return copy_file_format(stages, location.stage, copy_format, pos)
    if name.lower() in _TYPES:
        return FileFormat.from_options({"type": name.lower()})
    return FileFormat.from_options(resolve_file_format(stages, {"format_name": name}))


def stage_relation(planner, node: A.StageRef) -> Rel:
    ctx = planner.ctx
    options = dict(node.options)
    unknown = sorted(set(options) - _ARGS)
    if unknown:
        raise BadArguments(f"unknown stage table option {unknown[0].upper()}", position=node.pos)
    stages = ctx.session.db.stages
    location = parse_location(node.location)
    if getattr(ctx, "plan_record", None) is not None:
        ctx.plan_record.cacheable = False  # files are listed while planning: never reused
    if ctx.access is not None and not ctx.views_expanding:  # a view's own reads are not the reader's
        check_stage(ctx, location.stage, READ, node.pos)
    reading: StageReading | None = getattr(ctx, "stage_reading", None)
    copy_options = reading.options if reading is not None else {}
    file_format = options.get("file_format")
    if file_format is not None and not isinstance(file_format, str):
        raise BadArguments("FILE_FORMAT => takes a format name or type, e.g. 'csv'", position=node.pos)
    fmt = scan_format(stages, location, file_format, copy_options.get("file_format"), node.pos)
    pattern = options.get("pattern", copy_options.get("pattern"))
    files = stages.choose(ctx.user, location, options.get("files", copy_options.get("files")),
                          stage_pattern(ctx.limits, pattern))
    if fmt.type == "ndjson":
        names, types = ["$1"], [VARIANT]
        produce_file = _ndjson_rows
    elif fmt.type == "parquet":
        names, types = _parquet_columns(fmt, files)
        produce_file = _parquet_rows(types)
    else:
        width = _width(fmt, files)  # of all the files, also those a COPY will skip
        names, types = [f"${i + 1}" for i in range(width)], [FIELD_TYPE] * width
        produce_file = _text_rows(width)
    if reading is not None and not reading.force:
        files = [(p, f) for p, f in files
                 if reading.history.get((*reading.owner, p)) != f.last_modified]
    layout = [planner.cid() for _ in names]
    alias = node.alias or location.stage
    columns = [(alias, name, cid, t) for name, cid, t in zip(names, layout, types, strict=True)]
    positional = fmt.type == "parquet"
    if positional:  # $1 .. $n read the columns too, hidden from SELECT *
        extra = [planner.cid() for _ in names]
        planner.star_hidden.update(extra)
        columns += [(alias, f"${i + 1}", cid, t) for i, (cid, t) in enumerate(zip(extra, types, strict=True))]
        layout += extra

    def produce(query_ctx, batch_rows: int):
        for path, staged in files:
            count = 0
            try:
                for rows in produce_file(fmt, path, staged.data, batch_rows):
                    count += len(rows)
                    yield [row + row for row in rows] if positional else rows
            except READ_ERRORS as exc:  # named as COPY names it
                raise file_error(fmt, path, staged.data, exc, count + fmt.skip_header) from None
            if reading is not None:
                reading.read.append((path, staged, count))

    all_types = types + types if positional else types
    plan = Streamed(layout, all_types, produce=produce, label=f"stage {location.text}")
    return Rel(plan, columns)


def _text_rows(width: int):
    def rows_of(fmt: FileFormat, path: str, data: bytes, batch_rows: int):
        null = fmt.null_display
        first = True
        for _, records in record_batches(fmt, text_stream(data, fmt.compression), batch_rows):
            if fmt.skip_header and first:
                records = records[fmt.skip_header:]
            first = False
            yield [tuple([None if v == null else v
                          for v in (r if len(r) == width else (r + [None] * width)[:width])])
                   for r in records]
    return rows_of


def _ndjson_rows(fmt: FileFormat, path: str, data: bytes, batch_rows: int):
    """Each non-blank line of an NDJSON file as a row ($1,): its JSON as a VARIANT."""
    lines = text_stream(data, fmt.compression)
    number = 0
    while True:
        chunk = list(islice(lines, batch_rows))
        if not chunk:
            return
        rows = []
        for line in chunk:
            number += 1
            if not line.strip():
                continue
            value = try_parse_json(line)
            if value is None:
                raise UnreadableFile(json_row_problem(line), number - 1)
            rows.append((value,))
        yield rows


def _parquet_columns(fmt: FileFormat, files) -> tuple[list, list]:
    """The column names and types of the Parquet files (the first file's schema; every other
    file must have the same)."""
    schema = None
    for path, staged in files:
        try:
            this = scan_schema(staged.data)
        except READ_ERRORS as exc:
            raise file_error(fmt, path, staged.data, exc, 0) from None
        if schema is None:
            schema = this
        elif this != schema:
            raise BadArguments(f"the Parquet files have different schemas: @{path} differs "
                               "from the first file (all files must have the same)")
    if schema is None:
        raise BadArguments("no Parquet file to read the schema from (the location matches "
                           "no file)")
    return [n for n, _ in schema], [t for _, t in schema]


def _parquet_rows(types: list):
    def rows_of(fmt: FileFormat, path: str, data: bytes, batch_rows: int):
        yield from scan_batches(data, types, batch_rows)
    return rows_of


def _width(fmt: FileFormat, files) -> int:
    """Fields of the first record of the first file (at least 1): the columns $1 .. $n."""
    for path, staged in files:
        try:
            for _, records in record_batches(fmt, text_stream(staged.data, fmt.compression),
                                             1 + fmt.skip_header):
                records = records[fmt.skip_header:]
                if records:
                    return max(1, len(records[0]))
                break
        except READ_ERRORS as exc:
            raise file_error(fmt, path, staged.data, exc, 0) from None
    return 1
