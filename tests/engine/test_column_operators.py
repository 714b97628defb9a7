"""Sorts, top-k, joins, windows and DISTINCT over tables kept column by column (issue 24) answer
exactly as over row storage: the same rows in the same order (ties in input order, NULLs and
NaNs where ORDER BY puts them), on empty tables, one row, and across batch boundaries."""


import pytest

import engine
from engine.catalog import table_storage
from engine.core import vectors
from engine.core.limits import Limits
from engine.exec import column_scan
from engine.exec import join as join_module
from engine.exec import sort as sort_module
from engine.exec import window as window_module
from tests.engine.sql_helpers import (
    answers_in_both_storages,
    paths_taken,
    q,
    sessions_in_both_storages,
)
from tests.engine.sql_helpers import same_answer as _same


def _setup(rows: int, nan: bool):
    """o: id unique, g few values (ties), f floats with ties (and a NaN), n ints with NULLs,
    s strings with ties and NULLs; dim: the join's other side, with a key missing and one twice."""
    setup = [
        "CREATE TABLE o (id INT, g INT, f DOUBLE, n INT, s VARCHAR)",
        "CREATE TABLE dim (k INT, label VARCHAR, w DOUBLE)",
        f"INSERT INTO o SELECT number, number % 7, (number * 37 % 101) / 4, "
        f"if(number % 5 = 0, NULL, number % 13), if(number % 11 = 0, NULL, concat('s', (number % 17)::VARCHAR)) "
        f"FROM numbers({rows})",
        "INSERT INTO dim SELECT number, concat('d', number::VARCHAR), number / 2 FROM numbers(6)",
        "INSERT INTO dim VALUES (3, 'again', 9.5), (NULL, 'none', 1.0)",
    ]
    if nan:
        setup.append("INSERT INTO o VALUES (-1, 2, 'NaN'::DOUBLE, 4, 'nan'), (-2, 3, 'NaN'::DOUBLE, NULL, NULL)")
    return setup


QUERIES = [
    # top-k
    "SELECT id, f FROM o ORDER BY f DESC LIMIT 10",
    "SELECT id, f FROM o ORDER BY f LIMIT 7 OFFSET 3",
    "SELECT * FROM o ORDER BY g DESC LIMIT 12",
    "SELECT id, g FROM o ORDER BY g LIMIT 100",
    "SELECT id, s FROM o ORDER BY s LIMIT 9",
    "SELECT id FROM o ORDER BY id DESC LIMIT 5",
    "SELECT id, n FROM o ORDER BY n NULLS FIRST LIMIT 8",
    "SELECT id FROM o ORDER BY f LIMIT 0",
    # full sorts
    "SELECT id, f FROM o ORDER BY f",
    "SELECT id, f FROM o ORDER BY f DESC",
    "SELECT id, s, g FROM o ORDER BY s, g DESC",
    "SELECT n, id FROM o ORDER BY n DESC NULLS LAST, id",
    "SELECT * FROM o ORDER BY g, f",
    # joins
    "SELECT o.id, dim.label, o.f * dim.w FROM o JOIN dim ON o.g = dim.k",
    "SELECT o.id, dim.label FROM o JOIN dim ON o.n = dim.k",
    "SELECT o.id, dim.label FROM o LEFT JOIN dim ON o.g = dim.k",
    "SELECT o.id, o.s, dim.w FROM dim JOIN o ON o.g = dim.k WHERE o.f > 5.0",
    "SELECT * FROM o JOIN dim ON o.g = dim.k",
    "SELECT o.id, dim.label FROM o JOIN dim ON o.f = dim.w",
    "SELECT o.g, dim.k FROM o JOIN dim ON o.g = dim.k AND o.f < dim.w * 4",
    "SELECT dim.label, o.s FROM o JOIN dim ON o.id = dim.k",
    # windows
    "SELECT id, g, ROW_NUMBER() OVER (PARTITION BY g ORDER BY f) AS rn FROM o",
    "SELECT id, SUM(f) OVER (ORDER BY id) FROM o",
    "SELECT id, RANK() OVER (PARTITION BY s ORDER BY g DESC) FROM o",
    "SELECT id, SUM(n) OVER (PARTITION BY g ORDER BY f ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM o",
    "SELECT id, COUNT(*) OVER (PARTITION BY n) FROM o",
    "SELECT id, f, LAG(f) OVER (ORDER BY f, id) FROM o",
    "SELECT *, ROW_NUMBER() OVER (ORDER BY g, id) FROM o",
    # windows of the simple shapes computed column by column (engine.exec.window_columns): ties,
    # peers across pieces, several keys, DESC; NULL or NaN keys take the row path
    "SELECT id, g, RANK() OVER (PARTITION BY g ORDER BY id % 3), DENSE_RANK() OVER (PARTITION BY g ORDER BY id % 3) FROM o",
    "SELECT id, SUM(f) OVER (PARTITION BY g ORDER BY id % 4), COUNT(*) OVER (PARTITION BY g ORDER BY id % 4) FROM o",
    "SELECT g, id, MIN(f) OVER (ORDER BY g DESC, f), MAX(id) OVER (ORDER BY g DESC, f) FROM o",
    "SELECT id, SUM(id) OVER (ORDER BY g ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM o",
    "SELECT ROW_NUMBER() OVER (PARTITION BY f ORDER BY g DESC, id), id FROM o",
    "SELECT id, RANK() OVER (PARTITION BY s ORDER BY f) FROM o",
    "SELECT id, SUM(n) OVER (PARTITION BY g ORDER BY id) FROM o",
    "SELECT id, MAX(f) OVER (ORDER BY id) FROM o",
    # DISTINCT
    "SELECT DISTINCT s FROM o",
    "SELECT DISTINCT g, n FROM o",
    "SELECT DISTINCT f FROM o",
]


def _answers(monkeypatch, setup, step_rows):
    return answers_in_both_storages(monkeypatch, setup, QUERIES, step_rows)


@pytest.mark.parametrize("rows", [0, 1, 2, 700, 5000])
@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize("step_rows", [None, 64])
def test_operators_over_columns_answer_as_over_rows(monkeypatch, rows, nan, step_rows):
    over_rows, over_columns = _answers(monkeypatch, _setup(rows, nan), step_rows)
    for sql, r, c in zip(QUERIES, over_rows, over_columns, strict=True):
        if "DISTINCT" in sql:  # a set: no order to compare
            r, c = sorted(r, key=repr), sorted(c, key=repr)
        assert _same(c, r), sql


@pytest.mark.parametrize("with_numpy", [False, True])
def test_top_k_over_columns_takes_the_column_path(monkeypatch, with_numpy):
    # ties of the key (each value three times) come out in input order, as over rows; with numpy
    # each later batch's keys are compared with the k-th at once (column_scan.top_k_columns)
    setup = ["CREATE TABLE o (id INT, f DOUBLE)",
             "INSERT INTO o SELECT number, (number % 6007) / 3 FROM numbers(18000)"]
    if with_numpy:
        pytest.importorskip("numpy")
    monkeypatch.setattr(vectors, "NUMPY", with_numpy)
    compared = []

    def spy_numpy():
        compared.append(vectors.vectorised())
        return compared[-1]

    monkeypatch.setattr(column_scan, "vectorised", spy_numpy)
    used = paths_taken(monkeypatch, sort_module, "top_k_columns")
    answers = {}
    for columns, s in sessions_in_both_storages(monkeypatch, setup):
        answers[columns] = q(s, "SELECT id, f FROM o ORDER BY f DESC LIMIT 4")
        answers[columns, "f"] = q(s, "SELECT id, f FROM o ORDER BY f LIMIT 5")
        answers[columns, "id"] = q(s, "SELECT id FROM o ORDER BY id DESC LIMIT 3")
    assert used == [False] * 3 + [True] * 3
    assert compared and all((m is not None) == with_numpy for m in compared)
    assert answers[True] == answers[False] == [(6006, 2002.0), (12013, 2002.0), (6005, 2001.6666666666667),
                                               (12012, 2001.6666666666667)]
    assert answers[True, "f"] == answers[False, "f"] == [(0, 0.0), (6007, 0.0), (12014, 0.0),
                                                         (1, 0.3333333333333333), (6008, 0.3333333333333333)]
    assert answers[True, "id"] == answers[False, "id"] == [(17999,), (17998,), (17997,)]


def test_a_join_probes_the_columns_of_its_left_scan(monkeypatch):
    # the probe loops over the left table's columns, a chunk of rows at a time when a key meets
    # several rows (here 3: chunks of 64 // 3 rows in steps of 64)
    setup = ["CREATE TABLE o (id INT, g INT, f DOUBLE)",
             "INSERT INTO o SELECT number, number % 10, number / 4 FROM numbers(1000)",
             "CREATE TABLE dim (k INT, w DOUBLE)",
             "INSERT INTO dim SELECT number % 5, number FROM numbers(15)"]
    used = paths_taken(monkeypatch, join_module, "_column_probe")
    answers = {}
    for columns, s in sessions_in_both_storages(monkeypatch, setup, 64):
        result = s.execute("SELECT o.id, dim.w + o.f FROM o JOIN dim ON o.g = dim.k")
        answers[columns] = [list(batch) for batch in result.batches()]
    assert used == [False, True]
    assert answers[True] == answers[False]
    assert max(map(len, answers[True])) <= 64 and sum(map(len, answers[True])) == 1500


def test_a_full_sort_of_plain_columns_boxes_them_a_column_at_a_time(monkeypatch):
    # SELECT of plain columns ORDER BY one of them: the sort's input rows are zipped from each
    # column's values boxed whole (ColumnData.boxed), in batches, as the row path's
    setup = ["CREATE TABLE o (id INT, f DOUBLE, s VARCHAR)",
             "INSERT INTO o SELECT number, (number * 37 % 101) / 4, concat('s', (number % 7)::VARCHAR) "
             "FROM numbers(3000)"]
    boxed = []
    original = table_storage.ColumnData.boxed

    def spy(self, index, start, stop):
        boxed.append((index, start, stop))
        return original(self, index, start, stop)

    monkeypatch.setattr(table_storage.ColumnData, "boxed", spy)
    answers = {}
    for columns, s in sessions_in_both_storages(monkeypatch, setup, 1000):
        answers[columns] = q(s, "SELECT s, id FROM o ORDER BY s DESC")
    assert answers[True] == answers[False]
    assert sorted(boxed) == [(c, i, min(i + 1000, 3000)) for c in (0, 2) for i in range(0, 3000, 1000)]


def test_simple_windows_over_columns_take_the_column_path(monkeypatch):
    # ROW_NUMBER by partition and a running SUM over a scan of columns sort row numbers, not rows;
    # in steps of 64 rows, a peer group of the running SUM's RANGE frame spans pieces
    setup = ["CREATE TABLE t (id INT, grp INT, val DOUBLE)",
             "INSERT INTO t SELECT number, number % 7, (number * 37 % 101) / 4 FROM numbers(1000)"]
    queries = ["SELECT id, grp, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY val) AS rn FROM t",
               "SELECT id, SUM(val) OVER (ORDER BY id) AS running FROM t",
               "SELECT id, SUM(val) OVER (ORDER BY grp) FROM t",
               "SELECT id, grp, RANK() OVER (PARTITION BY grp ORDER BY val DESC) FROM t"]
    used = paths_taken(monkeypatch, window_module, "window_columns")
    answers = {}
    for columns, s in sessions_in_both_storages(monkeypatch, setup, 64):
        answers[columns] = []
        for sql in queries:
            batches = [list(batch) for batch in s.execute(sql).batches()]
            assert max(map(len, batches)) <= 128
            answers[columns].append([row for batch in batches for row in batch])
    assert used == [False] * 4 + [True] * 4
    assert answers[True] == answers[False]
    assert answers[True][1][:3] == [(0, 0.0), (1, 9.25), (2, 27.75)]
    # grp 0's 143 rows are peers: one value, the running sum through the last of them
    assert answers[True][2][142][1] == answers[True][2][0][1] != answers[True][2][143][1]


def test_a_window_over_more_rows_than_a_sort_run_or_with_nulls_takes_the_row_path(monkeypatch):
    # more rows than one sort run: the row path sorts them in steps; a NULL in a key column (or a
    # NaN in a float key) is found as the query runs and the row path answers
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    used = paths_taken(monkeypatch, window_module, "window_columns")
    sql = "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY f) FROM o"
    s = engine.Database(limits=Limits(sort_run_rows=99)).session()
    q(s, "CREATE TABLE o (id INT, g INT, f DOUBLE)")
    q(s, "INSERT INTO o SELECT number, number % 3, number / 7 FROM numbers(100)")
    assert len(q(s, sql)) == 100 and used == [False]
    s = engine.Database().session()
    q(s, "CREATE TABLE o (id INT, g INT, f DOUBLE)")
    q(s, "INSERT INTO o SELECT number, number % 3, if(number = 5, NULL, number / 7) FROM numbers(100)")
    answer = q(s, sql)
    assert used == [False, True]
    assert (5, 33) in answer and answer[0] == (0, 1)  # NULLs last in their partition (g = 2: 33 rows)


@pytest.mark.parametrize("step_rows", [None, 64])
def test_windows_over_columns_already_in_the_key_order_answer_as_over_rows(monkeypatch, step_rows):
    # a key column already in the sort's order (ties included; non-increasing for DESC; all one
    # value) is not sorted over columns: the scan's order is kept, pieces read as column slices
    setup = ["CREATE TABLE t (id INT, up INT, down INT, one INT, val DOUBLE)",
             "INSERT INTO t SELECT number, number DIV 5, 300 - number DIV 3, 7, (number * 37 % 101) / 4 "
             "FROM numbers(700)"]
    queries = ["SELECT id, SUM(val) OVER (ORDER BY up) FROM t",
               "SELECT id, MIN(val) OVER (ORDER BY down DESC), MAX(val) OVER (ORDER BY down DESC) FROM t",
               "SELECT id, RANK() OVER (ORDER BY up), DENSE_RANK() OVER (ORDER BY up) FROM t",
               "SELECT id, ROW_NUMBER() OVER (ORDER BY one DESC), COUNT(*) OVER (ORDER BY one DESC) FROM t",
               "SELECT id, SUM(id) OVER (ORDER BY up ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t",
               "SELECT id, SUM(val) OVER (ORDER BY down) FROM t",  # not in order: sorted
               "SELECT val, SUM(id) OVER (ORDER BY up DESC) FROM t"]
    used = paths_taken(monkeypatch, window_module, "window_columns")
    answers = {columns: [q(s, sql) for sql in queries]
               for columns, s in sessions_in_both_storages(monkeypatch, setup, step_rows)}
    assert used == [False] * len(queries) + [True] * len(queries)
    for sql, r, c in zip(queries, answers[False], answers[True], strict=True):
        assert _same(c, r), sql
    assert answers[True][0][:6] == [(i, answers[True][0][4][1]) for i in range(5)] + [(5, answers[True][0][5][1])]
    assert answers[True][3][:2] == [(0, 1, 700), (1, 2, 700)]
