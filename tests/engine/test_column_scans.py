"""Scans of tables kept column by column (issue 24): each scan reads only the columns the plan
above it uses (engine.exec.scan_reads), whole-column aggregates and filters that pick rows by
number answer exactly as row storage does (NULLs, empty tables, float sums, overflow)."""

import math

import pytest

import engine
from engine.catalog import table_storage
from engine.catalog.table_storage import ColumnData
from tests.engine.sql_helpers import answers_in_both_storages as _both_storages
from tests.engine.sql_helpers import q
from tests.engine.sql_helpers import same_answer as _same

# ---------------------------------------------------------------- the columns each scan reads

READS = [
    # (query, the columns of t it reads)
    ("SELECT a, c FROM t ORDER BY c DESC LIMIT 3", {"a", "c"}),
    ("SELECT a FROM t ORDER BY c", {"a", "c"}),
    ("SELECT t.a, u.d FROM t JOIN t AS u ON t.b = u.a ORDER BY 1, 2", {"a", "b", "d"}),
    ("SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY c) FROM t", {"a", "b", "c"}),
    ("SELECT DISTINCT b FROM t", {"b"}),
    ("SELECT a FROM t UNION SELECT b FROM t", {"a", "b"}),
    ("SELECT a FROM t WHERE b IN (SELECT b FROM t WHERE e)", {"a", "b", "e"}),
    ("SELECT COUNT(*) FROM t", set()),
    ("SELECT SUM(c), MAX(a) FROM t", {"a", "c"}),
    ("SELECT b, SUM(c) FROM t GROUP BY b", {"b", "c"}),
    ("SELECT a, d FROM t WHERE b < 3", {"a", "b", "d"}),
    ("SELECT COUNT(*) FROM t WHERE e AND c > 5.0", {"c", "e"}),
    # a projection computes all its columns, read or not (d here): what it reads is read
    ("SELECT x FROM (SELECT a + b AS x, d FROM t) WHERE x > 3 ORDER BY x LIMIT 2", {"a", "b", "d"}),
    ("SELECT x FROM (SELECT a + b AS x, d FROM t ORDER BY c) WHERE x > 3", {"a", "b", "c", "d"}),
]
NAMES = "abcde"


@pytest.fixture
def spied(monkeypatch):
    """A session over t in columns, and the set of column names its reads touched."""
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database().session()
    q(s, "CREATE TABLE t (a INT, b INT, c DOUBLE, d VARCHAR, e BOOLEAN)")
    q(s, "INSERT INTO t SELECT number, number % 5, number / 3, concat('n', number::VARCHAR), "
         "number % 2 = 0 FROM numbers(50)")
    touched: set = set()

    def spy(name, positions_of):
        original = getattr(ColumnData, name)

        def method(self, *args, **kwargs):
            positions = positions_of(self, *args, **kwargs)
            touched.update(NAMES[i] for i in (range(len(self._columns)) if positions is None else positions))
            return original(self, *args, **kwargs)

        monkeypatch.setattr(ColumnData, name, method)

    spy("rows", lambda self, start=0, stop=None, columns=None: columns)
    spy("row_iterator", lambda self, start=0, columns=None: columns)
    spy("row", lambda self, index: None)
    spy("column", lambda self, index, *a: (index,))
    spy("column_iterator", lambda self, index, *a: (index,))
    spy("column_values", lambda self, index, *a: (index,))
    spy("boxed", lambda self, index, *a: (index,))
    spy("zipped", lambda self, positions, *a: positions)
    spy("picker", lambda self, index: (index,))
    spy("pick", lambda self, index, getter: (index,))
    spy("summary", lambda self, index, *a: (index,))
    return s, touched


@pytest.mark.parametrize("sql, reads", READS)
def test_a_scan_reads_only_the_columns_its_plan_uses(spied, sql, reads):
    s, touched = spied
    q(s, sql)
    assert touched == reads


def test_queries_reading_some_columns_answer_as_over_rows(monkeypatch):
    setup = ["CREATE TABLE t (a INT, b INT, c DOUBLE, d VARCHAR, e BOOLEAN)",
             "INSERT INTO t SELECT number, number % 5, number / 3, concat('n', number::VARCHAR), "
             "number % 2 = 0 FROM numbers(300)",
             "INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL), (7, 1, 2.5, NULL, true)"]
    queries = [sql for sql, _ in READS] + [
        "SELECT d FROM t WHERE a > 100 AND b = 2 ORDER BY d",
        "SELECT a, d, c FROM t WHERE c < 10.0 OR e ORDER BY a",
        "SELECT a * 2, d FROM t WHERE b = 1 ORDER BY 1",
        "SELECT COUNT(a), SUM(c) FROM t WHERE b = 4",
    ]
    rows, columns = _both_storages(monkeypatch, setup, queries, step_rows=64)
    for sql, r, c in zip(queries, rows, columns, strict=True):
        if "ORDER BY" in sql or "COUNT" in sql or "SUM" in sql:
            assert _same(c, r), sql
        else:
            assert sorted(map(repr, c)) == sorted(map(repr, r)), sql


# ---------------------------------------------------------------- whole-column aggregates

AGGREGATES = [
    "SELECT COUNT(*), COUNT(i), SUM(i), AVG(i), MIN(i), MAX(i) FROM w",
    "SELECT COUNT(f), SUM(f), AVG(f), MIN(f), MAX(f) FROM w",
    "SELECT SUM(n), AVG(n), MIN(n), MAX(n), COUNT(n) FROM w",
    "SELECT SUM(big) FROM w",
    "SELECT SUM(u8), AVG(u8), MAX(u8) FROM w",
    "SELECT MIN(s), MAX(s), ANY_VALUE(s) IS NOT NULL FROM w",
    "SELECT SUM(dec), AVG(dec), MIN(dec) FROM w",
    "SELECT COUNT(*), SUM(f), MIN(i) FROM w WHERE i % 3 = 0",
]


@pytest.mark.parametrize("rows", [0, 1, 3000])
def test_whole_column_aggregates_answer_as_over_rows(monkeypatch, rows):
    # f: floats whose sum depends on the order of additions; n: a column with NULLs; big:
    # BIGINTs whose SUM leaves the range (wrapped or an error, as over rows)
    setup = ["CREATE TABLE w (i INT, f DOUBLE, n DOUBLE, big BIGINT, u8 TINYINT UNSIGNED, s VARCHAR, "
             "dec DECIMAL(10, 2))",
             f"INSERT INTO w SELECT number, (number * 7919 % 1000) / 7.0 + 1e15 * (number % 3), "
             f"if(number % 4 = 0, NULL, number / 3), 9223372036854775807 - number, number % 256, "
             f"concat('s', number::VARCHAR), number / 100 FROM numbers({rows})"]
    rows_answers, column_answers = _both_storages(monkeypatch, setup, AGGREGATES)
    for sql, r, c in zip(AGGREGATES, rows_answers, column_answers, strict=True):
        assert _same(c, r), sql
    if rows == 0:
        assert rows_answers[0] == [(0, 0, None, None, None, None)]


def test_whole_column_min_max_see_nan(monkeypatch):
    setup = ["CREATE TABLE w (f DOUBLE)",
             "INSERT INTO w VALUES (1.5), ('NaN'::DOUBLE), (-2.0)",
             "INSERT INTO w SELECT number / 10 FROM numbers(5000)"]
    queries = ["SELECT MIN(f), MAX(f), SUM(f), COUNT(f) FROM w"]
    rows_answers, column_answers = _both_storages(monkeypatch, setup, queries)
    assert _same(column_answers, rows_answers)
    assert math.isnan(rows_answers[0][0][1])


def test_whole_column_sum_adds_batches_as_the_row_scan_does(monkeypatch):
    # more rows than a batch, of magnitudes that make the order of additions show
    setup = ["CREATE TABLE w (f DOUBLE)",
             "INSERT INTO w SELECT if(number % 2 = 0, 1e16, 1.0) * (1 + number % 7) FROM numbers(10000)"]
    rows_answers, column_answers = _both_storages(monkeypatch, setup, ["SELECT SUM(f), AVG(f) FROM w"],
                                                  step_rows=100)
    assert _same(column_answers, rows_answers)
