"""Every error code the engine raises, with its position when it has one."""

import pytest

import engine

ERRORS = [
    ("SELEC 1", 1005, (1, 1)),
    ("SELECT 1 +", 1005, None),
    ("SELECT * FROM nosuch", 1025, (1, 15)),
    ("SELECT * FROM nodb.t", 1003, (1, 15)),
    ("USE nodb", 1003, None),
    ("SELECT zz FROM t", 1065, (1, 8)),
    ("SELECT a FROM t\nWHERE t.nope = 1", 1065, (2, 7)),
    ("SELECT nosuchfunc(1)", 1008, (1, 8)),
    ("SELECT 1 / 0", 1006, None),
    ("SELECT a DIV 0 FROM t", 1006, None),
    ("SELECT CAST('abc' AS INT)", 1006, None),
    ("CREATE DATABASE default", 2301, None),
    ("CREATE TABLE t (x INT)", 2302, None),
    ("SET nosuch_setting = 1", 2801, None),
    ("SET max_threads = 'many'", 1006, None),
    ("INSERT INTO u VALUES (1)", 1303, None),
    ("INSERT INTO u (id) SELECT 1, 2", 1006, None),
    ("INSERT INTO u (id, nope) VALUES (1, 2)", 1006, None),
    ("INSERT INTO u VALUES (NULL, 'x')", 1006, None),
    ("SELECT id FROM u UNION SELECT id, label FROM u", 1065, None),
    ("SELECT count(*) FROM u WHERE count(*) > 1", 1065, None),
]


@pytest.mark.parametrize("sql, code, position", ERRORS)
def test_error_code_and_position(db, sql, code, position):
    s = db.session()
    with pytest.raises(engine.EngineError) as info:
        list(s.execute(sql))
    assert info.value.code == code, info.value.message
    if position is not None:
        assert info.value.position == position
    assert info.value.message


def test_unknown_table_message_is_like_databend(db):
    with pytest.raises(engine.EngineError) as info:
        db.session().execute("SELECT * FROM t2")
    assert info.value.message.startswith("Unknown table `default`.`t2`")


def test_unknown_column_message_is_like_databend(db):
    with pytest.raises(engine.EngineError) as info:
        db.session().execute("SELECT q FROM t")
    assert info.value.message == "column q doesn't exist"


def test_unknown_setting_message(db):
    with pytest.raises(engine.EngineError) as info:
        db.session().execute("SET xxx = 1")
    assert info.value.message == 'Unknown variable: "xxx"'


def test_unknown_session_database_fails_only_when_a_name_is_resolved_in_it():
    db = engine.Database()
    s = db.session(database="nodb")
    assert list(s.execute("SELECT 1, database()")) == [(1, "nodb")]
    for sql in ("SELECT * FROM t", "CREATE TABLE t (a INT)", "SHOW TABLES", "INSERT INTO t VALUES (1)"):
        with pytest.raises(engine.EngineError) as info:
            list(s.execute(sql))
        assert info.value.code == 1003 and info.value.message == "Unknown database 'nodb'", sql
    s.execute("CREATE DATABASE nodb")  # what dbt does next
    s.execute("CREATE TABLE t (a INT)")
    assert list(s.execute("SELECT count(*) FROM nodb.t")) == [(0,)]


def test_failed_insert_inserts_nothing(db, run):
    s = db.session()
    for bad in ["INSERT INTO u VALUES (7, 'ok'), (8)", "INSERT INTO u VALUES (7, 'ok'), (NULL, 'bad')",
                "INSERT INTO u VALUES (7, 'ok'), ('x', 'bad')"]:
        with pytest.raises(engine.EngineError):
            list(s.execute(bad))
    assert run("SELECT count(*) FROM u") == [(3,)]


def test_runtime_errors_surface_from_batches_as_engine_errors(db):
    result = db.session().execute("SELECT 10 DIV (a - 1) FROM t")
    with pytest.raises(engine.EngineError) as info:
        list(result.batches())
    assert info.value.code == 1006


@pytest.mark.parametrize("sql, message", [
    ("SELECT 7 % 0", "divided by zero"),
    ("SELECT 7.5 % 0", "divided by zero"),
    ("SELECT 7.5 % 0.0", "divided by zero"),
    ("SELECT mod(7, 0)", "divided by zero"),
    ("SELECT CAST(1e300 AS DECIMAL(10, 2))", "Decimal overflow"),
    ("SELECT substr('abc', 'x')", "bad argument"),
    ("SELECT repeat('a', 'x')", "bad argument"),
    ("SELECT to_int()", "to_int expects one argument"),
    ("SELECT to_varchar(1, 2)", "to_varchar expects one argument"),
    ("SELECT * FROM numbers(-1)", "numbers() takes a non-negative integer"),
    ("SELECT 1 OFFSET -2", "OFFSET takes a non-negative integer"),
])
def test_arithmetic_errors_say_what_went_wrong(db, sql, message):
    with pytest.raises(engine.EngineError) as info:
        list(db.session().execute(sql))
    assert info.value.code == 1006 and message in info.value.message
