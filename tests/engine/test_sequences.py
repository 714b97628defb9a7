"""Sequences: CREATE / DROP / DESCRIBE SEQUENCE, SHOW SEQUENCES, nextval in queries, INSERT ...
VALUES / SELECT and as a column DEFAULT; Databend's codes (base/05_ddl/05_0036_sequence); and
the values a sequence hands out never handed out again after a crash."""

from __future__ import annotations

import os

import pytest

import engine
from engine.catalog import routines
from tests.engine.sql_helpers import error_code, q


@pytest.fixture
def s():
    return engine.Database().session()


def test_nextval_hands_out_values_in_order_across_statements(s):
    q(s, "CREATE SEQUENCE seq")
    for sql in ["CREATE TABLE tmp1(a string)", "CREATE TABLE tmp2(a uint64)", "CREATE TABLE tmp3(a int, b uint64, c int)"]:
        q(s, sql)
    q(s, "INSERT INTO tmp1 VALUES (nextval(seq))")
    q(s, "INSERT INTO tmp2 SELECT nextval(seq) FROM numbers(2)")
    assert q(s, "SELECT * FROM tmp2") == [(2,), (3,)]
    q(s, "INSERT INTO tmp2 VALUES (nextval(seq)), (1024)")
    q(s, "INSERT INTO tmp3 VALUES (1, nextval(seq) + 1, 3)")
    assert q(s, "SELECT * FROM tmp3") == [(1, 6, 3)]
    q(s, "INSERT INTO tmp3 SELECT 10, nextval(seq), 20 FROM numbers(3)")
    assert q(s, "SELECT nextval(seq)") == [(9,)]
    assert q(s, "SELECT nextval(seq) + 20 FROM numbers(5)") == [(30,), (31,), (32,), (33,), (34,)]
    assert q(s, "SELECT sum(nextval(seq)) FROM numbers(10)") == [(195,)]  # 15..24
    result = s.execute("SELECT nextval(seq)")
    assert [c.name for c in result.schema] == ["nextval(seq)"] and result.types[0].name == "UInt64"


def test_start_increment_describe_show_and_drop(s):
    assert error_code(s, "CREATE SEQUENCE seq START = 1 INCREMENT = 0") == 2004
    q(s, "CREATE SEQUENCE seq START = 10 INCREMENT = 5 COMMENT = 'c'")
    assert q(s, "SELECT nextval(seq) FROM numbers(3)") == [(10,), (15,), (20,)]
    result = s.execute("DESC SEQUENCE seq")
    assert [c.name for c in result.schema] == ["name", "interval", "current", "created_on", "updated_on", "comment"]
    assert [r[:3] + r[5:] for r in result] == [("seq", 5, 25, "c")]
    q(s, "CREATE SEQUENCE other")
    assert [r[0] for r in q(s, "SHOW SEQUENCES")] == ["other", "seq"]
    assert [r[0] for r in q(s, "SHOW SEQUENCES LIKE 's%'")] == ["seq"]
    assert error_code(s, "CREATE SEQUENCE seq") == 3101
    q(s, "CREATE SEQUENCE IF NOT EXISTS seq")
    q(s, "CREATE OR REPLACE SEQUENCE seq")  # starts over
    assert q(s, "SELECT nextval(seq)") == [(1,)]
    q(s, "DROP SEQUENCE seq")
    assert error_code(s, "DROP SEQUENCE seq") == 1126
    q(s, "DROP SEQUENCE IF EXISTS seq")
    q(s, "CREATE TABLE t(a int)")
    assert error_code(s, "INSERT INTO t VALUES (nextval(seq))") == 3101


def test_column_default_nextval(s):
    q(s, "CREATE SEQUENCE seq")
    assert error_code(s, "CREATE TABLE t(id int DEFAULT nextval(seq) + 1, name string)") == 1065
    assert error_code(s, "CREATE TABLE t(id int, name string DEFAULT nextval(seq))") == 1065
    q(s, "CREATE TABLE t(id int DEFAULT nextval(seq), name string)")
    q(s, "INSERT INTO t (name) VALUES ('a')")
    q(s, "INSERT INTO t (name) VALUES ('b'), ('c')")
    q(s, "INSERT INTO t VALUES (DEFAULT, 'd')")
    q(s, "INSERT INTO t (name) SELECT 'e'")
    assert q(s, "SELECT * FROM t ORDER BY id") == [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e")]
    assert error_code(s, "ALTER TABLE t ADD COLUMN id2 int DEFAULT nextval(seq)") == 1132  # t has rows
    q(s, "DELETE FROM t")
    q(s, "ALTER TABLE t ADD COLUMN id2 int DEFAULT nextval(seq)")
    q(s, "INSERT INTO t (name) VALUES ('x')")
    assert q(s, "SELECT * FROM t") == [(6, "x", 7)]
    assert q(s, "DESC t")[0][3] == "nextval(seq)"


def test_privileges_are_super():
    db = engine.Database()
    root = db.session()
    q(root, "CREATE USER u IDENTIFIED BY 'p'")
    q(root, "CREATE SEQUENCE seq")
    user = db.session(user="u")
    for sql in ["CREATE SEQUENCE s2", "DROP SEQUENCE seq", "DESC SEQUENCE seq", "SHOW SEQUENCES"]:
        assert error_code(user, sql) == 1063
    q(root, "GRANT SUPER ON *.* TO u")
    q(user, "DESC SEQUENCE seq")


def _crash(db) -> None:
    db.durability.writer.close()
    os.close(db.durability._lock_file)
    db.durability = None


def test_values_handed_out_are_never_reused_after_a_crash(tmp_path, monkeypatch):
    monkeypatch.setattr(routines, "SEQUENCE_RESERVE", 10)  # several reservations in one query
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE SEQUENCE seq START = 5 INCREMENT = 2")
    q(s, "CREATE TABLE t(id bigint DEFAULT nextval(seq), name string)")
    seen = [r[0] for r in q(s, "SELECT nextval(seq) FROM numbers(25)")]  # a SELECT is logged too
    q(s, "INSERT INTO t (name) VALUES ('a')")
    seen += [r[0] for r in q(s, "SELECT id FROM t")]
    assert seen == list(range(5, 5 + 2 * 26, 2))
    _crash(db)
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    after = q(s, "SELECT nextval(seq)")[0][0]
    assert after > max(seen) and (after - 5) % 2 == 0
    q(s, "INSERT INTO t (name) VALUES ('b')")  # the column default still names the sequence
    assert q(s, f"SELECT id > {after} FROM t WHERE name = 'b'") == [(True,)]
    db.close()
    db = engine.Database(data_dir=data_dir)  # after a clean close (a checkpoint)
    assert q(db.session(), "SELECT nextval(seq)")[0][0] > after
    db.close()


def test_a_query_without_nextval_logs_nothing(tmp_path):
    db = engine.Database(data_dir=str(tmp_path / "data"))
    s = db.session()
    q(s, "CREATE SEQUENCE seq")
    lsn = db.durability.recorder.last_lsn
    q(s, "SELECT 1")
    assert db.durability.recorder.last_lsn == lsn
    q(s, "SELECT nextval(seq)")
    assert db.durability.recorder.last_lsn == lsn + 1  # one reservation record
    q(s, "SELECT nextval(seq)")
    assert db.durability.recorder.last_lsn == lsn + 1  # within the reserved range: no record
    db.close()
