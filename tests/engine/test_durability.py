"""engine.Database(data_dir=...): every kind of change survives a crash (the process gone
without a checkpoint) and a clean close; torn and corrupt logs; the lock; a failed log."""

from __future__ import annotations

import base64
import datetime
import decimal
import glob
import json
import os
import threading

import pytest

import engine
from engine.catalog.stages import StagedFile
from engine.catalog.table_storage import TableData
from engine.storage import durability, journal
from engine.storage.change_codec import (
    STAGED_SLICE_BYTES,
    encode_change,
    rewrite_runs,
    rewritten,
)
from engine.storage.durability import DataDirectoryInUse
from engine.storage.journal import CorruptLog
from engine.storage.row_codec import decode_rows, encode_rows
from engine.types import sqltype as T


def crash(db: engine.Database) -> None:
    """What SIGKILL leaves: the log as written (each statement waited for its record), no
    checkpoint, the lock released by the dying process."""
    durability = db.durability
    if durability._checkpointing is not None:  # a dying process's threads die with it; here
        durability._checkpointing.join()  # a checkpoint started at recovery must end first
    durability.writer.close()
    os.close(durability._lock_file)
    db.durability = None


def q(session, sql):
    return list(session.execute(sql))


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


def reopen(data_dir, messages=None) -> engine.Database:
    return engine.Database(data_dir=data_dir, log=(messages.append if messages is not None else None))


def test_rows_of_every_stored_type_round_trip_exactly():
    types = [T.BOOLEAN, T.INT64, T.UINT64, T.FLOAT64, T.FLOAT32, T.SqlType("Decimal", True, 38, 0),
             T.SqlType("Decimal", True, 10, 2), T.STRING, T.DATE, T.TIMESTAMP, T.SqlType("Variant"),
             T.SqlType("Binary")]
    rows = [
        (True, -(2**63), 2**64 - 1, float("nan"), 0.1 + 0.2, 10**30, decimal.Decimal("-12.34"), "é\udc80\x00",
         datetime.date(1, 1, 1), datetime.datetime(2024, 2, 29, 23, 59, 59, 999999), '{"a":[1,2]}', b"\x00\xffab"),
        (False, 0, 0, float("-inf"), 1e308, None, None, "", datetime.date(9999, 12, 31),
         datetime.datetime(1970, 1, 1), None, None),
    ]
    back = decode_rows(types, json.loads(json.dumps(encode_rows(types, rows))))
    assert back[1] == rows[1]
    assert back[0][3] != back[0][3]  # NaN stays NaN
    assert back[0][:3] == rows[0][:3] and back[0][4:] == rows[0][4:]
    assert type(back[0][5]) is int and type(back[0][6]) is decimal.Decimal


@pytest.mark.parametrize("new_of", [
    lambda old, shared: [old[0], (20,), old[2], old[3]],  # an UPDATE: same length, one replaced
    lambda old, shared: [(0,), (20,), old[2], (30,)],  # replaced at both ends
    lambda old, shared: [old[0], old[3]],  # a DELETE
    lambda old, shared: [old[0], (20,), old[2], old[3], shared, (5,)],  # kept twice, added
    lambda old, shared: [],
])
def test_a_rewrite_is_logged_as_runs_of_kept_rows_and_new_rows(new_of):
    old = [(1,), (2,), (3,), (4,)]
    new = new_of(old, old[1])
    runs, rows = rewrite_runs(old, 4, new, len(new))
    assert rewritten(TableData(list(old)), runs, rows).rows() == new
    assert all(any(r is o for o in old) for r in new if not any(r is n for n in rows))
    assert len(rows) <= 3


def test_every_kind_of_change_survives_a_crash(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE DATABASE shop")
    q(s, "CREATE TABLE shop.t (id INT, name VARCHAR NULL, price DECIMAL(10, 2) DEFAULT 1.50, at TIMESTAMP NULL)")
    q(s, "INSERT INTO shop.t (id, name, at) VALUES (1, 'a', '2026-01-01 10:00:00'), (2, NULL, NULL), (3, 'c', NULL)")
    q(s, "INSERT INTO shop.t SELECT id + 10, name, price, at FROM shop.t")
    q(s, "UPDATE shop.t SET name = 'B' WHERE id = 2")
    q(s, "DELETE FROM shop.t WHERE id = 13")
    q(s, "REPLACE INTO shop.t ON (id) VALUES (1, 'A', 2.00, NULL)")
    q(s, "MERGE INTO shop.t USING (SELECT 11 AS id) AS s ON shop.t.id = s.id WHEN MATCHED THEN DELETE")
    q(s, "CREATE TABLE shop.gone (x INT)")
    q(s, "INSERT INTO shop.gone VALUES (7)")
    q(s, "DROP TABLE shop.gone")
    q(s, "CREATE TABLE shop.renamed AS SELECT id FROM shop.t WHERE id < 3")
    q(s, "ALTER TABLE shop.renamed RENAME TO r2")
    q(s, "ALTER TABLE shop.r2 MODIFY COLUMN id VARCHAR")
    q(s, "ALTER TABLE shop.r2 ADD COLUMN flag BOOLEAN DEFAULT true")
    q(s, "CREATE TABLE shop.empty (x INT)")
    q(s, "INSERT INTO shop.empty VALUES (1)")
    q(s, "TRUNCATE TABLE shop.empty")
    q(s, "CREATE VIEW shop.named (k) AS SELECT id FROM shop.t WHERE id > 10")
    q(s, "SET GLOBAL max_result_rows = 777")
    q(s, "CREATE STAGE st FILE_FORMAT = (TYPE = CSV)")
    q(s, "CREATE FILE FORMAT my_csv TYPE = CSV FIELD_DELIMITER = '|'")
    db.stages.put("root", engine.parse_location("@st/a.csv"), b"1|x\n")
    db.stages.put("root", engine.parse_location("@~/mine.csv"), b"5,y\n")
    db.commit_changes()
    q(s, "CREATE TABLE shop.loaded (a INT, b VARCHAR)")
    q(s, "COPY INTO shop.loaded FROM @st FILE_FORMAT = (FORMAT_NAME = 'my_csv')")
    before = {sql: q(s, sql) for sql in [
        "SELECT * FROM shop.t ORDER BY id", "SELECT * FROM shop.r2 ORDER BY id", "SELECT * FROM shop.named ORDER BY k",
        "SELECT count(*) FROM shop.empty", "SHOW CREATE TABLE shop.t", "SHOW CREATE TABLE shop.r2",
        "SELECT * FROM shop.loaded", "SELECT name, value FROM system.settings WHERE name = 'max_result_rows'",
        "SELECT name FROM system.tables WHERE database = 'shop' ORDER BY name"]}
    crash(db)
    messages = []
    db = reopen(data_dir, messages)
    s = db.session()
    for sql, rows in before.items():
        assert q(s, sql) == rows, sql
    assert q(s, "LIST @st")[0][0] == "a.csv"
    assert db.stages.get("root", engine.parse_location("@~/mine.csv")) == b"5,y\n"
    # the load history came back too: the same file is not loaded twice
    assert q(s, "COPY INTO shop.loaded FROM @st FILE_FORMAT = (FORMAT_NAME = 'my_csv')") == []
    q(s, "UNDROP TABLE shop.gone")
    assert q(s, "SELECT * FROM shop.gone") == [(7,)]
    assert any("recovered" in m for m in messages)
    # new tables get new ids after recovery
    q(s, "CREATE TABLE shop.later (x INT)")
    ids = [r[0] for r in q(s, "SELECT table_id FROM system.tables WHERE database = 'shop'")]
    assert len(ids) == len(set(ids))
    db.close()


def test_a_clean_close_checkpoints_and_truncates_the_log(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t SELECT number FROM numbers(120000)")
    db.close()
    assert len(glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))) == 1
    assert all(os.path.getsize(p) < 100 for p in glob.glob(os.path.join(data_dir, "wal-*.log")))
    messages = []
    db = reopen(data_dir, messages)
    assert q(db.session(), "SELECT count(*), sum(a) FROM t") == [(120000, sum(range(120000)))]
    assert "0 log records" in messages[0]
    db.close()


def test_a_torn_last_record_is_dropped_and_said(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t VALUES (1)")
    q(s, "INSERT INTO t VALUES (2)")
    crash(db)
    segment = sorted(glob.glob(os.path.join(data_dir, "wal-*.log")))[-1]
    size = os.path.getsize(segment)
    with open(segment, "r+b") as f:
        f.truncate(size - 5)  # the last INSERT's record, cut short
    messages = []
    db = reopen(data_dir, messages)
    assert q(db.session(), "SELECT a FROM t") == [(1,)]
    assert any("cut short by a crash" in m for m in messages)
    q(db.session(), "INSERT INTO t VALUES (3)")
    crash(db)
    db = reopen(data_dir)
    assert q(db.session(), "SELECT a FROM t ORDER BY a") == [(1,), (3,)]
    db.close()


def test_a_damaged_record_before_the_tail_refuses_to_start(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    for i in range(3):
        q(s, f"INSERT INTO t VALUES ({i})")
    crash(db)
    segment = sorted(glob.glob(os.path.join(data_dir, "wal-*.log")))[-1]
    with open(segment, "r+b") as f:
        data = f.read()
        f.seek(data.index(b'"op":"append"') + 3)
        f.write(b"#")
    with pytest.raises(CorruptLog, match="valid records follow"):
        reopen(data_dir)


def test_a_with_block_closes_the_directory_with_a_checkpoint(data_dir):
    with engine.Database(data_dir=data_dir) as db:
        q(db.session(), "CREATE TABLE t (a INT)")
        q(db.session(), "INSERT INTO t VALUES (1)")
    assert glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))
    with engine.Database(data_dir=data_dir) as db:  # the lock was released
        assert q(db.session(), "SELECT a FROM t") == [(1,)]


def test_one_database_per_data_directory(data_dir):
    db = engine.Database(data_dir=data_dir)
    with pytest.raises(DataDirectoryInUse, match="in use by another process"):
        engine.Database(data_dir=data_dir)
    db.close()
    engine.Database(data_dir=data_dir).close()  # free again after a close


def test_a_write_fails_with_4000_when_the_log_cannot_take_it(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    db.durability.writer.close()
    db.durability.writer.error = OSError("No space left on device")
    with pytest.raises(engine.EngineError) as err:
        q(s, "INSERT INTO t VALUES (1)")
    assert err.value.code == 4000 and "No space left" in err.value.message
    assert q(s, "SELECT 1") == [(1,)]  # reads go on


def test_without_a_data_directory_nothing_is_written(tmp_path):
    db = engine.Database()
    q(db.session(), "CREATE TABLE t (a INT)")
    assert db.durability is None and db.commit_changes() is None
    assert os.listdir(tmp_path) == []


def test_big_appends_and_rewrites_survive_in_chunks(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b VARCHAR NULL)")
    q(s, "INSERT INTO t SELECT number, number::VARCHAR FROM numbers(45000)")
    q(s, "UPDATE t SET b = NULL WHERE a % 2 = 0")
    q(s, "DELETE FROM t WHERE a % 3 = 0")
    expected = q(s, "SELECT a, b FROM t ORDER BY a")
    crash(db)
    db = reopen(data_dir)
    assert q(db.session(), "SELECT a, b FROM t ORDER BY a") == expected
    assert q(db.session(), "SELECT count(*) FROM t WHERE b IS NULL") == [(15000,)]
    db.close()


def test_commits_queued_during_an_fsync_share_the_next_one(tmp_path, monkeypatch):
    """Group commit: while one fsync runs, every record submitted meanwhile waits for the next
    fsync together; each waiter is called back once its record is on disk."""
    gate = threading.Event()
    syncs = []
    real_fsync = os.fsync

    def slow_fsync(fd):
        syncs.append(fd)
        if len(syncs) == 1:
            gate.wait(10)  # hold the first fsync until everything else is queued
        real_fsync(fd)

    monkeypatch.setattr(journal.os, "fsync", slow_fsync)
    writer = journal.LogWriter(str(tmp_path), 1)
    opened = len(syncs)  # the new segment's header is fsynced too
    gate_reached = threading.Event()
    first = writer.submit(lambda lsn: (gate_reached.set(), [b'{"lsn":1,"changes":[]}'])[1])
    gate_reached.wait(10)
    done = []
    lsns = [writer.submit(lambda lsn: [b'{"lsn":%d,"changes":[]}' % lsn]) for _ in range(50)]
    for lsn in lsns:
        writer.when_durable(lsn, lambda lsn=lsn: done.append(lsn))
    gate.set()
    writer.wait(lsns[-1])
    writer.close()
    assert first == 1 and sorted(done) == lsns
    assert len(syncs) - opened <= 3  # the first record's fsync, then one (or two) for the 50


def test_users_roles_and_grants_survive_a_crash(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE USER 'ann' IDENTIFIED BY 'secret' WITH DEFAULT_ROLE = 'analyst'")
    q(s, "CREATE ROLE analyst COMMENT = 'reads'")
    q(s, "ALTER ROLE analyst SET COMMENT = 'reads t'")
    q(s, "CREATE TABLE t (a INT)")
    q(s, "GRANT SELECT ON default.t TO ROLE analyst")
    q(s, "GRANT ROLE analyst TO 'ann'")
    before = (q(s, "SHOW USERS"), q(s, "SHOW GRANTS FOR 'ann'"), q(s, "SHOW ROLES"))
    crash(db)
    db = reopen(data_dir)
    s = db.session()
    assert (q(s, "SHOW USERS"), q(s, "SHOW GRANTS FOR 'ann'"), q(s, "SHOW ROLES")) == before
    assert q(s, "SELECT comment FROM show_roles() WHERE name = 'analyst'") == [("reads t",)]
    stored = db.users.password_hash("ann")
    assert stored.startswith("scrypt$") and "secret" not in json.dumps(db.users.snapshot())
    ann = db.session(user="ann")
    assert q(ann, "SELECT count(*) FROM t") == [(0,)]
    with pytest.raises(engine.EngineError) as denied:
        q(ann, "INSERT INTO t VALUES (1)")
    assert denied.value.code == 1063
    db.close()


def test_a_committed_transaction_survives_whole_and_an_open_one_not_at_all(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE acct (id INT, balance INT)")
    q(s, "INSERT INTO acct VALUES (1, 100), (2, 0)")
    before_begin = db.durability.recorder.last_lsn
    q(s, "BEGIN")
    q(s, "UPDATE acct SET balance = balance - 30 WHERE id = 1")
    q(s, "UPDATE acct SET balance = balance + 30 WHERE id = 2")
    q(s, "INSERT INTO acct VALUES (3, 5)")
    q(s, "COMMIT")
    records = db.durability.recorder.last_lsn
    assert records == before_begin + 1  # the COMMIT is one log record
    other = db.session()
    q(other, "BEGIN")
    q(other, "DELETE FROM acct WHERE id = 3")
    q(other, "INSERT INTO acct VALUES (9, 9)")
    assert db.durability.recorder.last_lsn == records  # nothing logged before COMMIT
    crash(db)
    db = reopen(data_dir)
    assert q(db.session(), "SELECT id, balance FROM acct ORDER BY id") == [(1, 70), (2, 30), (3, 5)]
    db.close()


def test_a_copy_committed_in_a_transaction_keeps_its_load_history(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    db.stages.put("root", engine.parse_location("@~/one.csv"), b"1\n2\n")
    db.commit_changes()
    q(s, "BEGIN")
    q(s, "COPY INTO t FROM @~/one.csv FILE_FORMAT = (TYPE = CSV)")
    q(s, "COMMIT")
    crash(db)
    db = reopen(data_dir)
    s = db.session()
    assert q(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert q(s, "COPY INTO t FROM @~/one.csv FILE_FORMAT = (TYPE = CSV)") == []  # loaded already
    db.close()


def test_statements_that_change_nothing_log_nothing_and_build_no_catalog_image(data_dir, monkeypatch):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "CREATE STAGE st")
    db.stages.put("root", engine.parse_location("@~/f.csv"), b"1\n")
    db.commit_changes()
    images = []
    real_image = durability.catalog_image
    monkeypatch.setattr(durability, "catalog_image", lambda d: images.append(1) or real_image(d))
    lsn = db.durability.writer.next_lsn
    for sql in ("SHOW TABLES", "SHOW DATABASES", "SHOW CREATE TABLE t", "DESCRIBE t",
                "EXPLAIN SELECT * FROM t", "EXPLAIN ANALYZE SELECT * FROM t", "USE default",
                "LIST @~", "SHOW STAGES", "DESC STAGE st", "SHOW USERS", "SHOW GRANTS",
                "DESC USER root", "SET ROLE public", "SET max_threads = 4", "UNSET max_threads",
                "SELECT * FROM t", "SELECT $1 FROM @~/f.csv"):
        q(s, sql)
    assert db.durability.writer.next_lsn == lsn and images == []
    q(s, "SET GLOBAL max_threads = 3")  # these change what the directory keeps: logged
    q(s, "REMOVE @~/f.csv")
    assert db.durability.writer.next_lsn == lsn + 2 and len(images) == 2
    db.close()
    again = reopen(data_dir)
    assert again.global_settings["max_threads"] == "3"
    assert again.stages.list("root", engine.parse_location("@~")) == []
    again.close()


def test_a_staged_file_is_base64_encoded_in_slices_and_round_trips(data_dir):
    size = 2 * STAGED_SLICE_BYTES + 1000
    data = bytes(range(256)) * (size // 256) + b"tail"
    pieces = list(encode_change(("stage_put", "root", "~", "big.bin", StagedFile(data, 1.5))))
    slices = [p for p in pieces if isinstance(p, bytes)]
    assert len(slices) == 3 and max(map(len, slices)) == STAGED_SLICE_BYTES // 3 * 4
    assert json.loads(b"".join(p.encode() if isinstance(p, str) else p for p in pieces))["data"] == \
        base64.b64encode(data).decode()
    db = engine.Database(data_dir=data_dir)
    db.stages.put("root", engine.parse_location("@~/big.bin"), data)
    db.durability.writer.wait(db.commit_changes())
    crash(db)  # from the log
    db = reopen(data_dir)
    assert db.stages.get("root", engine.parse_location("@~/big.bin")) == data
    db.close()  # a clean close: a checkpoint holds it, the log nothing
    assert glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))
    assert all(os.path.getsize(p) == len(journal.MAGIC) for p in glob.glob(os.path.join(data_dir, "wal-*.log")))
    db = reopen(data_dir)
    assert db.stages.get("root", engine.parse_location("@~/big.bin")) == data
    db.close()


def test_a_temporary_staged_file_is_neither_logged_nor_checkpointed(data_dir):
    db = engine.Database(data_dir=data_dir)
    kept = engine.parse_location("@~/kept.csv")
    db.stages.put("root", kept, b"old\n")
    db.stages.put("root", engine.parse_location("@~/tmp.csv"), b"1\n", logged=False)
    db.stages.put("root", kept, b"new\n", logged=False)  # the kept file it replaces is gone
    db.durability.checkpoint(wait=True)
    db.stages.put("root", engine.parse_location("@~/tmp2.csv"), b"2\n", logged=False)
    db.stages.remove("root", engine.parse_location("@~/tmp2.csv"))
    db.durability.writer.wait(db.commit_changes())
    ops = [json.loads(p)["changes"] for p in _log_payloads(data_dir)]
    assert all(c["op"] not in ("stage_put", "stage_remove") for changes in ops for c in changes)
    crash(db)
    again = reopen(data_dir)
    assert again.stages.list("root", engine.parse_location("@~")) == []
    again.close()


def _log_payloads(data_dir) -> list:
    payloads = []
    for path in sorted(glob.glob(os.path.join(data_dir, "wal-*.log"))):
        with open(path, "rb") as f:
            payloads += journal.read_records(f.read(), len(journal.MAGIC))[0]
    return payloads
