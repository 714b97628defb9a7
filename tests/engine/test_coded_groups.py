"""GROUP BY of an integer column in numpy (engine.exec.coded_groups through
engine.exec.grouped_columns' `integer_groups_run`) answers exactly as the row-by-row path over
row storage, with numpy and without: float sums added in row order across blocks, NaN, infinities,
-0.0 (sums of only -0.0, MIN/MAX keeping the first of 0.0 and -0.0), NULL keys and values (the
row path), empty tables, groups first seen in a later block, integer SUM overflow, wide keys."""

import random

import pytest

import engine
from engine.catalog import table_storage
from engine.core import vectors
from engine.core.limits import Limits
from engine.exec import aggregate
from engine.exec.coded_groups import CodedGroups
from tests.engine.sql_helpers import answers_in_both_storages as _both_storages
from tests.engine.sql_helpers import q
from tests.engine.sql_helpers import same_answer as _same

SETUP = [
    "CREATE TABLE g (k INT, u TINYINT UNSIGNED, big BIGINT UNSIGNED, wide BIGINT, nk INT, "
    "f DOUBLE, z DOUBLE, i INT, t TINYINT, b BIGINT, nf DOUBLE)",
    # f: sums whose value depends on the order of the additions (1e16 and small values);
    # z: only -0.0 for k = 3, 0.0 first then -0.0 for k = 1 and the other way round for k = 2
    "INSERT INTO g SELECT number % 5, number % 3, 18446744073709551612 + number % 4, number * 1000003, "
    "if(number % 50 = 0, NULL, number % 4), if(number % 2 = 0, 1e16, 1.0) * (1 + number % 7) - 0.3, "
    "if(number % 5 = 3, '-0.0'::DOUBLE, if(number % 5 = 1, if(number < 150, 0.0, '-0.0'::DOUBLE), "
    "if(number % 5 = 2, if(number < 150, '-0.0'::DOUBLE, 0.0), number * 1.0))), "
    "2147483647 - number, -128 + number % 256, 9223372036854775807 - number, "
    "if(number % 7 = 0, NULL, number / 3) FROM numbers(300)",
    # NaN, infinities, a key first seen in a later block
    "INSERT INTO g VALUES (7, 1, 0, 0, 1, 'NaN'::DOUBLE, 0.0, 1, 1, 1, 1.0), "
    "(8, 2, 1, 1, 2, 'inf'::DOUBLE, '-0.0'::DOUBLE, 1, 1, 1, 1.0), (8, 2, 1, 1, 2, '-inf'::DOUBLE, 0.0, 1, 1, 1, 1.0), "
    "(-4, 0, 5, 2, 0, 'inf'::DOUBLE, 'NaN'::DOUBLE, -2147483648, 1, 1, 1.0), (0, 0, 5, 3, 0, 1.0, -1.0, 0, 1, 1, 1.0)",
]

QUERIES = [
    "SELECT k, COUNT(*), SUM(f), AVG(f), MIN(f), MAX(f) FROM g GROUP BY k",
    "SELECT k, SUM(z), MIN(z), MAX(z), AVG(z), COUNT(z) FROM g GROUP BY k",
    "SELECT u, SUM(i), AVG(i), MIN(i), MAX(i), SUM(t), MIN(b), MAX(b) FROM g GROUP BY u",
    "SELECT big, COUNT(*), SUM(f), MAX(t) FROM g GROUP BY big",
    "SELECT k, SUM(b) FROM g GROUP BY k",  # BIGINT: the row path (its sum overflows Int64)
    "SELECT nk, COUNT(*), SUM(f) FROM g GROUP BY nk",  # a key with NULLs: the row path
    "SELECT k, SUM(nf), MIN(nf), COUNT(nf) FROM g GROUP BY k",  # values with NULLs: the row path
    "SELECT k, COUNT(nf), COUNT(*) FROM g GROUP BY k",  # COUNT of a column with NULLs: the row path
    "SELECT wide, COUNT(*), MIN(f) FROM g GROUP BY wide",  # a range too wide: the row path
    "SELECT k FROM g GROUP BY k",
    "SELECT k, COUNT(*) FROM g WHERE k > 1 GROUP BY k",
    "SELECT MIN(f), k, MAX(f), MIN(f) FROM g GROUP BY k",
]


@pytest.mark.parametrize("numpy", [True, False])
@pytest.mark.parametrize("step_rows", [None, 64])
def test_grouped_aggregates_answer_as_the_row_path(monkeypatch, numpy, step_rows):
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    rows, columns = _both_storages(monkeypatch, SETUP, QUERIES, step_rows=step_rows)
    for sql, r, c in zip(QUERIES, rows, columns, strict=True):
        assert _same(c, r), sql  # the same groups in the same order (their first rows')
    first = dict((row[0], row[1:]) for row in rows[1])
    assert repr(first[3][:3]) == "(-0.0, -0.0, -0.0)"  # only -0.0: a sum of -0.0
    assert repr(first[1][1:3]) == "(0.0, 0.0)" and repr(first[2][1:3]) == "(-0.0, -0.0)"  # first zeros
    assert rows[4][0] == (0, -8909)  # a BIGINT SUM wraps as Databend's (the row path's finish)


def test_the_numpy_run_is_taken_only_where_it_qualifies(monkeypatch):
    monkeypatch.setattr(vectors, "NUMPY", True)
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    taken = []
    real = aggregate.integer_groups_run
    monkeypatch.setattr(aggregate, "integer_groups_run",
                        lambda *a: taken.append(real(*a) is not None) or real(*a))
    s = engine.Database().session()
    for sql in SETUP:
        q(s, sql)
    for sql in QUERIES:
        try:
            q(s, sql)
        except engine.EngineError:
            pass
    assert taken == [True, True, True, True, False, False, False, False, True, True, False, True]


@pytest.mark.parametrize("numpy", [True, False])
def test_empty_table_and_groups_only_in_a_later_block(monkeypatch, numpy):
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    setup = ["CREATE TABLE e (k INT, f DOUBLE)", "CREATE TABLE l (k INT, f DOUBLE)",
             "INSERT INTO l SELECT 1, number * 0.1 FROM numbers(200)",
             "INSERT INTO l SELECT 2 + number % 2, '-0.0'::DOUBLE FROM numbers(30)",
             "INSERT INTO l VALUES (1, 1e300), (0, 2.0)"]
    queries = ["SELECT k, COUNT(*), SUM(f), MIN(f), MAX(f) FROM e GROUP BY k",
               "SELECT k, COUNT(*), SUM(f), AVG(f), MIN(f), MAX(f) FROM l GROUP BY k"]
    rows, columns = _both_storages(monkeypatch, setup, queries, step_rows=16)
    for sql, r, c in zip(queries, rows, columns, strict=True):
        assert _same(c, r), sql
    assert rows[0] == []
    assert [row[0] for row in rows[1]] == [1, 2, 3, 0]
    assert repr(rows[1][1][2]) == "-0.0"


def test_int_sum_overflow_errors_unchanged(monkeypatch):
    monkeypatch.setattr(vectors, "NUMPY", True)
    setup = ["CREATE TABLE o (k INT, v INT UNSIGNED, b BIGINT)",
             "INSERT INTO o SELECT number % 2, 4294967295, 9223372036854775807 FROM numbers(100)"]
    queries = ["SELECT k, SUM(v), AVG(v) FROM o GROUP BY k", "SELECT k, SUM(b) FROM o GROUP BY k"]
    rows, columns = _both_storages(monkeypatch, setup, queries, step_rows=16)
    assert rows == columns
    assert rows[0] == [(0, 50 * 4294967295, 4294967295.0), (1, 50 * 4294967295, 4294967295.0)]


def test_the_numpy_run_steps_are_bounded(monkeypatch):
    """A block of step_rows rows a step: 10,000 rows in steps of 1,000 take more than ten steps."""
    monkeypatch.setattr(vectors, "NUMPY", True)
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database(limits=Limits(step_rows=1000)).session()
    q(s, "CREATE TABLE b (k INT, f DOUBLE)")
    q(s, "INSERT INTO b SELECT number % 3, number FROM numbers(10000)")
    result = s.execute("SELECT k, SUM(f) FROM b GROUP BY k")
    batches = list(result.batches())
    assert len(batches) >= 20  # the range pass and the fold, a block each
    assert [r for b in batches for r in b] == [(0, 16668333.0), (1, 16661667.0), (2, 16665000.0)]


DAYS_SETUP = [
    "CREATE TABLE ev (ts TIMESTAMP, d DATE)",
    "INSERT INTO ev SELECT to_timestamp(1577836800 + number * 40000), to_date(18262 + number % 400) "
    "FROM numbers(100)",
    # days before the first block's (the counts' arrays grow at the front), then later ones
    "INSERT INTO ev SELECT to_timestamp(631152000 + number * 86399), to_date(7000 + number) FROM numbers(40)",
    "INSERT INTO ev SELECT to_timestamp(1700000000 + number * 7), to_date(19000) FROM numbers(40)",
]
DAY_QUERIES = [
    "SELECT to_start_of_month(ts) AS m, COUNT(*) FROM ev GROUP BY to_start_of_month(ts)",
    "SELECT to_yyyymmdd(ts), COUNT(*) FROM ev GROUP BY 1",
    "SELECT to_start_of_quarter(d), COUNT(d) FROM ev GROUP BY 1",
    "SELECT to_year(d), COUNT(*) FROM ev GROUP BY 1",
]


@pytest.mark.parametrize("numpy", [True, False])
@pytest.mark.parametrize("wide", [False, True])
def test_counted_days_answer_as_the_row_path(monkeypatch, numpy, wide):
    """Day numbers counted in numpy, in steps of 16 rows: arrays grown at both ends, and (`wide`)
    days spanning more than MAX_CODES, counted on in a Counter, keep the groups' order."""
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    setup = DAYS_SETUP + (["INSERT INTO ev VALUES ('2600-01-01 00:00:00', '2600-01-01'), "
                           "('2020-01-05 00:00:00', '1900-01-01')"] if wide else [])
    rows, columns = _both_storages(monkeypatch, setup, DAY_QUERIES, step_rows=16)
    for sql, r, c in zip(DAY_QUERIES, rows, columns, strict=True):
        assert _same(c, r), sql
    months = [m.isoformat() for m, _ in rows[0]]
    assert months[:2] == ["2020-01-01", "2020-02-01"] and "1990-01-01" in months and "2023-11-01" in months
    assert ("2600-01-01" in months) is wide


@pytest.mark.parametrize("numpy", [True, False])
def test_filtered_counts_in_one_numpy_mask_answer_as_the_row_path(monkeypatch, numpy):
    """COUNT(*) WHERE of a bool column's truth and comparisons (column_filters' `_numpy_mask`):
    a NULL-free BOOLEAN list (its bytes), one with NULLs (the map path), NaN and -0.0 values."""
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    setup = ["CREATE TABLE c (flag BOOLEAN, nflag BOOLEAN, val DOUBLE, i INT)",
             "INSERT INTO c SELECT number % 3 = 0, if(number % 5 = 0, NULL, number % 2 = 0), "
             "if(number % 17 = 0, 'NaN'::DOUBLE, if(number % 19 = 0, '-0.0'::DOUBLE, number * 1.5)), "
             "number % 7 FROM numbers(5000)"]
    queries = [f"SELECT COUNT(*) FROM c WHERE {w}" for w in (
        "flag AND val > 500.0", "NOT flag AND val > 500.0", "val > 500.0 AND flag", "flag",
        "nflag AND val > 500.0", "flag AND val >= 0 AND i < 3", "flag AND i = 2", "NOT flag",
        "val = 0 AND flag", "flag AND val > 1e300")]
    rows, columns = _both_storages(monkeypatch, setup, queries, step_rows=700)
    assert rows == columns
    # a NaN is greater than every number (Databend's order)
    assert rows[0] == [(len([n for n in range(5000)
                             if n % 3 == 0 and (n % 17 == 0 or n % 19 and n * 1.5 > 500)]),)]


@pytest.mark.parametrize("size, block", [(5, 3), (1000, 64), (50, 16), (3, 500)])
def test_the_kernel_folds_blocks_as_the_row_step_folds_rows(size, block):
    """CodedGroups against a model of the row step (`a += v` from the first value; MIN keeps the
    first of equal values and a NaN only when all are; MAX keeps the first, a NaN once one is
    seen), over values whose sums depend on the order of the additions, NaN, infinities and both
    zeros; with more groups than a block's rows too (only the block's groups carried)."""
    np = pytest.importorskip("numpy")
    rng = random.Random(size * 7919 + block)
    groups = CodedGroups(np, size, {0: {"sum", "min", "max"}}, {0: "d"})
    sums, mins, maxs, counts, order = {}, {}, {}, {}, []
    choices = [lambda: rng.random() * 1e16, rng.random, lambda: -0.0, lambda: 0.0, lambda: float("nan"),
               lambda: float("inf"), lambda: -1e16]
    for _ in range(30):
        codes = [rng.randrange(size) if rng.random() < 0.9 else size - 1 for _ in range(block)]
        values = [rng.choice(choices)() for _ in codes]
        for c, v in zip(codes, values, strict=True):
            counts[c] = counts.get(c, 0) + 1
            if c not in sums:
                sums[c], mins[c], maxs[c] = v, (v if v == v else None), v
                order.append(c)
                continue
            sums[c] += v
            if v == v and (mins[c] is None or v < mins[c]):
                mins[c] = v
            if maxs[c] == maxs[c] and (v != v or v > maxs[c]):
                maxs[c] = v
        groups.add(np.array(codes, np.intp), {0: np.array(values)})
    assert groups.order == order
    at = np.array(order, np.intp)
    assert list(map(repr, groups.sums_of(0, at))) == [repr(sums[c]) for c in order]
    assert list(map(repr, groups.mins[0][at].tolist())) == [repr(mins[c] if mins[c] is not None else float("nan"))
                                                            for c in order]
    assert list(map(repr, groups.maxs[0][at].tolist())) == [repr(maxs[c]) for c in order]
    assert groups.count[at].tolist() == [counts[c] for c in order]
