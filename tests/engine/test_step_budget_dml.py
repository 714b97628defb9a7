"""The step budget (Limits.step_rows) for the operators of the DML and query-clause features: SEMI
and ANTI joins, WITH RECURSIVE, generate_series, MERGE, REPLACE and INSERT ALL over many rows."""

import pytest

from tests.engine.test_step_budget import BUDGET, _bounded_rows, _load, _session, _steps


@pytest.mark.parametrize("sql", [
    # a key on the build side, no residual: one comprehension per probe batch
    "SELECT * FROM sparse LEFT SEMI JOIN probe ON sparse.x = probe.k",
    "SELECT * FROM sparse LEFT ANTI JOIN probe ON sparse.x = probe.k",
    "SELECT * FROM probe RIGHT SEMI JOIN sparse ON sparse.x = probe.k",
    # a residual against groups of 250 rows (more than the budget): groups sliced over steps
    "SELECT * FROM probe LEFT SEMI JOIN big ON probe.k = big.k AND big.v > probe.w * 8",
    "SELECT * FROM probe LEFT ANTI JOIN big ON probe.k = big.k AND big.v > probe.w * 8",
    # no key at all: every pair, a budget of pairs per step
    "SELECT * FROM probe ANTI JOIN big ON big.v < probe.w",
])
def test_semi_and_anti_joins_emit_and_test_at_most_the_budget_per_step(sql):
    rows = _bounded_rows(sql)
    assert rows  # and the same rows as with the default budget


def test_semi_join_results():
    rows = _bounded_rows("SELECT w FROM probe LEFT SEMI JOIN big ON probe.k = big.k AND big.v > probe.w * 8")
    # key 0 (w % 3 == 0) has v up to 249, key 1 up to 4, key 2 nothing
    assert [w for (w,) in rows] == [w for w in range(30) if (w % 3 == 0 and 249 > w * 8) or (w % 3 == 1 and 4 > w * 8)]


def test_nested_loop_anti_join_bounds_the_pairs_tested_per_step():
    s = _load(_session())
    sizes, scans, rows = _steps(s.execute("SELECT w FROM probe ANTI JOIN big ON big.v > probe.w + 1000"))
    assert rows == [(w,) for w in range(30)]
    # 30 rows tested against 255 rows each: the work is spread over many steps
    assert len(sizes) >= 30 * 255 // BUDGET


def test_recursive_cte_emits_at_most_the_budget_per_step():
    sql = ("WITH RECURSIVE r(n, m) AS (SELECT number, 0 FROM numbers(250) UNION ALL "
           "SELECT n, m + 1 FROM r WHERE m < 3) SELECT n, m FROM r")
    rows = _bounded_rows(sql)
    assert sorted(rows) == sorted((n, m) for n in range(250) for m in range(4))


def test_generate_series_streams_in_budget_steps():
    rows = _bounded_rows("SELECT * FROM generate_series(1, 1000, 3)")
    assert rows == [(v,) for v in range(1, 1001, 3)]


def _big_tables(s, n):
    for sql in ["CREATE TABLE tgt (k INT, v INT)", f"INSERT INTO tgt SELECT number, 0 FROM numbers({n})",
                "CREATE TABLE src2 (k INT, v INT)", f"INSERT INTO src2 SELECT number * 2, 1 FROM numbers({n})"]:
        list(s.execute(sql))


def test_merge_over_many_rows_scans_at_most_the_budget_per_step():
    s = _session()
    _big_tables(s, 1000)
    result = s.execute("MERGE INTO tgt USING src2 ON tgt.k = src2.k WHEN MATCHED THEN UPDATE SET v = src2.v "
                       "WHEN NOT MATCHED THEN INSERT *")
    sizes, scans, rows = _steps(result)
    assert rows == [(500, 500)]
    assert max(scans) <= BUDGET and len(sizes) >= 2000 // BUDGET
    assert list(s.execute("SELECT count(*), sum(v) FROM tgt")) == [(1500, 1000)]


def test_replace_and_insert_all_over_many_rows_take_many_steps():
    s = _session()
    _big_tables(s, 1000)
    sizes, scans, _ = _steps(s.execute("REPLACE INTO tgt ON (k) SELECT k, v FROM src2"))
    assert max(scans) <= BUDGET and len(sizes) >= 2000 // BUDGET
    assert list(s.execute("SELECT count(*), sum(v) FROM tgt")) == [(1500, 1000)]
    sizes, scans, rows = _steps(s.execute("INSERT ALL WHEN k % 4 = 0 THEN INTO tgt SELECT k, v FROM src2"))
    assert rows == [(500,)] and max(scans) <= BUDGET and len(sizes) >= 1000 // BUDGET


def test_lateral_join_emits_at_most_the_budget_per_step():
    rows = _bounded_rows("SELECT p.w, s.v FROM probe p, LATERAL (SELECT v FROM big WHERE big.k = p.k) s")
    groups = {0: list(range(250)), 1: list(range(5))}
    assert rows == [(w, v) for w in range(30) for v in groups.get(w % 3, [])]


def test_merge_on_a_condition_without_keys_tests_a_budget_of_pairs_per_step():
    s = _session()
    _big_tables(s, 300)
    result = s.execute("MERGE INTO tgt USING (SELECT k FROM src2 WHERE k < 20) AS s ON tgt.k < s.k - 590 "
                       "WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, 7)")
    sizes, _, rows = _steps(result)
    assert rows == [(10,)]
    assert len(sizes) >= 10 * 300 // BUDGET  # 10 source rows each tested against 300 target rows
