"""Checkpoint files and recovery: a checkpoint is the whole database (catalog image, every
table's rows in chunks, staged files) in the log's record format, written beside the log and
renamed into place when complete; recovery loads the newest one and replays the log after it."""

from __future__ import annotations

import glob
import json
import os
import re

from engine.storage.catalog_image import tables_by_id
from engine.storage.change_codec import ENCODE_CHUNK_ROWS, encode_change
from engine.storage.journal import (
    MAGIC,
    CorruptLog,
    fsync_directory,
    read_records,
    segment_name,
    write_record,
)

CHECKPOINT_MAGIC = b"QUERYHTTP-CHECKPOINT 1\n"
CHUNK_ROWS = ENCODE_CHUNK_ROWS  # rows per checkpoint record: one append change, one encoder call


def checkpoint_name(segment: int) -> str:
    return f"checkpoint-{segment:08d}.qhc"


def _numbered(path: str, pattern: str) -> list[tuple[int, str]]:
    found = []
    for name in os.listdir(path):
        match = re.fullmatch(pattern, name)
        if match:
            found.append((int(match.group(1)), os.path.join(path, name)))
    return sorted(found)


def capture(db, image_text: str) -> dict:
    """What a checkpoint writes, taken at once on the engine's thread: row lists are never
    changed in place, so (list, length) pairs stay a consistent snapshot while a thread writes."""
    tables = [(t.table_id, [c.type for c in t.columns], t.rows, len(t.rows)) for t in tables_by_id(db).values()]
    staged = [(owner, stage, path, f) for owner, stage, files in db.stages.all_files()
              for path, f in files.items() if f.logged]
    return {"image": image_text, "tables": tables, "staged": staged}


def _changes(snapshot: dict):
    """The changes that rebuild the snapshot: the catalog, then every table's rows in chunks (sliced
    one at a time), then the staged files."""
    yield ("catalog", snapshot["image"])
    for table_id, types, rows, count in snapshot["tables"]:
        for start in range(0, count, CHUNK_ROWS):
            yield ("append", table_id, types, rows[start:min(start + CHUNK_ROWS, count)])
    for staged in snapshot["staged"]:
        yield ("stage_put", *staged)


def write_checkpoint(directory: str, segment: int, snapshot: dict, fsync: bool) -> None:
    final = os.path.join(directory, checkpoint_name(segment))
    temporary = final + ".tmp"
    with open(temporary, "wb") as f:
        f.write(CHECKPOINT_MAGIC)
        for change in _changes(snapshot):  # each record one change, in the log's pieces
            write_record(f, encode_change(change))
        write_record(f, (b'{"op":"end"}',))
        f.flush()
        if fsync:
            os.fsync(f.fileno())
    os.replace(temporary, final)
    if fsync:
        fsync_directory(directory)
    # what the checkpoint covers is no longer needed
    for number, old in _numbered(directory, r"checkpoint-(\d{8})\.qhc"):
        if number < segment:
            os.remove(old)
    for number, old in _numbered(directory, r"wal-(\d{8})\.log"):
        if number < segment:
            os.remove(old)


def _load_checkpoint(db, path: str, apply_change) -> int:
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(CHECKPOINT_MAGIC):
        raise CorruptLog(f"{os.path.basename(path)} is not a queryhttp checkpoint")
    payloads, _, problem = read_records(data, len(CHECKPOINT_MAGIC))
    if problem is not None or not payloads or json.loads(payloads[-1]) != {"op": "end"}:
        raise CorruptLog(f"{os.path.basename(path)} is incomplete or damaged ({problem or 'no end record'})")
    tables: dict = {}
    rows = 0
    for payload in payloads[:-1]:
        change = json.loads(payload)
        if change["op"] == "append":
            rows += change["rows"]["n"]
        tables = apply_change(db, tables, change)
    return rows


def recover(db, directory: str, apply_change, log) -> dict:
    """Load the newest checkpoint and replay the log after it; a torn record at the log's very
    end (a write a crash cut short, never acknowledged) is cut off and reported. Raises
    CorruptLog when anything before the tail is damaged."""
    for leftover in glob.glob(os.path.join(directory, "*.tmp")):
        os.remove(leftover)  # a checkpoint a crash interrupted
    checkpoints = _numbered(directory, r"checkpoint-(\d{8})\.qhc")
    first_segment = 0
    rows = 0
    if checkpoints:
        first_segment, newest = checkpoints[-1]
        rows = _load_checkpoint(db, newest, apply_change)
    segments = [(n, p) for n, p in _numbered(directory, r"wal-(\d{8})\.log") if n >= first_segment]
    tables = tables_by_id(db)
    records = 0
    last_lsn = 0
    for index, (number, path) in enumerate(segments):
        with open(path, "rb") as f:
            data = f.read()
        is_last = index == len(segments) - 1
        if not data.startswith(MAGIC):
            if is_last and len(data) < len(MAGIC) and MAGIC.startswith(data):
                _truncate(path, 0)  # created, then cut off before its header was written
                continue
            raise CorruptLog(f"{segment_name(number)} is not a queryhttp log segment")
        payloads, end, problem = read_records(data, len(MAGIC))
        if problem is not None:
            if not is_last:
                raise CorruptLog(f"{segment_name(number)} ends in {problem}, and later segments exist")
            log(f"the log's last record was cut short by a crash ({problem} in {segment_name(number)}); "
                f"it was never acknowledged and is dropped")
            _truncate(path, end)
        for payload in payloads:
            record = json.loads(payload)
            if record["lsn"] <= last_lsn:
                raise CorruptLog(f"{segment_name(number)}: record {record['lsn']} follows record {last_lsn}")
            last_lsn = record["lsn"]
            for change in record["changes"]:
                if change["op"] == "append":
                    rows += change["rows"]["n"]
                tables = apply_change(db, tables, change)
            records += 1
    last_segment = max([first_segment] + [n for n, _ in segments])
    return {"tables": len(tables_by_id(db)), "rows": rows, "records": records,
            "next_segment": last_segment + 1, "next_lsn": last_lsn + 1}


def _truncate(path: str, size: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())


__all__ = ["capture", "recover", "write_checkpoint"]
