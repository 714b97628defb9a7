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
    next_valid_record,
    open_private,
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
    """What a checkpoint writes, taken at once on the engine's thread: table versions are never
    changed in place, so (version, length) pairs stay a consistent snapshot while a thread writes."""
    tables = [(t.table_id, [c.type for c in t.columns], t.data, len(t.data)) for t in tables_by_id(db).values()]
    staged = [(owner, stage, path, f) for owner, stage, files in db.stages.all_files()
              for path, f in files.items() if f.logged]
    return {"image": image_text, "tables": tables, "staged": staged}


def _changes(snapshot: dict):
    """The changes that rebuild the snapshot: the catalog, then every table's rows in chunks (sliced
    one at a time), then the staged files."""
    yield ("catalog", snapshot["image"])
    for table_id, types, data, count in snapshot["tables"]:
        for start in range(0, count, CHUNK_ROWS):
            yield ("append_range", table_id, types, data, start, min(start + CHUNK_ROWS, count))
    for staged in snapshot["staged"]:
        yield ("stage_put", *staged)


def write_checkpoint(directory: str, segment: int, snapshot: dict, fsync: bool) -> None:
    final = os.path.join(directory, checkpoint_name(segment))
    temporary = final + ".tmp"
    with os.fdopen(open_private(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "wb") as f:
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


# What a refusal adds for a log record, and for a checkpoint (the base everything else rests on)
RECOVER_HINT = ("; to start from the last good record instead (this record and every later one are "
                "set aside, not replayed), use recover_to_last_good (the server's --recover_to_last_good)")
CHECKPOINT_HINT = ("; a checkpoint holds the whole database, so recover_to_last_good cannot skip it: "
                   "restore the data directory from a backup")


def _why(exc: BaseException) -> str:
    """A replay failure as a person reads it (no traceback)."""
    if isinstance(exc, CorruptLog):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"the record lacks {exc}"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg} at character {exc.pos})"
    return str(exc) or type(exc).__name__


def _load_checkpoint(db, path: str, apply_change) -> int:
    name = os.path.basename(path)
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(CHECKPOINT_MAGIC):
        raise CorruptLog(f"{name} offset 0: not a queryhttp checkpoint{CHECKPOINT_HINT}", 0)
    offsets: list[int] = []
    try:
        payloads, end, problem = read_records(data, len(CHECKPOINT_MAGIC), offsets)
    except CorruptLog as exc:
        raise CorruptLog(f"{name} offset {exc.offset}: {exc}{CHECKPOINT_HINT}", exc.offset) from None
    tables: dict = {}
    rows = 0
    offset = end
    try:
        if problem is not None or not payloads or json.loads(payloads[-1]) != {"op": "end"}:
            raise CorruptLog(f"incomplete or damaged ({problem or 'no end record'})")
        for index, payload in enumerate(payloads[:-1]):
            offset = offsets[index]  # named in the error, should this record not load
            change = json.loads(payload)
            if change["op"] == "append":
                rows += change["rows"]["n"]
            tables = apply_change(db, tables, change)
    except Exception as exc:  # noqa: BLE001 - whatever does not fit is reported, never a traceback
        raise CorruptLog(f"{name} offset {offset}: {_why(exc)}{CHECKPOINT_HINT}", offset) from None
    return rows


def _replay_segment(db, tables: dict, data: bytes, last_lsn: int, apply_change, is_last: bool):
    """Replay one segment's records: (tables, records, rows, last lsn, the first bad record as
    (offset, why) or None, the offset where its valid records end, a torn tail's description)."""
    offsets: list[int] = []
    damaged = None
    try:
        payloads, end, problem = read_records(data, len(MAGIC), offsets)
    except CorruptLog as exc:  # the records before the damage are good: they are replayed first
        damaged = (exc.offset, str(exc))
        offsets = []
        payloads, end, problem = read_records(data[:exc.offset], len(MAGIC), offsets)
    if damaged is None and problem is not None and not is_last:
        damaged = (end, f"{problem}, and later segments exist")
    records = rows = 0
    for payload, offset in zip(payloads, offsets, strict=True):
        try:
            record = json.loads(payload)
            if record["lsn"] <= last_lsn:
                raise CorruptLog(f"record {record['lsn']} follows record {last_lsn}")
            for change in record["changes"]:
                if change["op"] == "append":
                    rows += change["rows"]["n"]
                tables = apply_change(db, tables, change)
        except Exception as exc:  # noqa: BLE001 - a record that does not fit stops replay here
            return tables, records, rows, last_lsn, (offset, _why(exc)), offset, None
        last_lsn = record["lsn"]
        records += 1
    torn = problem if damaged is None else None
    return tables, records, rows, last_lsn, damaged, end, torn


def recover(db, directory: str, apply_change, log, recover_to_last_good: bool = False) -> dict:
    """Load the newest checkpoint and replay the log after it; a torn record at the log's very
    end (a write a crash cut short, never acknowledged) is cut off and reported. A record
    before the tail that is damaged or does not fit the database (its table, column count or
    value types) raises CorruptLog naming its file and offset; with `recover_to_last_good` the
    stats' "bad" says where instead (the database then holds part of that record: the caller
    sets the tail aside and recovers again)."""
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
    bad = None
    for index, (number, path) in enumerate(segments):
        with open(path, "rb") as f:
            data = f.read()
        is_last = index == len(segments) - 1
        if not data.startswith(MAGIC):
            if is_last and len(data) < len(MAGIC) and MAGIC.startswith(data):
                _truncate(path, 0)  # created, then cut off before its header was written
                continue
            bad = {"segment": number, "offset": 0, "reason": "not a queryhttp log segment"}
            break
        tables, count, added, last_lsn, damaged, end, torn = _replay_segment(
            db, tables, data, last_lsn, apply_change, is_last)
        records += count
        rows += added
        if damaged is not None:
            bad = {"segment": number, "offset": damaged[0], "reason": damaged[1]}
            break
        if torn is not None:
            log(f"the log's last record was cut short by a crash ({torn} in {segment_name(number)}); "
                f"it was never acknowledged and is dropped")
            _truncate(path, end)
    if bad is not None and not recover_to_last_good:
        raise CorruptLog(f"{segment_name(bad['segment'])} offset {bad['offset']}: {bad['reason']}{RECOVER_HINT}",
                         bad["offset"])
    last_segment = max([first_segment] + [n for n, _ in segments])
    return {"tables": len(tables_by_id(db)), "rows": rows, "records": records,
            "next_segment": last_segment + 1, "next_lsn": last_lsn + 1, "bad": bad}


def set_aside_tail(directory: str, bad: dict) -> dict:
    """Move the log from a bad record on out of the way (recover_to_last_good): the bad
    segment's bytes from the record on into `wal-N.log.dropped` (the segment is cut there),
    every later segment renamed to `.dropped`; nothing is deleted, so a person can look.
    Returns what was set aside (files, bytes, records readable in it)."""
    number, offset = bad["segment"], bad["offset"]
    saved = []
    dropped_bytes = records = 0
    for later, path in _numbered(directory, r"wal-(\d{8})\.log"):
        if later < number:
            continue
        with open(path, "rb") as f:
            data = f.read()
        start = offset if later == number else len(MAGIC)
        records += _records_in(data, start)
        target = _unused(path + ".dropped")
        if later == number:
            fd = open_private(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            with os.fdopen(fd, "wb") as out:
                out.write(data[offset:])
                out.flush()
                os.fsync(out.fileno())
            _truncate(path, offset)
            dropped_bytes += len(data) - offset
        else:
            os.replace(path, target)
            dropped_bytes += len(data)
        saved.append(os.path.basename(target))
    fsync_directory(directory)
    return {"file": segment_name(number), "offset": offset, "reason": bad["reason"], "records": records,
            "bytes": dropped_bytes, "saved_as": saved}


def _records_in(data: bytes, start: int) -> int:
    """How many records the bytes from `start` hold (a damaged one counts as one)."""
    count = 0
    while start < len(data):
        try:
            payloads, _, problem = read_records(data, start)
        except CorruptLog as exc:  # the valid ones before the damage, the damaged one, the rest
            count += len(read_records(data[:exc.offset], start)[0]) + 1
            start = next_valid_record(data, exc.offset + 1)
            if start is None:
                break
            continue
        return count + len(payloads) + (problem is not None)
    return count


def _unused(path: str) -> str:
    candidate, n = path, 1
    while os.path.exists(candidate):
        candidate, n = f"{path}.{n}", n + 1
    return candidate


def _truncate(path: str, size: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())


__all__ = ["capture", "recover", "set_aside_tail", "write_checkpoint"]
