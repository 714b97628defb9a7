"""The log record is the commit (code review N4): when the log's write or fsync fails (disk
full, I/O error) or its writer thread is gone, the statement that hit it changes nothing
another session can see, every later write is refused with 4000 before it runs, reads go on,
the log says why, and a restart recovers exactly what was acknowledged."""

from __future__ import annotations

import errno
import os

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.core.limits import Limits
from engine.storage import journal
from tests.engine.test_durability import crash

SETUP = (
    "CREATE TABLE t (a INT, b STRING)",
    "INSERT INTO t SELECT number, 'x' FROM numbers(20)",
)

# statements the failure hits: single-step and multi-step writers of every kind
WRITES = {
    "insert_values": "INSERT INTO t VALUES (100, 'new')",
    "insert_select": "INSERT INTO t SELECT number + 1000, 'q' FROM numbers(50)",
    "update": "UPDATE t SET b = 'changed' WHERE a < 10",
    "delete": "DELETE FROM t WHERE a % 2 = 0",
    "truncate": "TRUNCATE TABLE t",
    "insert_overwrite": "INSERT OVERWRITE t SELECT number, 'o' FROM numbers(3)",
    "copy_into": "COPY INTO t FROM @~/more.csv FILE_FORMAT = (TYPE = CSV)",
    "alter": "ALTER TABLE t MODIFY COLUMN a BIGINT",
}


def _failing(error_number):
    def fail(*args, **kwargs):
        raise OSError(error_number, os.strerror(error_number))
    return fail


def _break_write(monkeypatch, error_number):
    monkeypatch.setattr(journal, "write_record", _failing(error_number))


def _break_fsync(monkeypatch, error_number):
    monkeypatch.setattr(journal.os, "fsync", _failing(error_number))


def _kill_thread(monkeypatch, db):
    """The writer thread is gone (here: it ended) without having failed a write."""
    writer = db.durability.writer
    with writer._lock:
        writer._stopping = True
        writer._lock.notify()
    writer._thread.join()


FAULTS = {
    "write_enospc": lambda mp, db: _break_write(mp, errno.ENOSPC),
    "write_eio": lambda mp, db: _break_write(mp, errno.EIO),
    "fsync_enospc": lambda mp, db: _break_fsync(mp, errno.ENOSPC),
    "fsync_eio": lambda mp, db: _break_fsync(mp, errno.EIO),
    "thread_dies": lambda mp, db: _kill_thread(mp, db),
}


def q(session, sql):
    return list(session.execute(sql))


def snapshot(session) -> tuple:
    return (q(session, "SELECT a, b FROM t ORDER BY a, b"),
            q(session, "SELECT name, type FROM system.columns WHERE table = 't' ORDER BY name"))


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_failed_log_leaves_no_change_refuses_writes_and_reads_go_on(tmp_path, fault, write):
    data_dir = str(tmp_path / "data")
    messages: list = []
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=8), log=messages.append)
    s, other = db.session(), db.session()
    for sql in SETUP:
        q(s, sql)
    db.stages.put("root", parse_location("@~/more.csv"), b"500,csv\n501,csv\n")
    assert db.commit_changes() is not None
    before = snapshot(other)
    history = dict(db.catalog.table("default", "t").copied_files)
    with pytest.MonkeyPatch.context() as mp:
        FAULTS[fault](mp, db)
        with pytest.raises(engine.EngineError) as failed:
            q(s, WRITES[write])
        assert failed.value.code == 4000
        # nothing of the failed statement is visible to another session
        assert snapshot(other) == before
        assert db.catalog.table("default", "t").copied_files == history
        # every later write is refused before it runs; reads go on
        with pytest.raises(engine.EngineError) as refused:
            q(other, "CREATE TABLE later (x INT)")
        assert refused.value.code == 4000 and "refused" in refused.value.message
        assert "later" not in db.catalog.databases["default"]
        assert snapshot(other) == before
        assert q(other, "SELECT 1 + 1") == [(2,)]
        # the log says why
        assert any("write-ahead log failed" in m and "refused" in m for m in messages)
        assert db.log_failure() is not None
        crash(db)
    recovered = engine.Database(data_dir=data_dir)
    try:
        assert snapshot(recovered.session()) == before
    finally:
        recovered.close()


def test_a_refused_record_undoes_a_staged_file_and_its_removal(tmp_path):
    db = engine.Database(data_dir=str(tmp_path / "data"))
    location = parse_location("@~/f.csv")
    db.stages.put("root", location, b"1\n")
    db.commit_changes()
    held = db.stages.held
    db.durability.writer.close()
    db.durability.writer.error = OSError(errno.ENOSPC, "No space left on device")
    db.stages.put("root", location, b"22\n")
    with pytest.raises(OSError):
        db.commit_changes()
    assert db.stages.get("root", location) == b"1\n" and db.stages.held == held
    db.stages.remove("root", location)
    with pytest.raises(OSError):
        db.commit_changes()
    assert db.stages.get("root", location) == b"1\n" and db.stages.held == held


def test_a_transaction_commit_that_the_log_refuses_changes_nothing(tmp_path):
    db = engine.Database(data_dir=str(tmp_path / "data"))
    s, other = db.session(), db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t VALUES (1)")
    q(s, "BEGIN")
    q(s, "INSERT INTO t VALUES (2)")
    q(s, "DELETE FROM t WHERE a = 1")
    with pytest.MonkeyPatch.context() as mp:
        _break_write(mp, errno.ENOSPC)
        with pytest.raises(engine.EngineError) as failed:
            q(s, "COMMIT")
        assert failed.value.code == 4000
        assert q(other, "SELECT a FROM t") == [(1,)]
        crash(db)
