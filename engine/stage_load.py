"""Loading staged files into a table: `INSERT INTO t [(cols)] VALUES` with a stage attachment.

The clients' bulk paths (databend-driver's executemany / stream_load / load_file, databend-py's
insert) upload a file to a stage and then send the INSERT with a `stage_attachment`: where the
file is, its file format options and copy options (all values strings, option names in either
case). The file is read as a stream (never decoded whole), `Limits.step_rows` records per step,
each field converted to its column's type as CAST from a string would; a field that does not
convert fails the statement with the file, line and column named, and nothing is inserted
(the rows are appended together at the end, as every INSERT here). With `purge = true` the file
is removed from the stage once its rows are in the table.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
from dataclasses import dataclass, field

from engine.conversion import type_default
from engine.errors import BadArguments, BadBytes, EngineError, Unimplemented
from engine.memory import batch_bytes
from engine.stages import StageLocation, parse_location

# Databend's file format option defaults (CSV, TSV, NDJSON)
_DEFAULTS = {"type": "csv", "field_delimiter": ",", "record_delimiter": "\n", "skip_header": "0",
             "quote": '"', "escape": "", "null_display": "\\N", "compression": "none",
             "empty_field_as": "null"}
_FORMATS = ("csv", "tsv", "ndjson")


@dataclass(frozen=True, slots=True)
class StageAttachment:
    """What a POST /v1/query's `stage_attachment` says: the file and how to read it."""

    location: str
    file_format_options: dict = field(default_factory=dict)
    copy_options: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FileFormat:
    """File format options, normalised: lower-case names, defaults filled in."""

    type: str
    field_delimiter: str
    record_delimiter: str
    skip_header: int
    quote: str
    null_display: str
    compression: str
    empty_field_as: str

    @classmethod
    def from_options(cls, options: dict) -> FileFormat:
        given = {str(k).lower(): str(v) for k, v in (options or {}).items()}
        merged = {**_DEFAULTS, **({"field_delimiter": "\t"} if given.get("type", "").lower() == "tsv"
                                   else {}), **given}
        kind = merged["type"].lower()
        if kind not in _FORMATS:
            raise Unimplemented(f"file format type {merged['type']!r} is not supported here "
                                f"(CSV, TSV and NDJSON are)")
        try:
            skip = int(merged["skip_header"])
        except ValueError:
            raise BadArguments(f"skip_header must be an integer, not {merged['skip_header']!r}") from None
        record = merged["record_delimiter"]
        if record not in ("\n", "\r\n", "\\n", "\\r\\n"):
            raise Unimplemented(f"record_delimiter {record!r} is not supported here "
                                "(a newline or CRLF is)")
        delimiter = merged["field_delimiter"].replace("\\t", "\t")
        if len(delimiter) != 1:
            raise BadArguments(f"field_delimiter must be one character, not {delimiter!r}")
        compression = merged["compression"].lower()
        if compression not in ("none", "auto", "gzip"):
            raise Unimplemented(f"compression {merged['compression']!r} is not supported here "
                                "(NONE, AUTO and GZIP are)")
        empty = merged["empty_field_as"].lower()
        if empty not in ("null", "string", "field_default"):
            raise BadArguments(f"empty_field_as must be NULL, STRING or FIELD_DEFAULT, not {empty!r}")
        return cls(kind, delimiter, record, skip, merged["quote"][:1], merged["null_display"],
                   compression, empty)


def truthy(value) -> bool:
    return str(value).strip().lower() in ("true", "1", "yes")


def _text_stream(data: bytes, compression: str):
    """The file as a stream of text lines (decompressed and decoded lazily)."""
    raw = io.BytesIO(data)
    if compression == "gzip" or (compression == "auto" and data[:2] == b"\x1f\x8b"):
        raw = gzip.GzipFile(fileobj=raw)
    return codecs.getreader("utf-8")(raw, errors="strict")


def _records(fmt: FileFormat, stream):
    """(line number, list of field texts or dict for NDJSON) per record."""
    if fmt.type == "ndjson":
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except ValueError:
                raise BadArguments(f"invalid JSON at line {number}") from None
            if not isinstance(value, dict):
                raise BadArguments(f"line {number} is not a JSON object")
            yield number, {str(k).lower(): v for k, v in value.items()}
        return
    if fmt.type == "tsv":
        reader = csv.reader(stream, delimiter=fmt.field_delimiter, quoting=csv.QUOTE_NONE,
                            escapechar="\\")
    else:
        reader = csv.reader(stream, delimiter=fmt.field_delimiter, quotechar=fmt.quote or '"',
                            doublequote=True, strict=False)
    for record in reader:
        yield reader.line_num, record


def insert_from_attachment(ctx, stmt, table, positions, converters, fill, progress, report_column):
    """Rows of the attached file into `table` (the INSERT's written columns `positions`, their
    `converters` and the `fill` for the others), in steps; the answer rows of the INSERT last."""
    attachment: StageAttachment | None = getattr(ctx, "attachment", None)
    if attachment is None:
        raise BadArguments("INSERT ... VALUES without rows needs a stage_attachment (the rows of a "
                           "staged file)", position=stmt.pos)
    location = parse_location(attachment.location)
    fmt = FileFormat.from_options(attachment.file_format_options)
    purge = truthy({str(k).lower(): v for k, v in (attachment.copy_options or {}).items()}
                    .get("purge", "false"))
    data = ctx.session.db.stages.get(ctx.user, location)
    return _attachment_steps(ctx, table, positions, converters, fill, progress, fmt, data, location,
                             purge, report_column)


def _attachment_steps(ctx, table, positions, converters, fill, progress, fmt, data,
                      location: StageLocation, purge, report_column):
    target = LoadTarget.of(table, positions, converters, fill)
    outcome = yield from read_file_rows(ctx, fmt, data, location.text, target, "abort")
    rows = outcome.rows
    table.append(rows)
    ctx.memory.release()  # the rows are the table's now
    if purge:
        ctx.session.db.stages.remove(ctx.user, location)
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    if report_column:
        yield [(len(rows),)]


@dataclass(frozen=True, slots=True)
class LoadTarget:
    """The written columns of a table: names, converters, the row filler and, per column, whether
    it takes NULL and its default (for EMPTY_FIELD_AS = FIELD_DEFAULT)."""

    names: list
    converters: list
    fill: object
    defaults: list

    @classmethod
    def of(cls, table, positions, converters, fill) -> LoadTarget:
        columns = [table.columns[i] for i in positions]
        return cls([c.name for c in columns], converters, fill,
                   [c.default if c.default is not None else type_default(c.type) for c in columns])


@dataclass(slots=True)
class FileOutcome:
    """What reading one file gave: its converted rows, and the errors ON_ERROR let pass."""

    rows: list
    errors_seen: int = 0
    first_error: str | None = None
    first_error_line: int | None = None


def read_file_rows(ctx, fmt: FileFormat, data: bytes, name: str, target: LoadTarget, on_error: str):
    """Convert the records of one file (a generator: yields [] every step_rows records and
    returns a FileOutcome). on_error: `abort` raises at the first bad record (naming file, line
    and column); `continue` skips bad records and counts them; `skip_file` stops at the first and
    keeps no row of the file."""
    step_rows = max(1, ctx.limits.step_rows)
    names, converters, fill, defaults = target.names, target.converters, target.fill, target.defaults
    width = len(names)
    outcome = FileOutcome([])
    rows, pending = outcome.rows, 0
    records = _records(fmt, _text_stream(data, fmt.compression))
    try:
        for number, record in records:
            if number <= fmt.skip_header and fmt.type != "ndjson":
                continue
            try:
                if fmt.type == "ndjson":
                    values = [record.get(column) for column in names]
                elif len(record) != width:
                    if not record or (record == [""] and width != 1):
                        continue  # a blank line
                    raise BadArguments(f"expected {width} fields, got {len(record)}")
                else:
                    values = [_field(text, fmt, defaults[i]) for i, text in enumerate(record)]
                try:
                    row = tuple([conv(v) for conv, v in zip(converters, values, strict=True)])
                except EngineError as exc:
                    i = _failing_column(converters, values)
                    raise BadBytes(f"Invalid value {values[i]!r} for column {i} ({names[i]}): "
                                   f"{exc.message}, at line {number}") from None
            except EngineError as exc:
                if on_error == "abort":
                    raise
                outcome.errors_seen += 1
                if outcome.first_error is None:
                    outcome.first_error, outcome.first_error_line = exc.message, number
                if on_error == "skip_file":
                    outcome.rows = []
                    return outcome
                continue
            rows.append(fill(row) if fill is not None else row)
            pending += 1
            if pending >= step_rows:
                ctx.memory.charge(batch_bytes(rows[-pending:]))
                pending = 0
                yield []
    except EngineError as exc:
        raise type(exc)(f"{exc.message} (loading {name})") from None
    except (UnicodeDecodeError, OSError, EOFError, csv.Error) as exc:
        raise BadArguments(f"loading {name}: the file cannot be read as {fmt.type.upper()} "
                           f"({type(exc).__name__})") from None
    return outcome


def _field(text: str, fmt: FileFormat, default):
    """One CSV/TSV field as the value to convert: NULL for null_display (and for an empty field
    when empty_field_as is NULL), else the text."""
    if text == fmt.null_display:
        return None
    if text == "":
        if fmt.empty_field_as == "null":
            return None
        if fmt.empty_field_as == "field_default":
            return default
    return text


def _failing_column(converters, values) -> int:
    """The position of the first value its converter refuses."""
    for i, (conv, value) in enumerate(zip(converters, values, strict=True)):
        try:
            conv(value)
        except EngineError:
            return i
    return 0
