"""Simple windows over columns ordered by numpy (engine.exec.window_order) answer exactly as the
pure-Python sort and as row storage: ties in input order, -0.0 beside 0.0, DESC integers at their
limits, unsigned keys, several keys, few and many partitions."""

import pytest

from engine.core import vectors
from engine.exec import window_order
from tests.engine.sql_helpers import answers_in_both_storages
from tests.engine.sql_helpers import same_answer as _same

numpy = pytest.importorskip("numpy")

SETUP = [
    "CREATE TABLE w (id INT, g INT, f DOUBLE, r REAL, b BIGINT, u BIGINT UNSIGNED, t TINYINT, z DOUBLE, d DOUBLE)",
    # g: 5 partitions; f: ties, negative values, -0.0 and 0.0; b: the Int64 limits; u: beyond 2**63;
    # t: Int8 with its limits; z: a partition key holding -0.0 and 0.0 (one partition); d: distinct
    # floats (numpy's unstable sort is kept: no ties)
    "INSERT INTO w SELECT number, number % 5, if(number % 9 = 0, -0.0, ((number * 37) % 23 - 11) / 4), "
    "(number % 6) / 3, if(number % 13 = 0, -9223372036854775808, if(number % 17 = 0, 9223372036854775807, "
    "number % 4 - 2)), if(number % 7 = 0, 18446744073709551615, number % 3 + 9223372036854775806), "
    "if(number % 11 = 0, -128, if(number % 19 = 0, 127, number % 3)), "
    "if(number % 2 = 0, -0.0, if(number % 3 = 0, 0.0, number % 4)), (number * 7919 % 600) / 8 - 30 FROM numbers(600)",
]

QUERIES = [
    "SELECT id, g, ROW_NUMBER() OVER (PARTITION BY g ORDER BY f) FROM w",
    "SELECT id, g, ROW_NUMBER() OVER (PARTITION BY g ORDER BY f DESC) FROM w",
    "SELECT id, RANK() OVER (PARTITION BY g ORDER BY b DESC), DENSE_RANK() OVER (PARTITION BY g ORDER BY b) FROM w",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY t ORDER BY u DESC, f) FROM w",
    "SELECT id, u, ROW_NUMBER() OVER (ORDER BY u, t DESC) FROM w",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY u ORDER BY t DESC) FROM w",
    "SELECT id, z, ROW_NUMBER() OVER (PARTITION BY z ORDER BY r DESC, b) FROM w",
    "SELECT id, RANK() OVER (ORDER BY f DESC, r, t DESC) FROM w",
    "SELECT id, SUM(f) OVER (PARTITION BY t ORDER BY f), COUNT(*) OVER (PARTITION BY t ORDER BY f) FROM w",
    "SELECT id, MIN(b) OVER (PARTITION BY id % 3 ORDER BY r DESC), MAX(u) OVER (ORDER BY b DESC) FROM w",
    "SELECT id, SUM(t) OVER (ORDER BY id DESC) FROM w",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY id ORDER BY f) FROM w",  # one row a partition
    "SELECT id, f, ROW_NUMBER() OVER (PARTITION BY b ORDER BY r) FROM w",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY d), RANK() OVER (PARTITION BY g ORDER BY d DESC) FROM w",
    "SELECT id, d, SUM(d) OVER (ORDER BY d DESC) FROM w",
    "SELECT id, ROW_NUMBER() OVER (PARTITION BY d ORDER BY g) FROM w",
]


@pytest.mark.parametrize("step_rows", [None, 64])
def test_numpy_order_answers_as_python_and_as_rows(monkeypatch, step_rows):
    answers = {}
    for mode, on, segment in (("numpy", True, 64), ("one lexsort", True, 10**9), ("python", False, 64)):
        monkeypatch.setattr(vectors, "NUMPY", on)
        monkeypatch.setattr(window_order, "SEGMENT_ROWS", segment)
        answers[mode] = answers_in_both_storages(monkeypatch, SETUP, QUERIES, step_rows)
    over_rows = answers["python"][0]
    for mode, (rows, columns) in answers.items():
        for sql, r, c, expected in zip(QUERIES, rows, columns, over_rows, strict=True):
            assert r == expected, (mode, sql)  # row storage never takes the column path
            assert _same(c, expected), (mode, sql)
            assert [x[0] for x in c] == [x[0] for x in expected], (mode, sql)  # the same row order


def test_numpy_orders_the_rows_of_the_window_rank_shape(monkeypatch):
    calls = []
    original = window_order.ordered_groups

    def spy(np, partition, orders):
        groups, flat = original(np, partition, orders)
        calls.append([len(g) for g in groups])
        assert flat.tolist() == [row for group in groups for row in group]
        return groups, flat

    monkeypatch.setattr("engine.exec.window_columns.ordered_groups", spy)
    setup = ["CREATE TABLE t (id INT, grp INT, val DOUBLE, name VARCHAR)",
             "INSERT INTO t SELECT number, number % 7, (number * 37 % 101) / 4, 'x' FROM numbers(1000)"]
    queries = ["SELECT id, grp, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY val) AS rn FROM t",
               "SELECT id, ROW_NUMBER() OVER (PARTITION BY name ORDER BY val) FROM t",  # strings: Python
               "SELECT id, SUM(val) OVER (ORDER BY id) FROM t"]  # in order already: not sorted
    over_rows, over_columns = answers_in_both_storages(monkeypatch, setup, queries)
    assert over_rows == over_columns
    assert calls == [[143] * 6 + [142]]
    assert over_columns[0][0] == (0, 0, 1) and sorted(x[2] for x in over_columns[0] if x[1] == 6) == list(range(1, 143))


def test_ordered_groups_directly():
    from array import array

    part = array("q", [2, 1, 2, 1, 0, 2])
    val = array("d", [0.0, 5.0, -0.0, 5.0, 1.0, -1.0])
    def groups(partition, orders):
        listed, flat = window_order.ordered_groups(numpy, partition, orders)
        assert flat.tolist() == [row for group in listed for row in group]
        return listed

    assert groups(part, [(val, False)]) == [[4], [1, 3], [5, 0, 2]]
    assert groups(part, [(val, True)]) == [[4], [1, 3], [0, 2, 5]]
    ints = array("q", [-2**63, 2**63 - 1, 0, -2**63, 5, 2**63 - 1])
    assert groups(None, [(ints, True)]) == [[1, 5, 4, 2, 0, 3]]
    unsigned = array("Q", [2**64 - 1, 0, 2**63, 2**64 - 1])
    assert groups(None, [(unsigned, True)]) == [[0, 3, 2, 1]]
    distinct = array("d", [2.5, -1.0, 7.0, 0.0, -3.5])
    assert groups(None, [(distinct, False)]) == [[4, 1, 3, 0, 2]]
    assert groups(None, [(distinct, True)]) == [[2, 0, 3, 1, 4]]
    assert window_order.in_order(numpy, array("q", [3, 3, 1]), True)
    assert not window_order.in_order(numpy, array("q", [3, 3, 1]), False)
