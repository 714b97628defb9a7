"""Dictionary codes of string columns (engine.catalog.column_dictionary): a filter's tests of a
string column run once a distinct value and select rows by code (engine.exec.
dictionary_filters), with the answers of row storage whatever happens to the table (NULLs,
empty strings, case, LIKE escapes, a column passing the codes' limit mid-append, UPDATE,
DELETE, a rolled back transaction, recovery from the log and a checkpoint), with numpy and
without; and a version's codes always name its rows' values."""

import pytest

import engine
from engine.catalog import column_dictionary, table_storage
from engine.catalog.table_storage import ColumnData, Rewrite
from engine.core import vectors
from engine.core.limits import Limits
from engine.exec import column_filters, dictionary_filters

from .sql_helpers import answers_in_both_storages, q, same_answer
from .test_durability import crash

SETUP = [
    "CREATE TABLE t (id INT, s VARCHAR NULL, k INT)",
    # few distinct values, a NULL every 7th row, an empty string, case variants, LIKE's specials
    "INSERT INTO t SELECT number, if(number % 7 = 0, NULL, "
    "['a-1', 'A-1', 'b_2', 'b%2', '', 'a-10', 'x\u00e9', 'c\\\\d', 'zz'][number % 9 + 1]), number % 5 "
    "FROM numbers(900)",
]

QUERIES = [
    "SELECT id, s FROM t WHERE s LIKE '%a-1%' ORDER BY id",
    "SELECT id FROM t WHERE s NOT LIKE '%a-1%' ORDER BY id",
    "SELECT id FROM t WHERE s LIKE 'b\\\\_2' ORDER BY id",
    "SELECT id FROM t WHERE s LIKE 'b\\\\%%' ORDER BY id",
    "SELECT id FROM t WHERE s LIKE '%\u00e9' ORDER BY id",
    "SELECT id FROM t WHERE s = 'A-1' ORDER BY id",
    "SELECT id FROM t WHERE s <> 'a-1' ORDER BY id",
    "SELECT id FROM t WHERE s = '' ORDER BY id",
    "SELECT id FROM t WHERE s IN ('zz', 'b_2', 'nope') ORDER BY id",
    "SELECT id FROM t WHERE s < 'b' ORDER BY id",
    "SELECT id FROM t WHERE 'b' <= s ORDER BY id",
    "SELECT id FROM t WHERE s >= 'a' AND s < 'b' ORDER BY id",
    "SELECT id FROM t WHERE s IS NULL ORDER BY id",
    "SELECT id FROM t WHERE s IS NOT NULL AND k = 3 ORDER BY id",
    "SELECT id, s FROM t WHERE k > 2 AND s LIKE 'a%' ORDER BY id",
    "SELECT count(*) FROM t WHERE s LIKE '%-1%'",
    "SELECT count(*) FROM t WHERE s = 'zz' AND k < 2",
    "SELECT id FROM t WHERE s LIKE '%a-1%' AND id % 2 = 0 ORDER BY id",
]


def _coded_tests(monkeypatch) -> list:
    """The number of tests the selections run by code (a list holding one count)."""
    calls = [0]
    real = column_filters.coded_test

    def counted(*args):
        found = real(*args)
        calls[0] += found is not None
        return found

    monkeypatch.setattr(column_filters, "coded_test", counted)
    return calls


@pytest.mark.parametrize("numpy_on", [True, False])
def test_tests_of_a_coded_column_answer_as_row_storage(monkeypatch, numpy_on):
    monkeypatch.setattr(vectors, "NUMPY", numpy_on)
    calls = _coded_tests(monkeypatch)
    rows, columns = answers_in_both_storages(monkeypatch, SETUP, QUERIES, step_rows=64)
    assert columns == rows
    assert calls[0] > 0  # the selections did run by code
    # 'a-1' and 'a-10' rows (not 'A-1': LIKE is case-sensitive); no NULL row
    assert {s for _, s in rows[0]} == {"a-1", "a-10"} and len(rows[0]) == sum(1 for n in range(900) if n % 9 in (0, 5) and n % 7)


@pytest.mark.parametrize("numpy_on", [True, False])
def test_a_steps_evaluation_of_distinct_values_is_bounded(monkeypatch, numpy_on):
    # three distinct values a step: batches whose codes reach further are tested by value, the
    # answers stay row storage's, and later batches run by code once the table caught up
    monkeypatch.setattr(vectors, "NUMPY", numpy_on)
    monkeypatch.setattr(dictionary_filters, "EXTEND_VALUES", 3)
    evaluated = []
    real = dictionary_filters._evaluated
    monkeypatch.setattr(dictionary_filters, "_evaluated",
                        lambda test, values, start, stop: evaluated.append(stop - start) or real(test, values, start, stop))
    calls = _coded_tests(monkeypatch)
    rows, columns = answers_in_both_storages(monkeypatch, SETUP, QUERIES, step_rows=64)
    assert columns == rows
    assert evaluated and max(evaluated) <= 3
    assert calls[0] > 0


WRITES = [
    "UPDATE t SET s = concat(s, '!') WHERE k = 1",
    "DELETE FROM t WHERE k = 2",
    "INSERT INTO t VALUES (1000, 'a-1', 0), (1001, NULL, 1), (1002, 'new', 3)",
    "BEGIN",
    "UPDATE t SET s = 'a-1' WHERE k = 3",
    "INSERT INTO t VALUES (2000, 'a-1x', 4)",
    "ROLLBACK",
    "ALTER TABLE t ADD COLUMN e INT NULL",
]


def test_writes_and_a_rolled_back_transaction_keep_the_answers(monkeypatch):
    calls = _coded_tests(monkeypatch)
    # the queries run once before the writes too: the codes made then must follow the writes
    rows, columns = answers_in_both_storages(monkeypatch, SETUP + QUERIES + WRITES, QUERIES, step_rows=64)
    assert columns == rows and calls[0] > 0
    assert (1000, "a-1") in rows[0] and {s for _, s in rows[0]} == {"a-1", "a-10", "a-1!", "a-10!"}


def test_a_column_passing_the_codes_limit_mid_append_answers_by_value(monkeypatch):
    monkeypatch.setattr(column_dictionary, "CODES_LIMIT", 12)
    setup = SETUP + QUERIES + [
        "INSERT INTO t SELECT 5000 + number, concat('u-', number::VARCHAR), 1 FROM numbers(50)",
    ]
    rows, columns = answers_in_both_storages(monkeypatch, setup, QUERIES, step_rows=64)
    assert columns == rows


def test_codes_name_the_values_of_every_version():
    """Appends, copies, a Rewrite (kept runs, selected rows, added rows) and a prefix: each
    version's codes, once read, name its own rows' values."""
    data = ColumnData((None, "q"), ({}, None))
    data.append_columns([["x", None, "y", "x", ""] * 20, list(range(100))], 100)
    assert data.dictionary_codes(1, 0, 100) is None
    assert data.dictionary_values(0) == [None]  # nothing coded before a read

    def check(version):
        codes, values = version.dictionary_codes(0, 0, len(version))
        assert [values[c] for c in codes] == version.column(0)
        assert values[0] is None

    check(data)
    copy = data.copy(50)
    copy.append_rows([("z", 1), (None, 2)])
    check(copy)
    data.append_rows([("w", 7)])
    check(data)
    rewrite = Rewrite(data, len(data))
    rewrite.keep(0, 10)
    rewrite.keep_selected(10, [i % 3 == 0 for i in range(40)])
    rewrite.add([("v", 8)])
    new = rewrite.finish()
    check(new)
    check(new.prefix(20))
    assert len(data.dictionary_values(0)) == 7  # NULL, x, y, '', z, w, v: shared by the versions


def test_a_full_dictionary_leaves_the_column_without_codes(monkeypatch):
    monkeypatch.setattr(column_dictionary, "CODES_LIMIT", 4)
    data = ColumnData((None,), ({},))
    data.append_columns([["a", "b", "a"]], 3)
    assert data.dictionary_codes(0, 0, 3)[0].tolist() == [1, 2, 1]
    data.append_columns([["c", "d"]], 2)
    assert data.dictionary_codes(0, 0, 5) is None and data.dictionary_values(0) is None
    assert data.column(0) == ["a", "b", "a", "c", "d"]


@pytest.mark.parametrize("columns_then", [True, False])
def test_coded_answers_after_recovery_and_a_checkpoint_in_either_storage(tmp_path, monkeypatch, columns_then):
    """Written (and read by code) in one storage, reopened from the log after a crash and from
    a checkpoint after a clean close in either: the same answers."""
    data_dir = str(tmp_path / "data")
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=64))
    s = db.session()
    for sql in SETUP + QUERIES + WRITES:
        q(s, sql)
    want = [q(s, sql) for sql in QUERIES]
    crash(db)
    monkeypatch.setattr(table_storage, "COLUMNS", columns_then)
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=64))
    assert [q(db.session(), sql) for sql in QUERIES] == want
    db.close()
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=64))
    assert [q(db.session(), sql) for sql in QUERIES] == want
    db.close()


GROUP_SETUP = [
    "CREATE TABLE g (id INT, s VARCHAR NULL, v DOUBLE, w DOUBLE NULL)",
    "INSERT INTO g SELECT number, if(number % 13 = 0, NULL, concat('k', (number % 37)::VARCHAR)), "
    "number / 7 - 40, if(number % 5 = 0, NULL, number / 3) FROM numbers(700)",
    # a group of -0.0 only, one of -0.0 then 0.0, NaN, infinities, an empty string key
    "INSERT INTO g VALUES (1000, 'neg', -0.0, 1), (1001, 'neg', -0.0, 2), (1002, 'mixed', -0.0, 3), "
    "(1003, 'mixed', 0.0, 4), (1004, 'nan', 'NaN'::DOUBLE, 5), (1005, 'nan', 1.5, 6), "
    "(1006, 'inf', 'Infinity'::DOUBLE, 7), (1007, 'inf', '-Infinity'::DOUBLE, 8), (1008, '', 1e308, 9), "
    "(1009, '', 1e308, 10), (1010, 'k3', 0.1, 11)",
]

GROUP_QUERIES = [
    "SELECT s, COUNT(*), SUM(v) FROM g GROUP BY s",
    "SELECT s, SUM(v), COUNT(v), AVG(v), COUNT(*) FROM g GROUP BY s",
    "SELECT COUNT(*), s FROM g GROUP BY s",
    "SELECT s, SUM(w), COUNT(w) FROM g GROUP BY s",  # a nullable argument: the step's path
    "SELECT s, SUM(v) FROM g WHERE id < 0 GROUP BY s",
    "SELECT s, MAX(v), SUM(v) FROM g GROUP BY s",
    "SELECT s FROM g GROUP BY s",
    "SELECT DISTINCT s FROM g",
]


def _coded_groups(monkeypatch) -> list:
    """How many GROUP BY runs went by code (a list holding one count)."""
    from engine.exec import aggregate, dictionary_groups

    calls = [0]

    def counted(*args):
        found = dictionary_groups.dictionary_groups_run(*args)
        calls[0] += found is not None
        return found

    monkeypatch.setattr(aggregate, "dictionary_groups_run", counted)
    return calls


def test_group_by_a_coded_column_counts_and_sums_as_row_storage(monkeypatch):
    calls = _coded_groups(monkeypatch)
    rows, columns = answers_in_both_storages(monkeypatch, GROUP_SETUP, GROUP_QUERIES, step_rows=64)
    assert same_answer(columns, rows)  # in order (the groups' first rows), -0.0 and NaN included
    assert calls[0] >= 2
    groups = {r[0]: r for r in rows[0]}
    assert groups["neg"][2] == 0.0 and groups["nan"][2] != groups["nan"][2]
    assert groups["k3"][2] == sum([i / 7 - 40 for i in range(700) if i % 37 == 3 and i % 13] + [0.1], -0.0)
    assert groups[""][2] == float("inf") and groups[None][1] == 54


def test_group_by_a_column_losing_its_codes_mid_scan_goes_on_by_the_step(monkeypatch):
    monkeypatch.setattr(column_dictionary, "CODES_LIMIT", 44)  # NULL, 37 keys and 5 more
    setup = GROUP_SETUP + ["INSERT INTO g SELECT 2000 + number, concat('u-', number::VARCHAR), number, 1 "
                           "FROM numbers(200)"]
    calls = _coded_groups(monkeypatch)
    rows, columns = answers_in_both_storages(monkeypatch, setup, GROUP_QUERIES[:1] * 2, step_rows=64)
    assert same_answer(columns, rows) and calls[0] == 1  # the second finds no codes
    assert len(rows[0]) == 1 + 37 + 5 + 200  # NULL, k0..k36, neg, mixed, nan, inf, empty, u-*


@pytest.mark.parametrize("numpy_on", [True, False])
def test_a_test_raising_on_a_value_no_row_holds_runs_over_the_values(monkeypatch, numpy_on):
    """A distinct value the batch's rows do not hold (a deleted row's) makes the test raise: the
    rows are then tested value by value, as the row path does (which raises only for a row)."""
    monkeypatch.setattr(vectors, "NUMPY", numpy_on)
    data = ColumnData((None,), ({},))
    data.append_columns([["bad", "a", "b"] * 4], 12)
    data.dictionary_codes(0, 0, 12)  # read by code: 'bad' gets its code
    data = data.with_rows([("a",), ("b",), ("a",), ("c",)] * 4)  # the next version: no 'bad'

    def picky(value, constant):
        if value == "bad":
            raise ValueError(value)
        return value == constant

    selection = column_filters.Selection([(0, picky, "a", True, frozenset())], None, (0,))
    fetched = []
    codes, values = data.dictionary_codes(0, 0, 16)
    coded = {0: (codes, values, lambda: fetched.append(1) or data.column_values(0, 0, 16))}
    assert "bad" in values
    assert selection.select([None], 16, None, coded) == [0, 2, 4, 6, 8, 10, 12, 14]
    assert fetched == [1] and selection.truths[0].failed
