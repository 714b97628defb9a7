"""Date and time records of Databend's own sqllogictest files (query/functions/02_0012_*,
base/11_data_type/11_0001_*): the answers current Databend gives, as the wire shows them."""

import pytest

from engine import EngineError
from tests.engine.sql_helpers import wire

UNIT_RECORDS = [
    # units as bare words in LAST_DAY / DATEADD / DATEDIFF (02_0012_function_datetimes.test)
    ("select last_day(to_date('2024-10-22'), week)", ["2024-10-27"]),
    ("select last_day(to_date('2024-02-01'), month)", ["2024-02-29"]),
    ("select last_day(to_date('2024-02-01'), quarter)", ["2024-03-31"]),
    ("select last_day(to_timestamp('2024-02-11 09:38:18.165575'), year)", ["2024-12-31"]),
    ("select dateadd(QUARTER, 1, to_date('2018-01-02'))", ["2018-04-02"]),
    ("SELECT DATEDIFF(YEAR, to_date('2000-01-02'), to_date('2024-01-01'))", ["24"]),
    # further units of EXTRACT and DATE_DIFF
    ("select EXTRACT(EPOCH FROM to_datetime('1969-12-31 23:59:59'))", ["-1.0"]),
    ("SELECT extract(isodow from '2025-04-13'::Date), extract(dow from '2025-04-13'::Date)", ["7", "0"]),
    ("select extract(yearweek from '1992-02-15'::Date), yearweek('1992-02-15'::Date)", ["199207", "199207"]),
    ("select extract(millennium from '1992-02-15'::Date)", ["2"]),
    ("select date_diff(isoyear, '2022-02-01'::Date, '2023-01-01'::Date)", ["0"]),
    ("select date_diff('yearweek', '2022-02-01'::Date, '2023-01-01'::Date)", ["47"]),
    ("select date_diff('dow', '2022-02-01'::Date, '2023-01-01'::Date), "
     "date_diff('doy', '2022-02-01'::Date, '2023-01-01'::Date)", ["334", "334"]),
    ("select date_diff('microsecond', '2022-02-01'::Date, '2023-01-01'::Date)", ["28857600000000"]),
    # DATE_ADD(MONTH, ...) clamps the day to the month's end (ADD_MONTHS too, as the 1.2.453
    # oracle: engine.functions.date_parts.ADD_MONTHS_KEEPS_MONTH_END)
    ("select add_months('2025-04-30', 1), DATE_ADD(month, 1, '2025-04-30')", ["2025-05-30", "2025-05-30"]),
    ("select subtract_months(to_date('2020-03-31'), 1)", ["2020-02-29"]),
    # the functions current Databend adds
    ("select time_slot(to_datetime(1630320462000000))", ["2021-08-30 10:30:00.000000"]),
    ("select to_yyyymmddhh(to_datetime(1630833797000000)), to_yyyymmddhh(to_date(18875))",
     ["2021090509", "2021090500"]),
    ("select timestamp_from_parts(2013, 4, 5, 12, 0, 0, 2000000000)", ["2013-04-05 12:00:02.000000"]),
    ("select timestamp_from_parts(2013, 4, 5, -1, 0, 0)", ["2013-04-04 23:00:00.000000"]),
    ("select timestamp_from_parts(2010, 13, 1, 0, 0, 0)", ["2011-01-01 00:00:00.000000"]),
    ("settings (timezone='Asia/Shanghai') SELECT convert_timezone('America/Los_Angeles', '2024-11-01 11:36:10')",
     ["2024-10-31 20:36:10.000000"]),
]


@pytest.mark.parametrize(("sql", "row"), UNIT_RECORDS)
def test_unit_keywords_and_further_date_functions(session, sql, row):
    assert wire(session, sql) == row


def test_last_day_refuses_other_units(session):
    with pytest.raises(EngineError):
        list(session.execute("select last_day(to_date('2024-10-22'), day)"))


AUTO = "settings(enable_strict_datetime_parser=0, enable_auto_detect_datetime_format=1) "
STRICT_AUTO = "settings(enable_strict_datetime_parser=1, enable_auto_detect_datetime_format=1) "
LENIENT = "settings(enable_strict_datetime_parser=0, enable_auto_detect_datetime_format=0) "

PARSING_RECORDS = [
    # enable_auto_detect_datetime_format (02_0012_function_datetimes_auto_detect.test)
    (AUTO + "select try_to_date('17-DEC-1980'), try_to_date('12/17/1980'), try_to_date('3/05/2023')",
     ["1980-12-17", "1980-12-17", "2023-03-05"]),
    (STRICT_AUTO + "select try_to_date('2027-1-1'), try_to_timestamp('12/17/1980 10:30:00')",
     ["2027-01-01", "1980-12-17 10:30:00.000000"]),
    (AUTO + "select try_to_timestamp('Thu, 21 Dec 2000 16:01:07.123456789 +0200')", ["2000-12-21 14:01:07.123456"]),
    (AUTO + "select try_to_timestamp('Thu, 21 Dec 2000 04:01:07 PM')", ["2000-12-21 16:01:07.000000"]),
    (AUTO + "select try_to_timestamp('Mon Jul 08 18:09:51 +0000 2013')", ["2013-07-08 18:09:51.000000"]),
    # epoch numbers: seconds, milliseconds or microseconds by magnitude; days for a Date
    (AUTO + "select try_to_timestamp('1487654321'), try_to_timestamp('1487654321321'), try_to_timestamp('-86400')",
     ["2017-02-21 05:18:41.000000", "2017-02-21 05:18:41.321000", "1969-12-31 00:00:00.000000"]),
    (AUTO + "select try_to_timestamp('31536000001'), try_to_date('57600'), try_to_date('-86400')",
     ["1971-01-01 00:00:00.001000", "2127-09-15", "1733-06-12"]),
    (AUTO + "select try_to_timestamp_tz('Thu, 21 Dec 2000 16:01:07 +0200')", ["2000-12-21 16:01:07.000000 +0200"]),
    (AUTO + "select parse_json('\"12/17/1980\"')::DATE", ["1980-12-17"]),
    ("settings(enable_strict_datetime_parser=0, enable_auto_detect_datetime_format=1, timezone='Asia/Shanghai') "
     "select try_to_timestamp('Thu, 21 Dec 2000 16:01:07 +0200')", ["2000-12-21 22:01:07.000000"]),
    # off: the ISO reading only
    ("settings(enable_strict_datetime_parser=1, enable_auto_detect_datetime_format=0) "
     "select try_to_date('2027-1-1'), try_to_timestamp('12/17/1980 10:30:00')", [None, None]),
    # enable_strict_datetime_parser = 0: a best-effort reading of written dates
    (LENIENT + "select try_to_timestamp('Dec 17, 1980'), try_to_timestamp('20240305'), try_to_date('17-DEC-1980')",
     ["1980-12-17 00:00:00.000000", "2024-03-05 00:00:00.000000", "1980-12-17"]),
    (LENIENT + "select to_date('2017-5-23 0:00:00'), to_date('2021/10/14'), to_date('20201231')",
     ["2017-05-23", "2021-10-14", "2020-12-31"]),
]


@pytest.mark.parametrize(("sql", "row"), PARSING_RECORDS)
def test_datetime_parsing_settings(session, sql, row):
    assert wire(session, sql) == row


RANGE_RECORDS = [
    # the range is 0001-01-01 to 9999-12-31; years before 1000 are zero-padded
    ("select to_date('0001-01-01'), to_date('0999-12-31')", ["0001-01-01", "0999-12-31"]),
    ("select to_datetime('0999-12-31 23:59:59')", ["0999-12-31 23:59:59.000000"]),
    ("select '0099-05-16T03:25:02.868894+08:00'::TIMESTAMP", ["0099-05-15 19:25:02.868894"]),
    ("select '0000-00-00 00:00:00.868894'::TIMESTAMP", ["1970-01-01 00:00:00.868894"]),
    # ISO text may stop after the T, the hour or a colon
    ("select to_datetime('9999-12-30T'), to_datetime('9999-12-30 22'), to_datetime('9999-12-30 21:59:')",
     ["9999-12-30 00:00:00.000000", "9999-12-30 22:00:00.000000", "9999-12-30 21:59:00.000000"]),
    # arithmetic leaving the range gives the minimum; past 9999-12-30 22:00 UTC is that instant
    ("select to_date('2023-01-01') + 100000000, subtract_months(to_date('0001-01-01'), 1)",
     ["0001-01-01", "0001-01-01"]),
    ("select to_datetime('2023-01-01 00:00:00') - 1000000000000000000, subtract_minutes(to_date('0001-01-01'), 1)",
     ["0001-01-01 00:00:00.000000", "0001-01-01 00:00:00.000000"]),
    ("SELECT add_hours(to_timestamp(710455), 2147483647)", ["0001-01-01 00:00:00.000000"]),
    ("select add_days(to_datetime('9999-12-30 21:59:59'), 1), add_hours(to_date('9999-12-30'), 24)",
     ["9999-12-30 22:00:00.000000", "9999-12-30 22:00:00.000000"]),
]


@pytest.mark.parametrize(("sql", "row"), RANGE_RECORDS)
def test_the_date_range_and_its_clamps(session, sql, row):
    assert wire(session, sql) == row


def test_text_past_the_last_instant_shown_is_refused_with_1046(session):
    with pytest.raises(EngineError) as info:
        list(session.execute("select to_datetime('9999-12-31 23:59:59')"))
    assert info.value.code == 1046


FORMAT_RECORDS = [
    # PostgreSQL patterns in formats (date_format_style 'Oracle', Databend's default); MON only as a word
    ("select to_string('2022-02-02', '精彩的YYYY年，美丽的MMmonth,激动のDDd')", ["精彩的2022年，美丽的02month,激动の02d"]),
    ("select to_string('2024-04-05T00:00:00'::TIMESTAMP, 'mon dd HH12AM:MI:SS, yy')", ["Apr 05 12AM:00:00, 24"]),
    ("select str_to_date('精彩的2022年，美丽的02month,激动の02d', '精彩的YYYY年，美丽的MM month,激动のDDd')", ["2022-02-02"]),
    ("select str_to_timestamp('2022年02月04日，03时58分59秒', 'YYYY年MM月DD日，HH24时MI分SS秒')",
     ["2022-02-04 03:58:59.000000"]),
    ("select date_format('2022-02-04T03:58:59', '%x'), strftime('2022-02-04T03:58:59', '%X')",
     ["2022-02-04", "03:58:59"]),
    # text after what the format reads is ignored (parse_datetime_ignore_remainder)
    ("settings(timezone='Asia/Shanghai') select to_timestamp('2022年02月04日，8时58分59秒', '%Y年%m月%d日，%H')",
     ["2022-02-04 08:00:00.000000"]),
    ("select to_timestamp('2022年02月04日，8时58分59秒,时区：+0900', '%Y年%m月%d日，%H时%M分%S秒,时区：%z')",
     ["2022-02-03 23:58:59.000000"]),
    ("select to_timestamp('2022年02月04日，8时58分59秒', ''), try_to_date('2022-02-02', '%m')", [None, None]),
    ("select to_datetime('1', '%s'), to_timestamp('2024-10-2 03:04','%G-%V-%u %H:%M')",
     ["1970-01-01 00:00:01.000000", "2024-03-05 03:04:00.000000"]),
    # TO_TIMESTAMP(n, scale)
    ("select TO_TIMESTAMP(1, 0), TO_TIMESTAMP(1, 3), TO_TIMESTAMP(-7233803000000-1, 6)",
     ["1970-01-01 00:00:01.000000", "1970-01-01 00:00:00.001000", "1969-10-09 06:36:36.999999"]),
    ("select TRY_TO_TIMESTAMP(1, 0), TRY_TO_TIMESTAMP(1, null)", ["1970-01-01 00:00:01.000000", None]),
    ("select typeof(CURRENT_DATE()), typeof(CURRENT_TIME()), regexp_like(CURRENT_TIME(3), '^[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}$')",
     ["DATE", "VARCHAR", "1"]),
]


@pytest.mark.parametrize(("sql", "row"), FORMAT_RECORDS)
def test_format_strings(session, sql, row):
    assert wire(session, sql) == row


def test_a_format_reading_no_year_is_refused(session):
    with pytest.raises(EngineError) as info:
        list(session.execute("select to_date('2022-02-02', '%m')"))
    assert info.value.code == 1006


def test_an_unknown_time_zone_is_1078(session):
    with pytest.raises(EngineError) as info:
        list(session.execute("set timezone = 'Asia/Test'"))
    assert info.value.code == 1078


VARIANT_RECORDS = [
    # a VARIANT's string read as a date or time; JSON null is NULL (02_0002_function_cast.test)
    ("SELECT parse_json('\"2022-01-01 01:01:01\"')::datetime, parse_json('null')::datetime",
     ["2022-01-01 01:01:01.000000", None]),
    # to_date / to_timestamp of a VARIANT (02_0056_function_semi_structureds_as.test)
    ("select to_date(to_date('2025-01-01')::variant), to_date(parse_json('\"2025-01-01\"'))",
     ["2025-01-01", "2025-01-01"]),
    ("select to_timestamp(to_timestamp('2025-01-01 10:00:00')::variant)", ["2025-01-01 10:00:00.000000"]),
]


@pytest.mark.parametrize(("sql", "row"), VARIANT_RECORDS)
def test_variant_to_dates(session, sql, row):
    assert wire(session, sql) == row


NUMBER_TEMPLATES = [
    # to_char of numbers with PostgreSQL templates (02_0078_function_to_char.test), as the suite's
    # runner compares them: whitespace runs collapsed
    ("to_char(-4567890123456789, '9G999G999G999G999G999')", "-4,567,890,123,456,789"),
    ("to_char(123, '9,999,999,999,999,999.999,999')", "123.000,000"),
    ("to_char(-456, '9999999999999999.999PR')", "<456.000>"),
    ("to_char(4567890123456789, '9999999999999999.999PR')", "4567890123456789.000"),
    ("to_char(-123, '9999999999999999S'), to_char(-456, 'S9999999999999999')", "123- -456"),
    ("to_char(456, 'FMSG9999999999999999'), to_char(456, 'S0999999999999999')", "+456 +0000000000000456"),
    ("to_char(456, 'FM9999999999999999.999'), to_char(456, 'FM9999999999999999.000')", "456. 456.000"),
    ("to_char(-4567890123456789, '999999SG9999999999')", "456789-0123456789"),
    ("to_char(456, '99999 \"text\" 9999 \"9999\" 999 \"\\\\\"quoted\\\\\"\" 9999')", 'text 9999 "quoted" 456'),
    ("to_char(123, '0099')", "0123"),
]


@pytest.mark.parametrize(("expr", "shown"), NUMBER_TEMPLATES)
def test_to_char_of_numbers(session, expr, shown):
    assert " ".join(" ".join(wire(session, f"SELECT {expr}")).split()) == shown
