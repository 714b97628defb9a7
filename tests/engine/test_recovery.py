"""Replay of records that do not fit (code review N10): a clear CorruptLog naming the file and
offset, recover_to_last_good setting the bad tail aside; the data directory's modes (N11); the
catalog's owner-thread check (N8)."""

from __future__ import annotations

import glob
import json
import os
import stat
import threading

import pytest

import engine
from engine.catalog import catalog as catalog_module
from engine.core.errors import EngineError
from engine.storage import checkpoint_files, journal
from engine.storage.durability import UnsafeDataDirectory
from engine.storage.journal import CorruptLog
from tests.engine.test_durability import crash, q


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


def segments(data_dir: str) -> list[str]:
    return sorted(glob.glob(os.path.join(data_dir, "wal-*.log")))


def write_records(data_dir: str, *changes_per_record: list) -> list[tuple[str, int]]:
    """Append hand-made records (one per list of changes) to the newest segment, numbered
    after the last one there; (segment name, offset) of each."""
    segment = segments(data_dir)[-1]
    with open(segment, "rb") as f:
        payloads, _, _ = journal.read_records(f.read(), len(journal.MAGIC))
    lsn = max((json.loads(p)["lsn"] for p in payloads), default=0)
    places = []
    with open(segment, "ab") as f:
        for changes in changes_per_record:
            lsn += 1
            places.append((os.path.basename(segment), f.tell()))
            journal.write_record(f, [json.dumps({"lsn": lsn, "changes": changes})])
    return places


def append(table_id: int, *columns: list) -> dict:
    return {"op": "append", "table": table_id, "rows": {"n": len(columns[0]), "columns": list(columns)}}


def crashed_database(data_dir: str) -> int:
    """t (a INT, b VARCHAR) with two rows, then a crash; t's table id."""
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b VARCHAR)")
    q(s, "INSERT INTO t VALUES (1, 'one'), (2, 'two')")
    table_id = db.catalog.table("default", "t").table_id
    crash(db)
    return table_id


BAD_CHANGES = {
    "the wrong column count": (lambda tid: append(tid, [3]), "1 columns where the table has 2"),
    "an unknown table id": (lambda tid: append(999, [3], ["x"]), "table id 999, which the catalog never had"),
    "a wrong value type": (lambda tid: append(tid, ["3"], ["x"]), "column 1 holds a JSON string where a Int32"),
    "a short column": (lambda tid: append(tid, [3, 4], ["x"]), "column 2 does not hold 2 values"),
    "a change without its rows": (lambda tid: {"op": "append", "table": tid}, "the record lacks 'rows'"),
    "an unknown change": (lambda tid: {"op": "teleport"}, "an unknown change 'teleport'"),
}


@pytest.mark.parametrize("case", sorted(BAD_CHANGES))
def test_a_record_that_does_not_fit_refuses_to_start_naming_file_and_offset(data_dir, case):
    make, why = BAD_CHANGES[case]
    table_id = crashed_database(data_dir)
    (name, offset), = write_records(data_dir, [make(table_id)])
    with pytest.raises(CorruptLog) as raised:
        engine.Database(data_dir=data_dir)
    error = raised.value
    assert isinstance(error, EngineError) and error.code == 4000 and error.offset == offset
    assert str(error).startswith(f"{name} offset {offset}: ")
    assert why in str(error) and "recover_to_last_good" in str(error)


def test_recover_to_last_good_drops_the_bad_record_and_every_later_one(data_dir):
    table_id = crashed_database(data_dir)
    good, bad, after = write_records(data_dir, [append(table_id, [3], ["three"])],
                                     [append(table_id, [4], ["four"]), append(table_id, [5])],
                                     [append(table_id, [6], ["six"])])
    with pytest.raises(CorruptLog, match=f"offset {bad[1]}: append to table default.t"):
        engine.Database(data_dir=data_dir)  # the refusal releases the lock: the next open works
    messages: list[str] = []
    db = engine.Database(data_dir=data_dir, recover_to_last_good=True, log=messages.append)
    # the good record is kept whole; the bad one is not half-applied (its first change fits)
    assert q(db.session(), "SELECT a FROM t ORDER BY a") == [(1,), (2,), (3,)]
    dropped = db.recovery_dropped
    assert dropped["file"] == bad[0] and dropped["offset"] == bad[1] and dropped["records"] == 2
    assert "1 columns where the table has 2" in dropped["reason"]
    assert dropped["saved_as"] == [bad[0] + ".dropped"]
    assert any(m.startswith(f"recover_to_last_good: {bad[0]} offset {bad[1]}") and "dropped 2 log records" in m
               for m in messages)
    kept = os.path.join(data_dir, bad[0] + ".dropped")
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    with open(kept, "rb") as f:
        assert len(journal.read_records(f.read(), 0)[0]) == 2  # the two records, for a person
    q(db.session(), "INSERT INTO t VALUES (7, 'seven')")
    crash(db)
    db = engine.Database(data_dir=data_dir)  # no option needed any more; later writes kept
    assert q(db.session(), "SELECT a FROM t ORDER BY a") == [(1,), (2,), (3,), (7,)]
    assert db.recovery_dropped is None
    db.close()


def test_a_damaged_record_in_the_middle_is_also_set_aside_on_request(data_dir):
    crashed_database(data_dir)
    segment = segments(data_dir)[-1]
    with open(segment, "r+b") as f:
        data = f.read()
        where = data.rindex(b'"op":"append"')
        f.seek(where + 3)
        f.write(b"#")  # the INSERT's record fails its checksum
    db = engine.Database(data_dir=data_dir)  # at the tail: a torn write, cut off and said
    assert q(db.session(), "SELECT count(*) FROM t") == [(0,)]
    db.close()
    table_id = crashed_database(str(data_dir) + "2")
    write_records(str(data_dir) + "2", [append(table_id, [3], ["x"])])
    segment = segments(str(data_dir) + "2")[-1]
    with open(segment, "r+b") as f:
        data = f.read()
        f.seek(data.index(b'"op":"append"') + 3)
        f.write(b"#")  # the first INSERT's record, valid ones after it
    with pytest.raises(CorruptLog, match="fails its checksum and valid records follow"):
        engine.Database(data_dir=str(data_dir) + "2")
    db = engine.Database(data_dir=str(data_dir) + "2", recover_to_last_good=True)
    assert q(db.session(), "SELECT count(*) FROM t") == [(0,)] and db.recovery_dropped["records"] == 2
    db.close()


def test_a_checkpoint_that_does_not_load_refuses_to_start_even_with_recovery(data_dir):
    db = engine.Database(data_dir=data_dir)
    q(db.session(), "CREATE TABLE t (a INT)")
    db.close()  # a checkpoint
    path, = glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))
    with open(path, "rb") as f:
        data = f.read()
    magic = checkpoint_files.CHECKPOINT_MAGIC
    payloads, _, _ = journal.read_records(data, len(magic))
    with open(path, "wb") as f:  # the catalog record replaced by text that is not JSON
        f.write(magic)
        journal.write_record(f, [b'{"op":"catalog","image":{"vers'])
        for payload in payloads[1:]:
            journal.write_record(f, [payload])
    name = os.path.basename(path)
    for recover in (False, True):
        with pytest.raises(CorruptLog, match=rf"{name} offset {len(magic)}: not JSON .*cannot skip it"):
            engine.Database(data_dir=data_dir, recover_to_last_good=recover)


def test_created_modes_are_0700_and_0600_whatever_the_umask(data_dir):
    previous = os.umask(0)
    try:
        db = engine.Database(data_dir=data_dir)
        q(db.session(), "CREATE TABLE t (a INT)")
        q(db.session(), "INSERT INTO t VALUES (1)")
        db.durability.checkpoint(wait=True)
        q(db.session(), "INSERT INTO t VALUES (2)")
        db.close()
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(data_dir).st_mode) == 0o700
    names = sorted(os.listdir(data_dir))
    assert "LOCK" in names and any(n.endswith(".qhc") for n in names) and any(n.endswith(".log") for n in names)
    assert {n: stat.S_IMODE(os.stat(os.path.join(data_dir, n)).st_mode) for n in names} == {n: 0o600 for n in names}


def test_a_directory_open_to_group_or_others_is_refused(data_dir):
    os.mkdir(data_dir)
    os.chmod(data_dir, 0o755)
    with pytest.raises(UnsafeDataDirectory, match=rf"mode 0755\); it must be 0700: chmod 700 {data_dir}"):
        engine.Database(data_dir=data_dir)
    assert os.listdir(data_dir) == []  # refused before anything was written
    os.chmod(data_dir, 0o700)
    engine.Database(data_dir=data_dir).close()


def test_the_catalog_refuses_a_thread_that_does_not_own_it(monkeypatch):
    monkeypatch.setattr(catalog_module, "CHECK_OWNER_THREAD", True)
    db = engine.Database()
    q(db.session(), "CREATE TABLE t (a INT)")
    caught: list[BaseException] = []

    def other_thread():
        for lookup in (lambda: db.catalog.table("default", "t"), lambda: db.catalog.database("default"),
                       lambda: db.catalog.drop_table("default", "t", False)):
            try:
                lookup()
            except catalog_module.WrongThread as exc:
                caught.append(exc)

    worker = threading.Thread(target=other_thread, name="intruder")
    worker.start()
    worker.join()
    assert len(caught) == 3 and "not to intruder" in str(caught[0])
    assert q(db.session(), "SELECT count(*) FROM t") == [(0,)]  # untouched, fine on its own thread
    monkeypatch.setattr(catalog_module, "CHECK_OWNER_THREAD", False)
    worker = threading.Thread(target=lambda: db.catalog.table("default", "t"))
    worker.start()
    worker.join()  # off (the default outside tests): no check


def test_the_test_suite_runs_with_the_owner_thread_check_on():
    assert catalog_module.CHECK_OWNER_THREAD
