"""Plain delimited text read a batch at a time as columns, with a few C-level string operations.

Most CSV and TSV files a client loads have no quotes, escapes or carriage returns: every record
is one line and every field is the text between two delimiters. For such a batch of lines the
fields are found by one `split` of the whole batch and the columns are slices of that list
(`fields[i::width]`), after checking with one `map(str.count, ...)` that every line has
exactly `width` fields; no per-record list is made and nothing is transposed. This is several
times less work than the csv module plus a transposition, which is most of a load's time.

A batch that is not that plain (a line of another field count, a blank line) is given as
records (lists of field texts, as engine.io.stage_load's reader makes them) for the usual
converters, which say what is wrong with it. The first CSV quote character, TSV backslash or CR
in the file hands the rest of the file to the format's own reader (the csv module knows quoted
fields that span lines).
"""

from __future__ import annotations

from itertools import repeat

# bytes a batch starts with, before the file's own line length is known
_FIRST_LINE_BYTES = 64


def plain_applies(fmt, data: bytes) -> bool:
    """Whether the file can be read by plain_batches: CSV or TSV, one-character delimiter, a
    newline record delimiter, not compressed."""
    if fmt.type not in ("csv", "tsv") or len(fmt.field_delimiter) != 1:
        return False
    if fmt.compression == "gzip" or (fmt.compression == "auto" and data[:2] == b"\x1f\x8b"):
        return False
    return fmt.field_delimiter not in ("\n", "\r") and fmt.quote not in ("\n", "\r", fmt.field_delimiter)


def plain_batches(fmt, data: bytes, width: int, step_rows: int, rest_reader):
    """(number of the first record, records or None, columns or None) of step_rows lines each
    (the last fewer), the header lines (skip_header) left out; columns (a list of `width` lists
    of field texts) when the batch is plain, else records. `rest_reader(tail bytes)` is the file
    format's own reader, yielding (number of the first record in the tail, records)."""
    delimiter = fmt.field_delimiter
    is_csv = fmt.type == "csv"
    quote = (fmt.quote or '"') if is_csv else "\\"  # TSV: a backslash escape
    size = len(data)
    start = 0
    pending: list = []  # lines read and not yet given
    number = 1  # the record number of pending[0]
    skip = fmt.skip_header
    line_bytes = _FIRST_LINE_BYTES
    rest = False  # the format's own reader takes the rest of the file
    while True:
        while len(pending) < step_rows and start < size and not rest:
            end = data.find(b"\n", start + max(1, (step_rows - len(pending)) * line_bytes) - 1)
            end = size if end < 0 else end + 1
            text = data[start:end].decode("utf-8")
            if quote in text or "\r" in text:
                rest = True  # quoted fields (which may span lines), TSV escapes or CR line ends
                break
            lines = text.split("\n")
            if lines[-1] == "":
                lines.pop()
            line_bytes = max(1, (end - start) // max(1, len(lines)))
            start = end
            pending += lines
        if skip >= number and pending:
            cut = min(skip - number + 1, len(pending))
            del pending[:cut]
            number += cut
        while pending and (len(pending) >= step_rows or rest or start >= size):
            lines, pending = pending[:step_rows], pending[step_rows:]
            yield number, *_batch(lines, delimiter, width, is_csv)
            number += len(lines)
        if rest:
            for first, records in rest_reader(data[start:]):
                first += number - 1
                if skip >= first:
                    cut = min(skip - first + 1, len(records))
                    records, first = records[cut:], first + cut
                yield first, records, None
            return
        if start >= size and not pending:
            return


def _batch(lines: list, delimiter: str, width: int, is_csv: bool) -> tuple:
    """(None, columns) of plain lines, else (records, None)."""
    if (width == 1 and "" in lines) or set(map(str.count, lines, repeat(delimiter))) != {width - 1}:
        # a blank CSV line is no record, as the csv module reads it
        return [line.split(delimiter) if line or not is_csv else [] for line in lines], None
    fields = delimiter.join(lines).split(delimiter)
    return None, [fields[i::width] for i in range(width)]
