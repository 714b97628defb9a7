"""Views: CREATE [OR REPLACE] VIEW, ALTER VIEW, DROP VIEW, SHOW VIEWS / CREATE VIEW, DESCRIBE,
and views in the system and information_schema tables (answers as Databend 1.2.453 gives them,
unless said otherwise)."""

import pytest

import engine
from engine.core.errors import EngineError
from tests.engine.sql_helpers import error_code


@pytest.fixture
def s():
    session = engine.Database().session()
    for sql in ["CREATE TABLE t (a INT, b VARCHAR)", "INSERT INTO t VALUES (1, 'x'), (2, 'y')"]:
        list(session.execute(sql))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def schema(s, sql):
    return [(c.name, c.type) for c in s.execute(sql).schema]


def test_a_view_reads_the_current_rows_of_its_tables(s):
    rows(s, "CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1")
    assert rows(s, "SELECT * FROM v") == [(2, "y")]
    assert schema(s, "SELECT * FROM v") == [("a", "Nullable(Int32)"), ("b", "Nullable(String)")]
    rows(s, "INSERT INTO t VALUES (3, 'z')")
    assert rows(s, "SELECT * FROM v ORDER BY a") == [(2, "y"), (3, "z")]
    assert rows(s, "SELECT count(*) FROM v JOIN t USING (a)") == [(2,)]


def test_view_column_list_view_over_view_and_alter_view(s):
    rows(s, "CREATE VIEW v AS SELECT a, b FROM t")
    rows(s, "CREATE VIEW v2 (x, y) AS SELECT * FROM v")
    assert schema(s, "SELECT * FROM v2") == [("x", "Nullable(Int32)"), ("y", "Nullable(String)")]
    assert rows(s, "SELECT x FROM v2 ORDER BY x") == [(1,), (2,)]
    rows(s, "ALTER VIEW v2 (p) AS SELECT 1")
    assert rows(s, "SELECT * FROM v2") == [(1,)]
    assert schema(s, "SELECT * FROM v2") == [("p", "UInt8")]


def test_create_or_replace_and_if_not_exists(s):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    rows(s, "CREATE VIEW IF NOT EXISTS v AS SELECT 1")  # kept as it was
    assert rows(s, "SELECT * FROM v ORDER BY a") == [(1,), (2,)]
    rows(s, "CREATE OR REPLACE VIEW v AS SELECT 1 AS z")
    assert rows(s, "SELECT * FROM v") == [(1,)]
    assert schema(s, "SELECT * FROM v") == [("z", "UInt8")]


@pytest.mark.parametrize("sql, code", [
    ("CREATE VIEW v AS SELECT 1", 2306),         # 'v' as view Already Exists
    ("CREATE VIEW t AS SELECT 1", 2306),         # a table of that name
    ("CREATE TABLE v (a INT)", 2302),
    ("DROP TABLE v", 1302),                      # engine is VIEW that doesn't support drop
    ("DROP VIEW t", 1302),                       # default.t is not VIEW
    ("DROP VIEW nope", 1025),
    ("ALTER VIEW nope AS SELECT 1", 1026),
    ("CREATE VIEW w AS SELECT * FROM nope", 1025),  # the query is checked at creation
    ("INSERT INTO v VALUES (1)", 1002),
    ("CREATE OR REPLACE VIEW IF NOT EXISTS w AS SELECT 1", 1005),
])
def test_errors(s, sql, code):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    assert error_code(s, sql) == code


def test_drop_view(s):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    rows(s, "DROP VIEW IF EXISTS nope")
    rows(s, "DROP VIEW v")
    assert error_code(s, "SELECT * FROM v") == 1025


def test_a_broken_view_names_itself_in_the_error(s):
    rows(s, "CREATE VIEW v AS SELECT a, b FROM t")
    rows(s, "ALTER TABLE t RENAME COLUMN b TO c")
    with pytest.raises(EngineError) as info:
        list(s.execute("SELECT * FROM v"))
    assert info.value.code == error_code(s, "SELECT b FROM t")  # the code of the same error outside
    assert "`default`.`v`" in info.value.message


def test_create_table_like_a_system_table(s):
    rows(s, "CREATE TABLE kw LIKE information_schema.keywords")
    assert rows(s, "SELECT count(*) FROM kw") == [(0,)]
    assert [r[0] for r in rows(s, "DESC kw")] == [c.name for c in s.execute(
        "SELECT * FROM information_schema.keywords LIMIT 0").schema]


def test_a_view_cycle_is_an_error_not_a_recursion(s):
    rows(s, "CREATE VIEW v1 AS SELECT a FROM t")
    rows(s, "CREATE VIEW v2 AS SELECT a FROM v1")
    with pytest.raises(EngineError) as info:
        list(s.execute("CREATE OR REPLACE VIEW v1 AS SELECT a FROM v2"))
    # Databend's ViewDependencyError (base/05_ddl/05_0019_ddl_create_view.test)
    assert info.value.code == 1029 and "View dependency loop detected (view: default.v1)" in info.value.message
    with pytest.raises(EngineError) as info:
        list(s.execute("CREATE OR REPLACE VIEW v1 AS SELECT (SELECT a FROM v2 LIMIT 1)"))
    assert info.value.code == 1029
    assert rows(s, "SELECT * FROM v2 ORDER BY a") == [(1,), (2,)]  # v1 is unchanged


def test_names_in_a_view_resolve_in_the_views_database(s):
    rows(s, "CREATE DATABASE d")
    rows(s, "CREATE TABLE d.t (z INT)")
    rows(s, "INSERT INTO d.t VALUES (7)")
    rows(s, "CREATE VIEW d.v AS SELECT z FROM t")
    assert rows(s, "SELECT * FROM d.v") == [(7,)]  # d.t, though the session is in default


def test_show_create_and_show_views(s):
    rows(s, "CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1;")
    rows(s, "CREATE VIEW v2 (x, y) AS SELECT * FROM v")
    # the query as Databend 1.2.453 re-prints it, tables qualified by the view's database
    assert rows(s, "SHOW CREATE TABLE v") == [
        ("v", "CREATE VIEW `default`.`v` AS SELECT a, b FROM default.t WHERE a > 1")]
    assert schema(s, "SHOW CREATE TABLE v") == [("Table", "String"), ("Create Table", "String")]
    assert rows(s, "SHOW CREATE VIEW v2") == [
        ("v2", "CREATE VIEW `default`.`v2` AS select * from (SELECT * FROM default.v) v2(x, y)")]
    assert rows(s, "SHOW VIEWS LIKE 'v%'") == [
        ("v", "SELECT a, b FROM default.t WHERE a > 1"), ("v2", "select * from (SELECT * FROM default.v) v2(x, y)")]
    assert schema(s, "SHOW VIEWS") == [("Views_in_default", "String"), ("view_query", "String")]
    assert schema(s, "SHOW FULL VIEWS") == [
        ("views", "String"), ("database", "String"), ("catalog", "String"), ("owner", "Nullable(String)"),
        ("engine", "String"), ("create_time", "Timestamp"), ("view_query", "String")]
    assert [r[:5] for r in rows(s, "SHOW FULL VIEWS LIKE 'v'")] == [("v", "default", "default", "public", "VIEW")]


def test_describe_a_view(s):
    rows(s, "CREATE TABLE u (a INT NOT NULL, c DECIMAL(10, 2) NOT NULL)")
    rows(s, "CREATE VIEW v AS SELECT a, c, 'k' AS b FROM u")
    # Default NULL for every column, as current Databend (base/05_ddl/05_0022_ddl_desc_view.test)
    assert rows(s, "DESC v") == [("a", "INT", "NO", "NULL", ""), ("c", "DECIMAL(10, 2)", "NO", "NULL", ""),
                                 ("b", "VARCHAR", "NO", "NULL", "")]
    assert rows(s, "DESC VIEW v") == rows(s, "DESC v")
    assert rows(s, "SHOW COLUMNS FROM v") == [("a", "INT", "NO", "", None, None),
                                              ("c", "DECIMAL(10, 2)", "NO", "", None, None),
                                              ("b", "VARCHAR", "NO", "", None, None)]


def test_views_in_system_and_information_schema(s):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    assert rows(s, "SELECT catalog, database, name, engine, engine_full, view_query FROM system.views") == [
        ("default", "default", "v", "VIEW", "VIEW", "SELECT a FROM default.t")]
    # current Databend fills view_definition with the view's query (1.2.453 left it NULL)
    assert rows(s, "SELECT * FROM information_schema.views") == [
        ("default", "default", "v", "SELECT a FROM default.t", "NONE", 0, False, 0, 0, 0)]
    assert schema(s, "SELECT view_definition FROM information_schema.views") == [("view_definition", "String")]
    # current Databend lists views in system.tables (engine VIEW) and information_schema.tables
    assert rows(s, "SELECT name, engine, table_type FROM system.tables WHERE database = 'default' ORDER BY name") == [
        ("t", "FUSE", "BASE TABLE"), ("v", "VIEW", "VIEW")]
    assert rows(s, "SELECT table_catalog, table_name, table_type, engine FROM information_schema.tables "
                   "WHERE table_schema = 'default' ORDER BY table_name") == [
        ("default", "t", "BASE TABLE", "FUSE"), ("default", "v", "VIEW", "VIEW")]
    assert rows(s, "SHOW TABLES") == [("t",), ("v",)]


def test_drop_database_drops_its_views(s):
    rows(s, "CREATE DATABASE d")
    rows(s, "CREATE VIEW d.v AS SELECT 1")
    rows(s, "DROP DATABASE d")
    rows(s, "CREATE DATABASE d")
    assert rows(s, "SHOW VIEWS FROM d") == []


def test_rename_table_renames_a_view(s):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    rows(s, "RENAME TABLE v TO v2")  # as Databend 1.2.453 (dbt renames its new views so)
    rows(s, "ALTER TABLE v2 RENAME TO v3")
    assert rows(s, "SELECT * FROM v3 ORDER BY a") == [(1,), (2,)]
    assert rows(s, "SHOW VIEWS") == [("v3", "SELECT a FROM default.t")]
    assert error_code(s, "RENAME TABLE v3 TO t") == 2302


def test_view_columns_in_system_columns_and_information_schema(s):
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    assert rows(s, "SELECT name, table, type FROM system.columns WHERE database = 'default' ORDER BY table") == [
        ("a", "t", "Nullable(Int32)"), ("b", "t", "Nullable(String)"), ("a", "v", "Nullable(Int32)")]
    assert rows(s, "SELECT table_name, column_name FROM information_schema.columns "
                   "WHERE table_schema = 'default' ORDER BY table_name, column_name") == [
        ("t", "a"), ("t", "b"), ("v", "a")]


def test_a_column_list_of_the_wrong_length(s):
    assert error_code(s, "CREATE VIEW v9 (x) AS SELECT 1, 2") == 1018  # column name length mismatch
