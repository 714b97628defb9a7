"""INSERT ... VALUES into a table kept in columns (engine.statements.values_columns): each step's
rows go into a version of whole columns that the commit takes; the same rows, flags, errors,
transactions and log as row storage."""

import math
from array import array

import pytest

import engine
from engine.catalog import table_storage
from engine.catalog.table_storage import ColumnData
from engine.core.limits import Limits
from engine.statements import values_columns
from engine.statements.values_columns import _compacted
from tests.engine.sql_helpers import error_code, q


def _values(n, start=0):
    """VALUES rows (a INT NULL, b DOUBLE NULL, c VARCHAR NULL, d BIGINT): a's first NULL, a
    negative b and c's NULLs only past the first hundred rows (a later step), -0.0 and NaN."""
    rows = []
    for i in range(start, start + n):
        a = "NULL" if i == 150 else str(i - 20 if i > 120 else i)
        b = "'NaN'::DOUBLE" if i == 77 else "'-0.0'::DOUBLE" if i == 3 else "NULL" if i == 130 else repr(i / 4)
        c = "NULL" if i % 97 == 96 else repr(f"s{i % 7}")
        rows.append(f"({a}, {b}, {c}, {i * 1000})")
    return ", ".join(rows)


STATEMENTS = ["CREATE TABLE v (a INT NULL, b DOUBLE NULL, c VARCHAR NULL, d BIGINT)",
              "INSERT INTO v VALUES " + _values(200),
              "INSERT INTO v VALUES " + _values(10, 500)]
QUERIES = ["SELECT * FROM v", "SELECT count(a), min(a), count(b), count(c), sum(d) FROM v",
           "SELECT a FROM v WHERE a < 0", "SELECT b FROM v WHERE b IS NULL OR b > 40 OR b = 0",
           "SELECT c, count(*) FROM v GROUP BY c ORDER BY c"]


def _answers(monkeypatch, columns, statements=STATEMENTS, limits=None):
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    session = engine.Database(limits=limits or Limits(step_rows=64)).session()
    for sql in statements:
        q(session, sql)
    return session, [repr(q(session, sql)) for sql in QUERIES]  # repr: NaN, -0.0


def test_values_in_steps_enter_columns_whole_with_the_rows_answers(monkeypatch):
    added = []
    original = values_columns.ValuesColumns.add

    def recording(self, rows):
        added.append(len(rows))
        original(self, rows)

    monkeypatch.setattr(values_columns.ValuesColumns, "add", recording)
    _, by_rows = _answers(monkeypatch, False)
    assert not added  # row storage: the row path
    session, by_columns = _answers(monkeypatch, True)
    assert by_columns == by_rows
    assert added == [64, 64, 64, 8, 10]  # a step's rows at a time, then one step
    table = session.db.catalog.table("default", "v")
    data = table.data
    assert type(data) is ColumnData
    # a's NULL arrived in a later step: a list; d never had one: still an array
    assert type(data.column_values(0, 0, 1)) is list and type(data.column_values(3, 0, 1)) is array
    assert data.row(150)[0] is None and data.row(121) == (101, 121 / 4, "s2", 121000)
    assert table.has_null[:3] == [True, True, True] and not table.has_null[3]
    assert table.has_negative[0] is False and not table.nan_free[1]


def test_negative_integers_and_partial_columns_set_the_flags_rows_set(monkeypatch):
    statements = ["CREATE TABLE w (a INT, b INT NULL DEFAULT 5, c VARCHAR)",
                  "INSERT INTO w (a, c) VALUES " + ", ".join(f"({i - 100}, 'x{i}')" for i in range(150))]
    answers = []
    for columns in (False, True):
        monkeypatch.setattr(table_storage, "COLUMNS", columns)
        session = engine.Database(limits=Limits(step_rows=64)).session()
        for sql in statements:
            q(session, sql)
        table = session.db.catalog.table("default", "w")
        answers.append((q(session, "SELECT * FROM w WHERE a < 0 ORDER BY a LIMIT 3"),
                        q(session, "SELECT min(a), sum(b), count(c) FROM w"),
                        table.has_negative[:], table.has_null[:]))
    assert answers[0] == answers[1]
    assert answers[1][1] == [(-100, 750, 150)] and answers[1][2][0]


def test_a_failing_row_in_a_later_step_writes_nothing(monkeypatch):
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    session = engine.Database(limits=Limits(step_rows=64)).session()
    q(session, "CREATE TABLE t (a TINYINT, b VARCHAR)")
    q(session, "INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    bad = ", ".join(f"({1000 if i == 190 else i % 100}, 'v{i}')" for i in range(200))
    assert error_code(session, "INSERT INTO t VALUES " + bad) == 1006
    assert q(session, "SELECT * FROM t") == [(1, "x"), (2, "y")]


@pytest.mark.parametrize("step_rows", [64, 100_000])  # in steps, and in one step
def test_rollback_and_commit_of_values_into_columns(monkeypatch, step_rows):
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    session = engine.Database(limits=Limits(step_rows=step_rows)).session()
    q(session, "CREATE TABLE t (a INT NULL, b VARCHAR)")
    q(session, "INSERT INTO t VALUES (1, 'one')")
    rows = ", ".join(f"({'NULL' if i == 100 else i}, 'v{i}')" for i in range(150))
    q(session, "BEGIN")
    q(session, "INSERT INTO t VALUES " + rows)
    assert q(session, "SELECT count(*), count(a) FROM t") == [(151, 150)]
    q(session, "ROLLBACK")
    assert q(session, "SELECT * FROM t") == [(1, "one")]
    data = session.db.catalog.table("default", "t").data
    assert type(data.column_values(0, 0, 1)) is array  # the rolled back NULL left no list behind
    q(session, "BEGIN")
    q(session, "INSERT INTO t VALUES " + rows)
    q(session, "COMMIT")
    assert q(session, "SELECT count(*), count(a), max(b) FROM t") == [(151, 150, "v99")]
    q(session, "INSERT OVERWRITE t VALUES " + rows)
    assert q(session, "SELECT count(*), count(a), min(a) FROM t") == [(150, 149, 0)]


def test_values_into_columns_come_back_from_the_log(tmp_path, monkeypatch):
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=64))
    session = db.session()
    for sql in STATEMENTS:
        q(session, sql)
    expected = [q(session, sql) for sql in QUERIES]
    db.close()
    db = engine.Database(data_dir=data_dir)
    assert repr([q(db.session(), sql) for sql in QUERIES]) == repr(expected)
    db.close()


def test_compacted_copies_keep_every_value_exactly():
    strings = ["ab" * 3, None, "ab" * 3, "é"]
    copied = _compacted(strings, "s")
    assert copied == strings and copied[0] is not strings[0]
    no_null = ["x" * 5, "y" * 5]
    assert _compacted(no_null, "s") == no_null and _compacted(no_null, "s")[0] is not no_null[0]
    floats = [-0.0, float("nan"), None, 1.5]
    got = _compacted(floats, "f")
    assert math.copysign(1, got[0]) == -1 and math.isnan(got[1]) and got[2:] == [None, 1.5]
    assert _compacted([1, None, -2**62], "i") == [1, None, -2**62]
    numbers = [1, 2]
    assert _compacted(numbers, "i") is numbers  # no NULL: an array keeps them, nothing to copy
