"""INSERT ... SELECT into a table kept in columns with the SELECT's output built column by column
(engine.exec.column_batches): the same rows, flags, errors and bounded steps as the row path,
which the shapes it does not take (filters, subqueries, sequences) still run."""

import datetime
from array import array

import pytest

import engine
from engine.catalog import table_storage
from engine.catalog.table_storage import ColumnData
from engine.core.limits import Limits
from engine.statements import insert_statements
from tests.engine.sql_helpers import error_code, q


@pytest.fixture
def column_runs(monkeypatch):
    """Tables kept in columns; the list of the SELECTs' column runs (None: the row path)."""
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    made = []
    original = insert_statements.column_batches

    def recording(plan, rt):
        run = original(plan, rt)
        made.append(run)
        return run

    monkeypatch.setattr(insert_statements, "column_batches", recording)
    return made


def _both(monkeypatch, statements, query, limits=None):
    """The answer of `query` after `statements`, with tables kept in rows, then in columns."""
    answers = []
    for columns in (False, True):
        monkeypatch.setattr(table_storage, "COLUMNS", columns)
        session = engine.Database(limits=limits or Limits()).session()
        for sql in statements:
            q(session, sql)
        answers.append(q(session, query))
    return answers


SOURCE = ["CREATE TABLE s (a INT NULL, b BIGINT, c DOUBLE, d VARCHAR NULL, e DATE, f TINYINT)",
          "INSERT INTO s SELECT if(number % 3 = 0, NULL, number::INT32 - 5), number * 3, number / 4, "
          "if(number % 5 = 0, NULL, concat('v', (number % 7)::VARCHAR)), to_date(number), "
          "(number % 100)::INT8 - 50 FROM numbers(2500)"]


def test_numbers_projection_is_built_by_columns_and_stores_exact_rows(column_runs):
    session = engine.Database().session()
    q(session, "CREATE TABLE t (a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE, k VARCHAR)")
    q(session, "INSERT INTO t SELECT number, number % 1000, number / 7, concat('name-', (number % 50)::VARCHAR), "
               "to_date(number % 20), 'const' FROM numbers(5000)")
    assert column_runs and column_runs[-1] is not None
    data = db_table(session, "t").data
    assert isinstance(data, ColumnData)
    assert [type(data.column_values(i, 0, 1)) for i in range(3)] == [array] * 3  # no NULL: arrays
    rows = q(session, "SELECT * FROM t ORDER BY a")
    assert rows[4321] == (4321, 321, 4321 / 7, "name-21", datetime.date(1970, 1, 2), "const")
    assert len(rows) == 5000 and q(session, "SELECT sum(a), count(DISTINCT d) FROM t") == [(12497500, 50)]
    # equal strings are one object (the column's shared values)
    names = data.column(3)
    assert names[0] is names[50]


def test_a_columnar_scan_goes_by_columns_with_nulls_other_widths_and_defaults(monkeypatch, column_runs):
    statements = SOURCE + [
        "CREATE TABLE t (x BIGINT NULL, y VARCHAR NULL, z DOUBLE, w DATE, n SMALLINT DEFAULT -7, m INT NULL)",
        "INSERT INTO t (x, y, z, w, m) SELECT a, d, c + b, e, f FROM s",
        "INSERT INTO t (m, x) SELECT f, b FROM s"]
    rows, columns = _both(monkeypatch, statements, "SELECT * FROM t ORDER BY x NULLS FIRST, m, y")
    assert rows == columns and len(rows) == 5000
    assert column_runs and all(run is not None for run in column_runs)
    # the flags the writes noted answer the NULL and negative tests right
    flags = ["SELECT count(*) FROM t WHERE x IS NULL", "SELECT min(n), min(m), min(x) FROM t WHERE m < 0",
             "SELECT count(*) FROM t WHERE y IS NULL"]
    for sql in flags:
        assert _both(monkeypatch, statements, sql)[0] == _both(monkeypatch, statements, sql)[1]
    assert _both(monkeypatch, statements, flags[0])[1] == [(834,)]


def test_insert_into_the_table_read_takes_only_the_snapshot(column_runs):
    session = engine.Database(limits=Limits(step_rows=100)).session()
    for sql in SOURCE:
        q(session, sql)
    q(session, "INSERT INTO s SELECT * FROM s")
    q(session, "INSERT INTO s SELECT a + 1, b, c, d, e, f FROM s")
    assert column_runs[-1] is not None
    assert q(session, "SELECT count(*), count(a), sum(b), count(d) FROM s") == [(10000, 6664, 9371250 * 4, 8000)]


def test_shapes_the_column_path_does_not_take_run_the_row_path(monkeypatch, column_runs):
    statements = SOURCE + [
        "CREATE TABLE t (x BIGINT NULL, y VARCHAR NULL)",
        "CREATE SEQUENCE q",
        "INSERT INTO t SELECT a, d FROM s WHERE b % 2 = 0",  # a filter
        "INSERT INTO t SELECT (SELECT max(b) FROM s), 'max' FROM numbers(2)",  # a subquery
        "INSERT INTO t SELECT nextval(q), nextval(q)::VARCHAR FROM numbers(3)",  # a sequence, row by row
        "INSERT INTO t SELECT number, 'g' FROM numbers(3) GROUP BY number"]
    rows, columns = _both(monkeypatch, statements, "SELECT * FROM t ORDER BY x NULLS FIRST, y")
    assert rows == columns and len(rows) == 1258
    assert [(1, "2"), (3, "4"), (5, "6")] == [r for r in columns if r[1] is not None and r[1].isdigit()]
    assert column_runs[-4:] == [None] * 4


def test_items_without_columns_are_evaluated_once_a_row(column_runs):
    session = engine.Database().session()
    q(session, "CREATE TABLE t (k INT, r DOUBLE, u VARCHAR, c VARCHAR)")
    q(session, "INSERT INTO t SELECT 7, rand(), uuid(), 'same' FROM numbers(200)")
    assert column_runs[-1] is not None
    assert q(session, "SELECT count(DISTINCT k), count(DISTINCT r), count(DISTINCT u), count(DISTINCT c) FROM t") \
        == [(1, 200, 200, 1)]


def test_errors_write_nothing(column_runs):
    session = engine.Database(limits=Limits(step_rows=100)).session()
    for sql in SOURCE:
        q(session, sql)
    q(session, "CREATE TABLE t (a TINYINT, b BIGINT NOT NULL, c VARCHAR)")
    q(session, "INSERT INTO t SELECT 1, 1, 'x' FROM numbers(3)")
    # out of range past the first batches, a NULL into NOT NULL, a failing expression: 1006
    assert error_code(session, "INSERT INTO t SELECT number % 200, number, 'v' FROM numbers(1000)") == 1006
    assert error_code(session, "INSERT INTO t SELECT f, a, d FROM s") == 1006
    assert error_code(session, "INSERT INTO t SELECT 1, 10 // (number - 500), 'v' FROM numbers(1000)") == 1006
    assert all(run is not None for run in column_runs[-3:])
    assert q(session, "SELECT * FROM t") == [(1, 1, "x")] * 3


def test_steps_stay_bounded_by_the_step_budget(column_runs):
    db = engine.Database(limits=Limits(step_rows=64))
    session = db.session()
    q(session, "CREATE TABLE t (a BIGINT, d VARCHAR)")
    batches = session.execute("INSERT INTO t SELECT number, number::VARCHAR FROM numbers(1000)").batches()
    steps = list(batches)
    assert len(steps) >= 1000 // 64 and steps[-1] == [(1000,)]
    assert column_runs[-1] is not None
    assert q(session, "SELECT count(*), sum(a) FROM t") == [(1000, 499500)]


def test_column_appends_into_arrays():
    data = ColumnData(("q", "d", None), ({}, None, {}))
    data.append_columns([[1, 2], [0.5, 1.5], ["a", "b"]], 2)
    data.append_columns([array("i", [3]), array("d", [2.5]), ["a"]], 1)  # an array of another kind
    assert type(data.column_values(0, 0, 3)) is array and data.column(0) == [1, 2, 3]
    data.append_columns([[4, None], [3.5, 4.5], [None, "c"]], 2)  # a NULL: that column is a list
    assert data.column_values(0, 0, 5) == [1, 2, 3, 4, None] and type(data.column_values(1, 0, 5)) is array
    assert data.rows() == [(1, 0.5, "a"), (2, 1.5, "b"), (3, 2.5, "a"), (4, 3.5, None), (None, 4.5, "c")]
    assert data.column(2)[0] is data.column(2)[2]
    with pytest.raises(TypeError):  # a value of another type is no NULL: refused, nothing appended
        ColumnData(("q",), (None,)).append_columns([[1, "x"]], 2)


def db_table(session, name):
    return session.db.catalog.table("default", name)


def test_scanned_columns_taken_whole_keep_checks_types_need(monkeypatch, column_runs):
    """An array of the target's kind and a nullable column of the same plain type go in without
    a value-by-value check; a narrower integer, a FLOAT from a DOUBLE and NULLs into NOT NULL
    are still checked, rounded and refused as in row storage."""
    statements = SOURCE + [
        "CREATE TABLE t (f TINYINT, c FLOAT, d VARCHAR NULL, e DATE NULL, b BIGINT)",
        "INSERT INTO t SELECT f, c / 3, d, e, b FROM s",
        "CREATE TABLE u (x SMALLINT NULL, y VARCHAR NOT NULL)",
        "CREATE TABLE thirds (c DOUBLE)", "INSERT INTO thirds SELECT number / 3 FROM numbers(100)",
        "CREATE TABLE f32 (c FLOAT)", "INSERT INTO f32 SELECT c FROM thirds"]
    queries = ["SELECT min(f), count(*) FROM t WHERE f < 0", "SELECT sum(c), count(d), min(e), max(b) FROM t",
               "SELECT c FROM t ORDER BY c DESC LIMIT 3", "SELECT c FROM f32 ORDER BY c"]
    for sql in queries:
        rows, columns = _both(monkeypatch, statements, sql)
        assert rows == columns, sql
    assert _both(monkeypatch, statements, queries[0])[1] == [(-50, 1250)]
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    session = engine.Database().session()
    for sql in statements:
        q(session, sql)
    assert error_code(session, "INSERT INTO u SELECT b * 10, 'x' FROM s") == 1006  # past SMALLINT
    assert error_code(session, "INSERT INTO u SELECT f, d FROM s") == 1006  # NULL into NOT NULL
    q(session, "INSERT INTO u SELECT f, 'y' FROM s")
    assert column_runs[-1] is not None
    assert q(session, "SELECT count(*), min(x) FROM u") == [(2500, -50)]


def test_nullable_unsigned_integers_need_only_their_nulls_found(monkeypatch, column_runs):
    statements = ["CREATE TABLE t (a INT NULL, b BIGINT NULL, c SMALLINT NULL)",
                  "INSERT INTO t SELECT if(number % 2 = 0, NULL, number % 1000), if(number % 3 = 0, NULL, number), "
                  "if(number = 5, NULL, number % 100) FROM numbers(3000)"]
    sql = "SELECT count(a), sum(a), count(b), max(b), count(c), min(c) FROM t WHERE c >= 0 OR c IS NULL"
    rows, columns = _both(monkeypatch, statements, sql)
    assert rows == columns == [(1500, 750000, 2000, 2999, 2999, 0)]
    session = engine.Database().session()
    q(session, "CREATE TABLE n (a INT NOT NULL, c TINYINT NULL)")
    assert error_code(session, "INSERT INTO n SELECT if(number = 900, NULL, number), 1 FROM numbers(1000)") == 1006
    assert error_code(session, "INSERT INTO n SELECT 1, if(number = 1, NULL, number) FROM numbers(200)") == 1006
    assert q(session, "SELECT count(*) FROM n") == [(0,)]


def test_values_rows_enter_columns_whole_with_their_flags(monkeypatch):
    """A multi-row VALUES list goes into a columnar table as columns (transposed once): the
    NULL, negative-integer and NaN flags it sets are those row storage sets, so the plans that
    read them give the same answers; a single row still goes in as a row."""
    nan = "'NaN'::DOUBLE"
    values = ", ".join(f"({'NULL' if i % 4 == 0 else i - 30}, {nan if i == 7 else i / 2}, "
                       f"{'NULL' if i % 5 == 0 else repr('s' + str(i % 3))})" for i in range(60))
    statements = ["CREATE TABLE v (a INT NULL, b DOUBLE, c VARCHAR NULL)",
                  "INSERT INTO v VALUES " + values, "INSERT INTO v VALUES (-100, 1.5, 'one')"]
    for sql in ["SELECT count(a), min(a), count(c), count(*) FROM v",
                "SELECT a FROM v WHERE a < 0 ORDER BY a",
                "SELECT count(*) FROM v WHERE b > 1000 OR b IS NULL",
                "SELECT b FROM v ORDER BY b DESC LIMIT 2",
                "SELECT c, count(*) FROM v GROUP BY c ORDER BY c"]:
        rows, columns = _both(monkeypatch, statements, sql)
        assert repr(rows) == repr(columns), sql  # repr: a NaN is unequal to itself
    assert _both(monkeypatch, statements, "SELECT count(a), min(a), count(c), count(*) FROM v")[1] \
        == [(46, -100, 49, 61)]
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    session = engine.Database().session()
    for sql in statements:
        q(session, sql)
    table = db_table(session, "v")
    assert type(table.data) is ColumnData
    assert table.has_null[0] and table.has_negative[0] and table.has_null[2]
    assert not table.nan_free[1]
