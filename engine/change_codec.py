"""Log changes as JSON text and back: appended rows, a table's rewritten row list as runs over
its old one (what UPDATE, DELETE, MERGE and REPLACE leave), staged files, the catalog image.

Encoding runs in the log's writer thread, in pieces: the C JSON encoder holds the GIL for a
whole call, so rows are encoded ENCODE_CHUNK_ROWS at a time and the event loop's thread gets
the interpreter between pieces.
"""

from __future__ import annotations

import base64
import json
from itertools import compress
from operator import is_, not_

from engine.row_codec import decode_rows, encode_rows
from engine.stages import StagedFile

ENCODE_CHUNK_ROWS = 20_000  # rows per JSON encoder call (~5-10 ms each)
SCAN_SLICE = 65_536  # rows per C-level identity scan (~2 ms)
LOOKAHEAD = 32  # how far ahead a row missing in place is looked for before the id map


def _dump(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def row_chunks(types, rows) -> list[str]:
    return [_dump(encode_rows(types, rows[i:i + ENCODE_CHUNK_ROWS])) for i in range(0, len(rows), ENCODE_CHUNK_ROWS)]


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


def encode_change(change: tuple) -> list[str]:
    """One pending change as pieces of JSON text whose concatenation is one or more changes
    separated by commas (a big append becomes one append change per chunk)."""
    kind = change[0]
    if kind == "catalog":
        return ['{"op":"catalog","image":', change[1], "}"]
    if kind == "append":
        _, table_id, types, rows = change
        head = '{"op":"append","table":' + str(table_id) + ',"rows":'
        pieces: list[str] = []
        for chunk in row_chunks(types, rows):
            pieces += (",", head, chunk, "}")
        return pieces[1:]
    if kind == "edit":
        _, table_id, types, old, old_len, new, new_len = change
        runs, rows = rewrite_runs(old, old_len, new, new_len)
        chunks = row_chunks(types, rows)
        pieces = ['{"op":"edit","table":' + str(table_id) + ',"runs":[']
        for i in range(0, len(runs), SCAN_SLICE):  # a million ints in one encoder call: ~80 ms
            pieces += ("," if i else "", _dump(runs[i:i + SCAN_SLICE])[1:-1])
        pieces.append('],"rows":[')
        for i, chunk in enumerate(chunks):
            pieces += ("," if i else "", chunk)
        pieces.append("]}")
        return pieces
    if kind == "stage_put":
        _, owner, stage, path, staged = change
        body = {"op": "stage_put", "owner": owner, "stage": stage, "path": path,
                "modified": staged.last_modified, "data": base64.b64encode(staged.data).decode()}
    elif kind == "stage_remove":
        _, owner, stage, path = change
        body = {"op": "stage_remove", "owner": owner, "stage": stage, "path": path}
    else:  # stage_clear
        body = {"op": "stage_clear", "stage": change[1]}
    return [_dump(body)]


def record_pieces(lsn: int, changes: list) -> list[bytes]:
    """A log record's payload as pieces of bytes (written one after another)."""
    pieces = ['{"lsn":' + str(lsn) + ',"changes":[']
    for i, change in enumerate(changes):
        if i:
            pieces.append(",")
        pieces += encode_change(change)
    pieces.append("]}")
    return [p.encode() for p in pieces]


def rewritten_rows(old: list, runs: list[int], rows: list) -> list:
    """The row list an edit change describes (replay)."""
    new: list = []
    taken = 0
    for i in range(0, len(runs), 2):
        start, count = runs[i], runs[i + 1]
        if start < 0:
            new.extend(rows[taken:taken + count])
            taken += count
        else:
            new.extend(old[start:start + count])
    return new


def decode_chunks(types, chunks: list) -> list:
    rows: list = []
    for chunk in chunks:
        rows.extend(decode_rows(types, chunk))
    return rows


def staged_file(change: dict) -> StagedFile:
    return StagedFile(base64.b64decode(change["data"]), change["modified"])
