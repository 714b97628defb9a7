"""Log changes as JSON text and back: appended rows, a table's rewritten version as runs over
its old one (what UPDATE, DELETE, MERGE and REPLACE leave), staged files, the catalog image.

Encoding runs in the log's writer thread (or the checkpoint's), in pieces: a C encoder holds
the GIL for a whole call, so rows are encoded ENCODE_CHUNK_ROWS at a time and a staged file's
base64 STAGED_SLICE_BYTES at a time, and the event loop's thread gets the interpreter between
pieces.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from itertools import compress
from operator import is_, not_

from engine.catalog.stages import StagedFile
from engine.catalog.table_storage import Rewrite, TableData
from engine.storage.row_codec import decode_rows, encode_range, encode_rows

ENCODE_CHUNK_ROWS = 20_000  # rows per JSON encoder call (~5-10 ms each)
# file bytes per base64 call (~5 ms); a multiple of 3, so the slices' texts join into the
# file's one base64 text (no padding between them)
STAGED_SLICE_BYTES = 3 << 20
SCAN_SLICE = 65_536  # rows per C-level identity scan (~2 ms)
LOOKAHEAD = 32  # how far ahead a row missing in place is looked for before the id map


def _dump(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def row_chunks(types, rows) -> Iterator[str]:
    """Rows as JSON texts, ENCODE_CHUNK_ROWS rows each, encoded as they are asked for."""
    for i in range(0, len(rows), ENCODE_CHUNK_ROWS):
        yield _dump(encode_rows(types, rows[i:i + ENCODE_CHUNK_ROWS]))


def range_chunks(types, data, start: int, stop: int) -> Iterator[str]:
    """Rows [start:stop] of a table version as JSON texts (encode_rows's form),
    ENCODE_CHUNK_ROWS rows each, read column by column (no row tuples built)."""
    for i in range(start, stop, ENCODE_CHUNK_ROWS):
        yield _dump(encode_range(types, data, i, min(i + ENCODE_CHUNK_ROWS, stop)))


class _Runs:
    """Builds the flat (start, count) run list: start -1 takes the next new rows."""

    def __init__(self):
        self.runs: list[int] = []
        self.rows: list = []
        self._next = -2  # the old index that would extend the last run, or -1 for new rows

    def keep(self, start: int, count: int = 1) -> None:
        runs = self.runs
        if runs and self._next == start:
            runs[-1] += count
        else:
            runs += (start, count)
        self._next = start + count

    def add(self, row) -> None:
        runs = self.runs
        if runs and self._next == -1:
            runs[-1] += 1
        else:
            runs += (-1, 1)
            self._next = -1
        self.rows.append(row)


def rewrite_runs(old: list, old_len: int, new: list, new_len: int) -> tuple[list[int], list]:
    """(runs, new rows) describing new[:new_len] over old[:old_len]: runs is a flat list of
    pairs (start, count): `count` rows from old[start:], or with start -1 the next `count`
    rows of `new rows`. Kept rows are found by identity (rows are tuples, never changed in
    place; both lists keep theirs alive, so equal ids are the same row): close ahead first,
    else through a map built once. Every C loop here is over a bounded slice: this runs in
    the log's thread beside the event loop."""
    out = _Runs()
    if old_len == 0:
        out.runs, out.rows = ([-1, new_len] if new_len else []), list(new[:new_len])
        return out.runs, out.rows
    if new_len == old_len:  # UPDATE, ALTER: rows stay in place, some replaced
        for base in range(0, new_len, SCAN_SLICE):
            end = min(base + SCAN_SLICE, new_len)
            changed = list(compress(range(base, end), map(not_, map(is_, old[base:end], new[base:end]))))
            position = base
            for i in changed:
                if i > position:
                    out.keep(position, i - position)
                out.add(new[i])
                position = i + 1
            if position < end:
                out.keep(position, end - position)
        return out.runs, out.rows
    positions = None  # id(row) -> old index, built the first time a row is not close ahead
    i = 0
    for j in range(new_len):
        row = new[j]
        if i < old_len and old[i] is row:
            out.keep(i)
            i += 1
            continue
        k = -1
        for ahead in range(i + 1, min(i + LOOKAHEAD, old_len)):  # a DELETE's short gaps
            if old[ahead] is row:
                k = ahead
                break
        else:
            if positions is None:
                positions = {id(r): n for n, r in enumerate(old[:old_len])}
            k = positions.get(id(row), -1)
        if k >= 0:
            out.keep(k)
            i = k + 1
        else:
            out.add(row)
    return out.runs, out.rows


def encode_change(change: tuple) -> Iterator[str | bytes]:
    """One pending change as pieces of JSON text (str or ASCII bytes) whose concatenation is
    one or more changes separated by commas (a big append becomes one append change per
    chunk); each piece is encoded when it is asked for."""
    kind = change[0]
    if kind == "catalog":
        yield from ('{"op":"catalog","image":', change[1], "}")
    elif kind == "append" or kind == "append_range":  # the same record: rows by columns
        if kind == "append":
            _, table_id, types, rows = change
            chunks = row_chunks(types, rows)
        else:  # rows [start:stop] of a version (engine.catalog.table_storage)
            _, table_id, types, data, start, stop = change
            chunks = range_chunks(types, data, start, stop)
        head = '{"op":"append","table":' + str(table_id) + ',"rows":'
        for i, chunk in enumerate(chunks):
            yield from ("," if i else "", head, chunk, "}")
    elif kind in ("edit", "edit_runs"):
        chunks = None
        if kind == "edit" and not change[6]:  # no row left (INSERT OVERWRITE, TRUNCATE)
            _, table_id, types, *_ = change
            runs, rows = [], []
        elif kind == "edit" and (not change[4] or change[5].columnar):
            # all rows new: a table entering the catalog, or a version of columns built
            # elsewhere (an ALTER's): rows zipped from columns are new tuples every time, so
            # identity would find no kept row; encoded from the columns without comparing
            _, table_id, types, old, old_len, new, new_len = change
            runs, chunks = ([-1, new_len] if new_len else []), range_chunks(types, new, 0, new_len)
        elif kind == "edit":  # versions to compare: the kept rows found by identity
            _, table_id, types, old, old_len, new, new_len = change
            runs, rows = rewrite_runs(old.rows(0, old_len), old_len, new.rows(0, new_len), new_len)
        else:  # the writer said which rows it kept (engine.catalog.table_storage.Rewrite)
            _, table_id, types, runs, rows = change
        yield '{"op":"edit","table":' + str(table_id) + ',"runs":['
        for i in range(0, len(runs), SCAN_SLICE):  # a million ints in one encoder call: ~80 ms
            yield from ("," if i else "", _dump(runs[i:i + SCAN_SLICE])[1:-1])
        yield '],"rows":['
        for i, chunk in enumerate(row_chunks(types, rows) if chunks is None else chunks):
            yield from ("," if i else "", chunk)
        yield "]}"
    elif kind == "stage_put":
        _, owner, stage, path, staged = change
        head = _dump({"op": "stage_put", "owner": owner, "stage": stage, "path": path,
                      "modified": staged.last_modified})
        yield head[:-1] + ',"data":"'
        yield from base64_slices(staged.data)
        yield '"}'
    elif kind == "sequence":
        yield _dump({"op": "sequence", "name": change[1], "next": change[2]})
    elif kind == "stage_remove":
        _, owner, stage, path = change
        yield _dump({"op": "stage_remove", "owner": owner, "stage": stage, "path": path})
    else:  # stage_clear
        yield _dump({"op": "stage_clear", "stage": change[1]})


def base64_slices(data: bytes) -> Iterator[bytes]:
    """`data` as base64, STAGED_SLICE_BYTES of it per piece (the pieces joined are the base64
    of the whole; base64 needs no JSON escaping)."""
    view = memoryview(data)
    for start in range(0, len(data), STAGED_SLICE_BYTES):
        yield base64.b64encode(view[start:start + STAGED_SLICE_BYTES])


def record_pieces(lsn: int, changes: list) -> Iterator[str | bytes]:
    """A log record's payload as pieces (journal.write_record writes them one after another)."""
    yield '{"lsn":' + str(lsn) + ',"changes":['
    for i, change in enumerate(changes):
        if i:
            yield ","
        yield from encode_change(change)
    yield "]}"


def rewritten(old: TableData, runs: list[int], rows: list, into: TableData | None = None) -> TableData:
    """The version an edit change describes over `old` (replay), built in `into` (an empty
    version for the table's columns, which an ALTER TABLE may have changed) when given."""
    rewrite = Rewrite(old, len(old), into)
    taken = 0
    for i in range(0, len(runs), 2):
        start, count = runs[i], runs[i + 1]
        if start < 0:
            rewrite.add(rows[taken:taken + count])
            taken += count
        else:
            rewrite.keep(start, count)
    return rewrite.finish()


def decode_chunks(types, chunks: list) -> list:
    rows: list = []
    for chunk in chunks:
        rows.extend(decode_rows(types, chunk))
    return rows


def staged_file(change: dict) -> StagedFile:
    return StagedFile(base64.b64decode(change["data"]), change["modified"])
