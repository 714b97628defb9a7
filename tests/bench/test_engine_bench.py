"""bench.engine runs end to end at a tiny size, and its peers agree with the hand-written floor."""

from __future__ import annotations

import pytest

from bench import engine as bench_engine
from bench import workload


def test_tiny_run_prints_the_table_for_every_query(capsys):
    assert bench_engine.main(["--rows", "200", "--reps", "1", "--insert-rows", "50",
                              "--single-inserts", "20", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "| query | rows out | queryhttp ms | sqlite3 ms | duckdb ms | sqlglot ms | floor ms |" \
        in out
    for q in workload.QUERIES:
        assert f"| {q['name']} |" in out
    assert "| insert_bulk | 50 |" in out and "| insert_single | 20 |" in out


def test_sqlite_matches_the_floor_on_every_query():
    t, d = workload.gen_big(300), workload.gen_dim()
    engines = [bench_engine.SqliteEngine(t, d), bench_engine.FloorEngine(t, d)]
    measured = bench_engine.measure_selects(engines, workload.QUERIES, t, d, reps=1,
                                            budget=5, timeout=30)
    assert {name: m["status"]["sqlite3"] for name, m in measured.items()} == \
        {q["name"]: "ok" for q in workload.QUERIES}


def test_duckdb_matches_the_floor_on_every_query():
    pytest.importorskip("duckdb")
    t, d = workload.gen_big(300), workload.gen_dim()
    engines = [bench_engine.DuckDBEngine(t, d), bench_engine.FloorEngine(t, d)]
    measured = bench_engine.measure_selects(engines, workload.QUERIES, t, d, reps=1,
                                            budget=5, timeout=30)
    assert {name: m["status"]["duckdb"] for name, m in measured.items()} == \
        {q["name"]: "ok" for q in workload.QUERIES}


def test_a_wrong_result_is_flagged_as_a_mismatch():
    class WrongEngine(bench_engine.FloorEngine):
        name = "queryhttp"

        def select(self, q):
            return super().select(q)[1:]

    t, d = workload.gen_big(100), workload.gen_dim()
    measured = bench_engine.measure_selects([WrongEngine(t, d)], workload.QUERIES[:1], t, d,
                                            reps=1, budget=5, timeout=30)
    assert measured["scan_filter"]["status"]["queryhttp"].startswith("MISMATCH")


def test_floor_insert_counts_the_rows():
    rows = workload.gen_big(30)
    table: list = []
    assert workload.floor_insert(workload.insert_bulk_sql(rows), table) == 30
    assert table == rows
