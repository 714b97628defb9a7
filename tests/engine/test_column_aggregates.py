"""Aggregations over tables kept column by column (issue 24): block summaries for whole-table
SUM/MIN/MAX (engine.catalog.column_zones), GROUP BY over rows of just the columns it reads, and
counting GROUP BYs from Counters of the keys (engine.exec.grouped_columns) answer exactly as the
row-by-row path over row storage: the same values (float sums added in the same order, NaN, -0.0,
NULLs, integer overflow), the same groups in the same order."""

import math
from array import array

import pytest

import engine
from engine.catalog import column_zones, table_storage
from engine.core.errors import EngineError
from engine.core.limits import Limits
from engine.exec import grouped_columns
from tests.engine.sql_helpers import answers_in_both_storages as _both_storages
from tests.engine.sql_helpers import q
from tests.engine.sql_helpers import same_answer as _same


def _assert_same(queries, rows, columns):
    for sql, r, c in zip(queries, rows, columns, strict=True):
        assert _same(c, r), sql


# ---------------------------------------------------------------- block summaries

SUMMARISED = [
    "SELECT MAX(f) FROM w",  # before the other parts of the summaries are asked for
    "SELECT COUNT(*), SUM(f), AVG(f), MIN(f), MAX(f) FROM w",
    "SELECT SUM(i), AVG(i), MIN(i), MAX(i), COUNT(i) FROM w",
    "SELECT SUM(big), MIN(big) FROM w",
    "SELECT MIN(z), MAX(z), SUM(z) FROM w",
]
W_SETUP = ["CREATE TABLE w (i INT, f DOUBLE, big BIGINT, z DOUBLE)",
           # f: sums that depend on the order of additions; big: a SUM out of range; z: -0.0 and 0.0
           "INSERT INTO w SELECT number, if(number % 2 = 0, 1e16, 1.0) * (1 + number % 7), "
           "9223372036854775807 - number, if(number % 3 = 0, -0.0, 0.0) FROM numbers(1000)"]


@pytest.mark.parametrize("step_rows", [None, 100, 333])
def test_summarised_aggregates_answer_as_over_rows_run_after_run(monkeypatch, step_rows):
    # run twice: the second run reads the summaries the first one kept
    queries = SUMMARISED + SUMMARISED
    rows, columns = _both_storages(monkeypatch, W_SETUP, queries, step_rows=step_rows)
    _assert_same(queries, rows, columns)
    assert columns[:len(SUMMARISED)] == columns[len(SUMMARISED):]


def test_summaries_follow_appends_and_rewrites(monkeypatch):
    # each change comes after the queries ran (and kept summaries of the version before it)
    queries = list(SUMMARISED)
    for change in ["INSERT INTO w VALUES (5000, 'NaN'::DOUBLE, 1, -0.0)",
                   "INSERT INTO w SELECT number, number / 3, number, 1.5 FROM numbers(300)",
                   "UPDATE w SET f = -1e300 WHERE i = 17",
                   "DELETE FROM w WHERE i < 500",
                   "UPDATE w SET f = NULL WHERE i = 600"]:
        queries += [change, *SUMMARISED]
    rows, columns = _both_storages(monkeypatch, W_SETUP, queries, step_rows=100)
    _assert_same(queries, rows, columns)
    after_update = 3 * (len(SUMMARISED) + 1)  # the first query after the UPDATE to -1e300
    assert _same(columns[after_update + 1][0][3], -1e300)
    assert math.isnan(columns[len(SUMMARISED) + 1][0][0])  # MAX(f) after the NaN's INSERT


def test_summaries_are_kept_for_whole_blocks_only_and_dropped_with_their_column():
    column = array("d", [float(i) for i in range(250)])
    assert column_zones.block_summary(column, 0, 100, True) == [sum(range(100)) * 1.0, 0.0, 99.0]
    assert column_zones.block_summary(column, 200, 250, False) == [sum(range(200, 250)) * 1.0, 200.0, 249.0]
    kept = column_zones._SUMMARIES[id(column)][1]
    assert list(kept) == [(0, 100)]
    kept[(0, 100)][0] = "kept"  # a kept summary is read, not computed again
    assert column_zones.block_summary(column, 0, 100, True)[0] == "kept"
    key = id(column)
    del column
    assert key not in column_zones._SUMMARIES


def test_a_summary_computes_only_the_parts_asked_for():
    column = array("q", [5, -3, 9, 9])
    assert column_zones.block_summary(column, 0, 4, True, (1,)) == [None, -3, None]
    assert column_zones.block_summary(column, 0, 4, True, (0, 2)) == [20, -3, 9]


def test_summary_of_floats_sees_a_nan_anywhere():
    column = array("d", [2.0, float("nan"), -1.0])
    total, least, greatest = column_zones.block_summary(column, 0, 3, False)
    assert math.isnan(total) and least == -1.0 and math.isnan(greatest)


# ---------------------------------------------------------------- GROUP BY

G_SETUP = ["CREATE TABLE g (k INT, s VARCHAR, f DOUBLE, n DOUBLE, i BIGINT, ts TIMESTAMP, d DATE)",
           "INSERT INTO g SELECT number % 7, concat('s', (number % 13)::VARCHAR), "
           "if(number % 2 = 0, 1e16, 1.0) * (1 + number % 5), if(number % 4 = 0, NULL, number / 3), "
           "9223372036854775807 - number % 3, "
           "to_timestamp(1577836800 + number * 40000), to_date(18262 + number % 400) FROM numbers(2500)",
           "INSERT INTO g VALUES (NULL, NULL, 'NaN'::DOUBLE, NULL, NULL, '2021-03-04 05:06:07', NULL), "
           "(3, 's1', -0.0, -0.0, 0, '2020-02-29 23:59:59', '2020-02-29')"]
GROUPED = [
    "SELECT k, COUNT(*), SUM(f), AVG(f), MIN(f), MAX(f) FROM g GROUP BY k",
    "SELECT s, COUNT(*), SUM(f), MIN(n), MAX(n), COUNT(n), SUM(n) FROM g GROUP BY s",
    "SELECT k, s, COUNT(*), SUM(i) FROM g GROUP BY k, s",
    "SELECT f, COUNT(*) FROM g GROUP BY f",
    "SELECT k % 3, SUM(f) FROM g GROUP BY k % 3",
    "SELECT k, SUM(k), MIN(k) FROM g GROUP BY k",  # one column read: its values, not tuples
    "SELECT k, COUNT(DISTINCT s), string_agg(s) FROM g GROUP BY k",
    "SELECT s, MIN(ts), MAX(d), ANY_VALUE(k) IS NOT NULL FROM g GROUP BY s",
    # counting: plain keys, NULL keys, date parts of a Timestamp and of a Date, several keys
    "SELECT k, COUNT(*) FROM g GROUP BY k",
    "SELECT s, k, COUNT(*), COUNT(f) FROM g GROUP BY s, k",
    "SELECT to_start_of_month(ts) AS m, COUNT(*) FROM g GROUP BY to_start_of_month(ts)",
    "SELECT to_year(ts), to_month(ts), COUNT(*) FROM g GROUP BY 1, 2",
    "SELECT to_yyyymm(d), COUNT(*) FROM g GROUP BY 1",
    "SELECT to_start_of_quarter(ts), k, COUNT(*) FROM g GROUP BY 1, 2",
    "SELECT to_day_of_week(ts), COUNT(*) FROM g GROUP BY 1",
    "SELECT to_start_of_month(d), COUNT(*) FROM g GROUP BY 1",  # d holds a NULL: the row path
    "SELECT to_hour(ts), COUNT(*) FROM g GROUP BY 1",  # a part not of the date alone
    "SELECT k, COUNT(*) FROM g WHERE k > 100 GROUP BY k",
    "SELECT k, SUM(i) FROM g GROUP BY k",  # BIGINT sums out of range
]


@pytest.mark.parametrize("step_rows", [None, 64, 1000])
def test_group_by_answers_as_over_rows_in_the_same_order(monkeypatch, step_rows):
    rows, columns = _both_storages(monkeypatch, G_SETUP, GROUPED, step_rows=step_rows)
    _assert_same(GROUPED, rows, columns)
    assert len(rows[0]) == 8 and rows[10][0][0].day == 1


def test_group_by_over_an_empty_table(monkeypatch):
    setup = [G_SETUP[0]]
    rows, columns = _both_storages(monkeypatch, setup, GROUPED)
    _assert_same(GROUPED, rows, columns)
    assert all(r == [] for r in rows)


def test_date_parts_in_another_time_zone_answer_as_over_rows(monkeypatch):
    queries = ["SELECT to_start_of_month(ts), COUNT(*) FROM g GROUP BY 1",
               "SELECT to_day_of_month(ts), COUNT(*) FROM g GROUP BY 1"]
    rows, columns = _both_storages(monkeypatch, G_SETUP, queries, settings={"timezone": "Asia/Shanghai"})
    _assert_same(queries, rows, columns)
    utc_rows, _ = _both_storages(monkeypatch, G_SETUP, queries)
    assert rows[1] != utc_rows[1]  # the zone moves some timestamps to another day


@pytest.fixture
def counted(monkeypatch):
    """The GROUP BYs that ran from Counters (their keys' sources)."""
    runs = []
    original = grouped_columns._counting_run

    def spy(plan, rt, finish, keys):
        runs.append(keys)
        return original(plan, rt, finish, keys)

    monkeypatch.setattr(grouped_columns, "_counting_run", spy)
    return runs


@pytest.mark.parametrize("columns", [False, True])
@pytest.mark.parametrize("sql, counts", [
    ("SELECT k, COUNT(*) FROM g GROUP BY k", True),
    ("SELECT to_start_of_month(ts), COUNT(ts) FROM g GROUP BY 1", True),
    ("SELECT to_start_of_month(d), COUNT(*) FROM g GROUP BY 1", False),  # d may be NULL
    ("SELECT f, COUNT(*) FROM g GROUP BY f", False),  # a float key that may be a NaN
    ("SELECT k, COUNT(n) FROM g GROUP BY k", False),  # COUNT of a column with NULLs
    ("SELECT k, SUM(f) FROM g GROUP BY k", False),
])
def test_which_group_bys_count_from_counters(monkeypatch, counted, columns, sql, counts):
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    s = engine.Database().session()
    for statement in G_SETUP:
        q(s, statement)
    q(s, sql)
    assert bool(counted) == counts


@pytest.mark.parametrize("columns", [False, True])
def test_counting_group_by_charges_its_groups(monkeypatch, columns):
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    db = engine.Database()
    s = db.session()
    q(s, "CREATE TABLE h (k INT)")
    q(s, "INSERT INTO h SELECT number FROM numbers(20000)")
    sql = "SELECT k, COUNT(*) FROM h GROUP BY k"
    assert len(q(db.session(settings={"max_memory_usage": str(8 << 20)}), sql)) == 20000
    with pytest.raises(EngineError) as info:
        q(db.session(settings={"max_memory_usage": str(256 << 10)}), sql)
    assert info.value.code == 2411


@pytest.mark.parametrize("columns", [False, True])
def test_a_null_appended_while_an_aggregate_runs_changes_nothing_it_reads(monkeypatch, columns):
    # the first NULL turns an array column into a list (same values) between the query's steps
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    db = engine.Database(limits=Limits(step_rows=100))
    s = db.session()
    q(s, "CREATE TABLE w (k INT, f DOUBLE)")
    q(s, "INSERT INTO w SELECT number % 3, number / 3 FROM numbers(1000)")
    queries = ["SELECT SUM(f), MIN(f), MAX(f), COUNT(*) FROM w", "SELECT k, COUNT(*) FROM w GROUP BY k",
               "SELECT k, SUM(f) FROM w GROUP BY k"]
    before = [q(s, sql) for sql in queries]
    running = [iter(s.execute(sql)) for sql in queries]
    q(db.session(), "INSERT INTO w VALUES (NULL, NULL)")
    assert [list(it) for it in running] == before
    assert before[0][0][1:] == (0.0, 333.0, 1000)


@pytest.mark.parametrize("values", [
    [1.0, float("nan"), 3.0], [float("nan"), 1.0], [1.0, float("inf"), -float("inf")],
    [1.0, float("inf"), float("nan"), -float("inf")], [-0.0, 0.0], [0.0, -0.0], [2.0, 5.0, 5.0]])
def test_the_greatest_of_a_summary_is_keys_greatest(values):
    from engine.types.keys import greatest
    got = column_zones.block_summary(array("d", values), 0, len(values), False, (2,))[2]
    assert _same(got, greatest(values))
