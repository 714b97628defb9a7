"""Each step of every operator emits at most Limits.step_rows rows, and its results are unchanged."""

import pytest

import engine
from engine.core.errors import EngineError
from engine.core.limits import Limits

BUDGET = 100


def _session(step_rows=BUDGET, sort_run_rows=None):
    """A session whose steps emit at most `step_rows` rows and sort at most `sort_run_rows`."""
    limits = Limits(step_rows=step_rows, sort_run_rows=sort_run_rows or step_rows)
    return engine.Database(limits=limits).session()


def _load(session):
    for sql in [
        # 250 rows on key 0 (more than the budget), 5 on key 1, none on key 2
        "CREATE TABLE big (k INT, v INT)",
        "INSERT INTO big SELECT 0, number FROM numbers(250)",
        "INSERT INTO big SELECT 1, number FROM numbers(5)",
        "CREATE TABLE probe (k INT, w INT)",
        "INSERT INTO probe SELECT number % 3, number FROM numbers(30)",
        "CREATE TABLE sparse (x INT, y VARCHAR)",
        "INSERT INTO sparse SELECT CASE WHEN number % 5 = 0 THEN NULL ELSE number % 13 END, "
        "CASE WHEN number % 7 = 0 THEN NULL ELSE CAST(number % 11 AS VARCHAR) END FROM numbers(3000)",
    ]:
        list(session.execute(sql))
    return session


def _steps(result):
    """(rows of each step, scan rows counted during each step, all rows)."""
    sizes, scans, rows = [], [], []
    before = result.progress.scan_rows
    for batch in result.batches():
        sizes.append(len(batch))
        scans.append(result.progress.scan_rows - before)
        before = result.progress.scan_rows
        rows.extend(batch)
    return sizes, scans, rows


def _bounded_rows(sql, budget=BUDGET):
    """The query's rows under a small budget, checked against every step and the default budget."""
    sizes, _, rows = _steps(_load(_session(budget)).execute(sql))
    assert max(sizes, default=0) <= budget
    assert rows == list(_load(_session(8192)).execute(sql))  # the same rows, in the same order
    return rows


# ---------------------------------------------------------------- joins


def test_hash_join_on_an_oversize_group_emits_budget_rows_per_step_in_order():
    rows = _bounded_rows("SELECT p.w, b.v FROM probe p JOIN big b ON p.k = b.k")
    groups = {0: list(range(250)), 1: list(range(5))}
    assert rows == [(w, v) for w in range(30) for v in groups.get(w % 3, [])]


@pytest.mark.parametrize("group, steps", [(BUDGET, [BUDGET] * 3), (BUDGET + 1, [BUDGET, 1] * 3)])
def test_a_group_of_the_budget_is_one_step_and_one_more_row_is_sliced(group, steps):
    s = _session()
    list(s.execute("CREATE TABLE g (k INT, v INT)"))
    list(s.execute(f"INSERT INTO g SELECT 1, number FROM numbers({group})"))
    sizes, _, rows = _steps(s.execute("SELECT a.number, b.v FROM numbers(3) a JOIN g b ON a.number * 0 + 1 = b.k"))
    assert [n for n in sizes if n] == steps
    assert rows == [(a, b) for a in range(3) for b in range(group)]


def test_hash_join_on_many_duplicates_below_the_budget_shrinks_the_probe_chunk():
    s = _session()
    list(s.execute("CREATE TABLE d (k INT)"))
    list(s.execute("INSERT INTO d SELECT number % 2 FROM numbers(120)"))  # groups of 60
    sizes, _, rows = _steps(s.execute("SELECT a.k FROM d a JOIN d b ON a.k = b.k"))
    assert max(sizes) <= BUDGET and len(rows) == 2 * 60 * 60


def test_skewed_join_6000_by_6000_on_one_key_stays_within_the_default_budget():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE s (k INT)"))
    list(s.execute("INSERT INTO s SELECT 7 FROM numbers(600)"))
    result = s.execute("SELECT count(*) FROM s a JOIN s b ON a.k = b.k")
    assert list(result) == [(360_000,)]
    sizes, _, _ = _steps(s.execute("SELECT a.k FROM s a JOIN s b ON a.k = b.k"))
    assert max(sizes) <= Limits().step_rows and sum(sizes) == 360_000


def test_left_join_slices_keep_one_null_row_only_for_rows_matching_no_slice():
    # key 0 meets 250 rows; the condition holds only for v >= 240 (the third slice)
    rows = _bounded_rows("SELECT p.w, b.v FROM probe p LEFT JOIN big b ON p.k = b.k AND b.v >= 240 ORDER BY p.w, b.v")
    expected = []
    for w in range(30):
        k = w % 3
        matches = list(range(240, 250)) if k == 0 else []
        expected += [(w, v) for v in matches] or [(w, None)]
    assert rows == expected


def test_full_join_with_oversize_groups():
    rows = _bounded_rows("SELECT p.w, b.v FROM probe p FULL JOIN big b ON p.k = b.k AND b.v < 3 AND p.w < 6")
    assert len(rows) == 2 * 3 + 2 * 3 + (30 - 4) + (255 - 6)


def test_cross_join_emits_at_most_the_budget_per_step():
    sizes, _, rows = _steps(_session().execute("SELECT a.number, b.number FROM numbers(300) a CROSS JOIN numbers(300) b"))
    assert max(sizes) <= BUDGET
    assert rows == [(a, b) for a in range(300) for b in range(300)]


def test_nested_loop_join_condition_and_outer_join():
    rows = _bounded_rows("SELECT a.number, b.number FROM numbers(40) a JOIN numbers(300) b ON a.number * 7 > b.number")
    assert rows == [(a, b) for a in range(40) for b in range(300) if a * 7 > b]
    rows = _bounded_rows("SELECT a.number, b.number FROM numbers(40) a LEFT JOIN numbers(300) b "
                         "ON a.number * 7 = b.number + 200")
    assert rows == [(a, a * 7 - 200 if a * 7 >= 200 else None) for a in range(40)]


# ---------------------------------------------------------------- correlated subqueries


def _correlated_session(inner_rows, step_rows=8192):
    s = _session(step_rows)
    list(s.execute("CREATE TABLE o (id INT)"))
    list(s.execute("INSERT INTO o SELECT number FROM numbers(200)"))
    list(s.execute("CREATE TABLE i (id INT)"))
    list(s.execute(f"INSERT INTO i SELECT number % 50 FROM numbers({inner_rows})"))
    return s


def test_correlated_subquery_runs_for_16_outer_rows_per_step():
    s = _correlated_session(50)
    sizes, scans, rows = _steps(s.execute("SELECT (SELECT count(*) FROM i WHERE i.id = o.id) FROM o"))
    assert rows == [(1 if n < 50 else 0,) for n in range(200)]
    # each step scans at most the outer batch plus 16 runs of the 50-row subquery (was 200 runs)
    assert max(scans) <= 200 + 16 * 50
    assert max(sizes) <= 16


def test_correlated_subquery_reading_more_than_the_budget_runs_once_per_step():
    s = _correlated_session(150, step_rows=BUDGET)
    sizes, scans, rows = _steps(s.execute("SELECT o.id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.id = o.id)"))
    assert [r[0] for r in rows] == list(range(50))
    assert max(scans) <= BUDGET + 150


def test_correlated_subquery_in_update_takes_few_rows_per_step():
    s = _correlated_session(50)
    result = s.execute("UPDATE o SET id = id + 1000 WHERE id IN (SELECT i.id FROM i WHERE i.id = o.id)")
    _, scans, rows = _steps(result)
    assert rows == [(50,)]
    assert max(scans) <= 16 * (50 + 1)


@pytest.mark.parametrize("sql, expected", [
    ("SELECT number FROM numbers(300) WHERE number IN (SELECT i.id * 2 FROM i)", [(n,) for n in range(0, 100, 2)]),
    ("SELECT number, (SELECT max(i.id) FROM i) FROM numbers(3)", [(n, 49) for n in range(3)]),
    ("SELECT number FROM numbers(3) WHERE EXISTS (SELECT 1 FROM i WHERE i.id > 48)", [(0,), (1,), (2,)]),
    ("SELECT count(*) FROM numbers(3) WHERE number NOT IN (SELECT i.id FROM i)", [(0,)]),
])
def test_uncorrelated_subquery_runs_in_steps_before_the_outer_rows(sql, expected):
    s = _correlated_session(1000, step_rows=BUDGET)
    _, scans, rows = _steps(s.execute(sql))
    assert rows == expected
    # at most one subquery batch and one outer batch a step: was the whole 1,000-row subquery
    assert max(scans) <= 2 * BUDGET


def test_uncorrelated_subquery_error_is_raised_only_when_its_value_is_needed():
    s = _session()
    failing = "(SELECT 1 DIV (number - number) FROM numbers(2))"
    assert list(s.execute(f"SELECT count(*) FROM numbers(5) WHERE number > 10 AND number IN {failing}")) == [(0,)]
    with pytest.raises(EngineError, match="divided by zero") as info:
        list(s.execute(f"SELECT count(*) FROM numbers(5) WHERE number IN {failing}"))
    assert info.value.code == 1006


# ---------------------------------------------------------------- sorts


@pytest.mark.parametrize("order", [
    "x", "x DESC", "x NULLS FIRST", "x DESC NULLS LAST", "y, x DESC", "y DESC, x", "x % 3, y DESC NULLS FIRST, x",
])
def test_sort_steps_stay_within_the_budget_and_keep_ties_in_input_order(order):
    rows = _bounded_rows(f"SELECT x, y FROM sparse ORDER BY {order}")
    assert len(rows) == 3000


def test_sort_of_ties_is_stable_across_runs():
    rows = _bounded_rows("SELECT number % 7 AS k, number FROM numbers(3000) ORDER BY k DESC")
    assert rows == sorted(((n % 7, n) for n in range(3000)), key=lambda r: -r[0])
    rows = _bounded_rows("SELECT number % 7 AS k, number FROM numbers(3000) ORDER BY k, number DESC")
    assert rows == sorted(((n % 7, n) for n in range(3000)), key=lambda r: (r[0], -r[1]))


@pytest.mark.parametrize("order", ["x", "y DESC, x"])
@pytest.mark.parametrize("run_rows", [BUDGET, 3 * BUDGET])
def test_no_step_sorts_more_than_a_run_or_merges_more_than_the_budget(monkeypatch, order, run_rows):
    from engine.exec import sort

    sorted_sizes = []
    real = sort.sort_rows

    def counting(rows, passes):
        sorted_sizes.append(len(rows))
        return real(rows, passes)

    monkeypatch.setattr(sort, "sort_rows", counting)
    session = _load(_session(sort_run_rows=run_rows))
    sorted_sizes.clear()
    sizes, _, rows = _steps(session.execute(f"SELECT x, y FROM sparse ORDER BY {order}"))
    runs = 3000 // run_rows
    assert len(rows) == 3000 and sorted_sizes[:runs] == [run_rows] * runs  # one run per step
    assert max(sorted_sizes[runs:]) <= BUDGET  # merged a budget at a time
    assert max(sizes) <= BUDGET


@pytest.mark.parametrize("count, runs", [(3 * BUDGET, 1), (3 * BUDGET + 1, 2)])
def test_a_sort_of_run_rows_is_one_run_and_one_more_row_is_merged(monkeypatch, count, runs):
    from engine.exec import sort

    merged = []
    real = sort._merge_runs
    monkeypatch.setattr(sort, "_merge_runs", lambda r, *a: merged.append(len(r)) or real(r, *a))
    sizes, _, rows = _steps(_session(sort_run_rows=3 * BUDGET).execute(
        f"SELECT number FROM numbers({count}) ORDER BY number % 7, number DESC"))
    assert merged == ([] if runs == 1 else [runs])
    assert max(sizes) <= BUDGET
    assert [r[0] for r in rows] == sorted(range(count), key=lambda n: (n % 7, -n))


@pytest.mark.parametrize("limit, offset", [(10, 0), (BUDGET, 0), (BUDGET + 1, 0), (50, BUDGET), (2000, 10)])
def test_order_by_limit_at_and_above_the_budget(limit, offset):
    rows = _bounded_rows(f"SELECT number FROM numbers(3000) ORDER BY number % 10 DESC, number LIMIT {limit} OFFSET {offset}")
    assert [r[0] for r in rows] == sorted(range(3000), key=lambda n: (-(n % 10), n))[offset:offset + limit]


# ---------------------------------------------------------------- other operators


@pytest.mark.parametrize("sql, count", [
    ("SELECT number FROM numbers(1000)", 1000),
    ("SELECT x, y FROM sparse WHERE x > 2", None),
    ("SELECT number % 500, count(*) FROM numbers(3000) GROUP BY number % 500", 500),
    ("SELECT DISTINCT number % 700 FROM numbers(3000)", 700),
    ("SELECT DISTINCT x, y FROM sparse", None),
    ("SELECT number FROM numbers(1000) UNION SELECT number FROM numbers(1500)", 1500),
    ("SELECT number FROM numbers(1000) UNION ALL SELECT number FROM numbers(1500)", 2500),
    ("SELECT number FROM numbers(1000) EXCEPT SELECT number FROM numbers(300)", 700),
    ("SELECT number FROM numbers(1000) INTERSECT SELECT number FROM numbers(300)", 300),
    ("SELECT number % 7, number % 3, count(*) FROM numbers(3000) GROUP BY ROLLUP(number % 7, number % 3)", 29),
    ("SELECT number, row_number() OVER (ORDER BY number DESC) FROM numbers(1000)", 1000),
    ("SELECT number % 300, median(number), string_agg(to_varchar(number)) FROM numbers(3000) GROUP BY 1", 300),
    ("SELECT number % 300, listagg(to_varchar(number), ',') WITHIN GROUP (ORDER BY number DESC), "
     "array_agg(number) WITHIN GROUP (ORDER BY number % 7, number) FROM numbers(3000) GROUP BY 1", 300),
])
def test_every_operator_emits_at_most_the_budget_per_step(sql, count):
    sizes, _, rows = _steps(_load(_session()).execute(sql))
    assert max(sizes) <= BUDGET
    assert sorted(rows, key=repr) == sorted(_load(_session(8192)).execute(sql), key=repr)
    if count is not None:
        assert len(rows) == count


@pytest.mark.parametrize("grouped", [False, True])
def test_within_group_values_are_collected_in_steps_and_ordered_at_the_end(grouped):
    """WITHIN GROUP: each step scans at most the budget of rows and only gathers; the values of a
    group spread over many steps come out in the keys' order."""
    key = "number % 2" if grouped else "0"
    sql = (f"SELECT {key}, listagg(to_varchar(number), ',') WITHIN GROUP (ORDER BY number % 10 DESC, number) "
           f"FROM numbers(2000) GROUP BY 1 ORDER BY 1")
    sizes, scans, rows = _steps(_load(_session()).execute(sql))
    assert max(scans) <= BUDGET and len(sizes) > 2000 // BUDGET
    groups = {}
    for n in range(2000):
        groups.setdefault(n % 2 if grouped else 0, []).append(n)
    assert rows == [(g, ",".join(str(n) for n in sorted(ns, key=lambda n: (-(n % 10), n))))
                    for g, ns in sorted(groups.items())]


# ---------------------------------------------------------------- INSERT ... VALUES


def _values(n, bad_at=None):
    return ", ".join(f"({i}, 'v{i}')" if i != bad_at else f"('x{i}', 'v{i}')" for i in range(n))


def test_insert_values_of_budget_rows_is_done_by_execute():
    s = _session()
    list(s.execute("CREATE TABLE w (a INT, b VARCHAR)"))
    result = s.execute(f"INSERT INTO w VALUES {_values(BUDGET)}")
    assert list(s.execute("SELECT count(*) FROM w")) == [(BUDGET,)]
    assert list(result) == [(BUDGET,)]


def test_insert_values_above_the_budget_converts_in_steps_and_appends_at_the_end():
    s = _session()
    list(s.execute("CREATE TABLE w (a INT, b VARCHAR)"))
    n = 10 * BUDGET + 1
    result = s.execute(f"INSERT INTO w VALUES {_values(n)}")
    steps = result.batches()
    assert next(steps) == []  # one step converted BUDGET rows...
    assert list(s.execute("SELECT count(*) FROM w")) == [(0,)]  # ...and appended none yet
    rest = list(steps)
    assert rest == [[]] * 10 + [[(n,)]]  # 11 steps of conversion in all, then the answer
    assert result.progress.write_rows == n
    assert list(s.execute("SELECT count(*), sum(a), max(b) FROM w")) == [(n, n * (n - 1) // 2, "v999")]


def test_insert_values_failing_in_a_late_row_inserts_nothing():
    s = _session()
    list(s.execute("CREATE TABLE w (a INT, b VARCHAR)"))
    result = s.execute(f"INSERT INTO w VALUES {_values(1000, bad_at=950)}")
    with pytest.raises(EngineError) as info:
        list(result)
    assert info.value.code == 1006
    assert list(s.execute("SELECT count(*) FROM w")) == [(0,)]


# ---------------------------------------------------------------- windows


@pytest.mark.parametrize("sql", [
    # one partition of 250 rows (over the budget), one of 5
    "SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v DESC) FROM big",
    "SELECT k, v, sum(v) OVER (PARTITION BY k ORDER BY v) FROM big",
    "SELECT k, v, sum(v) OVER (ORDER BY k), max(v) OVER (ORDER BY k DESC) FROM big",  # 250 peers
    "SELECT k, v, sum(v) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING) FROM big",
    "SELECT k, v, count(*) OVER (PARTITION BY k), rank() OVER (ORDER BY k), lag(v, 120) OVER (ORDER BY v) FROM big",
    "SELECT x, y, max(x) OVER (PARTITION BY y ORDER BY x RANGE BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM sparse",
])
def test_window_over_partitions_larger_than_the_budget(sql):
    rows = _bounded_rows(sql)
    assert len(rows) == (3000 if "sparse" in sql else 255)


def test_window_computes_an_oversize_partition_in_budget_pieces(monkeypatch):
    """A partition of 250 rows is computed 100 rows per step: no evaluator call spans more."""
    from engine.exec import window_functions

    spans = []
    make = window_functions.make_ranking

    def recording(func, order_key):
        factory = make(func, order_key)

        def for_rows(rows):
            compute = factory(rows)

            def piece(lo, hi):
                spans.append(hi - lo)
                return compute(lo, hi)

            return piece

        return for_rows

    monkeypatch.setattr("engine.exec.window.make_ranking", recording)
    rows = _bounded_rows("SELECT k, rank() OVER (PARTITION BY k ORDER BY v) FROM big")
    # budget 100: partition 0 in three pieces, partition 1 in one; then the run with budget 8192,
    # which over columns (the default) may take the column-wise window (engine.exec.window_columns)
    # and call no ranking evaluator
    assert spans[:4] == [100, 100, 50, 5] and spans[4:] in ([250, 5], [])
    assert rows[:3] == [(0, 1), (0, 2), (0, 3)]


def test_a_whole_partition_frame_is_folded_a_budget_of_rows_per_step(monkeypatch):
    """The first frame of `sum(v) OVER (PARTITION BY k)` spans the 250-row partition: it is
    folded in steps of at most the budget, not at once."""
    from engine.exec import window_functions

    added = []
    move = window_functions._Sliding.move

    def recording(self, s, e):
        added.append(max(e - self.e, 0))
        return move(self, s, e)

    monkeypatch.setattr(window_functions._Sliding, "move", recording)
    result = _load(_session()).execute("SELECT k, sum(v) OVER (PARTITION BY k), "
                                       "count(*) OVER (ORDER BY v ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) "
                                       "FROM big")
    sizes, _, rows = _steps(result)
    assert max(added) <= BUDGET
    assert max(sizes) <= BUDGET
    assert sorted(r[1] for r in rows if r[0] == 0)[0] == sum(range(250))


def test_alter_table_rewrites_a_budget_of_rows_per_step_and_swaps_at_the_end():
    s = _session()
    list(s.execute("CREATE TABLE w (a INT, b VARCHAR)"))
    list(s.execute("INSERT INTO w SELECT number, 'v' FROM numbers(250)"))
    result = s.execute("ALTER TABLE w MODIFY COLUMN a BIGINT")
    steps = result.batches()
    assert next(steps) == []  # one step rewrote BUDGET rows...
    assert [c.type for c in s.execute("SELECT a FROM w").schema] == ["Nullable(Int32)"]  # ...not swapped yet
    assert list(steps) == [[], []]  # 3 steps in all for 250 rows
    assert [c.type for c in s.execute("SELECT a FROM w").schema] == ["Nullable(Int64)"]
    assert list(s.execute("SELECT count(*), sum(a) FROM w")) == [(250, 250 * 249 // 2)]


# ---------------------------------------------------------------- EXPLAIN ANALYZE


def test_explain_analyze_runs_the_query_in_budget_steps_then_answers_the_tree():
    session = _load(_session())
    sizes, scans, rows = _steps(session.execute("EXPLAIN ANALYZE SELECT y, COUNT(*) FROM sparse GROUP BY y"))
    # the 3000-row scan is pulled one budget-sized step at a time, before any row is answered
    assert max(scans) <= BUDGET and sum(scans) == 3000
    assert sizes[:30] == [0] * 30 and sizes[-1] == len(rows) > 0
    assert "    ├── output rows: 12" in [r[0] for r in rows]  # 11 values and NULL


@pytest.mark.parametrize("sql, total", [
    ("SELECT unnest(range(0, 1000))", 1000),  # one input row, one array far past the budget
    ("SELECT number, unnest(range(0, 250)) FROM numbers(3)", 750),
    ("SELECT json_path_query(to_variant(range(0, 1000)), '$[*]')", 1000),
    ("SELECT f.index FROM (SELECT to_variant(range(0, 1000)) AS v) AS t, LATERAL FLATTEN(input => t.v) f", 1000),
    # a table function of a column without LATERAL: one big array spread per row of the FROM items
    ("SELECT t.x, u.value FROM (SELECT 1 AS x, range(0, 1000) AS a) AS t, unnest(t.a) u", 1000),
    ("SELECT f.index FROM (SELECT to_variant(range(0, 1000)) AS v) AS t, FLATTEN(t.v) f", 1000),
    ("SELECT j.value FROM (SELECT to_variant(range(0, 1000)) AS v) AS t, json_array_elements(t.v) j", 1000),
    ("SELECT j.key FROM (SELECT to_variant(map(array_transform(range(0, 1000), x -> to_string(x)), range(0, 1000))) "
     "AS v) AS t, json_each(t.v) j", 1000),
    ("SELECT n.number, u.value FROM numbers(3) n, unnest(range(0, n.number * 500)) u", 1500),
    # unnest(range(...)) spreads lazily, no array built
    ("SELECT * FROM unnest(range(0, 1000))", 1000),
])
def test_set_returning_calls_spread_a_big_array_over_budget_sized_steps(sql, total):
    sizes, _, rows = _steps(_session().execute(sql))
    assert max(sizes) <= BUDGET and len(rows) == total


@pytest.mark.parametrize("sql, total", [
    # 3000 rows grouped into 250 pivoted rows of four aggregates
    ("SELECT * FROM sales PIVOT(sum(v) FOR k IN ('0', '1', '2', '3'))", 250),
    # 3000 rows spread into two rows each
    ("SELECT * FROM sales UNPIVOT(x FOR n IN (g, v))", 6000),
])
def test_pivot_and_unpivot_of_a_big_table_run_in_budget_sized_steps(sql, total):
    def loaded(step_rows):
        s = _session(step_rows)
        list(s.execute("CREATE TABLE sales (g INT, k VARCHAR, v INT)"))
        list(s.execute("INSERT INTO sales SELECT number % 250, CAST(number % 4 AS VARCHAR), number FROM numbers(3000)"))
        return s
    sizes, _, rows = _steps(loaded(BUDGET).execute(sql))
    assert max(sizes) <= BUDGET and len(rows) == total
    assert rows == list(loaded(8192).execute(sql))
