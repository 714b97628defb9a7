"""CREATE OR REPLACE TABLE / DATABASE, CREATE TABLE ... LIKE, TRANSIENT, CLUSTER BY and UNDROP
TABLE (answers as Databend 1.2.453 gives them)."""

import pytest

import engine
from tests.engine.sql_helpers import error_code


@pytest.fixture
def s():
    return engine.Database().session()


def rows(s, sql):
    return list(s.execute(sql))


def create_text(s, name):
    return rows(s, f"SHOW CREATE TABLE {name}")[0][1]


def test_cluster_by_transient_and_comment_in_show_create_and_system_tables(s):
    rows(s, "CREATE TABLE t (a INT NOT NULL, b VARCHAR DEFAULT 'x' COMMENT 'cb') CLUSTER BY (a, b) COMMENT='tc'")
    assert create_text(s, "t") == ("CREATE TABLE t (\n  a INT NOT NULL,\n  b VARCHAR NULL DEFAULT 'x' COMMENT 'cb'\n"
                                   ") ENGINE=FUSE CLUSTER BY (a, b) COMMENT = 'tc'")
    rows(s, "CREATE TRANSIENT TABLE tt (a INT)")
    assert create_text(s, "tt") == "CREATE TRANSIENT TABLE tt (\n  a INT NULL\n) ENGINE=FUSE"
    assert rows(s, "SELECT name, cluster_by, is_transient, engine, engine_full FROM system.tables "
                   "WHERE database = 'default' ORDER BY name") == [
        ("t", "(a, b)", "", "FUSE", "FUSE"), ("tt", "", "TRANSIENT", "FUSE", "FUSE")]


def test_create_table_like_copies_columns_not_rows_cluster_or_comment(s):
    rows(s, "CREATE TABLE t (a INT NOT NULL, b VARCHAR DEFAULT 'x' COMMENT 'cb') CLUSTER BY (a) COMMENT='tc'")
    rows(s, "INSERT INTO t VALUES (1, 'q')")
    rows(s, "CREATE TABLE t3 LIKE t")
    assert create_text(s, "t3") == "CREATE TABLE t3 (\n  a INT NOT NULL,\n  b VARCHAR NULL DEFAULT 'x' COMMENT 'cb'\n) ENGINE=FUSE"
    assert rows(s, "SELECT count(*) FROM t3") == [(0,)]
    assert error_code(s, "CREATE TABLE t5 LIKE nope") == 1025
    assert error_code(s, "CREATE TABLE t LIKE t3") == 2302


def test_create_or_replace_table(s):
    rows(s, "CREATE TABLE t3 (a INT)")
    rows(s, "INSERT INTO t3 VALUES (1)")
    rows(s, "CREATE OR REPLACE TABLE t3 (z INT)")
    assert create_text(s, "t3") == "CREATE TABLE t3 (\n  z INT NULL\n) ENGINE=FUSE"
    assert rows(s, "SELECT count(*) FROM t3") == [(0,)]
    rows(s, "CREATE OR REPLACE TABLE t3 AS SELECT 1 AS q")
    assert rows(s, "SELECT * FROM t3") == [(1,)]
    rows(s, "CREATE OR REPLACE TRANSIENT TABLE t4 AS SELECT 2 AS q")
    assert create_text(s, "t4") == "CREATE TRANSIENT TABLE t4 (\n  q TINYINT UNSIGNED NOT NULL\n) ENGINE=FUSE"
    assert error_code(s, "CREATE OR REPLACE TABLE IF NOT EXISTS t4 (a INT)") == 1005


def test_a_failing_replace_leaves_the_old_table(s):
    rows(s, "CREATE TABLE t (a INT)")
    rows(s, "INSERT INTO t VALUES (1), (2)")
    assert error_code(s, "CREATE OR REPLACE TABLE t AS SELECT 1 / 0 > 1 AS x, CAST('z' AS INT) AS y") == 1006
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]


def test_a_query_running_on_a_replaced_table_keeps_its_rows(s):
    rows(s, "CREATE TABLE t (a INT)")
    rows(s, "INSERT INTO t VALUES (1), (2)")
    running = s.execute("SELECT a FROM t ORDER BY a")
    rows(s, "CREATE OR REPLACE TABLE t AS SELECT 9 AS a")
    assert list(running) == [(1,), (2,)]
    assert rows(s, "SELECT a FROM t") == [(9,)]


def test_undrop_table_brings_back_the_last_dropped_version(s):
    rows(s, "CREATE TABLE t (a INT)")
    rows(s, "INSERT INTO t VALUES (1)")
    rows(s, "DROP TABLE t")
    rows(s, "CREATE TABLE t (b VARCHAR)")
    rows(s, "INSERT INTO t VALUES ('second')")
    assert error_code(s, "UNDROP TABLE t") == 2308  # Undrop Table 't' already exists
    rows(s, "DROP TABLE t")
    rows(s, "UNDROP TABLE t")
    assert rows(s, "SELECT * FROM t") == [("second",)]
    assert error_code(s, "UNDROP TABLE nope") == 2309  # has no table id list


def test_create_or_replace_database(s):
    rows(s, "CREATE DATABASE d1")
    rows(s, "CREATE TABLE d1.t (a INT)")
    rows(s, "CREATE OR REPLACE DATABASE d1")
    assert rows(s, "SHOW TABLES FROM d1") == []
    rows(s, "CREATE OR REPLACE DATABASE d2")
    assert error_code(s, "CREATE DATABASE d1") == 2301
    assert error_code(s, "CREATE OR REPLACE DATABASE IF NOT EXISTS d1") == 1005
    assert rows(s, "SHOW CREATE DATABASE d1") == [("d1", "CREATE DATABASE `d1` ENGINE=DEFAULT")]
    assert [c.name for c in s.execute("SHOW CREATE DATABASE default").schema] == ["Database", "Create Database"]
    assert error_code(s, "SHOW CREATE DATABASE nope") == 1003
