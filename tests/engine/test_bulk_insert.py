"""INSERT ... SELECT converts whole columns: values already of the stored form pass through
(checked by C-level passes), anything else is converted value by value with the same errors,
and the table's NULL / negative flags come out right either way."""

import datetime

import pytest

import engine
from engine.catalog import table_storage
from engine.core.errors import EngineError
from engine.statements.insert_plan import converted_rows
from engine.types import sqltype as T
from engine.types.convert import column_converter


@pytest.fixture
def run():
    session = engine.Database().session()

    def run_sql(sql):
        return list(session.execute(sql))

    run_sql.db = session.db
    return run_sql


def test_a_column_already_stored_as_it_comes_is_the_same_list():
    values = [1, 2, None, 3]
    out, has_null, negative = column_converter(T.INT32.as_nullable(), "a")(values)
    assert out is values and has_null and not negative
    out, has_null, negative = column_converter(T.STRING, "s")(["a", "b"])
    assert out == ["a", "b"] and not has_null and not negative


def test_a_column_of_other_types_is_converted_value_by_value():
    out, has_null, negative = column_converter(T.FLOAT64.as_nullable(), "f")([1, 2.5, None])
    assert out == [1.0, 2.5, None] and [type(v) for v in out] == [float, float, type(None)]
    assert has_null and not negative
    out, _, negative = column_converter(T.INT64, "a")([-5, 0, 7])
    assert out == [-5, 0, 7] and negative
    out, _, _ = column_converter(T.DATE, "d")([0, "2020-01-02"])
    assert out == [datetime.date(1970, 1, 1), datetime.date(2020, 1, 2)]


@pytest.mark.parametrize("values, message", [
    ([1, 128], "number 128 overflows"),
    ([1, -129], "number -129 overflows"),
    ([1, None], "cannot insert NULL into non-nullable column `a`"),
])
def test_a_column_out_of_range_or_null_fails_with_the_value_s_error(values, message):
    convert = column_converter(T.SqlType("Int8"), "a")
    with pytest.raises(EngineError, match=message):
        convert(values)


def test_dates_of_the_whole_range_are_taken_as_they_are():
    convert = column_converter(T.DATE.as_nullable(True), "d")
    days = [datetime.date(2020, 1, 1), datetime.date(1, 1, 1), datetime.date(9999, 12, 31)]
    assert convert(days)[0] == days  # 0001-01-01 to 9999-12-31, as current Databend


def test_insert_select_answers_and_flags(run):
    run("CREATE TABLE t (a INT, b BIGINT NOT NULL, s VARCHAR, d DATE)")
    assert run("INSERT INTO t SELECT number - 2, number, IF(number = 1, NULL, number::VARCHAR), "
               "to_date(number) FROM numbers(4)") == [(4,)]
    assert run("SELECT * FROM t ORDER BY b") == [
        (-2, 0, "0", datetime.date(1970, 1, 1)), (-1, 1, None, datetime.date(1970, 1, 2)),
        (0, 2, "2", datetime.date(1970, 1, 3)), (1, 3, "3", datetime.date(1970, 1, 4))]
    table = run.db.catalog.table("default", "t")
    assert table.has_null == [False, False, True, False]
    assert table.has_negative == [True, False, False, False]
    # the flags drive generated code: a MOD of the negative column still truncates toward zero
    assert run("SELECT a % 2 FROM t ORDER BY b") == [(0,), (-1,), (0,), (1,)]


def test_insert_select_of_some_columns_fills_the_defaults(run):
    run("CREATE TABLE t (a INT, b INT DEFAULT -7, c VARCHAR NOT NULL DEFAULT 'x', d DOUBLE)")
    run("INSERT INTO t (d, a) SELECT number, number * 10 FROM numbers(3)")
    assert run("SELECT * FROM t ORDER BY a") == [(0, -7, "x", 0.0), (10, -7, "x", 1.0), (20, -7, "x", 2.0)]
    table = run.db.catalog.table("default", "t")
    assert table.has_null == [False, False, False, False]
    assert table.has_negative == [False, True, False, False]


def test_insert_select_out_of_range_changes_nothing(run):
    run("CREATE TABLE t (a TINYINT UNSIGNED)")
    with pytest.raises(EngineError, match="overflows"):
        run("INSERT INTO t SELECT number FROM numbers(300)")
    assert run("SELECT count(*) FROM t") == [(0,)]
    with pytest.raises(EngineError, match="non-nullable"):
        run("CREATE TABLE u (a INT NOT NULL) AS SELECT NULL::INT")


def test_rows_that_need_no_conversion_are_the_query_s_own_tuples(monkeypatch):
    monkeypatch.setattr(table_storage, "COLUMNS", False)  # row storage: rows are handed over
    db = engine.Database()
    list(db.session().execute("CREATE TABLE t (a BIGINT, s VARCHAR)"))
    table = db.catalog.table("default", "t")

    class Charged:
        def charge(self, n):
            pass

    batch = [(1, "a"), (2, "b")]
    steps = converted_rows(table, iter([batch]), [0, 1], Charged())
    assert next(steps) == []
    with pytest.raises(StopIteration) as stop:
        next(steps)
    rows, known = stop.value.value
    assert rows == batch and rows[0] is batch[0]
    assert known == ([False, False], [False, False])
