"""ALTER DATABASE ... RENAME TO / REFRESH CACHE, [catalog.]database names, EXISTS TABLE, DESC
VIEW and SHOW CREATE TABLE's quoted names, as Databend's suite (base/05_ddl) answers them."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q


def _db_with_two_databases():
    db = engine.Database()
    s = db.session()
    for sql in ("CREATE DATABASE a", "CREATE DATABASE b", "CREATE TABLE a.t1 (id INT)",
                "INSERT INTO a.t1 VALUES (1)", "USE a", "CREATE VIEW v AS SELECT id + 1 AS n FROM t1"):
        q(s, sql)
    return db, s


def test_rename_database_moves_its_tables_and_views():
    db, s = _db_with_two_databases()
    q(s, "USE a")
    q(s, "ALTER DATABASE a RENAME TO a2")
    assert q(s, "SELECT * FROM a2.t1") == [(1,)]
    # the view moved with its database (its query still names what it named when created)
    assert q(s, "SELECT name FROM system.views WHERE database = 'a2'") == [("v",)]
    assert q(s, "SELECT name FROM system.databases WHERE name LIKE 'a%' ORDER BY name") == [("a2",)]
    assert error_code(s, "SELECT * FROM a.t1") == 1003
    q(s, "INSERT INTO a2.t1 VALUES (5)")  # the moved table takes writes
    assert q(s, "SELECT count(*) FROM a2.t1") == [(2,)]
    q(s, "ALTER DATABASE default.b RENAME TO b2")  # the catalog may be written
    assert q(s, "SHOW DATABASES LIKE 'b%'") == [("b2",)]


def test_rename_database_refusals_as_databend():
    db, s = _db_with_two_databases()
    assert error_code(s, "ALTER DATABASE c RENAME TO a") == 1003
    q(s, "ALTER DATABASE IF EXISTS c RENAME TO a")  # nothing to rename
    assert error_code(s, "ALTER DATABASE a RENAME TO b") == 2301
    assert error_code(s, "ALTER DATABASE IF EXISTS a RENAME TO b") == 2301
    assert error_code(s, "ALTER DATABASE system RENAME TO c") == 1002
    assert error_code(s, "ALTER DATABASE IF EXISTS system RENAME TO c") == 1002
    assert error_code(s, "ALTER DATABASE b RENAME TO system") == 1002
    assert error_code(s, "ALTER DATABASE nocat.b RENAME TO c") == 1119
    q(s, "ALTER DATABASE a REFRESH CACHE")
    q(s, "ALTER TABLE a.t1 REFRESH CACHE")


def test_renamed_database_survives_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    for sql in ("CREATE DATABASE a", "CREATE TABLE a.t1 (id INT)", "INSERT INTO a.t1 VALUES (1), (2)",
                "ALTER DATABASE a RENAME TO a2", "INSERT INTO a2.t1 VALUES (3)"):
        q(s, sql)
    db.close()
    again = engine.Database(data_dir=data_dir)
    s = again.session()
    assert q(s, "SELECT id FROM a2.t1 ORDER BY id") == [(1,), (2,), (3,)]
    assert error_code(s, "SELECT * FROM a.t1") == 1003
    again.close()


def test_catalog_names_and_system_databases():
    s = engine.Database().session()
    assert error_code(s, "CREATE DATABASE catalog_not_exist.t") == 1119
    assert error_code(s, "CREATE SCHEMA catalog_not_exist.t") == 1119
    q(s, "CREATE DATABASE default.d1")
    assert error_code(s, "DROP DATABASE system") == 1002
    assert error_code(s, "DROP SCHEMA system") == 1002
    assert error_code(s, "DROP TABLE catalog_error.database_error.t") == 1119
    q(s, "DROP TABLE IF EXISTS catalog_error.database_error.t")
    assert error_code(s, "DROP TABLE system.abc") == 1025
    q(s, "DROP TABLE IF EXISTS system.abc")
    assert error_code(s, "ALTER TABLE system.abc DROP COLUMN c1") == 1025
    assert error_code(s, "DROP TABLE system.tables") == 1002


def test_exists_table():
    s = engine.Database().session()
    assert q(s, "EXISTS TABLE t") == [(0,)]
    q(s, "CREATE TABLE t (c1 INT)")
    assert q(s, "EXISTS TABLE t") == [(1,)]
    assert q(s, "EXISTS TABLE default.T") == [(1,)]
    assert q(s, "EXISTS TABLE nodb.t") == [(0,)]
    q(s, "DROP TABLE t ALL")
    assert q(s, "EXISTS TABLE t") == [(0,)]


def test_show_create_table_quotes_names_that_need_it():
    s = engine.Database().session()
    q(s, 'CREATE TABLE `05_t` (col1 INT, "col 1" VARCHAR, "Up" INT, ok$ INT)')
    text = q(s, "SHOW CREATE TABLE `05_t`")[0][1]
    assert text.startswith('CREATE TABLE "05_t" (\n  col1 INT NULL,\n  "col 1" VARCHAR NULL,\n  "Up" INT NULL,\n'
                           '  ok$ INT NULL\n)')
    q(s, "SET sql_dialect = 'mysql'")
    assert q(s, "SHOW CREATE TABLE `05_t`")[0][1].startswith("CREATE TABLE `05_t` (\n  col1 INT NULL,\n  `col 1`")
