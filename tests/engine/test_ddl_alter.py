"""ALTER TABLE ADD / DROP / RENAME / MODIFY COLUMN, ALTER TABLE ... RENAME TO and RENAME TABLE
(answers as Databend 1.2.453 gives them): atomic, and invisible to queries already running."""

import pytest

import engine
from engine.core.errors import EngineError
from engine.core.limits import Limits
from tests.engine.sql_helpers import error_code


@pytest.fixture
def s():
    session = engine.Database().session()
    for sql in ["CREATE TABLE t (a INT, b VARCHAR)", "INSERT INTO t VALUES (1, '10'), (2, 'x')"]:
        list(session.execute(sql))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def desc(s, name="t"):
    return [r[:4] for r in rows(s, f"DESC {name}")]


def test_add_column_with_default_first_and_after(s):
    rows(s, "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 5 AFTER a")
    assert rows(s, "SELECT * FROM t") == [(1, 5, "10"), (2, 5, "x")]
    assert [c.type for c in s.execute("SELECT * FROM t").schema] == ["Nullable(Int32)", "Int32", "Nullable(String)"]
    rows(s, "ALTER TABLE t ADD d VARCHAR FIRST")
    assert desc(s) == [("d", "VARCHAR", "YES", "NULL"), ("a", "INT", "YES", "NULL"), ("c", "INT", "NO", "5"),
                       ("b", "VARCHAR", "YES", "NULL")]
    rows(s, "ALTER TABLE t ADD e INT NULL")
    rows(s, "ALTER TABLE t ADD f INT NOT NULL")
    assert rows(s, "SELECT e, f FROM t") == [(None, 0), (None, 0)]
    # f is NOT NULL without a DEFAULT: an INSERT must give it (oracle: 1006 "null value in
    # column `f` of table `t` violates not-null constraint")
    with pytest.raises(EngineError) as info:
        rows(s, "INSERT INTO t (a) VALUES (3)")
    assert info.value.code == 1006
    rows(s, "INSERT INTO t (a, f) VALUES (3, 7)")
    assert rows(s, "SELECT d, a, c, b, e, f FROM t WHERE a = 3") == [(None, 3, 5, None, None, 7)]


def test_drop_and_rename_column(s):
    rows(s, "ALTER TABLE t ADD COLUMN c INT")
    rows(s, "ALTER TABLE t DROP COLUMN a")
    rows(s, "ALTER TABLE t RENAME COLUMN c TO cc")
    rows(s, "ALTER TABLE t RENAME b TO bb")
    assert [c.name for c in s.execute("SELECT * FROM t").schema] == ["bb", "cc"]
    assert rows(s, "SELECT * FROM t") == [("10", None), ("x", None)]
    rows(s, "ALTER TABLE t DROP bb")
    assert error_code(s, "ALTER TABLE t DROP COLUMN cc") == 1109  # cannot drop table column to empty


def test_modify_column_converts_values(s):
    rows(s, "ALTER TABLE t MODIFY COLUMN a VARCHAR")
    assert rows(s, "SELECT a FROM t") == [("1",), ("2",)]
    rows(s, "ALTER TABLE t MODIFY COLUMN a TINYINT")
    assert rows(s, "SELECT a FROM t") == [(1,), (2,)]
    assert desc(s)[0] == ("a", "TINYINT", "YES", "NULL")
    rows(s, "ALTER TABLE t MODIFY COLUMN a VARCHAR DEFAULT 'q'")
    assert desc(s)[0] == ("a", "VARCHAR", "YES", "'q'")


@pytest.mark.parametrize("sql, code", [
    ("ALTER TABLE t MODIFY COLUMN b INT", 1006),          # 'x' is not a number: nothing changes
    ("ALTER TABLE t MODIFY COLUMN a INT NOT NULL", None),  # fine: no NULLs
    ("ALTER TABLE t ADD COLUMN a INT", 1108),             # add column a already exist
    ("ALTER TABLE t ADD COLUMN z INT AFTER nope", 1006),
    ("ALTER TABLE t DROP COLUMN nope", 1006),
    ("ALTER TABLE t RENAME COLUMN nope TO x", 1065),       # rename column not existed
    ("ALTER TABLE t RENAME COLUMN a TO b", 1065),          # new column name existed
    ("ALTER TABLE t MODIFY COLUMN nope INT", 1058),        # Cannot find column nope
    ("ALTER TABLE nope ADD x INT", 1025),
    ("RENAME TABLE nope TO x", 1025),
    ("ALTER TABLE system.one ADD x INT", 1002),
])
def test_errors(s, sql, code):
    if code is None:
        rows(s, sql)
        return
    before = rows(s, "SELECT * FROM t")
    assert error_code(s, sql) == code
    assert rows(s, "SELECT * FROM t") == before


def test_modify_to_a_type_a_value_does_not_fit_changes_nothing(s):
    rows(s, "INSERT INTO t VALUES (300, 'y')")
    assert error_code(s, "ALTER TABLE t MODIFY COLUMN a TINYINT") == 1006
    assert desc(s)[0] == ("a", "INT", "YES", "NULL")
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,), (300,)]


def test_rename_table(s):
    rows(s, "ALTER TABLE t RENAME TO t2")
    assert rows(s, "SELECT count(*) FROM t2") == [(2,)]
    rows(s, "RENAME TABLE t2 TO t3")
    assert rows(s, "SHOW TABLES") == [("t3",)]
    rows(s, "CREATE TABLE t5 (a INT)")
    assert error_code(s, "ALTER TABLE t3 RENAME TO t5") == 2302
    rows(s, "CREATE DATABASE d2")
    assert error_code(s, "RENAME TABLE t3 TO d2.t9") == 1006  # not across databases, as Databend
    rows(s, "RENAME TABLE IF EXISTS nope TO x")
    rows(s, "INSERT INTO t3 VALUES (3, 'z')")
    assert rows(s, "SELECT max(a) FROM t3") == [(3,)]


def test_a_running_query_keeps_reading_its_snapshot(s):
    running = s.execute("SELECT * FROM t ORDER BY a")
    rows(s, "ALTER TABLE t DROP COLUMN b")
    rows(s, "ALTER TABLE t ADD COLUMN c INT DEFAULT 7")
    assert list(running) == [(1, "10"), (2, "x")]
    assert rows(s, "SELECT * FROM t ORDER BY a") == [(1, 7), (2, 7)]


def test_an_update_racing_an_alter_fails_instead_of_losing_either():
    s = engine.Database(limits=Limits(step_rows=10)).session()
    rows(s, "CREATE TABLE w (a INT)")
    rows(s, "INSERT INTO w SELECT number FROM numbers(100)")
    alter = s.execute("ALTER TABLE w ADD COLUMN b INT DEFAULT 1")
    steps = alter.batches()
    assert next(steps) == []  # a first step rewrote 10 rows
    rows(s, "DELETE FROM w WHERE a < 50")
    with pytest.raises(EngineError) as info:
        list(steps)
    assert info.value.code == 2009
    assert rows(s, "SELECT count(*) FROM w") == [(50,)]
    assert [c.name for c in s.execute("SELECT * FROM w").schema] == ["a"]


def test_rows_inserted_while_an_alter_runs_are_kept():
    s = engine.Database(limits=Limits(step_rows=10)).session()
    rows(s, "CREATE TABLE w (a INT)")
    rows(s, "INSERT INTO w SELECT number FROM numbers(100)")
    alter = s.execute("ALTER TABLE w ADD COLUMN b INT DEFAULT 1")
    steps = alter.batches()
    assert next(steps) == []
    rows(s, "INSERT INTO w VALUES (1000)")
    assert list(steps) == [[]] * 9
    assert rows(s, "SELECT count(*), sum(b), max(a) FROM w") == [(101, 101, 1000)]
