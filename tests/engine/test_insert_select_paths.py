"""The generated code's quick paths of a bulk INSERT ... SELECT: numbers()' rows unpacked into
loop variables, to_date of an integer through the day cache, an integer's text concatenated
unmeasured (answers recorded from Databend 1.2.453), and the query columns written unchecked
(by their types) in both storages."""

import datetime

import pytest

import engine
from engine.catalog import table_storage
from engine.core.limits import Limits
from engine.statements.insert_plan import unchecked_column
from engine.types import datetimes
from engine.types import sqltype as T
from tests.engine.sql_helpers import error_code, q


def test_to_date_of_integers_from_numbers(session):
    rows = q(session, "SELECT to_date(number * 7919 - 3000)::VARCHAR FROM numbers(5)")
    assert rows == [("1961-10-15",), ("1983-06-21",), ("2005-02-24",), ("2026-10-31",), ("2048-07-06",)]


def test_to_date_of_a_nullable_integer_keeps_nulls(session):
    rows = q(session, "SELECT to_date(if(number % 2 = 0, NULL, number + 40000))::VARCHAR FROM numbers(4)")
    assert rows == [(None,), ("2079-07-09",), (None,), ("2079-07-11",)]


def test_to_date_at_the_ends_of_the_range(session):
    rows = q(session, "SELECT to_date(number + 2932895)::VARCHAR FROM numbers(2)")
    assert rows == [("9999-12-30",), ("9999-12-31",)]
    # past the last day and before the first: 1006 as Databend (a day is never cached then)
    assert error_code(session, "SELECT to_date(number * 1000000) FROM numbers(5)") == 1006
    assert error_code(session, "SELECT to_date(number - 719163) FROM numbers(2)") == 1006


def test_to_date_past_the_day_cache_is_computed(session, monkeypatch):
    """A day the cache does not hold (full) is built by date_from_days, equal to a cached one."""
    monkeypatch.setattr(datetimes, "_DAY_CACHE_SIZE", 0)
    rows = q(session, "SELECT to_date(number * 100003 + 17) FROM numbers(3)")
    epoch = datetime.date(1970, 1, 1)
    assert rows == [(epoch + datetime.timedelta(days=k * 100003 + 17),) for k in range(3)]


def test_insert_select_from_numbers_stores_exact_rows(session):
    q(session, "CREATE TABLE t (a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE NULL)")
    q(session, "INSERT INTO t SELECT number, number % 1000, number / 7, concat('name-', (number % 50000)::VARCHAR), "
               "to_date(if(number = 3, NULL, number % 20000)) FROM numbers(5)")
    rows = q(session, "SELECT * FROM t ORDER BY a")
    assert rows[4] == (4, 4, 4 / 7, "name-4", datetime.date(1970, 1, 5))
    assert rows[3][4] is None and rows[0][4] == datetime.date(1970, 1, 1)
    assert q(session, "SELECT count(*), sum(b), count(e) FROM t") == [(5, 10, 4)]


def test_concat_of_integer_text_is_exact(session):
    """An integer cast to text is concatenated without measuring it (its type bounds it)."""
    rows = q(session, "SELECT concat('n-', (number * 1000000000000000)::VARCHAR, ':', "
                      "(-(number::BIGINT) - 9223372036854775806)::VARCHAR, if(number = 1, NULL, number)::VARCHAR) "
                      "FROM numbers(3)")
    assert rows == [("n-0:-92233720368547758060",), (None,),
                    ("n-2000000000000000:-92233720368547758082",)]


def test_concat_of_integer_text_still_meets_the_result_limit():
    """Under a string_result_chars smaller than an integer's widest text, each row is measured:
    short values pass, a too long one is refused (1006)."""
    session = engine.Database(limits=Limits(string_result_chars=12)).session()
    assert q(session, "SELECT concat('ab-', (number * 1000)::VARCHAR) FROM numbers(2)") == [("ab-0",), ("ab-1000",)]
    assert error_code(session, "SELECT concat('ab-', (number * 10000000000)::VARCHAR) FROM numbers(2)") == 1006


@pytest.fixture(params=[False, True], ids=["rows", "columns"])
def storage(request, monkeypatch):
    """Each test in both storages (whatever QUERYHTTP_COLUMNS says)."""
    monkeypatch.setattr(table_storage, "COLUMNS", request.param)


def test_unchecked_column_by_types():
    # the same plain NOT NULL type, or a never negative integer type that fits
    assert unchecked_column(T.STRING, T.STRING.as_nullable()) and unchecked_column(T.DATE, T.DATE)
    assert unchecked_column(T.UINT32, T.INT64) and unchecked_column(T.UINT8, T.SqlType("Int16"))
    # NULLs, negatives, a wider range or another type still go through the converter
    assert not unchecked_column(T.STRING.as_nullable(), T.STRING)
    assert not unchecked_column(T.INT32, T.INT64)  # has_negative needs its minimum
    assert not unchecked_column(T.UINT64, T.INT64) and not unchecked_column(T.UINT8, T.SqlType("Int8"))
    assert not unchecked_column(T.INT64, T.FLOAT64) and not unchecked_column(T.TIMESTAMP, T.DATE)


def test_unchecked_columns_store_exact_rows_and_flags(session, storage):
    q(session, "CREATE TABLE t (a SMALLINT, d VARCHAR, e DATE NULL, c DOUBLE, n BIGINT)")
    q(session, "INSERT INTO t SELECT (number + 250)::UINT8, 'v' || number::VARCHAR, to_date(number), "
               "number / 4, number::INT32 - 1 FROM numbers(4)")
    assert q(session, "SELECT * FROM t ORDER BY a") == [
        (250 + k, f"v{k}", datetime.date(1970, 1, 1 + k), k / 4, k - 1) for k in range(4)]
    # the flags the writes noted: a NULL test and a negative minimum still answer right
    assert q(session, "SELECT count(*) FROM t WHERE e IS NULL") == [(0,)]
    assert q(session, "SELECT min(n), min(a) FROM t WHERE n < 0") == [(-1, 250)]
    q(session, "INSERT INTO t SELECT 7, NULL, NULL, 1.5, 0 FROM numbers(1)")
    assert q(session, "SELECT count(*), count(e), count(d) FROM t") == [(5, 4, 4)]


def test_unchecked_columns_with_defaults_for_the_others(session, storage):
    q(session, "CREATE TABLE t (a BIGINT DEFAULT 9, d VARCHAR, b INT DEFAULT -3)")
    q(session, "INSERT INTO t (d) SELECT concat('x', number::VARCHAR) FROM numbers(3)")
    assert q(session, "SELECT * FROM t ORDER BY d") == [(9, "x0", -3), (9, "x1", -3), (9, "x2", -3)]
    assert q(session, "SELECT min(b) FROM t") == [(-3,)]


def test_a_checked_integer_still_refuses_values_out_of_range(session, storage):
    """UInt8 does not fit TINYINT: its values are checked (1006 past 127, nothing written)."""
    q(session, "CREATE TABLE t (a TINYINT, d VARCHAR)")
    assert error_code(session, "INSERT INTO t SELECT (number + 126)::UINT8, 'x' FROM numbers(3)") == 1006
    assert q(session, "SELECT count(*) FROM t") == [(0,)]
