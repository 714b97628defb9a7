"""Unloading: COPY INTO @stage[/prefix] FROM t | (query) — the files a user takes to a Databend
cluster (and loads there with COPY INTO) when they outgrow one machine.

Written as Databend 1.2.453 writes them (its embedded build unloaded a table to a file-system
stage): files named `<prefix>/data_<uuid>_0000_<n:08>.<csv|tsv|ndjson>`; CSV quotes strings,
dates and timestamps (a quote doubled), leaves numbers and booleans (`true`/`false`) bare, NULL
is `\\N`; TSV writes booleans as 1/0 and escapes backslash, tab and line ends; NDJSON one object
per row with typed values. The answer is one row (rows_unloaded, input_bytes, output_bytes).
The query runs in its steps; a file is cut every MAX_FILE_SIZE bytes (16 MiB by default) unless
SINGLE = TRUE; the files enter the stage together once the query has run to the end.
"""

from __future__ import annotations

import gzip
import json
import uuid

from engine.catalog.stages import StageLocation, parse_location
from engine.core.errors import BadArguments, Unimplemented
from engine.core.memory import batch_bytes
from engine.exec.executor import Runtime, build
from engine.exec.result import Column, Progress, Result
from engine.io.formats import copy_file_format
from engine.io.parquet_files import require_parquet, write_parquet
from engine.io.stage_load import FileFormat, truthy
from engine.plan.planner import Planner
from engine.types import render as R
from engine.types import sqltype as T
from grammar import ast as A

DEFAULT_MAX_FILE_SIZE = 16 * 1024 * 1024
_UNLOAD_OPTIONS = frozenset({"file_format", "single", "max_file_size", "detailed_output",
                             "overwrite", "include_query_id", "use_raw_path"})
_ANSWER = [("rows_unloaded", T.UINT64), ("input_bytes", T.UINT64), ("output_bytes", T.UINT64)]
_QUOTED_TYPES = frozenset({"String", "Date", "Timestamp"})
_EXTENSIONS = {"csv": "csv", "tsv": "tsv", "ndjson": "ndjson", "parquet": "parquet"}
_TSV_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_into_stage(session, ctx, stmt: A.CopyIntoStage) -> Result:
    options = dict(stmt.options)
    unknown = sorted(set(options) - _UNLOAD_OPTIONS)
    if unknown:
        raise BadArguments(f"unknown COPY option {unknown[0].upper()}", position=stmt.pos)
    location = parse_location(stmt.location)
    stages = ctx.session.db.stages
    stages.check_stage(location)
    fmt = copy_file_format(stages, location.stage, options.get("file_format"), stmt.pos)
    if fmt.type not in _EXTENSIONS:
        raise Unimplemented(f"unloading {fmt.type.upper()} is not supported", position=stmt.pos)
    try:
        max_file_size = int(options.get("max_file_size", DEFAULT_MAX_FILE_SIZE)) or DEFAULT_MAX_FILE_SIZE
    except ValueError:
        raise BadArguments("MAX_FILE_SIZE must be a number of bytes", position=stmt.pos) from None
    query = stmt.query if stmt.query is not None else A.Select(
        (A.SelectItem(A.Star()),), from_=A.TableRef(stmt.table, pos=stmt.pos), pos=stmt.pos)
    planner = Planner(ctx)
    plan, names = planner.plan_query(query)
    progress = Progress()
    run = build(plan, Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan))
    if fmt.type == "parquet":
        require_parquet()
        writer = None
    else:
        # GEOMETRY / GEOGRAPHY values in the session's geometry_output_format, as on the wire
        geometry_format = (ctx.session.setting("geometry_output_format")
                           if any(R.holds_geo(t) for t in plan.types) else "GeoJSON")
        writer = _writer(fmt, names, plan.types, ctx.timezone, geometry_format)
    steps = _unload_steps(ctx, run(()), writer, fmt, location, truthy(options.get("single", "false")),
                          max_file_size, progress, names, plan.types)
    return Result([Column(n, t.display()) for n, t in _ANSWER], steps, progress=progress,
                  types=[t for _, t in _ANSWER])


def _text_renderers(types, timezone: str, geometry_format: str = "GeoJSON") -> list:
    """Per column, value -> text as the wire shows it (Timestamps in the session zone)."""
    return R.renderers_in_zone(types, timezone, geometry_format)


def _writer(fmt: FileFormat, names, types, timezone: str, geometry_format: str = "GeoJSON"):
    """A function turning a batch of rows into the text of their records."""
    renderers = _text_renderers(types, timezone, geometry_format)
    null = fmt.null_display
    if fmt.type == "ndjson":
        encoders = [_json_encoder(t, r) for t, r in zip(types, renderers, strict=True)]
        keys = [json.dumps(n) for n in names]

        def ndjson(batch):
            return "".join("{" + ",".join(f"{k}:{'null' if v is None else e(v)}"
                                          for k, e, v in zip(keys, encoders, row, strict=True))
                           + "}\n" for row in batch)
        return ndjson
    delimiter = fmt.field_delimiter
    if fmt.type == "tsv":
        def tsv_field(render):
            return lambda v: render(v).translate(_TSV_ESCAPES)
        fields = [tsv_field(r) for r in renderers]
    else:
        quote = fmt.quote or '"'
        fields = []
        for t, render in zip(types, renderers, strict=True):
            if t.name in _QUOTED_TYPES:
                fields.append(lambda v, r=render: quote + r(v).replace(quote, quote * 2) + quote)
            elif t.name == "Boolean":
                fields.append(lambda v: "true" if v else "false")
            else:
                fields.append(render)
    end = "\r\n" if fmt.record_delimiter in ("\r\n", "\\r\\n") else "\n"

    def delimited(batch):
        return "".join(delimiter.join([null if v is None else f(v) for f, v in zip(fields, row, strict=True)])
                       + end for row in batch)
    return delimited


def _json_encoder(t, render):
    """value -> JSON text: numbers and booleans as JSON values, the rest as strings."""
    if t.is_int or t.name == "Boolean":
        return lambda v: json.dumps(v)
    if t.is_float:
        return lambda v: json.dumps(v) if v == v and abs(v) != float("inf") else json.dumps(str(v))
    if t.name == "Decimal":
        return render
    return lambda v: json.dumps(render(v))


def _unload_steps(ctx, batches, writer, fmt: FileFormat, location: StageLocation, single: bool,
                  max_file_size: int, progress: Progress, names, types):
    prefix = location.path
    if prefix and not prefix.endswith("/"):
        prefix += "/"
    stem = f"{prefix}data_{uuid.uuid4()}_0000_"
    extension = _EXTENSIONS[fmt.type] + (".gz" if fmt.compression == "gzip" else "")
    files: list[bytes] = []
    chunks: list = []  # encoded text, or rows for Parquet
    size = rows = 0
    for batch in batches:
        if batch:
            if writer is None:
                chunks.extend(batch)
                grown = batch_bytes(batch)
            else:
                data = writer(batch).encode("utf-8")
                chunks.append(data)
                grown = len(data)
            size += grown
            rows += len(batch)
            ctx.memory.charge(grown)
            if not single and size >= max_file_size:
                files.append(_file(writer, chunks, names, types))
                chunks, size = [], 0
        yield []
    if chunks:
        files.append(_file(writer, chunks, names, types))
    written = sum(len(data) for data in files)
    if fmt.compression == "gzip":
        files = [gzip.compress(data) for data in files]
    # all files or none (a failure leaves no partial unload behind)
    ctx.session.db.stages.put_many(ctx.user, [
        (StageLocation(location.stage, f"{stem}{number:08d}.{extension}"), data)
        for number, data in enumerate(files)])
    ctx.memory.release()
    progress.write_rows = rows
    progress.write_bytes = written
    yield [(rows, written, written)]


def _file(writer, chunks, names, types) -> bytes:
    """One file's bytes: the encoded text chunks joined, or the rows written as Parquet."""
    if writer is None:
        return write_parquet(names, types, chunks)
    return b"".join(chunks)
