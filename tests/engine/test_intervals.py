"""INTERVAL as a value type, as current Databend answers (the suite's 02_0079_function_interval,
02_0080_function_interval_addsub and 11_0007_data_type_interval files): its text and wire text,
to_interval and the constructors, comparison by total microseconds, date / timestamp ± interval,
SUM, EXTRACT, storage in a table and through a restart."""

from __future__ import annotations

import pytest

import engine
from engine import EngineError
from engine.types.intervals import Interval, parse_interval, render_interval
from tests.engine.sql_helpers import typed_answer as answer
from tests.engine.test_durability import crash, q


@pytest.mark.parametrize(("text", "shown"), [
    ("1 month 1 hour 1 microsecond ago", "-1 month -1:00:00.000001"),
    ("1 year 1 month ago", "-1 year -1 month"),
    ("1", "0:00:00.000001"),  # a bare number is microseconds
    ("1000", "0:00:00.001"),
    ("P1Y2M3DT4H5M6S", "1 year 2 months 3 days 4:05:06"),
    ("P3W", "21 days"), ("PT0.123456S", "0:00:00.123456"), ("+P2D", "2 days"), ("-P1DT2H", "-1 day -2:00:00"),
    ("1200000000 months", "100000000 years"),
    ("120000000000 months", "00:00:00"),  # beyond 32 bits: Databend drops the part
    ("1 day 48 hours 3600 minutes", "1 day 108:00:00"),
    ("1:30:15.5", "1:30:15.5"),
])
def test_text_and_wire_text(text, shown):
    assert render_interval(parse_interval(text)) == shown


@pytest.mark.parametrize("text", ["1 month 1 hour ago 1 micros", "PT0.123456789S", "", "abc", "PT"])
def test_text_databend_refuses(session, text):
    with pytest.raises(EngineError) as info:
        q(session, f"SELECT to_interval('{text}')")
    assert info.value.code == 1006


def test_values_compare_and_hash_by_total_microseconds():
    assert parse_interval("12 month") == parse_interval("360 days") == parse_interval("1 year")
    assert hash(parse_interval("1 hours")) == hash(parse_interval("3600 seconds"))
    assert parse_interval("2 hours") > parse_interval("3600 seconds")


def test_literals_casts_and_constructors(session):
    types, rows = answer(session, "SELECT interval '1 month 1 hour 1 microsecond ago', '1 days'::INTERVAL::String, "
                                  "to_centuries(2), to_weeks(2), to_decades(3), to_millennia(1), "
                                  "to_interval('12 month') = to_interval('360 days'), "
                                  "to_month(to_interval('1 year')), typeof(to_days(5))")
    assert types[0] == "Interval"
    assert rows == [("-1 month -1:00:00.000001", "1 day", "200 years", "14 days", "30 years", "1000 years", "1", "0",
                     "INTERVAL")]


def test_interval_n_unit_is_a_value(session):
    _, rows = answer(session, "SELECT interval (number::string) month a, a * 3, -3 * a FROM numbers(4) "
                              "WHERE number > 0")
    assert rows == [("1 month", "3 months", "-3 months"), ("2 months", "6 months", "-6 months"),
                    ("3 months", "9 months", "-9 months")]


@pytest.mark.parametrize(("sql", "shown"), [
    ("SELECT DATE '1992-03-01' - to_interval('1 month')", "1992-02-01"),
    ("SELECT DATE '1992-03-01' + to_interval('10 month')", "1993-01-01"),
    ("SELECT DATE '1993-03-01' - to_interval('10 day')", "1993-02-19"),
    ("SELECT DATE '1992-03-01' - to_interval('1 second')", "1992-02-29 23:59:59.000000"),
    ("SELECT plus('2022-02-02'::date, interval '1 day 1 second')", "2022-02-03 00:00:01.000000"),
    ("SELECT to_interval('1 day') + TIMESTAMP '1992-01-01 10:00:00'", "1992-01-02 10:00:00.000000"),
    ("SELECT TIMESTAMP '1992-01-01 10:00:05' + to_interval('17 years 3 months 1 day 2 hours 1 minute 57 seconds')",
     "2009-04-02 12:02:02.000000"),
    ("SELECT TIMESTAMP '2024-12-20 10:00:00' + to_milliseconds(750)", "2024-12-20 10:00:00.750000"),
    ("SELECT to_days(3) - to_hours(1)", "3 days -1:00:00"),
    ("SELECT timestamp_diff('2021-01-01'::timestamp, '2022-01-01'::timestamp)", "-8760:00:00"),
])
def test_arithmetic(session, sql, shown):
    assert answer(session, sql)[1] == [(shown,)]


def test_a_date_column_beside_a_time_interval_becomes_a_timestamp(session):
    q(session, "CREATE TABLE n (d DATE NULL)")
    q(session, "INSERT INTO n VALUES ('2022-03-15'), (NULL)")
    types, rows = answer(session, "SELECT d - INTERVAL '1 hour', (interval '2 days') + d FROM n ORDER BY d")
    assert types == ["Nullable(Timestamp)", "Nullable(Date)"]
    assert rows == [("2022-03-14 23:00:00.000000", "2022-03-17"), (None, None)]


def test_an_interval_minus_a_date_is_refused(session):
    with pytest.raises(EngineError) as info:
        q(session, "SELECT to_interval('1000000 second') - DATE '1993-03-01'")
    assert info.value.code == 1065


def test_columns_order_compare_and_sum(session):
    q(session, "CREATE TABLE t (c INTERVAL)")
    q(session, "INSERT INTO t VALUES ('1 year'), ('1 months'), ('1 day'), ('1 hour'), ('1 minute'), ('1 second'), "
               "('1 microsecond')")
    assert [r[0] for r in answer(session, "SELECT * FROM t ORDER BY c")[1]] == [
        "0:00:00.000001", "0:00:01", "0:01:00", "1:00:00", "1 day", "1 month", "1 year"]
    assert answer(session, "SELECT sum(c) FROM t")[1] == [("9385:01:01.000001",)]
    assert answer(session, "SELECT sum(c) FROM t WHERE c <= interval '1 day'")[1] == [("25:01:01.000001",)]
    assert answer(session, "SELECT count(*) FROM t WHERE c > '-1 year' AND c >= to_interval('1 month')")[1] == [("2",)]


@pytest.mark.parametrize(("part", "text", "shown"), [
    ("epoch", "1 day 2 hours 3 minutes", "93780.0"),
    ("minute", "1 day 2 hours 3 minutes", "3"),
    ("hour", "1 day 48 hours 3600 minutes", "108"),
    ("day", "1 day 48 hours 3600 minutes", "1"),
    ("second", "1 day 2 hours 3 minutes 200 seconds 100 microsecond", "20.0001"),
    ("microsecond", "1 day 2 hours 3 minutes 200 seconds 100 microsecond", "20000100"),
    ("year", "1 years 13 months 60 day", "2"),
])
def test_extract(session, part, text, shown):
    result = session.execute(f"SELECT EXTRACT({part} FROM '{text}'::INTERVAL)")
    assert result.renderer(True)(list(result)) == [(shown,)]


def test_age_in_years_months_and_days(session):
    _, rows = answer(session, "SELECT age('2025-06-12'::date, '1990-04-15'::date), "
                              "age('2025-06-12'::date, '1985-11-30'::date), "
                              "EXTRACT(MONTH FROM age('2025-06-12'::date, '1995-07-22'::date)), "
                              "age(today(), '2022-02-02'::date) = age('2022-02-02'::date)")
    assert rows == [("35 years 1 month 27 days", "39 years 6 months 12 days", "10", "1")]


def test_a_column_survives_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    q(db.session(), "CREATE TABLE t (c INTERVAL NULL)")
    q(db.session(), "INSERT INTO t VALUES ('1 year 2 months 3 days 4 hours 5 minutes 6 seconds 7 microseconds ago'), (NULL)")
    crash(db)  # replayed from the log
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), "SELECT c FROM t ORDER BY c") == [(Interval(-14, -3, -14706000007),), (None,)]
    db.close()  # from the checkpoint
    db = engine.Database(data_dir=data_dir)
    assert answer(db.session(), "SELECT c::String FROM t ORDER BY c")[1] == [
        ("-1 year -2 months -3 days -4:05:06.000007",), (None,)]
    db.close()


def test_parts_of_an_interval_in_another_time_zone(session):
    q(session, "SET timezone = 'Asia/Shanghai'")
    assert answer(session, "SELECT EXTRACT(YEAR FROM age('2025-06-12'::date, '1990-05-15'::date)), "
                           "to_month(to_interval('14 months'))")[1] == [("35", "2")]


def test_a_sum_of_one_row_is_its_total_too(session):
    assert answer(session, "SELECT sum(to_days(number)) FROM numbers(3) GROUP BY number % 2 ORDER BY 1")[1] == [
        ("24:00:00",), ("48:00:00",)]
