"""Loading staged files into a table: `INSERT INTO t [(cols)] VALUES` with a stage attachment,
or `INSERT|REPLACE INTO t [(cols)] [VALUES (?, ...)] FROM @stage FILE_FORMAT = (...)`.

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
import zlib
from dataclasses import dataclass, field
from itertools import islice

from engine.catalog.routines import SequenceDefault
from engine.catalog.stages import StageLocation, parse_location
from engine.core.errors import BadArguments, BadBytes, EngineError, Unimplemented, UnreadableFile
from engine.core.memory import batch_bytes
from engine.io.parquet_files import record_batches as parquet_record_batches
from engine.io.plain_text import plain_applies, plain_batches
from engine.io.record_convert import Refused, batch_converter, collection_paused
from engine.types.convert import type_default

# Databend's file format option defaults (CSV, TSV, NDJSON)
_DEFAULTS = {"type": "csv", "field_delimiter": ",", "record_delimiter": "\n", "skip_header": "0",
             "quote": '"', "escape": "", "null_display": "\\N", "compression": "none",
             "empty_field_as": "null"}
_FORMATS = ("csv", "tsv", "ndjson", "parquet")
# what reading a file its format cannot read raises below the readers (bad UTF-8, damaged gzip
# data, a record the csv module refuses, a reader's UnreadableFile)
READ_ERRORS = (UnreadableFile, UnicodeDecodeError, OSError, EOFError, zlib.error, csv.Error)


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
    # FALSE: a record of fewer fields takes the missing columns' defaults (or NULL), one of
    # more fields has the extra ones ignored
    error_on_column_count_mismatch: bool = True

    @classmethod
    def from_options(cls, options: dict) -> FileFormat:
        given = {str(k).lower(): str(v) for k, v in (options or {}).items()}
        merged = {**_DEFAULTS, **({"field_delimiter": "\t"} if given.get("type", "").lower() == "tsv"
                                   else {}), **given}
        kind = merged["type"].lower()
        if kind not in _FORMATS:
            raise Unimplemented(f"file format type {merged['type']!r} is not supported here "
                                f"(CSV, TSV, NDJSON and PARQUET are)")
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
        mismatch = str(merged.get("error_on_column_count_mismatch", "true")).strip().lower()
        if mismatch not in ("true", "false"):
            raise BadArguments(f"error_on_column_count_mismatch must be TRUE or FALSE, not "
                               f"{mismatch!r}")
        return cls(kind, delimiter, record, skip, merged["quote"][:1], merged["null_display"],
                   compression, empty, mismatch == "true")


def truthy(value) -> bool:
    return str(value).strip().lower() in ("true", "1", "yes")


def text_stream(data: bytes, compression: str):
    """The file as text, decompressed and decoded as it is read (never whole)."""
    raw = io.BytesIO(data)
    if compression == "gzip" or (compression == "auto" and data[:2] == b"\x1f\x8b"):
        raw = gzip.GzipFile(fileobj=raw)
    # newline="": the csv module sees line ends as they are (CRLF inside quoted fields kept)
    return io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="")


def record_batches(fmt: FileFormat, stream, size: int):
    """(number of the first record, list of records) of at most `size` records: lists of field
    texts for CSV/TSV, dicts for NDJSON. Records are numbered from 1 (for CSV, the record's
    number is its line's unless a quoted field spans lines)."""
    number = 1
    if fmt.type == "ndjson":
        lines = iter(stream)
        while True:
            chunk = list(islice(lines, size))
            if not chunk:
                return
            records = []
            for offset, line in enumerate(chunk):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except ValueError:
                    raise UnreadableFile(json_row_problem(line), number + offset - 1) from None
                if not isinstance(value, dict):
                    raise UnreadableFile(json_row_problem(line), number + offset - 1)
                records.append({str(k).lower(): v for k, v in value.items()})
            yield number, records
            number += len(chunk)
    if fmt.type == "tsv":
        delimiter = fmt.field_delimiter
        lines = iter(stream)
        while True:
            chunk = list(islice(lines, size))
            if not chunk:
                return
            records = []
            for line in chunk:
                line = line.rstrip("\r\n")
                fields = line.split(delimiter)
                if "\\" in line:
                    fields = [_tsv_unescape(f) for f in fields]
                records.append(fields)
            yield number, records
            number += len(chunk)
    reader = csv.reader(stream, delimiter=fmt.field_delimiter, quotechar=fmt.quote or '"',
                        doublequote=True, strict=False)
    while True:
        chunk = list(islice(reader, size))
        if not chunk:
            return
        yield number, chunk
        number += len(chunk)


def json_row_problem(line: str) -> str:
    """Why a line of an NDJSON file is not a record, as Databend words it."""
    try:
        value = json.loads(line.rstrip("\r\n"))
    except json.JSONDecodeError as exc:
        return (f"Invalid JSON row: {exc.msg[:1].lower()}{exc.msg[1:]} at line {exc.lineno} "
                f"column {exc.colno}")
    except ValueError:
        return "Invalid JSON row: not JSON"
    return f"Invalid JSON row: a record is a JSON object, not {type(value).__name__}"


def file_error(fmt: FileFormat, path: str, data: bytes, exc: BaseException, line: int) -> BadBytes:
    """A staged file its format cannot read, as Databend says it: BadBytes (1046), why, then
    the file (its path in the stage) and the 0-based line: `...\nat file 'd/f.csv', line 3`.
    `line` is where reading was when the reader did not say."""
    kind = fmt.type.upper()
    if isinstance(exc, UnreadableFile):
        reason = exc.reason
        line = line if exc.line is None else exc.line
    elif isinstance(exc, UnicodeDecodeError):
        reason = f"Bad {kind} file (invalid UTF-8)"
        line = _undecodable_line(data, fmt.compression)
    elif isinstance(exc, csv.Error):
        reason = f"Bad {kind} file ({exc})"  # e.g. field larger than field limit (131072)
    else:
        reason = f"Bad {kind} file (damaged or cut short compressed data)"
    return BadBytes(f"{reason}\nat file '{path}', line {line}")


def _undecodable_line(data: bytes, compression: str) -> int:
    """The 0-based line of a file's first byte that is not UTF-8 (read again, a MiB at a time:
    only for the error's message)."""
    raw = io.BytesIO(data)
    if compression == "gzip" or (compression == "auto" and data[:2] == b"\x1f\x8b"):
        raw = gzip.GzipFile(fileobj=raw)
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines = 0
    try:
        while chunk := raw.read(1 << 20):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:  # exc.object: bytes held over (no newline) + chunk
                return lines + exc.object[:exc.start].count(b"\n")
            lines += chunk.count(b"\n")
    except (OSError, EOFError, zlib.error):
        pass
    return lines


_TSV_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "0": "\0", "\\": "\\"}


def _tsv_unescape(field: str) -> str:
    """A TSV field with its backslash escapes (\\t, \\n, \\r, \\0, \\\\) undone; `\\N` stays
    (it is the NULL text)."""
    if field == "\\N" or "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        c = field[i]
        if c == "\\" and i + 1 < len(field):
            nxt = field[i + 1]
            out.append(_TSV_ESCAPES.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _attached_file(ctx, stmt):
    """(location, file format, purge, bytes) of the statement's stage attachment; 1006 when the
    statement came without one."""
    attachment: StageAttachment | None = getattr(ctx, "attachment", None)
    if attachment is None:
        raise BadArguments("VALUES without rows needs a stage_attachment (the rows of a staged "
                           "file)", position=stmt.pos)
    location = parse_location(attachment.location)
    fmt = FileFormat.from_options(attachment.file_format_options)
    purge = truthy({str(k).lower(): v for k, v in (attachment.copy_options or {}).items()}
                   .get("purge", "false"))
    return location, fmt, purge, ctx.session.db.stages.get(ctx.user, location)


def insert_from_attachment(ctx, stmt, table, positions, converters, fill, progress, report_column,
                           commit, source_file=None):
    """Rows of the attached file into `table` (the INSERT's written columns `positions`, their
    `converters` and the `fill` for the others), in steps; the answer rows of the INSERT last.
    `commit(rows, known, purge)` is the writers' commit point (engine.statements.writers):
    it appends the rows, runs `purge()` in the same log record, and may refuse (2009, 4000).
    `source_file`: the (location, format, purge, bytes) of a `FROM @stage` source
    (engine.io.formats.stage_source_file) instead of the attachment."""
    location, fmt, purge, data = source_file or _attached_file(ctx, stmt)
    return _attachment_steps(ctx, table, positions, converters, fill, progress, fmt, data, location,
                             purge, report_column, commit)



def _attachment_steps(ctx, table, positions, converters, fill, progress, fmt, data,
                      location: StageLocation, purge, report_column, commit):
    target = LoadTarget.of(table, positions, converters, fill)
    outcome = yield from read_file_rows(ctx, fmt, data, location.text, target, "abort")
    rows = outcome.rows
    stages = ctx.session.db.stages
    commit(rows, outcome.known, (lambda: stages.remove(ctx.user, location)) if purge else None)
    ctx.memory.release()  # the rows are the table's now
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    if report_column:
        yield [(len(rows),)]


def attachment_row_batches(ctx, stmt, table, positions, converters, fill, source_file=None):
    """The attached file's rows as table rows, in batches of at most step_rows (after steps of
    reading that yield []): for statements that consume rows themselves (REPLACE INTO ... VALUES
    with a stage attachment, or FROM @stage: `source_file` as in insert_from_attachment). The
    file is purged (with purge = true) once it has been read."""
    location, fmt, purge, data = source_file or _attached_file(ctx, stmt)
    return _row_batches(ctx, fmt, data, location, LoadTarget.of(table, positions, converters, fill),
                        purge)


def _row_batches(ctx, fmt, data, location, target, purge):
    outcome = yield from read_file_rows(ctx, fmt, data, location.text, target, "abort")
    if purge:
        ctx.session.db.stages.remove(ctx.user, location)
    step = max(1, ctx.limits.step_rows)
    for start in range(0, len(outcome.rows), step):
        yield outcome.rows[start:start + step]


@dataclass(frozen=True, slots=True)
class LoadTarget:
    """The written columns of a table: names, types, converters, the row filler and, per column,
    its default (for EMPTY_FIELD_AS = FIELD_DEFAULT)."""

    names: list
    types: list
    converters: list
    fill: object
    defaults: list
    positions: list  # where the written columns are in the table
    table_defaults: list  # every table column's default (for the columns not written)
    missing: list = field(default_factory=list)  # per written column: its DEFAULT, else NULL

    @classmethod
    def of(cls, table, positions, converters, fill) -> LoadTarget:
        defaults = [c.default if c.default is not None else type_default(c.type) for c in table.columns]
        if any(type(d) is SequenceDefault for d in defaults):
            raise Unimplemented(f"loading files into `{table.name}`, whose column defaults to nextval(...), "
                                f"is not supported")
        columns = [table.columns[i] for i in positions]
        return cls([c.name for c in columns], [c.type for c in columns], converters, fill,
                   [defaults[i] for i in positions], list(positions), defaults,
                   [c.default for c in columns])


@dataclass(slots=True)
class FileOutcome:
    """What reading one file gave: its converted rows, and the errors ON_ERROR let pass."""

    rows: list
    errors_seen: int = 0
    first_error: str | None = None
    first_error_line: int | None = None
    # per table column (has a NULL, has a negative integer) when every batch took the fast path
    known: tuple[list, list] | None = None


def known_flags(target: LoadTarget, stats, width: int) -> tuple[list, list]:
    """Table.append's `known` for rows a batch converter made: its column stats for the written
    columns, the defaults for the others."""
    nulls = [d is None for d in target.table_defaults]
    negative = [isinstance(d, int) and not isinstance(d, bool) and d < 0 for d in target.table_defaults]
    for i, position in enumerate(target.positions):
        nulls[position] = stats.nulls[i]
        negative[position] = stats.least[i] is not None and stats.least[i] < 0
    return nulls[:width], negative[:width]


def merged_known(outcomes) -> tuple[list, list] | None:
    """The `known` flags of several files' rows (None when one of them is unknown)."""
    known = [o.known for o in outcomes]
    if not known or any(k is None for k in known):
        return None
    return ([any(k[0][i] for k in known) for i in range(len(known[0][0]))],
            [any(k[1][i] for k in known) for i in range(len(known[0][1]))])


def read_file_rows(ctx, fmt: FileFormat, data: bytes, name: str, target: LoadTarget, on_error: str):
    """Convert the records of one file, `name` (`@stage/path`; a generator: yields [] every
    step_rows records and returns a FileOutcome). on_error: `abort` raises at the first bad
    record (naming file, line and column); `continue` skips bad records and counts them;
    `skip_file` stops at the first and keeps no row of the file. A file its format cannot read
    at all is error 1046 as Databend words it (file_error), whatever ON_ERROR says.

    A batch of CSV/TSV records goes through the generated converter (engine.io.record_convert);
    a batch it refuses is converted again record by record, which says why."""
    step_rows = max(1, ctx.limits.step_rows)
    fast = None
    if fmt.type not in ("ndjson", "parquet"):
        fast = batch_converter(target.types, target.converters, target.defaults, target.positions,
                               target.table_defaults, fmt.null_display, fmt.empty_field_as)
    outcome = FileOutcome([])
    all_fast = fast is not None
    skip = fmt.skip_header if fmt.type not in ("ndjson", "parquet") else 0
    lines_read = 0  # records read so far: where an unreadable stretch is, when nothing says
    try:
        if fmt.type == "parquet":  # rows as dicts by column name, like NDJSON's
            batches = parquet_record_batches(data, target.names, step_rows)
        elif fast is not None and plain_applies(fmt, data):  # batches of columns, mostly
            batches = plain_batches(fmt, data, len(target.names), step_rows,
                                    lambda tail: record_batches(fmt, text_stream(tail, fmt.compression),
                                                                step_rows))
            skip = 0  # left out already
        else:
            batches = record_batches(fmt, text_stream(data, fmt.compression), step_rows)
        while True:
            # Reading and converting a batch allocates thousands of field lists and row tuples,
            # none in a cycle: the collections they would trigger only cost time (about half
            # of it), so collection pauses for the batch.
            with collection_paused():
                batch = next(batches, None)
                if batch is None:
                    break
                first, records, *plain = batch
                columns = plain[0] if plain else None  # plain_batches' columns of a batch
                lines_read = first - 1 + (len(records) if records is not None else len(columns[0]))
                if skip >= first:  # header records to skip in this batch
                    cut = min(skip - first + 1, len(records))
                    records, first = records[cut:], first + cut
                rows = None
                if fast is not None:
                    try:
                        if columns is not None:
                            rows = fast.columns(columns, len(columns[0]))
                        else:
                            rows = fast(records)
                    except (Refused, ValueError, TypeError, KeyError, ArithmeticError, EngineError):
                        rows = None  # the slow path says why
                if rows is None and records is None:  # refused columns: the slow path's records
                    records = [list(record) for record in zip(*columns, strict=True)]
                if rows is None:
                    all_fast = False
                    rows, stop = _convert_slowly(first, records, fmt, target, on_error, outcome)
                    if stop:
                        outcome.rows = []
                        return outcome
            if rows:
                ctx.memory.charge(batch_bytes(rows))
                outcome.rows += rows
            yield []
    except EngineError as exc:
        raise type(exc)(f"{exc.message} (loading {name})") from None
    except READ_ERRORS as exc:
        raise file_error(fmt, name.partition("/")[2], data, exc, lines_read) from None
    if all_fast:
        outcome.known = known_flags(target, fast.stats, len(target.table_defaults))
    return outcome


def _convert_slowly(first: int, records: list, fmt: FileFormat, target: LoadTarget, on_error: str,
                    outcome: FileOutcome) -> tuple[list, bool]:
    """The rows of a batch converted one by one: (rows, stop) — stop when ON_ERROR = SKIP_FILE
    met a bad record; with ABORT the first bad record raises."""
    names, converters, fill, defaults = target.names, target.converters, target.fill, target.defaults
    width = len(names)
    rows = []
    for number, record in enumerate(records, first):
        try:
            if fmt.type == "ndjson" or fmt.type == "parquet":
                values = [record.get(column.lower()) for column in names]
            elif len(record) != width and (fmt.error_on_column_count_mismatch or not record
                                           or (record == [""] and width != 1)):
                if not record or (record == [""] and width != 1):
                    continue  # a blank line
                raise BadArguments(f"expected {width} fields, got {len(record)}, at line {number}")
            else:
                values = [_field(text, fmt, defaults[i]) for i, text in enumerate(record[:width])]
                values += target.missing[len(values):]  # fewer fields (no count check)
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
                return rows, True
            continue
        rows.append(fill(row) if fill is not None else row)
    return rows, False


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
