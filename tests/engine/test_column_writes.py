"""The write side of column storage (issue 24): bulk writes hand over whole columns, charged per
column; the log and checkpoints take them back whole; a transaction's private copy shares the
shared columns until it writes, and its COMMIT of a rewrite logs the rows it kept as runs."""

from __future__ import annotations

import glob
import json
import os

import pytest

import engine
from engine.catalog import table_storage
from engine.catalog.lineage import Lineage, compose
from engine.catalog.table_storage import ColumnData, TableData
from engine.core.errors import EngineError
from engine.storage.journal import MAGIC, read_records


def q(session, sql):
    return list(session.execute(sql))


@pytest.fixture(params=[False, True], ids=["rows", "columns"])
def columns(request, monkeypatch):
    """Each test in both storages (whatever QUERYHTTP_COLUMNS says)."""
    monkeypatch.setattr(table_storage, "COLUMNS", request.param)
    return request.param


FILL = ("INSERT INTO t SELECT number, number % 1000, number / 7, concat('name-', (number % 50)::VARCHAR), "
        "to_date(number % 20) FROM numbers({n})")


def _logged(data_dir: str) -> list[dict]:
    changes = []
    for path in sorted(glob.glob(os.path.join(data_dir, "wal-*.log"))):
        with open(path, "rb") as f:
            data = f.read()
        payloads, _, _ = read_records(data, len(MAGIC))
        for payload in payloads:
            changes += json.loads(payload)["changes"]
    return changes


def _crash(db) -> None:
    """What SIGKILL leaves: the log as written, no checkpoint."""
    durability = db.durability
    if durability._checkpointing is not None:
        durability._checkpointing.join()
    durability.writer.close()
    os.close(durability._lock_file)
    db.durability = None


def test_insert_select_hands_the_table_whole_columns_and_they_come_back_from_log_and_checkpoint(
        tmp_path, monkeypatch, columns):
    def no_rows(self, rows):
        raise AssertionError("a bulk write reached the column storage as rows")

    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    with monkeypatch.context() as patched:
        if columns:  # the bulk writes never become row tuples on their way in
            patched.setattr(ColumnData, "append_rows", no_rows)
        q(s, "CREATE TABLE t (a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE)")
        q(s, FILL.format(n=50_000))
        q(s, "CREATE TABLE u AS SELECT * FROM t WHERE b < 10")
    expected = [q(s, "SELECT * FROM t ORDER BY a"), q(s, "SELECT * FROM u ORDER BY a")]
    appends = [c for c in _logged(data_dir) if c["op"] == "append"]
    assert sum(c["rows"]["n"] for c in appends) == 50_000  # the log holds them, chunked
    _crash(db)
    db = engine.Database(data_dir=data_dir)  # replayed from the log, then a checkpoint
    assert db.durability.recovered["rows"] == 50_000  # the appends (u entered as one edit)
    assert [q(db.session(), "SELECT * FROM t ORDER BY a"), q(db.session(), "SELECT * FROM u ORDER BY a")] == expected
    db.close()
    db = engine.Database(data_dir=data_dir)  # from the checkpoint
    table = db.catalog.table("default", "t")
    assert isinstance(table.data, ColumnData if columns else TableData)
    assert [q(db.session(), "SELECT * FROM t ORDER BY a"), q(db.session(), "SELECT * FROM u ORDER BY a")] == expected
    if columns:  # equal days read back from text are one object again (memory after a restart)
        days = table.data.column(4)
        assert days[0] == days[20] and days[0] is days[20]
    db.close()


def test_a_bulk_write_is_charged_per_column_and_fails_at_the_limit(columns):
    db = engine.Database()
    q(db.session(), "CREATE TABLE t (a BIGINT, c DOUBLE)")
    n = 100_000
    sql = f"INSERT INTO t SELECT number, number / 7 FROM numbers({n})"
    if columns:  # two 8-byte array items a row, exactly
        q(db.session(settings={"max_memory_usage": str(16 * n)}), sql)
        assert q(db.session(), "SELECT count(*), sum(a) FROM t") == [(n, n * (n - 1) // 2)]
    with pytest.raises(EngineError) as failed:
        q(db.session(settings={"max_memory_usage": str(16 * n - 1)}), sql)
    assert failed.value.code == 2411
    assert q(db.session(), "SELECT count(*) FROM t") == [(n if columns else 0,)]  # nothing appended


def test_a_private_copy_shares_the_columns_until_it_writes_and_rollback_leaves_them(columns):
    db = engine.Database()
    s = db.session()
    q(s, "CREATE TABLE t (a BIGINT, d VARCHAR)")
    q(s, "INSERT INTO t SELECT number, number::VARCHAR FROM numbers(1000)")
    table = db.catalog.table("default", "t")
    shared = table.data
    q(s, "BEGIN")
    assert q(s, "SELECT count(*) FROM t") == [(1000,)]
    private = s.transaction._copies[id(table)].private.data
    if columns:
        assert all(mine is theirs for mine, theirs in zip(private._columns, shared._columns, strict=True))
    q(db.session(), "INSERT INTO t VALUES (5000, 'other')")  # the shared version grows meanwhile
    assert q(s, "SELECT count(*) FROM t") == [(1000,)]  # the private copy does not see it
    q(s, "INSERT INTO t VALUES (-1, 'mine')")
    if columns:  # its first write copied the columns: the shared ones are untouched
        assert not any(mine is theirs for mine, theirs in zip(private._columns, shared._columns, strict=True))
    assert q(s, "SELECT count(*), min(a) FROM t") == [(1001, -1)]
    q(s, "ROLLBACK")
    assert table.data is shared and len(shared) == 1001
    assert q(s, "SELECT count(*), min(a), max(a) FROM t") == [(1001, 0, 5000)]


def test_commit_of_a_rewrite_logs_the_rows_it_kept_as_runs_and_replays(tmp_path, columns):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a BIGINT, d VARCHAR)")
    q(s, "INSERT INTO t SELECT number, number::VARCHAR FROM numbers(1000)")
    q(s, "BEGIN")
    q(s, "DELETE FROM t WHERE a % 100 = 7")
    q(s, "INSERT INTO t VALUES (2000, 'new')")
    q(s, "UPDATE t SET d = 'u' WHERE a = 500")
    q(s, "DELETE FROM t WHERE a = 2")
    q(db.session(), "INSERT INTO t VALUES (3000, 'other')")  # appended by another session meanwhile
    q(s, "COMMIT")
    expected = q(s, "SELECT a, d FROM t ORDER BY a")
    assert len(expected) == 1000 - 10 - 1 + 2
    edits = [c for c in _logged(data_dir) if c["op"] == "edit"]
    assert len(edits) == 1
    runs = edits[0]["runs"]
    new = sum(runs[i + 1] for i in range(0, len(runs), 2) if runs[i] < 0)
    assert new == 2  # only a = 500 (updated) and a = 2000 (inserted): the kept rows are runs
    assert sum(len(chunk["columns"][0]) for chunk in edits[0]["rows"]) == 2
    assert runs[:6] == [0, 2, 3, 4, 8, 99]  # 0-1 kept, 2 deleted, 3-6 kept, 7 deleted, 8-106 ...
    _crash(db)
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), "SELECT a, d FROM t ORDER BY a") == expected
    db.close()


def test_runs_compose_over_the_shared_rows():
    # a version of shared rows 0-9 without 3, then 2 new rows; a rewrite keeps its rows 1-4
    # (shared 1, 2, 4, 5), adds one, keeps its last 3 (shared 9 and the 2 new ones)
    base = [0, 3, 4, 6, -1, 2]
    assert compose(base, [1, 4, -1, 1, 8, 3]) == [1, 2, 4, 2, -1, 1, 9, 1, -1, 2]
    assert compose([0, 10], [0, 10]) == [0, 10]
    assert compose([-1, 4], [1, 2]) == [-1, 2]
    with pytest.raises(ValueError):
        compose([0, 3], [2, 5])
    lineage = Lineage(3)
    lineage.appended(None, [(1,), (2,)])
    assert lineage.runs == [0, 3, -1, 2]
    data = TableData([(0,), (1,), (2,), (7,), (8,)])
    assert lineage.added_rows(data) == [(7,), (8,)]
    assert Lineage(2).added_rows(data) is None  # runs that do not describe the version


def test_an_alter_s_new_version_of_columns_is_logged_without_comparing_rows(tmp_path, monkeypatch, columns):
    from engine.storage import change_codec

    def no_comparison(*args):
        raise AssertionError("rows of columns compared by identity (they never match)")

    if columns:
        monkeypatch.setattr(change_codec, "rewrite_runs", no_comparison)
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a BIGINT, d VARCHAR)")
    q(s, "INSERT INTO t SELECT number, number::VARCHAR FROM numbers(3000)")
    q(s, "ALTER TABLE t ADD COLUMN e INT DEFAULT 7")
    q(s, "ALTER TABLE t DROP COLUMN d")
    q(s, "INSERT INTO t VALUES (-1, -2)")
    expected = q(s, "SELECT a, e FROM t ORDER BY a")
    edits = [c for c in _logged(data_dir) if c["op"] == "edit"]
    assert [e["runs"] for e in edits] == [[-1, 3000], [-1, 3000]]  # every row has a new shape
    _crash(db)
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), "SELECT a, e FROM t ORDER BY a") == expected
    db.close()
