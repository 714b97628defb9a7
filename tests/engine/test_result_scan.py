"""RESULT_SCAN(query_id) over the session's kept results (enable_query_result_cache), with the
answers and errors of Databend's tests/sqllogictests/suites/http_handler/session/result_scan.test."""

import pytest

import engine
from engine.core.limits import Limits


def rows(session, sql):
    return list(session.execute(sql))


def error_of(session, sql):
    with pytest.raises(engine.EngineError) as caught:
        rows(session, sql)
    return caught.value


def test_result_scan_test():
    s = engine.Database().session()
    for sql in ("CREATE OR REPLACE DATABASE test_result_scan", "USE test_result_scan",
                "CREATE TABLE IF NOT EXISTS t1 (a INT)", "INSERT INTO t1 VALUES (1), (2), (3)"):
        rows(s, sql)
    assert rows(s, "SELECT * FROM t1 ORDER BY a") == [(1,), (2,), (3,)]
    rows(s, "SET enable_query_result_cache = 1")
    rows(s, "SET query_result_cache_min_execute_secs = 0")
    error = error_of(s, "SELECT * FROM RESULT_SCAN(last_query_id()) ORDER BY a")
    assert error.code == 1016
    assert error.message == ("`RESULT_SCAN` failed: No cache key found in current session for query ID "
                             f"'{s.query_ids[-2]}'.")
    assert "found NULL" in error_of(s, "SELECT * FROM RESULT_SCAN(last_query_id(-100)) ORDER BY a").message
    assert rows(s, "SELECT * FROM t1 ORDER BY a") == [(1,), (2,), (3,)]
    assert rows(s, "SELECT * FROM RESULT_SCAN(last_query_id()) ORDER BY a") == [(1,), (2,), (3,)]
    # multiple executions return the same result (each RESULT_SCAN's own result is kept too)
    assert rows(s, "SELECT * FROM RESULT_SCAN(last_query_id())") == [(1,), (2,), (3,)]
    rows(s, "INSERT INTO t1 VALUES (4)")
    assert rows(s, "SELECT * FROM t1 ORDER BY a") == [(1,), (2,), (3,), (4,)]
    assert rows(s, "SELECT * FROM RESULT_SCAN(last_query_id()) ORDER BY a") == [(1,), (2,), (3,), (4,)]
    assert rows(s, "SELECT * FROM RESULT_SCAN(last_query_id(-1)) ORDER BY a") == [(1,), (2,), (3,), (4,)]
    rows(s, "SET enable_query_result_cache = 0")


@pytest.fixture
def s():
    session = engine.Database().session(settings={"enable_query_result_cache": "1",
                                                  "query_result_cache_min_execute_secs": "0"})
    return session


def test_names_and_types_come_back(s):
    rows(s, "SELECT 1 AS x, 'a' AS y, [1, NULL] AS z, NULL AS n, number FROM numbers(2)")
    result = s.execute("SELECT * FROM RESULT_SCAN(last_query_id()) r WHERE r.number = 1")
    assert [(c.name, c.type) for c in result.schema] == [
        ("x", "UInt8"), ("y", "String"), ("z", "Array(Nullable(UInt8))"), ("n", "NULL"), ("number", "UInt64")]
    assert list(result) == [(1, "a", (1, None), None, 1)]
    assert error_of(s, "SELECT * FROM RESULT_SCAN('')").code == 2004
    assert error_of(s, "SELECT * FROM RESULT_SCAN(1)").code == 1006


def test_a_streamed_result_is_kept_when_read_to_the_end_only(s):
    first = s.execute("SELECT number FROM numbers(10000)")
    first_id = s.query_ids[-1]
    batches = first.batches()
    next(batches)
    first.close()
    assert error_of(s, f"SELECT count(*) FROM RESULT_SCAN('{first_id}')").code == 1016
    read = s.execute("SELECT number FROM numbers(10000)")
    list(read)
    assert rows(s, "SELECT count(*), sum(number) FROM RESULT_SCAN(last_query_id())") == [(10000, 49995000)]


def test_off_by_default_and_only_for_queries():
    s = engine.Database().session()
    rows(s, "SELECT 1")
    assert s.result_cache.is_empty()
    rows(s, "SET enable_query_result_cache = 1")
    rows(s, "SET query_result_cache_min_execute_secs = 0")
    rows(s, "SHOW DATABASES")
    assert error_of(s, "SELECT * FROM RESULT_SCAN(last_query_id())").code == 1016


def test_query_result_cache_max_bytes(s):
    rows(s, "SET query_result_cache_max_bytes = 100000")
    rows(s, "SELECT number FROM numbers(10000)")  # ~ 10000 x 80 bytes: over the setting
    assert error_of(s, "SELECT * FROM RESULT_SCAN(last_query_id())").code == 1016
    rows(s, "SELECT number FROM numbers(100)")
    assert len(rows(s, "SELECT * FROM RESULT_SCAN(last_query_id())")) == 100


def test_min_execute_secs_counts_to_the_first_rows():
    now = [0.0]
    db = engine.Database(clock=lambda: now[0])
    s = db.session(settings={"enable_query_result_cache": "1"})  # min_execute_secs: 1, the default

    rows(s, "SELECT 1 AS fast")
    assert error_of(s, "SELECT * FROM RESULT_SCAN(last_query_id())").code == 1016
    slow = s.execute("SELECT number FROM numbers(10000)")
    slow_id = s.query_ids[-1]
    now[0] += 1.0  # the first rows come a second after the start
    list(slow)
    assert rows(s, f"SELECT count(*) FROM RESULT_SCAN('{slow_id}')") == [(10000,)]


def test_entries_limit_and_memory():
    db = engine.Database(limits=Limits(result_cache_entries=2))
    s = db.session(settings={"enable_query_result_cache": "1", "query_result_cache_min_execute_secs": "0"})
    rows(s, "SELECT 1 AS a")
    first = s.query_ids[-1]
    rows(s, "SELECT 2 AS a")
    rows(s, "SELECT 3 AS a")  # the third pushes the first out
    assert error_of(s, f"SELECT * FROM RESULT_SCAN('{first}')").code == 1016
    held = s.result_cache.held_bytes
    assert held > 0 and db.memory.used == held
    s.result_cache.clear()
    assert db.memory.used == 0 and s.result_cache.is_empty()


def test_an_attached_cache_serves_another_session(s):
    rows(s, "SELECT 42 AS answer")
    other = s.db.session()
    other.result_cache = s.result_cache
    other.query_ids.extend(s.query_ids)
    assert rows(other, "SELECT * FROM RESULT_SCAN(last_query_id())") == [(42,)]
