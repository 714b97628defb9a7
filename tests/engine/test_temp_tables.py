"""Temporary tables (CREATE TEMP TABLE): answers of Databend's
tests/sqllogictests/suites/http_handler/temp_table/*.test, shadowing, invisibility to other sessions,
the commit point and transactions, memory accounting, and nothing of them in the data directory."""

import pytest

import engine
from engine.core.errors import MEMORY_EXCEEDS_LIMIT
from engine.core.limits import Limits


def rows(session, sql):
    return list(session.execute(sql))


def code_of(session, sql) -> int:
    with pytest.raises(engine.EngineError) as caught:
        rows(session, sql)
    return caught.value.code


@pytest.fixture
def db():
    return engine.Database()


@pytest.fixture
def s(db):
    return db.session()


def test_create_temp_tables_test(s):
    """create_temp_tables.test and temp_memory_tables.test, the statements the engine has."""
    rows(s, "CREATE TEMPORARY TABLE t(c1 int) ")
    rows(s, "CREATE TEMP TABLE IF NOT EXISTS t(c1 int) engine=MEMORY")
    assert code_of(s, "CREATE TEMP TABLE t(c1 int) ") == 2302
    rows(s, "create temp table t2(a int,b int) Engine = Fuse")
    rows(s, "insert into t2 values(1,1),(2,2)")
    assert rows(s, "select a+b from t2") == [(2,), (4,)]
    assert code_of(s, "create temp table t2(a int,b int) Engine = Fuse") == 2302
    assert code_of(s, "create temp table t2(a INT auto_increment)") == 1005
    assert code_of(s, "create temp table t3(a int,b int) engine=null") == 1006
    assert code_of(s, "create temp table t_with_wrong_engine_desc(id int) engine=abc") == 1005
    rows(s, "CREATE DATABASE db1")
    rows(s, "CREATE DATABASE db2")
    rows(s, "CREATE TEMP TABLE db1.test1(a INT not null, b INT null) Engine = Fuse")
    rows(s, "INSERT INTO db1.test1 VALUES (1, 2), (2, 3), (3, 4)")
    assert rows(s, "select * from db1.test1") == [(1, 2), (2, 3), (3, 4)]
    rows(s, "CREATE TEMP TABLE db2.test2 LIKE db1.test1 ENGINE=fuse")
    rows(s, "INSERT INTO db2.test2 VALUES (3, 5)")
    assert rows(s, "SELECT a+b FROM db2.test2") == [(8,)]
    assert rows(s, "DESCRIBE db2.test2") == [("a", "INT", "NO", "NULL", ""), ("b", "INT", "YES", "NULL", "")]
    rows(s, "CREATE TEMP TABLE db2.test3(a Varchar null, y Varchar null) ENGINE=fuse AS SELECT * FROM db1.test1")
    assert rows(s, "SELECT a FROM db2.test3") == [("1",), ("2",), ("3",)]
    rows(s, "CREATE TEMP TABLE db2.test4(a Varchar null, y Varchar null) ENGINE=fuse AS SELECT b, a FROM db1.test1")
    rows(s, "CREATE TEMP TABLE if not exists db2.test4 AS SELECT b, a FROM db1.test1")
    assert rows(s, "SELECT a FROM db2.test4") == [("2",), ("3",), ("4",)]
    rows(s, "create temp table db2.test6(id Int8 not null, a Int8 not null DEFAULT 1 + 2)")
    rows(s, "INSERT INTO db2.test6 (id) VALUES (1)")
    assert rows(s, "SELECT id, a FROM db2.test6") == [(1, 3)]
    assert code_of(s, "CREATE TEMP TABLE system.test(a INT)") == 1002
    assert code_of(s, "CREATE TEMP TABLE nodb.test(a INT)") == 1003


def test_atomic_ctas_and_or_replace(s):
    assert code_of(s, "create temp table t as select number/0 from numbers(1)") == 1006
    assert code_of(s, "select * from t") == 1025
    assert rows(s, "select count(*) from system.temporary_tables where is_current_session = true") == [(0,)]
    rows(s, "create or replace temp table t as select * from numbers(1)")
    assert code_of(s, "create or replace temp table t as select number/0 from numbers(2)") == 1006
    assert rows(s, "select * from t order by number") == [(0,)]
    rows(s, "create or replace temp table t as select * from numbers(2)")
    assert rows(s, "select count(*) from t") == [(2,)]
    rows(s, "create temp table if not exists t as select * from numbers(100)")
    assert rows(s, "select count(*) from t") == [(2,)]


def test_writes_and_ddl_on_a_temp_table(s):
    rows(s, "CREATE TEMP TABLE t (a INT NOT NULL, b VARCHAR)")
    rows(s, "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
    rows(s, "UPDATE t SET b = 'yy' WHERE a = 2")
    rows(s, "DELETE FROM t WHERE a = 3")
    rows(s, "MERGE INTO t USING (SELECT 1 AS a, 'm' AS b UNION ALL SELECT 4, 'n') s ON t.a = s.a "
            "WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT *")
    rows(s, "INSERT ALL INTO t SELECT 5, 'p'")
    rows(s, "REPLACE INTO t ON (a) VALUES (5, 'q')")
    assert rows(s, "SELECT * FROM t ORDER BY a") == [(1, "m"), (2, "yy"), (4, "n"), (5, "q")]
    rows(s, "ALTER TABLE t ADD COLUMN c INT DEFAULT 7")
    rows(s, "ALTER TABLE t RENAME COLUMN b TO bb")
    assert rows(s, "SELECT a, bb, c FROM t WHERE a = 1") == [(1, "m", 7)]
    assert rows(s, "SHOW CREATE TABLE t") == [
        ("t", "CREATE TEMP TABLE t (\n  a INT NOT NULL,\n  bb VARCHAR NULL,\n  c INT NULL DEFAULT 7\n) ENGINE=FUSE")]
    rows(s, "RENAME TABLE t TO t1")
    assert code_of(s, "DROP TABLE t") == 1025
    rows(s, "CREATE TEMP TABLE t2 (c INT)")
    assert code_of(s, "RENAME TABLE t1 TO t2") == 2302
    assert code_of(s, "RENAME TABLE t1 TO system.t1") == 1006
    rows(s, "TRUNCATE TABLE t1")
    assert rows(s, "SELECT count(*) FROM t1") == [(0,)]
    rows(s, "DROP TABLE t1")
    assert code_of(s, "DROP TABLE t1") == 1025
    rows(s, "DROP TABLE IF EXISTS t1")


def test_a_temp_table_shadows_a_table_for_its_session_only(db, s):
    rows(s, "CREATE TABLE t (a INT)")
    rows(s, "INSERT INTO t VALUES (1)")
    rows(s, "CREATE TEMP TABLE t (a INT, b INT)")
    rows(s, "INSERT INTO t VALUES (2, 2)")
    other = db.session()
    assert rows(s, "SELECT * FROM t") == [(2, 2)]
    assert rows(other, "SELECT * FROM t") == [(1,)]
    assert rows(other, "SELECT count(*) FROM system.temporary_tables") == [(0,)]
    rows(s, "DROP TABLE t")  # the temporary one
    assert rows(s, "SELECT * FROM t") == [(1,)]


def test_temporary_tables_table(db, s):
    """temporary_tables_table.test's rows (num_segments and num_blocks stay NULL: no blocks)."""
    rows(s, "CREATE TEMP TABLE t0(a int not null, b int not null)")
    rows(s, "CREATE OR REPLACE DATABASE d1")
    rows(s, "CREATE TEMP TABLE d1.t1(a int not null, b int not null)")
    rows(s, "CREATE OR REPLACE DATABASE d2")
    rows(s, "CREATE TEMP TABLE d2.t2(a int not null, b int not null) ENGINE = Memory")
    rows(s, "INSERT INTO d2.t2 VALUES (1, 2), (3, 4)")
    query = ("select database, name, engine, user, num_rows, num_segments, num_blocks from system.temporary_tables "
             "where is_current_session = true order by database, name")
    assert rows(s, query) == [("d1", "t1", "FUSE", "root", 0, None, None), ("d2", "t2", "MEMORY", "root", 2, None, None),
                              ("default", "t0", "FUSE", "root", 0, None, None)]
    result = s.execute("SELECT * FROM system.temporary_tables")
    assert [(c.name, c.type) for c in result.schema] == [
        ("database", "String"), ("name", "String"), ("table_id", "UInt64"), ("engine", "String"), ("user", "String"),
        ("session_id", "String"), ("session_type", "String"), ("is_current_session", "Boolean"),
        ("created_on", "Timestamp"), ("updated_on", "Timestamp"), ("compressed_data_bytes", "UInt64"),
        ("index_data_bytes", "UInt64"), ("num_rows", "UInt64"), ("num_segments", "Nullable(UInt64)"),
        ("num_blocks", "Nullable(UInt64)"), ("node", "String")]
    rows(s, "drop table d2.t2")
    assert [r[:2] for r in rows(s, query)] == [("d1", "t1"), ("default", "t0")]
    assert rows(s, "SELECT name FROM system.tables WHERE database = 'd1'") == [("t1",)]
    assert rows(s, "SELECT name, type FROM system.columns WHERE table = 't0' ORDER BY name") == [
        ("a", "Int32"), ("b", "Int32")]
    assert rows(db.session(), "SELECT count(*) FROM system.tables WHERE database = 'd1'") == [(0,)]
    rows(s, "DROP DATABASE d1")  # takes the session's temporary tables in it along
    rows(s, "CREATE DATABASE d1")
    assert code_of(s, "SELECT * FROM d1.t1") == 1025


def test_an_attached_container_is_shared_by_the_requests_of_one_client(db):
    container = engine.TempTables(session_id="client-1")
    first, second, stranger = db.session(), db.session(), db.session()
    first.temp_tables = container
    rows(first, "CREATE TEMP TABLE t (a INT)")
    rows(first, "INSERT INTO t VALUES (1)")
    second.temp_tables = container
    assert rows(second, "SELECT * FROM t") == [(1,)]
    assert rows(second, "SELECT session_id, session_type FROM system.temporary_tables") == [("client-1", "HTTPQuery")]
    assert code_of(stranger, "SELECT * FROM t") == 1025
    assert not container.is_empty()
    container.drop_all()
    assert container.is_empty()
    assert code_of(second, "SELECT * FROM t") == 1025


def test_transactions_on_temp_tables(db, s):
    rows(s, "CREATE TABLE shared (a INT)")
    rows(s, "CREATE TEMP TABLE t (a INT)")
    rows(s, "BEGIN")
    rows(s, "INSERT INTO t VALUES (1)")
    rows(s, "INSERT INTO shared VALUES (1)")
    assert rows(s, "SELECT count(*) FROM t") == [(1,)]
    rows(s, "ROLLBACK")
    assert rows(s, "SELECT count(*) FROM t") == [(0,)]
    rows(s, "BEGIN")
    rows(s, "INSERT INTO t VALUES (2), (3)")
    rows(s, "DELETE FROM t WHERE a = 2")
    rows(s, "INSERT INTO shared VALUES (2)")
    rows(s, "COMMIT")
    assert rows(s, "SELECT * FROM t") == [(3,)]
    assert rows(db.session(), "SELECT * FROM shared") == [(2,)]
    rows(s, "BEGIN")
    rows(s, "UPDATE t SET a = 30")
    assert code_of(s, "SELECT 1/0") == 1006  # a failed statement fails the transaction
    rows(s, "COMMIT")
    assert rows(s, "SELECT * FROM t") == [(3,)]


def test_temp_tables_count_against_the_server_memory(db):
    budget = 200_000
    small = engine.Database(limits=Limits(server_memory_bytes=budget))
    s = small.session()
    rows(s, "CREATE TEMP TABLE t (a INT)")
    rows(s, "INSERT INTO t SELECT number FROM numbers(1000)")
    held = s.temp_tables.held_bytes
    assert held > 0 and small.memory.used == held
    # 100,000 more: past the budget in either storage (an INT in a column array costs 4 bytes)
    assert code_of(s, "INSERT INTO t SELECT number FROM numbers(100000)") == MEMORY_EXCEEDS_LIMIT
    assert rows(s, "SELECT count(*) FROM t") == [(1000,)]  # nothing changed
    assert small.memory.used == held
    assert code_of(s, "CREATE TEMP TABLE u AS SELECT number FROM numbers(100000)") == MEMORY_EXCEEDS_LIMIT
    assert code_of(s, "SELECT * FROM u") == 1025
    rows(s, "DELETE FROM t WHERE a >= 500")
    assert 0 < small.memory.used < held
    rows(s, "DROP TABLE t")
    assert small.memory.used == 0


def test_a_user_needs_no_privilege_for_its_temp_tables(db):
    root = db.session()
    rows(root, "CREATE USER u IDENTIFIED BY 'p'")
    rows(root, "CREATE TABLE secret (a INT)")
    user = db.session(user="u")
    rows(user, "CREATE TEMP TABLE mine (a INT)")
    rows(user, "INSERT INTO mine VALUES (1)")
    assert rows(user, "SELECT * FROM mine") == [(1,)]
    rows(user, "DROP TABLE mine")
    assert code_of(user, "CREATE TABLE t (a INT)") == 1063
    assert code_of(user, "SELECT * FROM secret") == 1063


def test_nothing_of_temp_tables_reaches_the_data_directory(tmp_path):
    with engine.Database(data_dir=str(tmp_path)) as db:
        s = db.session()
        rows(s, "CREATE TABLE kept (a INT)")
        lsn = db.durability.recorder.last_lsn
        rows(s, "CREATE TEMP TABLE t (a INT)")
        rows(s, "INSERT INTO t VALUES (1), (2)")
        rows(s, "UPDATE t SET a = 3")
        rows(s, "ALTER TABLE t ADD COLUMN b INT")
        rows(s, "RENAME TABLE t TO t2")
        rows(s, "TRUNCATE TABLE t2")
        rows(s, "DROP TABLE t2")
        rows(s, "CREATE TEMP TABLE t3 AS SELECT 1 AS x")
        assert db.durability.recorder.last_lsn == lsn  # no record: nothing waits for an fsync
        rows(s, "INSERT INTO kept VALUES (1)")
        assert db.durability.recorder.last_lsn > lsn
    with engine.Database(data_dir=str(tmp_path)) as db:
        s = db.session()
        assert rows(s, "SELECT * FROM kept") == [(1,)]
        assert code_of(s, "SELECT * FROM t3") == 1025


def test_sequence_values_a_temp_write_reserves_are_still_logged(tmp_path):
    with engine.Database(data_dir=str(tmp_path)) as db:
        s = db.session()
        rows(s, "CREATE SEQUENCE seq")
        rows(s, "CREATE TEMP TABLE t (a BIGINT UNSIGNED)")
        lsn = db.durability.recorder.last_lsn
        rows(s, "INSERT INTO t SELECT nextval(seq) FROM numbers(3)")
        assert db.durability.recorder.last_lsn > lsn  # the sequence's reservation, not the rows
    with engine.Database(data_dir=str(tmp_path)) as db:
        assert rows(db.session(), "SELECT nextval(seq) > 3") == [(True,)]
