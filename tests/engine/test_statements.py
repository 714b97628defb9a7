"""DDL, INSERT, USE/SET/UNSET (session state and affect), SHOW, DESCRIBE, EXPLAIN, system tables."""

import datetime
from decimal import Decimal

import pytest

import engine
from engine.core import settings


def test_ddl_returns_empty_schema_and_no_rows(db):
    s = db.session()
    for sql in ["CREATE DATABASE d1", "CREATE DATABASE IF NOT EXISTS d1", "CREATE TABLE d1.x (a INT)",
                "CREATE TABLE IF NOT EXISTS d1.x (a INT)", "TRUNCATE TABLE d1.x", "DROP TABLE d1.x",
                "DROP TABLE IF EXISTS d1.x", "DROP DATABASE d1", "DROP DATABASE IF EXISTS d1"]:
        r = s.execute(sql)
        assert r.schema == [] and list(r) == [] and r.affect is None


def test_insert_reports_rows_and_progress(db):
    r = db.session().execute("INSERT INTO u VALUES (10, 'ten'), (11, 'eleven')")
    assert r.schema == [engine.Column("number of rows inserted", "UInt64")]
    assert list(r) == [(2,)]
    assert r.progress.write_rows == 2 and r.progress.write_bytes > 0


def test_insert_columns_defaults_and_select(db, run):
    run("CREATE TABLE d (k INT NOT NULL, v VARCHAR DEFAULT 'dflt', w INT)")
    run("INSERT INTO d (k) VALUES (1)")
    run("INSERT INTO d (w, k) VALUES (5, 2)")
    assert run("INSERT INTO d SELECT id, label, id * 10 FROM u") == [(3,)]
    assert run("SELECT * FROM d ORDER BY k, w") == [
        (1, "one", 10), (1, "dflt", None), (2, "dflt", 5), (2, "two", 20), (3, "three", 30)]


def test_types_round_trip(db, run):
    run("CREATE TABLE ty (b BOOLEAN, i8 TINYINT, i64 BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(10, 2), "
        "s TEXT, dt DATE, ts TIMESTAMP, ui UINT8)")
    run("INSERT INTO ty VALUES (true, -5, 9000000000, 1.5, 2.25, 3.14159, 'hi', '2020-01-02', "
        "'2020-01-02 03:04:05', 200)")
    r = db.session().execute("SELECT * FROM ty")
    assert [c.type for c in r.schema] == [
        "Nullable(Boolean)", "Nullable(Int8)", "Nullable(Int64)", "Nullable(Float32)", "Nullable(Float64)",
        "Nullable(Decimal(10, 2))", "Nullable(String)", "Nullable(Date)", "Nullable(Timestamp)",
        "Nullable(UInt8)"]
    rows = list(r)
    assert rows == [(True, -5, 9000000000, 1.5, 2.25, Decimal("3.14"), "hi", datetime.date(2020, 1, 2),
                     datetime.datetime(2020, 1, 2, 3, 4, 5), 200)]
    render = db.session().execute("SELECT * FROM ty").renderer(False)
    assert render(rows) == [("1", "-5", "9000000000", "1.5", "2.25", "3.14", "hi", "2020-01-02",
                             "2020-01-02 03:04:05.000000", "200")]


def test_renderer_null_and_special_floats(db):
    r = db.session().execute("SELECT NULL, CAST('nan' AS DOUBLE), CAST('inf' AS DOUBLE), 1.0e0, false")
    rows = list(r)
    assert r.renderer(False)(rows) == [(None, "NaN", "Infinity", "1", "0")]
    assert r.renderer(True)(rows) == [("NULL", "NaN", "Infinity", "1", "0")]


def test_create_table_as_select(run):
    run("CREATE TABLE c AS SELECT id, label FROM u WHERE id > 1")
    assert run("SELECT * FROM c ORDER BY id") == [(2, "two"), (3, "three")]


def test_use_changes_database_and_reports_affect(db):
    s = db.session()
    s.execute("CREATE DATABASE db2")
    r = s.execute("USE db2")
    assert r.affect == engine.UseDB("db2") and s.database == "db2"
    assert list(s.execute("SELECT database()")) == [("db2",)]


def test_set_and_unset_session_settings(db):
    s = db.session(settings={"timezone": "Asia/Shanghai"})
    r = s.execute("SET max_threads = 1")
    assert r.affect == engine.ChangeSettings(("max_threads",), ("1",), (False,))
    assert s.settings == {"timezone": "Asia/Shanghai", "max_threads": "1"}
    r = s.execute("UNSET timezone")
    assert r.affect == engine.ChangeSettings(("timezone",), ("UTC",), (False,))
    assert s.settings == {"max_threads": "1"}


def test_session_settings_are_validated_and_unknown_ones_ignored(db):
    s = db.session(settings={"Max_Threads": " 3", "no_such_setting": "x"})
    assert s.settings == {"max_threads": "3"}
    assert s.explicit_setting("timezone") is None and s.setting("timezone") == "UTC"
    with pytest.raises(engine.EngineError) as bad:
        db.session(settings={"max_threads": "many"})
    assert bad.value.code == 1006 and "max_threads" in bad.value.message


def test_set_global_drops_the_session_value(db):
    s = db.session(settings={"max_threads": "4", "timezone": "Asia/Shanghai"})
    r = s.execute("SET GLOBAL max_threads = 2")
    assert r.affect == engine.ChangeSettings(("max_threads",), ("2",), (True,))
    assert s.settings == {"timezone": "Asia/Shanghai"}
    rows = {row[0]: row for row in db.session().execute("SELECT * FROM system.settings")}
    assert rows["max_threads"][1:5] == ("2", "2", "[1, 1024]", "GLOBAL")


def test_show_settings_like(db):
    rows = list(db.session().execute("SHOW SETTINGS LIKE 'max%'"))
    names = {r[0] for r in rows}
    assert {"max_threads", "max_block_size", "max_result_rows", "max_memory_usage",
            "max_execute_time_in_seconds", "max_inlist_to_or"} <= names  # (an accepted one)
    assert all(name.startswith("max") for name in names)


@pytest.mark.parametrize("name, value, normalized", [
    ("max_threads", "8", "8"), ("format_null_as_str", 1, "1"), ("timezone", "Europe/Paris", "Europe/Paris"),
    ("sql_dialect", "mysql", "MySQL"),
])
def test_settings_validate(name, value, normalized):
    assert settings.validate(name, value) == normalized


@pytest.mark.parametrize("name, value, code", [("nope", "1", 2801), ("max_threads", "-1", 1006),
                                               ("timezone", "Mars/Base", 1078)])
def test_settings_validate_rejects(name, value, code):
    with pytest.raises(engine.EngineError) as info:
        settings.validate(name, value)
    assert info.value.code == code


def test_max_result_rows_caps_unlimited_queries(db):
    s = db.session(settings={"max_result_rows": "3"})
    assert len(list(s.execute("SELECT number FROM numbers(10)"))) == 3


def test_show_and_describe(db, run):
    assert ("default",) in run("SHOW DATABASES")
    assert run("SHOW TABLES") == [("n",), ("t",), ("u",)]
    assert run("DESCRIBE u") == [("id", "INT", "NO", "NULL", ""), ("label", "VARCHAR", "NO", "NULL", "")]
    (name, ddl), = run("SHOW CREATE TABLE u")
    assert name == "u" and "id INT NOT NULL" in ddl


def test_system_tables(run):
    assert run("SELECT * FROM system.one") == [(1,)]
    assert ("default", "u") in [r[:2] for r in run("SELECT database, name FROM system.tables")]
    assert run("SELECT name, type FROM system.columns WHERE table = 'u' ORDER BY name") == [
        ("id", "Int32"), ("label", "String")]
    assert ("default",) in run("SELECT name FROM system.databases")
    assert run("SELECT count(*) FROM system.functions WHERE name = 'abs'") == [(1,)]


def test_version_matches_client_regex(run):
    import re

    (version,), = run("SELECT VERSION()")
    assert re.search(r"v(\d+).(\d+).(\d+)-([^\(]+)(?:\()", version)
    assert engine.VERSION in version


def test_explain_returns_plan_rows(db):
    r = db.session().execute("EXPLAIN SELECT u.label FROM t JOIN u ON t.a = u.id WHERE t.c > 0")
    assert r.schema == [engine.Column("explain", "String")]
    text = "\n".join(row[0] for row in r)
    assert "hash" in text and "Filter" in text and "Scan" in text


def test_now_and_today(run):
    (now, today), = run("SELECT NOW(), TODAY()")
    assert isinstance(now, datetime.datetime) and now.date() == today


COLUMN_NAMES = [
    ("SELECT 1", ["1"], ["UInt8"]),
    ("SELECT 1 + 1", ["1 + 1"], ["UInt8"]),
    ("SELECT 1.5", ["1.5"], ["Decimal(2, 1)"]),
    ("SELECT 1 / 2", ["1 / 2"], ["Float64"]),
    ("SELECT count(*), sum(a), avg(a) FROM t", ["count(*)", "sum(a)", "sum(a) / if(count(a) = 0, 1, count(a))"],
     ["UInt64", "Nullable(Int64)", "Nullable(Float64)"]),
    ("SELECT a AS x, b FROM t", ["x", "b"], ["Nullable(Int32)", "Nullable(String)"]),
    ("SELECT CAST(1 AS SIGNED)", ["cast(1 as int64)"], ["Int64"]),
    ("SELECT 1 AND 0, NOT 1, 7 DIV 2, - 1", ["1 and 0", "not 1", "7 div 2", "- 1"],
     ["Boolean", "Boolean", "UInt8", "Int8"]),
    ("SELECT a IS NULL, a IN (1, 2), b LIKE 'x%' FROM t", ["a is null", "a in(1, 2)", "b like 'x%'"],
     ["Boolean", "Nullable(Boolean)", "Nullable(Boolean)"]),
    ("SELECT number FROM numbers(1)", ["number"], ["UInt64"]),
]


@pytest.mark.parametrize("sql, names, types", COLUMN_NAMES)
def test_column_names_and_types(db, sql, names, types):
    r = db.session().execute(sql)
    assert [c.name for c in r.schema] == names
    assert [c.type for c in r.schema] == types


def test_bulk_insert_keeps_values_exactly(run):
    run("CREATE TABLE bulk (i BIGINT, f DOUBLE, s VARCHAR, b BOOLEAN)")
    values = ", ".join(f"({n * 1000003}, {n}.5e-1, 's{n}', {'true' if n % 2 else 'false'})" for n in range(100))
    run(f"INSERT INTO bulk VALUES {values}, (NULL, CAST('-0.0' AS DOUBLE), '', NULL)")
    rows = run("SELECT i, f, s, b FROM bulk")
    assert rows[7] == (7000021, 0.75, "s7", True)
    assert rows[-1][0] is None and str(rows[-1][1]) == "-0.0" and rows[-1][2] == "" and rows[-1][3] is None
    assert all(type(r[0]) is int and type(r[3]) is bool for r in rows[:-1])


def test_show_like_matches_as_the_like_operator(db):
    s = db.session()
    list(s.execute('CREATE TABLE "Foo" (x INT)'))
    for pattern, found in [("Foo", True), ("Fo_", True), ("F%", True), ("foo", False),
                           ("fo_", False)]:
        names = [r[0] for r in s.execute(f"SHOW TABLES LIKE '{pattern}'")]
        assert ("Foo" in names) is found, pattern
