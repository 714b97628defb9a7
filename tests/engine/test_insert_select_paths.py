"""The generated code's quick paths of a bulk INSERT ... SELECT: numbers()' rows unpacked into
loop variables, to_date of an integer through the day cache, and an integer's text
concatenated unmeasured (answers recorded from Databend 1.2.453)."""

import datetime

import engine
from engine.core.limits import Limits
from engine.types import datetimes
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
