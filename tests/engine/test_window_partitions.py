"""The window operator's partitions and output: partitions gathered by key and sorted apart give
the rows of the full (partition, order) sort, in its order and in bounded steps; the select
list and QUALIFY computed in the window's pieces answer as Databend 1.2.453 does."""

import random

import pytest

import engine
from engine.core.limits import Limits
from engine.exec import window_partitions

SETUP = [
    "CREATE TABLE w (g INT, v INT, s VARCHAR)",
    "INSERT INTO w VALUES (1, 10, 'a'), (1, 20, 'b'), (1, 20, 'c'), (2, 5, 'd'), (2, NULL, 'e'), (NULL, 7, 'f')",
]


@pytest.fixture
def session():
    s = engine.Database().session()
    for sql in SETUP:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


# ---------------------------------------------------------------- answers (checked against Databend 1.2.453)


def test_the_null_partition_comes_first_as_databend_orders_it():
    s = engine.Database().session()
    rows = list(s.execute("SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) FROM (SELECT 1 k, 1 v "
                          "UNION ALL SELECT NULL, 2 UNION ALL SELECT 2, 3 UNION ALL SELECT NULL, 4 "
                          "UNION ALL SELECT 1, 5) t"))
    assert rows == [(None, 2, 1), (None, 4, 2), (1, 1, 1), (1, 5, 2), (2, 3, 1)]


@pytest.mark.parametrize("sql, schema, rows", [
    # an expression over one function's value in the select list, QUALIFY over another's
    ("SELECT g, rank() OVER (PARTITION BY g ORDER BY v) + 100 AS r, v FROM w "
     "QUALIFY row_number() OVER (PARTITION BY g ORDER BY v) <= 2 ORDER BY g, v",
     [("g", "Nullable(Int32)"), ("r", "UInt64"), ("v", "Nullable(Int32)")],
     [(1, 101, 10), (1, 102, 20), (2, 101, 5), (2, 102, None), (None, 101, 7)]),
    # a correlated subquery in the select list beside the window
    ("SELECT s, (SELECT count(*) FROM w x WHERE x.g = w.g) AS c, row_number() OVER (ORDER BY s) AS n "
     "FROM w ORDER BY s",
     [("s", "Nullable(String)"), ("c", "Nullable(UInt64)"), ("n", "UInt64")],
     [("a", 3, 1), ("b", 3, 2), ("c", 3, 3), ("d", 2, 4), ("e", 2, 5), ("f", 0, 6)]),
    # an uncorrelated one, in an expression with the window's value
    ("SELECT s, (SELECT max(v) FROM w) - sum(v) OVER (ORDER BY s) AS d FROM w ORDER BY s",
     [("s", "Nullable(String)"), ("d", "Nullable(Int64)")],
     [("a", 10), ("b", -10), ("c", -30), ("d", -35), ("e", -35), ("f", -42)]),
    # QUALIFY alone over the window: the sort by s (not selected) comes before the projection
    ("SELECT v FROM w QUALIFY lag(v) OVER (ORDER BY s) > 10 ORDER BY s",
     [("v", "Nullable(Int32)")], [(20,), (5,)]),
    ("SELECT DISTINCT g, count(*) OVER (PARTITION BY g) AS n FROM w ORDER BY g",
     [("g", "Nullable(Int32)"), ("n", "UInt64")], [(1, 3), (2, 2), (None, 1)]),
    ("SELECT g, s, v FROM w QUALIFY count(*) OVER (PARTITION BY g) > 99",
     [("g", "Nullable(Int32)"), ("s", "Nullable(String)"), ("v", "Nullable(Int32)")], []),
])
def test_select_list_and_qualify_over_window_values(session, sql, schema, rows):
    assert answer(session, sql) == (schema, rows)


# ---------------------------------------------------------------- gathered partitions = the full sort


@pytest.fixture(scope="module")
def varied():
    """A session over 2,000 rows: NULL and repeated partition keys of several types, order
    keys with ties and NULLs."""
    rng = random.Random(17)
    s = engine.Database().session()
    list(s.execute("CREATE TABLE p (id INT, g INT, h VARCHAR, v DOUBLE, d DECIMAL(10, 2), t DATE)"))
    rows = []
    for i in range(2000):
        g = "NULL" if i % 13 == 0 else str(rng.randrange(40))
        h = "NULL" if i % 11 == 0 else f"'h{rng.randrange(7)}'"
        v = "NULL" if i % 17 == 0 else str(rng.randrange(50) / 4)
        d = f"{rng.randrange(-300, 300) / 100:.2f}"
        rows.append(f"({i}, {g}, {h}, {v}, {d}, '2024-01-{1 + i % 5:02d}')")
    list(s.execute("INSERT INTO p VALUES " + ", ".join(rows)))
    return s


PARTITIONED = [
    "SELECT id, row_number() OVER (PARTITION BY g ORDER BY v) FROM p",
    "SELECT id, g, h, rank() OVER (PARTITION BY g, h ORDER BY v DESC), "
    "sum(v) OVER (PARTITION BY h ORDER BY v ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM p",
    "SELECT id, lag(id) OVER (PARTITION BY g), count(*) OVER (PARTITION BY h ORDER BY v NULLS FIRST) FROM p",
    "SELECT id, first_value(id) OVER (PARTITION BY g, h ORDER BY v, id DESC), "
    "sum(v) OVER (PARTITION BY d ORDER BY v RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING) FROM p",
    "SELECT id, dense_rank() OVER (PARTITION BY t, v > 6 ORDER BY h DESC NULLS LAST) FROM p",
    "SELECT id, max(id) OVER (PARTITION BY v ORDER BY t) FROM p QUALIFY max(id) OVER (PARTITION BY v ORDER BY t) > id",
    # no PARTITION BY: the rows gathered in one list and sorted by the ORDER BY
    "SELECT id, sum(v) OVER (ORDER BY h DESC, v), lag(id) OVER (ORDER BY d NULLS FIRST, t) FROM p",
]


@pytest.mark.parametrize("sql", PARTITIONED)
def test_gathered_partitions_give_the_rows_of_the_full_sort_in_its_order(varied, sql, monkeypatch):
    gathered = []
    gather = window_partitions._gathered

    def counting(*args):
        gathered.append(1)
        return gather(*args)

    monkeypatch.setattr(window_partitions, "_gathered", counting)
    rows = list(varied.execute(sql))
    assert gathered  # the partitions were gathered...
    monkeypatch.setattr(window_partitions, "gathers", lambda plan: False)
    gathered.clear()
    full_sort = list(varied.execute(sql))
    assert not gathered  # ...and here cut from the full sort
    assert rows == full_sort
    assert len(rows) > 0


def test_partition_keys_of_other_types_are_cut_from_the_full_sort(varied, monkeypatch):
    gathered = []
    monkeypatch.setattr(window_partitions, "_gathered", lambda *args: gathered.append(1))
    rows = list(varied.execute("SELECT id, row_number() OVER (PARTITION BY [g] ORDER BY id) FROM p "
                               "QUALIFY row_number() OVER (PARTITION BY [g] ORDER BY id) = 1"))
    assert not gathered
    assert len(rows) == 41  # 40 keys and NULL, each in a one-element array


# ---------------------------------------------------------------- bounded steps

BUDGET = 100


def _session(step_rows):
    return engine.Database(limits=Limits(step_rows=step_rows, sort_run_rows=step_rows)).session()


def _steps(sql, step_rows=BUDGET):
    sizes, rows = [], []
    for batch in _session(step_rows).execute(sql).batches():
        sizes.append(len(batch))
        rows.extend(batch)
    return sizes, rows


@pytest.mark.parametrize("sql", [
    # 300 partitions: more than a sort run, so the partitions are ordered in runs and merges
    "SELECT number % 300, number, row_number() OVER (PARTITION BY number % 300 ORDER BY number DESC) "
    "FROM numbers(3000)",
    # two partitions of 1,500 rows: each sorted in runs and merges
    "SELECT number % 2, number, sum(number) OVER (PARTITION BY number % 2 ORDER BY number DESC) "
    "FROM numbers(3000)",
    "SELECT number, lag(number, 7) OVER (PARTITION BY to_varchar(number % 450) ORDER BY number % 10, number) "
    "FROM numbers(3000)",
])
def test_gathered_partitions_come_out_in_budget_steps_in_the_order_of_a_large_budget(sql):
    sizes, rows = _steps(sql)
    assert max(sizes) <= BUDGET
    assert rows == _steps(sql, 8192)[1]
    assert len(rows) == 3000


@pytest.mark.parametrize("over", ["PARTITION BY number % 2 ORDER BY number", "ORDER BY number DESC",
                                  "PARTITION BY number % 700"])
def test_a_qualify_dropping_every_row_still_computes_a_budget_of_rows_per_step(monkeypatch, over):
    from engine.exec import window_functions

    computed = []
    make = window_functions.make_ranking

    def recording(func, order_key):
        factory = make(func, order_key)

        def for_rows(rows):
            compute = factory(rows)

            def piece(lo, hi):
                computed.append(hi - lo)
                return compute(lo, hi)

            return piece

        return for_rows

    monkeypatch.setattr("engine.exec.window.make_ranking", recording)
    result = _session(BUDGET).execute(f"SELECT number FROM numbers(3000) QUALIFY row_number() OVER ({over}) > 5000")
    per_step = []
    for batch in result.batches():
        assert batch == []
        per_step.append(sum(computed))
        computed.clear()
    per_step.append(sum(computed))  # the last step ends the pipeline
    assert max(per_step) <= BUDGET
    assert sum(per_step) == 3000


# ---------------------------------------------------------------- running counts and whole-partition frames


def test_running_counts_and_whole_partition_frames_as_databend_answers():
    # checked against Databend 1.2.453: a running COUNT(*) takes its last peer's count (RANGE) or
    # its own (ROWS); a frame over the whole partition gives every row the same value
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (g INT, v INT NOT NULL)"))
    list(s.execute("INSERT INTO t VALUES (1, 10), (1, 20), (1, 20), (2, 5), (2, 7), (NULL, 3)"))
    rows = list(s.execute(
        "SELECT g, v, count(*) OVER (PARTITION BY g ORDER BY v), "
        "count(*) OVER (PARTITION BY g ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
        "avg(v) OVER (PARTITION BY g ORDER BY v ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), "
        "count(*) OVER (PARTITION BY g ORDER BY v RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), "
        "min(v) OVER (PARTITION BY g), sum(v) OVER () FROM t ORDER BY g, v"))
    assert rows == [(1, 10, 1, 1, 50 / 3, 3, 10, 65), (1, 20, 3, 2, 50 / 3, 3, 10, 65),
                    (1, 20, 3, 3, 50 / 3, 3, 10, 65), (2, 5, 1, 1, 6.0, 2, 5, 65), (2, 7, 2, 2, 6.0, 2, 5, 65),
                    (None, 3, 1, 1, 3.0, 1, 3, 65)]


def test_running_counts_and_whole_frames_over_partitions_larger_than_the_budget():
    # 1,500 rows a partition, peers of 10 rows: pieces of 100 rows cut peer groups
    sql = ("SELECT number, count(*) OVER (PARTITION BY number % 2 ORDER BY number DIV 20), "
           "sum(number) OVER (PARTITION BY number % 2), max(number) OVER () FROM numbers(3000)")
    sizes, rows = _steps(sql)
    assert max(sizes) <= BUDGET
    assert rows == _steps(sql, 8192)[1]
    for n, count, total, top in rows:
        assert count == (n // 20 + 1) * 10
        assert total == sum(range(n % 2, 3000, 2))
        assert top == 2999
