"""ORDER BY over a scan of columns ordered by numpy (engine.exec.sort_columns): the same rows in
the same order as the row path, in both storages, with numpy and without: ties in input order,
NaN after every float (the row path's, by falling back), -0.0 equal to 0.0, DESC, several keys,
NULLs (falling back), LIMIT/OFFSET, one run and runs merged in bounded steps."""

from functools import partial

import pytest

import engine
from engine.catalog import table_storage
from engine.core import vectors
from engine.core.limits import Limits
from engine.exec import sort_columns

from . import sql_helpers
from .sql_helpers import answers_in_both_storages, same_answer

SETUP = [
    "CREATE TABLE t (id INT, val DOUBLE, k BIGINT, s VARCHAR, u BIGINT UNSIGNED, small TINYINT, "
    "n DOUBLE NULL, nan DOUBLE)",
    "INSERT INTO t SELECT number, (number * 7919 % 13) / 3.0 - 1, number % 5 - 2, concat('s', number::VARCHAR), "
    "if(number % 2 = 0, 18446744073709551615, number % 3), number % 7 - 3, if(number % 9 = 0, NULL, number / 7), "
    "if(number % 50 = 0, 'NaN'::DOUBLE, number % 4 - 1.5) FROM numbers(900)",
    "INSERT INTO t VALUES (2000, -0.0, 1, 'a', 0, -128, -0.0, 0.0), (2001, 0.0, 1, 'b', 0, 127, 0.0, -0.0), "
    "(2002, -0.0, -9223372036854775808, 'c', 0, 0, 1, 1), (2003, 0.0, 9223372036854775807, 'd', 1, 1, 2, 2)",
    "CREATE TABLE e (a INT, b DOUBLE)",
]

QUERIES = [
    "SELECT id, val FROM t ORDER BY val", "SELECT id, val FROM t ORDER BY val DESC",
    "SELECT * FROM t ORDER BY k DESC, val", "SELECT s, id FROM t ORDER BY u DESC", "SELECT id FROM t ORDER BY u, k DESC",
    "SELECT id, k FROM t ORDER BY k", "SELECT id, small FROM t ORDER BY small DESC, id DESC",
    "SELECT val, id FROM t ORDER BY val, small DESC, k", "SELECT id, s, val FROM t ORDER BY val DESC LIMIT 9000 OFFSET 3",
    "SELECT id, val FROM t ORDER BY val LIMIT 20000", "SELECT id, n FROM t ORDER BY n", "SELECT id, n FROM t ORDER BY n DESC",
    "SELECT id, nan FROM t ORDER BY nan", "SELECT id, nan FROM t ORDER BY nan DESC", "SELECT id FROM t ORDER BY nan, val",
    "SELECT id, s FROM t ORDER BY s DESC", "SELECT id, val FROM t ORDER BY val + 1", "SELECT id, val FROM t WHERE id > 10 ORDER BY val",
    "SELECT id, val FROM t ORDER BY val LIMIT 5 OFFSET 2", "SELECT count(*) FROM (SELECT id FROM t ORDER BY val)",
    "SELECT * FROM e ORDER BY b", "SELECT a FROM e ORDER BY a DESC, b",
]


def _answers(monkeypatch, numpy_on, step_rows=None):
    monkeypatch.setattr(vectors, "NUMPY", numpy_on)
    return answers_in_both_storages(monkeypatch, SETUP, QUERIES, step_rows=step_rows)


@pytest.mark.parametrize("step_rows", [None, 64])
def test_same_order_both_storages_numpy_on_and_off(monkeypatch, step_rows):
    if vectors.numpy is None:
        pytest.skip("numpy is not installed")
    if step_rows:  # runs of 256 rows: the 904 rows are sorted in 4 runs and merged
        monkeypatch.setattr(sql_helpers, "Limits", partial(Limits, sort_run_rows=256))
    calls = []
    real = sort_columns._Sorted.run

    def counted(self, p):
        calls.append(self.keys)
        return real(self, p)

    monkeypatch.setattr(sort_columns._Sorted, "run", counted)
    rows_off, columns_off = _answers(monkeypatch, False, step_rows)
    assert not calls
    rows_on, columns_on = _answers(monkeypatch, True, step_rows)
    assert calls  # the numpy path ran
    for sql, a, b, c, d in zip(QUERIES, rows_off, columns_off, rows_on, columns_on, strict=True):
        assert same_answer(a, b) and same_answer(a, c) and same_answer(a, d), sql
        assert isinstance(a, list), (sql, a)  # rows, not ("error", code)


def test_ties_keep_input_order(monkeypatch):
    """Equal keys (-0.0 and 0.0 among them) come out in the table's order, ascending and descending."""
    if vectors.numpy is None:
        pytest.skip("numpy is not installed")
    monkeypatch.setattr(vectors, "NUMPY", True)
    _, columns = answers_in_both_storages(monkeypatch, SETUP, [
        "SELECT id FROM t WHERE id >= 2000 ORDER BY val", "SELECT id FROM t WHERE id >= 2000 ORDER BY val DESC"])
    assert columns == [[(2000,), (2001,), (2002,), (2003,)]] * 2


def test_merged_runs_bounded_pieces():
    """merged_runs: each merge step's piece at most the budget, the order a stable sort's."""
    np = vectors.numpy
    if np is None:
        pytest.skip("numpy is not installed")
    key = np.array([(i * 37) % 11 for i in range(1000)], dtype=np.float64)
    steps = merged = None
    gen = sort_columns.merged_runs(np, key, 128, 50)
    steps = 0
    try:
        while True:
            next(gen)
            steps += 1
    except StopIteration as done:
        merged = done.value
    assert steps >= 1000 // 50
    assert all(len(piece) <= 128 for piece in merged)
    assert np.concatenate(merged).tolist() == np.argsort(key, kind="stable").tolist()


def test_memory_charged(monkeypatch):
    """The sort over columns charges its copies of the key columns and its order: a query
    whose max_memory_usage is below them fails with 2411 (as the row path, whose charge is larger)."""
    if vectors.numpy is None:
        pytest.skip("numpy is not installed")
    monkeypatch.setattr(vectors, "NUMPY", True)
    sql = "SELECT id, val FROM t ORDER BY val"
    for columns in (False, True):
        monkeypatch.setattr(table_storage, "COLUMNS", columns)
        db = engine.Database()
        setup = db.session()
        for statement in SETUP:
            sql_helpers.q(setup, statement)
        below = db.session(settings={"max_memory_usage": str(904 * 8)})  # under the key copy and order
        assert sql_helpers.answer_or_code(below, sql) == ("error", 2411), columns
        enough = db.session(settings={"max_memory_usage": str(1 << 24)})
        assert len(sql_helpers.q(enough, sql)) == 904
