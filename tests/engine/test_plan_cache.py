"""The plan cache (engine.plan.plan_cache): hits, misses, invalidation, privileges, bounds."""

from __future__ import annotations

import pytest

import engine
from engine.catalog import table_storage
from engine.core.limits import Limits


def rows(session, sql, **kwargs):
    return list(session.execute(sql, **kwargs))


def counts(db):
    return db.plan_cache.hits, db.plan_cache.misses


def _filled():
    db = engine.Database()
    rows(db.session(), "CREATE TABLE t (a INT, b VARCHAR)")
    rows(db.session(), "INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    return db


@pytest.fixture
def db():
    return _filled()


def test_a_repeated_query_hits_and_answers_the_same(db):
    s = db.session()
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert counts(db) == (0, 1)
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert counts(db) == (1, 1)
    # another session of the same user, database and settings shares the plan
    assert rows(db.session(), "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert counts(db) == (2, 1)


def test_other_statements_are_neither_hits_nor_misses(db):
    s = db.session()
    rows(s, "INSERT INTO t VALUES (3, 'z')")
    rows(s, "SHOW TABLES")
    assert counts(db) == (0, 0) and len(db.plan_cache) == 0


def test_a_write_since_planning_is_a_miss_and_the_new_rows_are_seen(db):
    s = db.session()
    assert rows(s, "SELECT count(*), max(a) FROM t") == [(2, 2)]
    rows(s, "INSERT INTO t VALUES (-5, NULL)")  # also a NULL and a negative: facts the plan used
    assert rows(s, "SELECT count(*), max(a) FROM t") == [(3, 2)]
    assert counts(db) == (0, 2)
    rows(s, "DELETE FROM t WHERE a = 2")
    assert rows(s, "SELECT count(*), max(a) FROM t") == [(2, 1)]
    assert rows(s, "SELECT count(*), max(a) FROM t") == [(2, 1)]
    assert counts(db) == (1, 3)


@pytest.mark.parametrize("ddl", [
    "ALTER TABLE t ADD COLUMN c INT",
    "CREATE TABLE other (x INT)",
    "CREATE VIEW v AS SELECT 1 AS one",
    "CREATE OR REPLACE TABLE t (a INT, b VARCHAR)",
])
def test_ddl_drops_every_kept_plan(db, ddl):
    s = db.session()
    rows(s, "SELECT * FROM t ORDER BY a")
    rows(s, "SELECT 1")
    assert len(db.plan_cache) == 2
    rows(s, ddl)
    answer = rows(s, "SELECT * FROM t ORDER BY a")
    assert counts(db) == (0, 3)
    if ddl.startswith("ALTER"):
        assert answer == [(1, "x", None), (2, "y", None)]
    if ddl.startswith("CREATE OR REPLACE"):
        assert answer == []


def test_a_view_replaced_is_planned_again(db):
    s = db.session()
    rows(s, "CREATE VIEW v AS SELECT a FROM t")
    assert rows(s, "SELECT * FROM v ORDER BY 1") == [(1,), (2,)]
    rows(s, "CREATE OR REPLACE VIEW v AS SELECT b FROM t")
    assert rows(s, "SELECT * FROM v ORDER BY 1") == [("x",), ("y",)]


def test_settings_and_database_are_in_the_key(db):
    s = db.session()
    rows(s, "SELECT 1 AS one")
    rows(s, "SET max_result_rows = 5")
    rows(s, "SELECT 1 AS one")
    assert counts(db) == (0, 2)
    rows(s, "CREATE DATABASE d2")
    rows(s, "CREATE TABLE d2.t (a INT)")
    rows(s, "INSERT INTO d2.t VALUES (42)")
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    rows(s, "USE d2")
    assert rows(s, "SELECT a FROM t ORDER BY a") == [(42,)]
    assert rows(s, "SELECT database()") == [("d2",)]
    rows(s, "USE default")
    assert rows(s, "SELECT database()") == [("default",)]


def test_a_revoked_privilege_refuses_the_next_execution(db):
    root = db.session()
    rows(root, "CREATE USER u IDENTIFIED BY 'p'")
    rows(root, "GRANT SELECT ON default.t TO u")
    user = db.session(user="u")
    assert rows(user, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert rows(user, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert counts(db)[0] == 1  # the second one was a hit, its privilege checked again
    rows(root, "REVOKE SELECT ON default.t FROM u")
    with pytest.raises(engine.EngineError) as info:
        rows(user, "SELECT a FROM t ORDER BY a")
    assert info.value.code == 1063


def test_an_administrator_demoted_is_checked_on_the_cached_plan(db):
    root = db.session()
    rows(root, "CREATE ROLE admin_again")
    rows(root, "GRANT ALL ON *.* TO ROLE admin_again")
    rows(root, "CREATE USER u IDENTIFIED BY 'p' WITH DEFAULT_ROLE = 'admin_again'")
    rows(root, "GRANT ROLE admin_again TO u")
    user = db.session(user="u")
    assert rows(user, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    rows(root, "REVOKE ROLE admin_again FROM u")
    with pytest.raises(engine.EngineError) as info:
        rows(user, "SELECT a FROM t ORDER BY a")
    assert info.value.code == 1063


@pytest.mark.parametrize("sql", [
    "SELECT now()", "SELECT today()", "SELECT connection_id()", "SELECT last_query_id()",
    "SELECT current_role()",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r",
])
def test_plans_that_read_the_statement_context_are_not_kept(db, sql):
    s = db.session()
    rows(s, sql)
    rows(s, sql)
    assert counts(db) == (0, 2) and len(db.plan_cache) == 0


def test_connection_id_is_each_sessions_own(db):
    a, b = db.session(), db.session()
    assert rows(a, "SELECT connection_id()") != rows(b, "SELECT connection_id()")


def test_a_transaction_plans_over_its_private_snapshot(db):
    s = db.session()
    other = db.session()
    assert rows(other, "SELECT count(*) FROM t") == [(2,)]
    rows(s, "BEGIN")
    rows(s, "INSERT INTO t VALUES (3, 'z')")
    assert rows(s, "SELECT count(*) FROM t") == [(3,)]  # its own write, not the shared plan's
    assert rows(other, "SELECT count(*) FROM t") == [(2,)]  # the shared plan: a hit
    rows(s, "ROLLBACK")
    assert rows(s, "SELECT count(*) FROM t") == [(2,)]
    assert db.plan_cache.hits == 2


def test_params_are_bound_each_time(db):
    s = db.session()
    assert rows(s, "SELECT a FROM t WHERE a = ?", params=[1]) == [(1,)]
    assert rows(s, "SELECT a FROM t WHERE a = ?", params=[2]) == [(2,)]


def test_the_cache_is_bounded_least_recently_used_first():
    db = engine.Database(Limits(plan_cache_entries=2))
    s = db.session()
    for sql in ("SELECT 1", "SELECT 2", "SELECT 1", "SELECT 3"):
        rows(s, sql)
    assert len(db.plan_cache) == 2
    rows(s, "SELECT 1")  # kept: used more recently than SELECT 2
    rows(s, "SELECT 2")  # dropped first
    assert counts(db) == (2, 4)


def test_zero_entries_turns_it_off():
    db = engine.Database(Limits(plan_cache_entries=0))
    s = db.session()
    rows(s, "SELECT 1")
    rows(s, "SELECT 1")
    assert counts(db) == (0, 0) and len(db.plan_cache) == 0


def test_a_replaced_user_function_is_planned_again(db):
    s = db.session()
    rows(s, "CREATE FUNCTION plus_one AS (x) -> x + 1")
    assert rows(s, "SELECT plus_one(1)") == [(2,)]
    assert rows(s, "SELECT plus_one(1)") == [(2,)]
    rows(s, "CREATE OR REPLACE FUNCTION plus_one AS (x) -> x + 10")
    assert rows(s, "SELECT plus_one(1)") == [(11,)]


def test_nextval_is_planned_each_time(db):
    s = db.session()
    rows(s, "CREATE SEQUENCE seq")
    first = rows(s, "SELECT nextval(seq)")
    second = rows(s, "SELECT nextval(seq)")
    assert first != second and len(db.plan_cache) == 0


def test_session_variables_and_temporary_tables_are_never_served_a_shared_plan(db):
    s = db.session()
    rows(s, "SET VARIABLE x = 1")
    assert rows(s, "SELECT $x") == [(1,)]
    rows(s, "SET VARIABLE x = 2")
    assert rows(s, "SELECT $x") == [(2,)]
    other = db.session()
    assert rows(other, "SELECT count(*) FROM t") == [(2,)]  # kept: a plain session
    rows(s, "CREATE TEMP TABLE t (a INT)")  # shadows the shared t in its session only
    assert rows(s, "SELECT count(*) FROM t") == [(0,)]
    assert rows(other, "SELECT count(*) FROM t") == [(2,)]


def test_result_scan_reads_its_own_sessions_results_only(db):
    first = db.session(settings={"enable_query_result_cache": "1",
                                 "query_result_cache_min_execute_secs": "0"})
    rows(first, "SELECT 7 AS a", query_id="q-7")
    assert rows(first, "SELECT * FROM RESULT_SCAN('q-7')") == [(7,)]
    second = db.session(settings={"enable_query_result_cache": "1",
                                  "query_result_cache_min_execute_secs": "0"})
    with pytest.raises(engine.EngineError) as refused:
        rows(second, "SELECT * FROM RESULT_SCAN('q-7')")
    assert refused.value.code == 1016


def _compiles(monkeypatch) -> list:
    """The sources the code generator compiles from now on (Codegen.build calls)."""
    from engine.codegen.compile import Codegen

    built, build = [], Codegen.build

    def counting(self, params, body_lines, name="_fn"):
        built.append(body_lines)
        return build(self, params, body_lines, name)

    monkeypatch.setattr(Codegen, "build", counting)
    return built


@pytest.mark.parametrize("columns", [False, True], ids=["rows", "columns"])
def test_a_hit_reuses_the_generated_filter_and_projection(monkeypatch, columns):
    """The comprehension (over columns: the selection and the rows function) is kept with the
    plan, in both storages."""
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    db = _filled()
    s = db.session()
    sql = "SELECT a + 1, b FROM t WHERE a > 1"
    assert rows(s, sql) == [(3, "y")]
    built = _compiles(monkeypatch)
    assert rows(s, sql) == [(3, "y")] and rows(db.session(), sql) == [(3, "y")]
    assert counts(db) == (2, 1) and built == []
    assert rows(s, "SELECT 1") == [(1,)] and len(built) == 1  # a new plan compiles its own
    assert rows(s, "SELECT 1") == [(1,)] and len(built) == 1


def test_a_hit_over_columns_answers_the_same_from_the_kept_plan(monkeypatch):
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    db = _filled()
    s = db.session()
    sql = "SELECT a + 1, b FROM t WHERE a > 1"
    assert rows(s, sql) == [(3, "y")]
    assert rows(s, sql) == [(3, "y")] and counts(db) == (1, 1)
    rows(db.session(), "INSERT INTO t VALUES (3, NULL)")  # a column of the version turns a list
    hits = counts(db)[0]
    assert rows(s, sql) == [(3, "y"), (4, None)] and rows(db.session(), sql) == [(3, "y"), (4, None)]
    assert counts(db)[0] == hits + 1  # the write made the kept plan stale: planned again, then kept


def test_a_subquery_is_compiled_again_for_each_run(db, monkeypatch):
    """A compiled subquery runner belongs to one run (its progress, its memory): never kept."""
    s = db.session()
    sql = "SELECT a FROM t WHERE a >= (SELECT max(a) FROM t) OR b IN (SELECT 'x')"
    assert rows(s, sql) == [(1,), (2,)]
    built = _compiles(monkeypatch)
    assert rows(s, sql) == [(1,), (2,)]
    assert counts(db)[0] == 1 and built != []
