"""SHOW [FULL] TABLES, SHOW [FULL] COLUMNS, SHOW TABLE STATUS, SHOW ENGINES and the catalog
columns of information_schema (as Databend 1.2.453 answers)."""

import pytest

import engine
from engine.core.errors import EngineError


@pytest.fixture
def s():
    session = engine.Database().session()
    for sql in ["CREATE TABLE t (a INT NOT NULL DEFAULT 3 COMMENT 'x', b VARCHAR)", "INSERT INTO t VALUES (1, 'a')",
                "CREATE TABLE t5 (a INT) CLUSTER BY (a)"]:
        list(session.execute(sql))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def schema(s, sql):
    return [(c.name, c.type) for c in s.execute(sql).schema]


def test_show_full_tables(s):
    assert schema(s, "SHOW FULL TABLES") == [
        ("tables", "String"), ("table_type", "String"), ("database", "String"), ("catalog", "String"),
        ("owner", "Nullable(String)"), ("engine", "String"), ("cluster_by", "String"), ("create_time", "Timestamp"),
        ("num_rows", "Nullable(UInt64)"), ("data_size", "Nullable(UInt64)"),
        ("data_compressed_size", "Nullable(UInt64)"), ("index_size", "Nullable(UInt64)")]
    full = rows(s, "SHOW FULL TABLES LIKE 't5'")
    assert [r[:7] + r[8:] for r in full] == [("t5", "BASE TABLE", "default", "default", "public", "FUSE", "(a)",
                                              0, 0, 0, 0)]
    assert [r[:7] + r[8:] for r in rows(s, "SHOW FULL TABLES FROM system LIKE 'one'")] == [
        ("one", "BASE TABLE", "system", "default", None, "SystemOne", "", None, None, None, None)]
    assert rows(s, "SHOW TABLES") == [("t",), ("t5",)]
    assert schema(s, "SHOW TABLES FROM system")[0] == ("Tables_in_system", "String")


def test_show_columns(s):
    assert rows(s, "SHOW COLUMNS FROM t") == [("a", "INT", "NO", "3", None, None),
                                              ("b", "VARCHAR", "YES", "", None, None)]
    assert schema(s, "SHOW COLUMNS FROM t") == [("Field", "String"), ("Type", "String"), ("Null", "String"),
                                                ("Default", "String"), ("Extra", "NULL"), ("Key", "NULL")]
    assert rows(s, "SHOW FULL COLUMNS FROM t") == [("a", "INT", "NO", "3", None, None, None, None, "'x'"),
                                                   ("b", "VARCHAR", "YES", "", None, None, None, None, "")]
    assert [n for n, _ in schema(s, "SHOW FULL COLUMNS FROM t")][6:] == ["Collation", "Privileges", "Comment"]
    assert rows(s, "SHOW COLUMNS FROM t FROM default LIKE 'b'") == [("b", "VARCHAR", "YES", "", None, None)]
    assert rows(s, "SHOW COLUMNS IN one FROM system") == [("dummy", "TINYINT UNSIGNED", "NO", "", None, None)]
    with pytest.raises(EngineError) as info:
        rows(s, "SHOW COLUMNS FROM nope")
    assert info.value.code == 1025


def test_show_table_status(s):
    assert schema(s, "SHOW TABLE STATUS") == [
        ("name", "String"), ("engine", "String"), ("version", "UInt8"), ("row_format", "NULL"),
        ("rows", "Nullable(UInt64)"), ("avg_row_length", "NULL"), ("data_length", "Nullable(UInt64)"),
        ("max_data_length", "NULL"), ("index_length", "Nullable(UInt64)"), ("data_free", "NULL"),
        ("auto_increment", "NULL"), ("create_time", "Timestamp"), ("update_time", "NULL"), ("check_time", "NULL"),
        ("collation", "NULL"), ("checksum", "NULL"), ("comment", "String"), ("cluster_by", "String")]
    status = rows(s, "SHOW TABLE STATUS LIKE 't%'")
    assert [(r[0], r[1], r[2], r[4], r[16], r[17]) for r in status] == [
        ("t", "FUSE", 0, 1, "", ""), ("t5", "FUSE", 0, 0, "", "(a)")]


def test_show_engines(s):
    assert rows(s, "SHOW ENGINES") == [
        ("DELTA", "DELTA Storage Engine"), ("FUSE", "FUSE Storage Engine"), ("ICEBERG", "ICEBERG Storage Engine"),
        ("MEMORY", "MEMORY Storage Engine"), ("NULL", "NULL Storage Engine"), ("RANDOM", "RANDOM Storage Engine"),
        ("STREAM", "STREAM Storage Engine"), ("VIEW", "VIEW Storage (LOGICAL VIEW)")]
    assert schema(s, "SHOW ENGINES") == [("Engine", "String"), ("Comment", "String")]


def test_information_schema_catalog_is_the_database(s):
    rows(s, "CREATE DATABASE d")
    rows(s, "CREATE TABLE d.x (a INT)")
    assert rows(s, "SELECT table_catalog, table_schema, table_name FROM information_schema.tables "
                   "WHERE table_schema <> 'system' ORDER BY table_schema, table_name") == [
        ("d", "d", "x"), ("default", "default", "t"), ("default", "default", "t5")]
    assert rows(s, "SELECT DISTINCT table_catalog FROM information_schema.tables WHERE table_schema = 'system'") == [
        ("system",)]
    assert rows(s, "SELECT catalog_name, schema_name FROM information_schema.schemata WHERE schema_name = 'd'") == [
        ("d", "d")]
