"""The memory guard for MERGE, REPLACE, INSERT ALL, SEMI joins and WITH RECURSIVE: what they hold is
charged to the query (max_memory_usage), a query over the limit fails with 2411 and changes nothing,
and what it held is released."""

import pytest

import engine
from engine.core.errors import MEMORY_EXCEEDS_LIMIT

LIMIT = {"max_memory_usage": "200000"}  # bytes: far less than 20,000 rows


@pytest.fixture
def db():
    database = engine.Database()
    s = database.session()
    for sql in ["CREATE TABLE tgt (k INT, v VARCHAR)", "INSERT INTO tgt SELECT number, 'x' FROM numbers(100)",
                "CREATE TABLE t1 (k INT)"]:
        list(s.execute(sql))
    return database


@pytest.mark.parametrize("sql", [
    "MERGE INTO tgt USING (SELECT number AS k, 'long text value' AS v FROM numbers(20000)) s ON tgt.k = s.k "
    "WHEN MATCHED THEN UPDATE * WHEN NOT MATCHED THEN INSERT *",
    "REPLACE INTO tgt ON (k) SELECT number, 'long text value' FROM numbers(20000)",
    "INSERT ALL INTO tgt INTO t1 (k) VALUES (k) SELECT number AS k, 'long text value' FROM numbers(20000)",
])
def test_writes_over_the_limit_fail_and_change_nothing(db, sql):
    s = db.session(settings=LIMIT)
    with pytest.raises(engine.EngineError) as info:
        list(s.execute(sql))
    assert info.value.code == MEMORY_EXCEEDS_LIMIT
    check = db.session()
    assert list(check.execute("SELECT count(*), min(v), max(v) FROM tgt")) == [(100, "x", "x")]
    assert list(check.execute("SELECT count(*) FROM t1")) == [(0,)]
    assert db.memory.used == 0  # released


@pytest.mark.parametrize("sql", [
    "SELECT count(*) FROM numbers(10) a LEFT SEMI JOIN (SELECT number AS k FROM numbers(20000)) b ON a.number = b.k",
    "WITH RECURSIVE r(n) AS (SELECT number FROM numbers(20000) UNION SELECT n FROM r) SELECT count(*) FROM r",
])
def test_queries_holding_rows_are_charged(db, sql):
    with pytest.raises(engine.EngineError) as info:
        list(db.session(settings=LIMIT).execute(sql))
    assert info.value.code == MEMORY_EXCEEDS_LIMIT
    assert list(db.session().execute(sql))  # fine without the limit
