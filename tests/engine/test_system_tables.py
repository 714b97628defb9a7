"""The virtual databases: system.* and information_schema.* (Databend's columns, order and types),
and the queries databend-sqlalchemy's reflection sends."""

import datetime

import pytest

from engine.core.errors import EngineError


def schema_of(db, sql):
    return [(c.name, c.type) for c in db.session().execute(sql).schema]


def test_information_schema_tables_has_databends_columns(db):
    assert schema_of(db, "SELECT * FROM information_schema.tables") == [
        ("table_catalog", "String"), ("table_schema", "String"), ("table_name", "String"),
        ("table_type", "String"), ("engine", "String"), ("create_time", "Timestamp"),
        ("drop_time", "Nullable(Timestamp)"), ("data_length", "Nullable(UInt64)"),
        ("index_length", "Nullable(UInt64)"), ("table_rows", "Nullable(UInt64)"), ("auto_increment", "NULL"),
        ("table_collation", "NULL"), ("data_free", "NULL"), ("table_comment", "String")]


def test_information_schema_tables_rows(run):
    rows = run("SELECT table_catalog, table_schema, table_name, table_type, engine, drop_time, table_rows, "
               "table_comment FROM information_schema.tables WHERE table_schema = 'default' ORDER BY table_name")
    assert rows == [("default", "default", "n", "BASE TABLE", "FUSE", None, 2, ""),
                    ("default", "default", "t", "BASE TABLE", "FUSE", None, 4, ""),
                    ("default", "default", "u", "BASE TABLE", "FUSE", None, 3, "")]
    (created,), = run("SELECT create_time FROM information_schema.tables WHERE table_name = 'u'")
    assert isinstance(created, datetime.datetime)
    # like Databend, the system tables are listed, information_schema's own are not
    assert ("system", "one") in run("SELECT table_schema, table_name FROM information_schema.tables")
    assert run("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'information_schema'") == [
        (0,)]


def test_tables_follow_create_and_drop(run):
    run("CREATE DATABASE d2")
    run("CREATE TABLE d2.fresh (x INT)")
    listed = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'd2'"
    assert run(listed) == [("fresh",)]
    run("DROP TABLE d2.fresh")
    assert run(listed) == []


def test_information_schema_columns(db, run):
    names = [n for n, _ in schema_of(db, "SELECT * FROM information_schema.columns")]
    assert names[:12] == ["table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
                          "column_default", "column_comment", "column_key", "nullable", "is_nullable",
                          "data_type", "column_type"]
    assert names[-2:] == ["default", "extra"] and len(names) == 30
    run("CREATE TABLE typed (k INT NOT NULL DEFAULT 3, v VARCHAR, d DECIMAL(10, 2), day DATE)")
    assert run("SELECT column_name, ordinal_position, nullable, is_nullable, data_type, column_type, "
               "\"default\", column_comment FROM information_schema.columns WHERE table_name = 'typed'") == [
        ("k", 1, 0, "NO", "Int32", "INT", "3", ""),
        ("v", 2, 1, "YES", "Nullable(String)", "VARCHAR", "", ""),
        ("d", 3, 1, "YES", "Nullable(Decimal(10, 2))", "DECIMAL(10, 2)", "", ""),
        ("day", 4, 1, "YES", "Nullable(Date)", "DATE", "", "")]


def test_information_schema_columns_table_catalog_is_the_database(db, run):
    """As Databend 1.2.453 answers: JDBC's getColumns(catalog, ...) passes the catalog
    getCatalogs gave (the database name) and found no column while this said 'default'."""
    run("CREATE DATABASE d9")
    run("CREATE TABLE d9.t (a INT)")
    run("CREATE VIEW d9.v AS SELECT a FROM d9.t")
    assert run("SELECT table_catalog, table_schema, table_name, column_name FROM information_schema.columns "
               "WHERE table_schema = 'd9' ORDER BY table_name") == [("d9", "d9", "t", "a"), ("d9", "d9", "v", "a")]
    assert run("SELECT DISTINCT table_catalog FROM information_schema.columns WHERE table_schema = 'd9'") == [
        ("d9",)]
    assert run("SELECT DISTINCT table_catalog FROM information_schema.columns "
               "WHERE table_schema = 'system'") == [("system",)]


def test_information_schema_keywords_is_databends_one_row(db, run):
    """JDBC's getSQLKeywords reads `SELECT keywords FROM information_schema.keywords` (was 1025)."""
    assert schema_of(db, "SELECT * FROM information_schema.keywords") == [
        ("keywords", "String"), ("reserved", "UInt8")]
    ((text, reserved),) = run("SELECT keywords, reserved FROM information_schema.keywords")
    assert reserved == 1 and len(text) == 5208  # Databend 1.2.453's text, verbatim
    assert text.startswith("Error, EOI, Whitespace, Comment,") and text.endswith("SECONDS, DAYS")
    assert "SELECT" in text.split(", ")


def test_information_schema_schemata_and_views(db, run):
    run("CREATE DATABASE d3")
    # as Databend 1.2.453 answers: catalog_name is the schema's own name
    assert run("SELECT catalog_name, schema_name FROM information_schema.schemata ORDER BY schema_name") == [
        ("d3", "d3"), ("default", "default"), ("information_schema", "information_schema"), ("system", "system")]
    assert run("SELECT * FROM information_schema.views") == []
    assert [n for n, _ in schema_of(db, "SELECT * FROM information_schema.views")][:4] == [
        "table_catalog", "table_schema", "table_name", "view_definition"]


def test_system_tables_has_the_columns_clients_read(db, run):
    assert schema_of(db, "SELECT * FROM system.tables") == [
        ("catalog", "String"), ("database", "String"), ("name", "String"), ("table_id", "UInt64"),
        ("engine", "String"), ("engine_full", "String"), ("cluster_by", "String"), ("is_transient", "String"),
        ("created_on", "Timestamp"), ("dropped_on", "Nullable(Timestamp)"), ("num_rows", "Nullable(UInt64)"),
        ("comment", "String"), ("table_type", "String")]
    assert run("SELECT engine, engine_full, cluster_by, is_transient, num_rows, comment, table_type "
               "FROM system.tables WHERE database = 'default' AND name = 'u'") == [
        ("FUSE", "FUSE", "", "", 3, "", "BASE TABLE")]
    ids = run("SELECT table_id FROM system.tables")
    assert len(set(ids)) == len(ids)
    assert run("SELECT engine, num_rows FROM system.tables WHERE database = 'system' AND name = 'one'") == [
        ("SystemOne", None)]


def test_system_columns(run):
    assert run("SELECT name, type, data_type, default_kind, default_expression, is_nullable, comment "
               "FROM system.columns WHERE table = 'u'") == [
        ("id", "Int32", "INT", "", "", "NO", ""), ("label", "String", "VARCHAR", "", "", "NO", "")]
    assert run("SELECT name, type FROM system.columns WHERE database = 'system' AND table = 'one'") == [
        ("dummy", "UInt8")]


def test_views_and_temporary_tables_are_empty(run):
    assert run("SELECT * FROM system.views") == []
    assert run("SELECT name, database FROM system.temporary_tables") == []


def test_virtual_databases_can_be_used_shown_and_described(db):
    s = db.session()
    assert list(s.execute("SHOW TABLES FROM information_schema")) == [
        ("columns",), ("keywords",), ("schemata",), ("tables",), ("views",)]
    assert ("table_comment", "VARCHAR", "NO", "NULL", "") in list(s.execute("DESCRIBE information_schema.tables"))
    list(s.execute("USE information_schema"))
    assert list(s.execute("SELECT count(*) FROM schemata")) == [(3,)]
    assert ("temporary_tables",) in list(s.execute("SHOW TABLES FROM system"))


@pytest.mark.parametrize("sql, code", [
    ("SELECT * FROM information_schema.nope", 1025),
    ("SELECT * FROM system.nope", 1025),
    ("SELECT nope FROM information_schema.tables", 1065),
    ("CREATE DATABASE information_schema", 2301),
    ("INSERT INTO system.one VALUES (1)", 1002),
    ("TRUNCATE TABLE information_schema.tables", 1002),
    ("DROP TABLE IF EXISTS system.tables", 1002),
    ("CREATE TABLE system.mine (x INT)", 1002),
])
def test_errors(run, sql, code):
    with pytest.raises(EngineError) as caught:
        run(sql)
    assert caught.value.code == code


# The statements databend-sqlalchemy sends (parameters already inlined, as its client does).
DIALECT_QUERIES = [
    ("select case when exists( select table_name from information_schema.tables "
     "where table_schema = 'default' and table_name = 'u' ) then 1 else 0 end", [(1,)]),
    ("select case when exists( select table_name from information_schema.tables "
     "where table_schema = 'default' and table_name = 'absent' ) then 1 else 0 end", [(0,)]),
    ("select table_name from information_schema.tables where table_schema = 'default' "
     "and engine NOT LIKE '%VIEW%'", [("n",), ("t",), ("u",)]),
    ("select table_name from information_schema.tables where table_schema = 'default' "
     "and engine LIKE '%VIEW%'", []),
    ("select column_name, data_type, is_nullable, nullif(column_comment, '') from information_schema.columns "
     "where table_name = 'u' and table_schema = 'default'",
     [("id", "Int32", "NO", None), ("label", "String", "NO", None)]),
    ("SELECT engine_full, cluster_by, is_transient FROM system.tables WHERE database = 'default' "
     "and name = 'u'", [("FUSE", "", "")]),
    ("SELECT comment FROM system.tables WHERE database = 'default' and name = 'u'", [("",)]),
    ("SELECT a_tab_comments.name, a_tab_comments.comment FROM system.tables AS a_tab_comments "
     "WHERE a_tab_comments.database = 'default' AND a_tab_comments.table_type IN ('BASE TABLE') AND true "
     "AND a_tab_comments.name IN ('u')", [("u", "")]),
    ("select name from system.temporary_tables where database = 'default'", []),
    ("select view_query from system.views where name = 'u' and database = 'default'", []),
]


@pytest.mark.parametrize("sql, expected", DIALECT_QUERIES)
def test_dialect_reflection_queries(run, sql, expected):
    assert sorted(run(sql)) == expected


def test_table_and_column_comments_are_listed(run):
    run("CREATE TABLE noted (k INT COMMENT 'the key', v VARCHAR) COMMENT = 'a table'")
    run("CREATE TABLE copied COMMENT 'from a query' AS SELECT 1 AS one")
    assert run("SELECT name, comment FROM system.tables WHERE name IN ('noted', 'copied') ORDER BY name") == [
        ("copied", "from a query"), ("noted", "a table")]
    assert run("SELECT table_comment FROM information_schema.tables WHERE table_name = 'noted'") == [("a table",)]
    assert run("SELECT column_name, column_comment FROM information_schema.columns "
               "WHERE table_name = 'noted'") == [("k", "the key"), ("v", "")]
    assert run("SELECT name, comment FROM system.columns WHERE table = 'noted'") == [("k", "the key"), ("v", "")]


def test_show_create_table_shows_comments(run):
    run("CREATE TABLE noted (k INT NOT NULL COMMENT 'the key', v VARCHAR DEFAULT 'it''s') COMMENT = 'a table'")
    (_, ddl), = run("SHOW CREATE TABLE noted")
    assert ddl == ("CREATE TABLE noted (\n  k INT NOT NULL COMMENT 'the key',\n  v VARCHAR NULL DEFAULT 'it\\'s'\n"
                   ") ENGINE=FUSE COMMENT = 'a table'")
