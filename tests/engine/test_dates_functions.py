"""Date and time functions: result types and values as Databend 1.2.453 answers (session zone UTC).
Values are compared as the wire shows them (Result.renderer); types as Databend names them
(functions over table columns, so the declared type shows, not a narrowed constant's)."""

import datetime

import pytest

import engine
from engine import EngineError


@pytest.fixture
def session():
    s = engine.Database().session()
    for sql in ["CREATE TABLE dt (d DATE, t TIMESTAMP, n INT)",
                "INSERT INTO dt VALUES ('2024-02-29', '2024-12-30 23:59:58.123456', 3)"]:
        list(s.execute(sql))
    return s


def answer(session, sql):
    """(column types, first row as the wire shows it)."""
    result = session.execute(sql)
    rows = result.renderer(False)(list(result))
    return [c.type for c in result.schema], rows[0]


def one(session, expr):
    types, row = answer(session, f"SELECT {expr} FROM dt")
    return types[0], row[0]


PARTS = [
    ("to_year(d)", "UInt16", "2024"), ("to_month(d)", "UInt8", "2"), ("to_day_of_month(d)", "UInt8", "29"),
    ("to_day_of_week(d)", "UInt8", "4"), ("to_day_of_year(d)", "UInt16", "60"), ("to_quarter(d)", "UInt8", "1"),
    ("to_week_of_year(d)", "UInt32", "9"), ("to_yyyymm(d)", "UInt32", "202402"),
    ("to_yyyymmdd(d)", "UInt32", "20240229"), ("to_yyyymmddhhmmss(d)", "UInt64", "20240229000000"),
    ("to_hour(t)", "UInt8", "23"), ("to_minute(t)", "UInt8", "59"), ("to_second(t)", "UInt8", "58"),
    ("to_day_of_week(t)", "UInt8", "1"), ("to_week_of_year(t)", "UInt32", "1"),
    ("to_yyyymmddhhmmss(t)", "UInt64", "20241230235958"), ("to_unix_timestamp(t)", "Int64", "1735603198"),
    ("to_monday(t)", "Date", "2024-12-30"),
]


@pytest.mark.parametrize(("expr", "type_", "value"), PARTS)
def test_parts_of_dates_and_timestamps(session, expr, type_, value):
    assert one(session, expr) == (f"Nullable({type_})", value)


STARTS = [
    ("to_start_of_year(t)", "Date", "2024-01-01"), ("to_start_of_quarter(t)", "Date", "2024-10-01"),
    ("to_start_of_month(t)", "Date", "2024-12-01"), ("to_start_of_week(t)", "Date", "2024-12-29"),
    ("to_start_of_week(t, 1)", "Date", "2024-12-30"), ("to_start_of_iso_year(t)", "Date", "2024-12-30"),
    ("to_start_of_day(t)", "Timestamp", "2024-12-30 00:00:00.000000"),
    ("to_start_of_hour(t)", "Timestamp", "2024-12-30 23:00:00.000000"),
    ("to_start_of_minute(t)", "Timestamp", "2024-12-30 23:59:00.000000"),
    ("to_start_of_second(t)", "Timestamp", "2024-12-30 23:59:58.000000"),
    ("to_start_of_fifteen_minutes(t)", "Timestamp", "2024-12-30 23:45:00.000000"),
    ("to_start_of_ten_minutes(t)", "Timestamp", "2024-12-30 23:50:00.000000"),
    ("to_start_of_five_minutes(t)", "Timestamp", "2024-12-30 23:55:00.000000"),
    ("to_start_of_month(d)", "Date", "2024-02-01"), ("to_start_of_week(d)", "Date", "2024-02-25"),
    ("to_start_of_day(d)", "Timestamp", "2024-02-29 00:00:00.000000"),
    ("last_day(d)", "Date", "2024-02-29"),
]


@pytest.mark.parametrize(("expr", "type_", "value"), STARTS)
def test_starts_of_periods(session, expr, type_, value):
    assert one(session, expr) == (f"Nullable({type_})", value)


ADDS = [
    ("add_years(d, 1)", "Date", "2025-02-28"), ("add_quarters(d, 1)", "Date", "2024-05-29"),
    # clamped, as the 1.2.453 oracle (current Databend keeps the month end: 2024-03-31)
    ("add_months(d, 1)", "Date", "2024-03-29"), ("add_days(d, -60)", "Date", "2023-12-31"),
    ("add_hours(d, 1)", "Timestamp", "2024-02-29 01:00:00.000000"),
    ("add_minutes(d, 1)", "Timestamp", "2024-02-29 00:01:00.000000"),
    ("add_seconds(d, 1)", "Timestamp", "2024-02-29 00:00:01.000000"),
    ("subtract_months(d, 1)", "Date", "2024-01-29"), ("subtract_years(d, 4)", "Date", "2020-02-29"),
    ("add_months(t, -1)", "Timestamp", "2024-11-30 23:59:58.123456"),
    ("add_hours(t, 25)", "Timestamp", "2025-01-01 00:59:58.123456"),
    ("date_add(day, 1, d)", "Date", "2024-03-01"), ("date_add(month, n, d)", "Date", "2024-05-29"),
    ("date_sub(year, 1, d)", "Date", "2023-02-28"), ("date_add(hour, 1, d)", "Timestamp", "2024-02-29 01:00:00.000000"),
    ("d + INTERVAL 1 MONTH", "Date", "2024-03-29"), ("d - INTERVAL '1' DAY", "Date", "2024-02-28"),
    ("t - INTERVAL 2 HOUR", "Timestamp", "2024-12-30 21:59:58.123456"),
]


@pytest.mark.parametrize(("expr", "type_", "value"), ADDS)
def test_adding_to_dates_and_timestamps(session, expr, type_, value):
    assert one(session, expr) == (f"Nullable({type_})", value)


def test_month_arithmetic_clamps_to_the_month_end(session):
    types, row = answer(session, "SELECT add_months(to_date('2024-03-31'), -1), add_months(to_date('2023-01-31'), 1), "
                                 "add_years(to_date('2024-02-29'), -1), add_quarters(to_date('2024-11-30'), 1), "
                                 "subtract_days(to_date('2024-03-01'), 1)")
    assert row == ("2024-02-29", "2023-02-28", "2023-02-28", "2025-02-28", "2024-02-29")


def test_date_trunc_and_date_part_and_extract(session):
    types, row = answer(session, "SELECT date_trunc(year, to_date('2024-05-06')), "
                                 "date_trunc(month, to_timestamp('2024-05-06 10:11:12')), "
                                 "date_trunc(day, to_timestamp('2024-05-06 10:11:12')), "
                                 "date_trunc(quarter, to_date('2024-05-06')), "
                                 "EXTRACT(YEAR FROM to_date('2024-05-06')), date_part(month, to_date('2024-05-06')), "
                                 "date_part('day', to_date('2024-05-06')), "
                                 "extract(second from to_timestamp('2024-01-01 10:11:12.5'))")
    assert types == ["Date", "Date", "Timestamp", "Date", "UInt16", "UInt8", "UInt8", "UInt8"]
    assert row == ("2024-01-01", "2024-05-01", "2024-05-06 00:00:00.000000", "2024-04-01", "2024", "5", "6", "12")


def test_date_part_units(session):
    types, row = answer(session, "SELECT date_part(year, t), date_part(quarter, t), date_part(week, t), "
                                 "date_part(dow, t), date_part(doy, t), date_part(hour, t), date_part(minute, t), "
                                 "date_part(second, t) FROM (SELECT to_timestamp('2024-03-05 07:08:09.5') t)")
    assert types == ["UInt16", "UInt8", "UInt32", "UInt8", "UInt16", "UInt8", "UInt8", "UInt8"]
    assert row == ("2024", "1", "10", "2", "65", "7", "8", "9")


def test_unit_call_names_the_column_as_databend(session):
    result = session.execute("SELECT date_add(DAY, 1, d), EXTRACT(YEAR FROM d), date_part('day', d), "
                             "d + INTERVAL 1 DAY FROM dt")
    assert [c.name for c in result.schema] == ["date_add(day, 1, d)", "extract(year from d)",
                                               "date_part(day, d)", "d + interval 1 day"]


CONVERSIONS = [
    ("to_timestamp(1)", "1970-01-01 00:00:01.000000"), ("to_timestamp(1700000000)", "2023-11-14 22:13:20.000000"),
    ("to_timestamp(1700000000123)", "2023-11-14 22:13:20.123000"),
    ("to_timestamp(1700000000123456)", "2023-11-14 22:13:20.123456"),
    ("to_timestamp(-1)", "1969-12-31 23:59:59.000000"), ("to_datetime(1700000000)", "2023-11-14 22:13:20.000000"),
    ("to_date(19000)", "2022-01-08"), ("to_date(-1)", "1969-12-31"),
    ("to_timestamp('2024-01-02')", "2024-01-02 00:00:00.000000"),
    ("to_timestamp('2024-01-02T03:04:05Z')", "2024-01-02 03:04:05.000000"),
    ("to_timestamp('2024-01-02 03:04:05+08:00')", "2024-01-01 19:04:05.000000"),
    ("to_timestamp('2024-01-02 03:04:05.1')", "2024-01-02 03:04:05.100000"),
    ("to_date('0999-12-31')", "0999-12-31"),  # the range starts at 0001-01-01 in current Databend
    ("str_to_date('2024-03-05', '%Y-%m-%d')", "2024-03-05"),
    ("str_to_date('05/03/2024', '%d/%m/%Y')", "2024-03-05"),
    ("str_to_timestamp('2024-03-05 07:08:09', '%Y-%m-%d %H:%M:%S')", "2024-03-05 07:08:09.000000"),
    ("str_to_timestamp('2024-03-05', '%Y-%m-%d')", "2024-03-05 00:00:00.000000"),
    ("str_to_timestamp('2024-03-05 10:11:12 +0800', '%Y-%m-%d %H:%M:%S %z')", "2024-03-05 02:11:12.000000"),
    ("to_string(to_date('2024-03-05'), '%Y/%m/%d')", "2024/03/05"),
    ("date_format(to_date('2024-03-05'), '%Y%m%d %H')", "20240305 00"),
    ("date_format(to_timestamp('2024-03-05 07:08:09.123456'), '%Y-%m-%d %H:%M:%S %a %b %j %e %y %B %A %p %f %T "
     "%D %F %I %k %l %u %w %Z %z %s %%')",
     "2024-03-05 07:08:09 Tue Mar 065  5 24 March Tuesday AM 123456000 07:08:09 03/05/24 2024-03-05 07  7  7 2 2 "
     "UTC +0000 1709622489 %"),
    # a whole Float64 shows with '.0' on the wire, as current Databend writes it
    ("months_between(to_date('2024-03-31'), to_date('2024-02-29'))", "1.0"),
    ("months_between(to_date('2024-02-29'), to_date('2024-01-31'))", "1.0"),
    ("months_between(to_date('2024-01-31'), to_date('2024-02-29'))", "-1.0"),
    ("to_unix_timestamp(to_date('2024-01-01'))", "1704067200"),
    ("timezone()", "UTC"),
    ("date_add(day, 1, '2024-01-01')", "2024-01-02"), ("add_days('2024-01-01', 1)", "2024-01-02"),
    ("to_year('2024-01-01')", "2024"), ("to_start_of_month('2024-05-06 10:00:00')", "2024-05-01"),
    ("date_sub(quarter, 1, to_date('2024-05-31'))", "2024-02-29"),
]


@pytest.mark.parametrize(("expr", "value"), CONVERSIONS)
def test_conversions_and_formats(session, expr, value):
    assert answer(session, f"SELECT {expr}")[1] == (value,)


def test_months_between_counts_31sts_of_a_month(session):
    result = list(session.execute("SELECT months_between(to_date('2024-01-15'), to_date('2024-03-01')), "
                                  "months_between(to_date('2024-03-15'), to_date('2024-02-20')), "
                                  "months_between(t, d) FROM (SELECT to_timestamp('2024-01-02 00:00:00') t, "
                                  "to_date('2024-01-01') d)"))
    a, b, c = result[0]
    # Databend 1.2.453: -1548387096774.194e-12, 838709677419.355e-12, 0.0322580645
    assert round(a * 1e12, 3) == -1548387096774.194 and round(b * 1e12, 3) == 838709677419.355
    assert round(c, 10) == 0.0322580645


def test_functions_of_null_are_null(session):
    types, row = answer(session, "SELECT to_yyyymm(NULL), add_days(NULL, 1), add_days(to_date('2024-01-01'), NULL), "
                                 "date_add(day, NULL, to_date('2024-01-01')), to_timestamp(NULL), "
                                 "date_format(NULL, '%Y'), date_part(month, NULL)")
    assert types == ["NULL"] * 7 and row == (None,) * 7


def test_date_diff_counts_unit_boundaries(session):
    types, row = answer(session, "SELECT date_diff(day, to_date('2024-01-01'), to_date('2024-03-01')), "
                                 "date_diff(month, to_date('2024-01-31'), to_date('2024-02-01')), "
                                 "date_diff(year, to_date('2024-12-31'), to_date('2025-01-01')), "
                                 "date_diff(hour, to_timestamp('2024-01-01 10:59:00'), "
                                 "to_timestamp('2024-01-01 11:00:00'))")
    # constant arguments fold, and Databend types a folded integer by its value (as to_year of a
    # constant date is UInt16)
    assert types == ["UInt8"] * 4 and row == ("60", "1", "1", "1")


ERRORS = [
    ("SELECT to_date('2024-1-2')", 1006), ("SELECT to_date('2024-02-30')", 1006),
    ("SELECT to_timestamp('abc')", 1006), ("SELECT to_timestamp('2024-1-2 3:4:5')", 1006),
    ("SELECT add_years(to_date('9999-06-01'), 1)", 1006), ("SELECT to_date(3000000)", 1006),
    ("SELECT str_to_date('03-05', '%m-%d')", 1006),  # no year (the remainder of text is ignored now)
    # EPOCH is a unit of current Databend (epoch(x) of a Date or Timestamp: engine.functions.date_parts)
    ("SELECT date_part(fortnight, to_date('2024-05-06'))", 1005), ("SELECT to_year(1)", 1065),
]


@pytest.mark.parametrize(("sql", "code"), ERRORS)
def test_errors_carry_databend_codes(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_now_and_today_types(session):
    types, row = answer(session, "SELECT now(), today(), typeof(now()), typeof(today()), current_timestamp(), typeof(current_timestamp)")
    assert types == ["Timestamp", "Date", "String", "String", "Timestamp", "String"]
    assert row[2:4] == ("TIMESTAMP", "DATE") and row[0] == row[4]


def test_casts_to_and_from_dates(session):
    types, row = answer(session, "SELECT 1700000000::timestamp, 1700000000000::timestamp, "
                                 "1700000000000000::timestamp, CAST(19000 AS DATE), TRY_CAST('abc' AS TIMESTAMP), "
                                 "TRY_CAST('2024-13-01' AS DATE), CAST('2024-01-02 10:00:00' AS DATE), "
                                 "CAST(to_date('2024-01-02') AS INT), "
                                 "CAST(to_timestamp('2024-01-02 00:00:00') AS BIGINT)")
    assert row == ("2023-11-14 22:13:20.000000", "2023-11-14 22:13:20.000000", "2023-11-14 22:13:20.000000",
                   "2022-01-08", None, None, "2024-01-02", "19724", "1704153600000000")


@pytest.mark.parametrize("sql", ["SELECT to_timestamp(1.5)", "SELECT to_date(1.5)"])
def test_conversions_refuse_decimals(session, sql):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == 1065


def test_date_functions_are_listed(session):
    names = {r[0] for r in session.execute("SELECT name FROM system.functions")}
    assert {"date_add", "date_diff", "date_trunc", "extract", "to_start_of_month", "add_months", "to_timestamp",
            "str_to_date", "months_between", "timezone"} <= names


def test_try_cast_of_a_column_is_null_where_text_is_no_date(session):
    list(session.execute("CREATE TABLE txt (s VARCHAR NOT NULL)"))
    list(session.execute("INSERT INTO txt VALUES ('2024-01-02 03:04:05'), ('abc')"))
    rows = list(session.execute("SELECT TRY_CAST(s AS TIMESTAMP) IS NULL, TRY_CAST(s AS DATE) FROM txt"))
    assert rows == [(False, datetime.date(2024, 1, 2)), (True, None)]


def test_date_diff_weeks_and_clock_units_as_current_databend(session):
    # current Databend: weeks run Monday to Sunday (day numbers, 1970-01-01 a Thursday); clock
    # units divide the instants truncating toward zero
    types, row = answer(session, "SELECT date_diff(week, to_date('2024-01-07'), to_date('2024-01-08')), "
                                 "date_diff(week, to_date('2024-01-08'), to_date('2024-01-14')), "
                                 "date_diff(day, to_timestamp('2024-01-01 23:00:00'), to_timestamp('2024-01-02 01:00:00')), "
                                 "date_diff(second, to_timestamp('1969-12-31 23:59:59.5'), to_timestamp('1970-01-01 00:00:00.5'))")
    assert row == ("1", "0", "1", "0")
