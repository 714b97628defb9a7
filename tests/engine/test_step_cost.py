"""Functions declared costly per row (ScalarFunction.row_cost) make the steps over them take
fewer rows, so a step's declared work stays within engine.core.steps.STEP_WORK_MICROS, in every
operator that calls functions per row; the answers are unchanged, and code calling nothing
costly keeps its rows per step."""

import pytest

import engine
from engine.bind.map_lambdas import LAMBDA_ELEMENTS
from engine.core import steps
from engine.core.steps import STEP_WORK_MICROS, rows_for_cost
from engine.functions.registry import SCALARS, ScalarFunction, fixed
from engine.types import sqltype as T

COST = 500  # microseconds declared per call of the test's function
ROWS = STEP_WORK_MICROS // COST  # rows per step over one call of it (10)
N = 95  # table rows: not a multiple of ROWS


class _Counted:
    """n * 2, counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, n):
        self.calls += 1
        return n * 2


@pytest.fixture
def costly(monkeypatch):
    """`costly_twice(n)` = n * 2, declared to cost COST microseconds a call; the fixture's value
    counts its calls."""
    counted = _Counted()
    fn = ScalarFunction("costly_twice", counted, fixed(T.INT64), 1, 1, row_cost=COST)
    monkeypatch.setitem(SCALARS, "costly_twice", fn)
    return counted


@pytest.fixture(params=[False, True], ids=["rows", "columns"])
def session(request, monkeypatch):
    """A session with t(n INT, v INT) of N rows, kept as rows or column by column."""
    monkeypatch.setattr(engine.catalog.table_storage, "COLUMNS", request.param)
    s = engine.Database().session()
    for sql in ["CREATE TABLE t (n INT, v INT)", f"INSERT INTO t SELECT number, number % 7 FROM numbers({N})"]:
        list(s.execute(sql))
    return s


def _run(session, sql, counted):
    """(calls of the counted function during each step of `sql`, its rows)."""
    result = session.execute(sql)
    per_step, rows = [], []
    before = counted.calls
    for batch in result.batches():
        per_step.append(counted.calls - before)
        before = counted.calls
        rows.extend(batch)
    return per_step, rows


def test_rows_for_cost():
    assert rows_for_cost(0, 2048) == 2048  # nothing declared: the rows as they were
    assert rows_for_cost(1, 2048) == 2048  # cheap enough for a whole batch
    assert rows_for_cost(60, 2048) == STEP_WORK_MICROS // 60
    assert rows_for_cost(60, 16) == 16  # never more than the caller's rows
    assert rows_for_cost(10 * STEP_WORK_MICROS, 2048) == 1  # at least one row a step


QUERIES = [
    # (SQL over t, the answer computed here from the rows n = 0..N-1, v = n % 7)
    ("SELECT costly_twice(n) FROM t", [(2 * n,) for n in range(N)]),
    ("SELECT n FROM t WHERE costly_twice(v) > 6", [(n,) for n in range(N) if 2 * (n % 7) > 6]),
    ("SELECT costly_twice(number) FROM numbers(95)", [(2 * n,) for n in range(N)]),
    ("SELECT sum(costly_twice(n)) FROM t", [(sum(2 * n for n in range(N)),)]),
    ("SELECT v, sum(costly_twice(n)) FROM t GROUP BY v ORDER BY v",
     [(k, sum(2 * n for n in range(N) if n % 7 == k)) for k in range(7)]),
    ("SELECT DISTINCT costly_twice(v) FROM t ORDER BY 1", [(2 * k,) for k in range(7)]),
    ("SELECT a.n, b.n FROM t AS a JOIN t AS b ON a.v = b.v AND costly_twice(a.n) < b.n ORDER BY 1, 2",
     sorted((a, b) for a in range(N) for b in range(N) if a % 7 == b % 7 and 2 * a < b)),
    ("SELECT n, costly_twice(n) + row_number() OVER (ORDER BY n) FROM t ORDER BY n",
     [(n, 2 * n + n + 1) for n in range(N)]),
]


@pytest.mark.parametrize("sql, expected", QUERIES, ids=[q for q, _ in QUERIES])
def test_steps_over_a_costly_function_take_fewer_rows(session, costly, sql, expected):
    per_step, rows = _run(session, sql, costly)
    assert rows == expected
    assert max(per_step) <= ROWS  # each step calls it for at most the rows its cost allows
    assert sum(per_step) == costly.calls > 0


def test_the_costs_of_one_steps_calls_add_up(session, costly):
    """Two costly calls a row: half the rows a step."""
    per_step, rows = _run(session, "SELECT costly_twice(n) + costly_twice(v) FROM t", costly)
    assert rows == [(2 * n + 2 * (n % 7),) for n in range(N)]
    assert max(per_step) == 2 * (STEP_WORK_MICROS // (2 * COST))


def test_update_and_delete_over_a_costly_function_take_fewer_rows_a_step(session, costly):
    per_step, _ = _run(session, "UPDATE t SET v = costly_twice(n) WHERE n < 50", costly)
    assert max(per_step) <= ROWS and sum(per_step) == 50
    per_step, _ = _run(session, "DELETE FROM t WHERE costly_twice(v) > 20", costly)
    assert max(per_step) <= ROWS and sum(per_step) == N
    kept = [(n, 2 * n) for n in range(6)] + [(n, n % 7) for n in range(50, N)]  # 2 * v <= 20
    assert list(session.execute("SELECT n, v FROM t ORDER BY n")) == kept


def test_a_larger_budget_takes_whole_batches(session, costly, monkeypatch):
    """The same query with room for a whole batch of the declared work: one step calls it for
    every row (so the bound above is the declared cost's doing)."""
    monkeypatch.setattr(steps, "STEP_WORK_MICROS", COST * 4096)
    per_step, rows = _run(session, "SELECT costly_twice(n) FROM t", costly)
    assert rows == [(2 * n,) for n in range(N)]
    assert max(per_step) == N


def test_ordinary_queries_keep_their_batch_size(session):
    result = session.execute("SELECT number + 1, concat('x', number::string) FROM numbers(5000)")
    assert [len(b) for b in result.batches() if b] == [2048, 2048, 904]


@pytest.mark.parametrize("name", ["h3_cell_area_m2", "h3_exact_edge_length_m", "h3_to_geo_boundary",
                                  "st_area", "st_makegeompoint", "regexp_replace", "st_geomfromtext"])
def test_expensive_functions_declare_a_cost(name):
    assert SCALARS[name].row_cost >= 5


def test_a_query_over_h3_cell_areas_takes_steps_of_its_declared_cost():
    s = engine.Database().session()
    sql = "SELECT h3_cell_area_m2(geo_to_h3(number % 180 - 90.0, number % 360 - 180.0, 9)) FROM numbers(300)"
    sizes = [len(b) for b in s.execute(sql).batches() if b]
    assert sum(sizes) == 300
    assert max(sizes) == rows_for_cost(SCALARS["h3_cell_area_m2"].row_cost, 2048) < 300


def test_a_lambda_counts_its_bodys_costs_for_several_elements(session, costly):
    """array_transform runs its body once an element: its declared cost is the body's times
    LAMBDA_ELEMENTS (the lengths are not known when compiling)."""
    sql = "SELECT array_transform([n, v], x -> costly_twice(x)) FROM t"
    per_step, rows = _run(session, sql, costly)
    assert [list(r[0]) for r in rows] == [[2 * n, 2 * (n % 7)] for n in range(N)]
    assert max(per_step) == 2 * rows_for_cost(LAMBDA_ELEMENTS * COST, 2048)  # two elements a row


def test_casts_to_shapes_take_fewer_rows_a_step():
    s = engine.Database().session()
    sql = "SELECT CAST(concat('POINT(', (number % 90)::string, ' 1)') AS GEOMETRY) FROM numbers(3000)"
    sizes = [len(b) for b in s.execute(sql).batches() if b]
    assert sum(sizes) == 3000 and max(sizes) < 2048


def test_a_correlated_subquery_over_a_costly_function_runs_once_a_step(session, costly):
    """Each run of the subquery calls it for every row it reads (declared work beyond a step's):
    one outer row a step, so one run a step, instead of CORRELATED_ROWS."""
    sql = "SELECT n FROM t AS a WHERE EXISTS (SELECT 1 FROM t AS b WHERE costly_twice(b.n) = a.n) ORDER BY n"
    per_step, rows = _run(session, sql, costly)
    assert rows == [(n,) for n in range(0, N, 2)]
    assert max(per_step) == N  # the calls of one run


def test_merge_matching_over_a_costly_clause_takes_fewer_pairs_a_step(session, costly):
    list(session.execute("CREATE TABLE u (n INT, v INT)"))
    list(session.execute("INSERT INTO u SELECT number, 0 FROM numbers(50)"))
    sql = ("MERGE INTO u USING t ON u.n = t.n WHEN MATCHED THEN UPDATE SET v = costly_twice(t.v) "
           "WHEN NOT MATCHED THEN INSERT (n, v) VALUES (t.n, costly_twice(t.v))")
    per_step, _ = _run(session, sql, costly)
    assert sum(per_step) == N and max(per_step) <= ROWS
    assert list(session.execute("SELECT n, v FROM u ORDER BY n")) == [(n, 2 * (n % 7)) for n in range(N)]


def test_a_hash_joins_costly_build_keys_take_fewer_right_rows_a_step(session, costly):
    """The right side's keys are computed as its rows are added to the table: fewer of them a
    step, and once a row (its NULL test reads the key computed)."""
    sql = "SELECT a.n, b.n FROM t AS a JOIN t AS b ON a.n = costly_twice(b.n) ORDER BY 1"
    per_step, rows = _run(session, sql, costly)
    assert rows == [(2 * n, n) for n in range(N) if 2 * n < N]
    assert sum(per_step) == N and max(per_step) <= ROWS
