"""Functions Databend's own sqllogictest files test and the engine lacked (bench.dbsuite), each
with the answer those files give (current Databend): regexp_extract / regexp_extract_all /
regexp_split_to_array / regexp_split_to_table, glob, jaro_winkler, conv, isnan / isinf, trunc
of numbers and dates, map_cat, try_to_timestamp / try_to_date, date_between, to_char of dates."""

from __future__ import annotations

import pytest

import engine
from engine.core.limits import Limits


@pytest.fixture(scope="module")
def s():
    return engine.Database().session()


def wire(s, sql):
    """The rows as wire strings (NULL as 'NULL')."""
    result = s.execute(sql)
    render = result.renderer(True)
    return [row for batch in result.batches() for row in render(batch)]


def value(s, sql):
    rows = list(s.execute(sql))
    assert len(rows) == 1 and len(rows[0]) == 1
    return rows[0][0]


def error_code(s, sql):
    with pytest.raises(engine.EngineError) as info:
        list(s.execute(sql))
    return info.value.code


# (SQL, the suite's answer as the wire writes it)
WIRE = [
    # 02_0081_function_string_regexp_extract.test
    ("select regexp_extract('foo-bar-baz', '([a-z]+)-([a-z]+)-([a-z]+)', 0)", "foo-bar-baz"),
    ("select regexp_extract('foo-bar-baz', '([a-z]+)-([a-z]+)-([a-z]+)', 2)", "bar"),
    ("select regexp_extract('foo-bar-baz', '([a-z]+)-([a-z]+)-([a-z]+)', 4)", ""),
    ("select regexp_extract('foo-bar-baz', '([0-9]+)', 1) is null", "0"),
    ("select regexp_extract('', '([a-z]*)', 0)", ""),
    ("select regexp_extract('2023-04-15', '(\\d{4})-(\\d{2})-(\\d{2})', 1)", "2023"),
    ("select regexp_extract('color: #FF0000', 'color: #(?P<red>[0-9A-F]{2})(?P<green>[0-9A-F]{2})', 1)", "FF"),
    ("select regexp_extract('foo', 'o')", "o"),
    ("select regexp_extract(NULL, 'o')", "NULL"),
    # 02_0047_function_string_regexp_like.test
    ("SELECT GLOB('abc', 'a?c')", "1"), ("SELECT GLOB('abc', 'a*')", "1"), ("SELECT GLOB('abc', 'a*d')", "0"),
    ("SELECT GLOB('abc', '*bc')", "1"), ("SELECT GLOB('abc', 'abcd')", "0"), ("SELECT GLOB('a.c', 'a.c')", "1"),
    ("SELECT GLOB('abc', 'a.c')", "0"), ("SELECT GLOB('abc', 'a[a-c]c')", "1"), ("SELECT GLOB('abc', 'a[^b]c')", "0"),
    ("SELECT GLOB('ABC', 'a*')", "0"),
    # 02_0079_function_strings_jaro_winkler.test
    ("SELECT jaro_winkler(NULL, 'hello')", "NULL"), ("SELECT jaro_winkler('', '')", "1.0"),
    ("SELECT jaro_winkler('hello', 'hello')", "1.0"), ("SELECT jaro_winkler('hello', 'helo')", "0.9533333333333333"),
    ("SELECT jaro_winkler('martha', 'marhta')", "0.9611111111111111"),
    ("SELECT jaro_winkler('你好', '你好啊')", "0.9333333333333333"),
    ("SELECT jaro_winkler('🦀hello', '🦀helo')", "0.9777777777777777"),
    ("SELECT jaro_winkler('dixon', 'dicksonx')", "0.8133333333333332"),
    ("SELECT jaro_winkler('duane', 'dwayne')", "0.8400000000000001"),
    ("select jaro_winkler('asdf', 'as x  c f')", "0.6592592592592592"),
    ("SELECT jaro_winkler('', 'hello')", "0.0"),
    # 02_0084_function_strings_conv.test
    ("select conv('a', 16, 10)", "10"), ("select conv('6E', 18, 8)", "172"), ("select conv('zz', 36, 10)", "1295"),
    ("select conv('11', 2, 36)", "3"), ("select conv(10, 10, 2)", "1010"), ("select conv(10, 16, 10)", "16"),
    ("select conv(15, 10, 16)", "F"), ("select conv(-128, 10, 8)", "1777777777777777777600"),
    ("select conv(-17, 10, -18)", "-H"), ("select conv('FFFFFFFFFFFFFFFF', 16, -10)", "-1"),
    ("select conv('11', -2, 10)", "3"), ("select conv('11', 1, 10)", "NULL"),
    # 02_0014_function_maths.test
    ("SELECT isnan('nan'::float)", "1"), ("SELECT isnan('inf'::float)", "0"), ("SELECT isnan(NULL::float)", "NULL"),
    ("SELECT isnan(0.0::double)", "0"), ("SELECT isinf('-inf'::float)", "1"), ("SELECT isinf('nan'::float)", "0"),
    ("SELECT isinf(1.23::float)", "0"), ("SELECT isinf('inf'::double)", "1"),
    ("SELECT TRUNC(10.6)", "10"), ("SELECT TRUNC(1.234, 2)", "1.23"), ("SELECT TRUNC(150.45,-2)", "100"),
    # 02_0012_function_datetimes.test
    ("select trunc('2025-02-05 00:01:00', 'mm')", "2025-02-01"),
    ("select trunc('2025-02-05 00:01:00', week)", "2025-02-03"),
    ("select date_trunc('week', '2025-02-05 00:01:00')", "2025-02-03"),
    ("SELECT TRUNC('2025-06-11'::Date, 'IW')", "2025-06-09"), ("SELECT TRUNC('2023-12-31'::Date, 'IW')", "2023-12-25"),
    ("select TRUNC('2025-06-09 10:11:12'::Datetime, 'HH24')", "2025-06-09 10:00:00.000000"),
    ("select trunc(to_date('2022-07-07'),'Y')", "2022-01-01"), ("select trunc(to_date('2022-07-07'),'Q')", "2022-07-01"),
    ("select try_to_timestamp('10000-09-09 01:46:39', '%Y-%m-%d %H:%M:%S')", "NULL"),
    ("select try_to_timestamp('2026-01-01 00:00:61')", "NULL"), ("select try_to_timestamp('2026-01-01 25:00:00')", "NULL"),
    ("select try_to_timestamp('2026-01-01 00:00:01')", "2026-01-01 00:00:01.000000"),
    # date_between: whole units (02_0012_function_datetimes.test)
    *((f"select date_between('{unit}', '2019-02-28'::Date, '2020-02-28'::Date), "
       f"date_between('{unit}', '2019-03-01'::Date, '2020-02-28'::Date), "
       f"date_between('{unit}', '2019-02-28 22:00:01'::Timestamp, '2020-02-28 22:00:00'::Timestamp), "
       f"date_between('{unit}', '2020-02-28 22:00:01'::Timestamp, '2019-02-28 22:00:01'::Timestamp)", answer)
      for unit, answer in (("year", "1 0 0 -1"), ("isoyear", "1 0 0 -1"), ("month", "12 11 11 -12"),
                           ("MILLENNIUM", "0 0 0 0"), ("quarter", "4 3 3 -4"), ("yearweek", "52 52 52 -52"),
                           ("week", "52 52 52 -52"), ("day", "365 364 364 -365"),
                           ("hour", "8760 8736 8759 -8760"), ("minute", "525600 524160 525599 -525600"),
                           ("second", "31536000 31449600 31535999 -31536000"),
                           ("microsecond", "31536000000000 31449600000000 31535999000000 -31536000000000"))),
    ("select try_to_date('2024-02-30')", "NULL"), ("select try_to_date('2024-02-29')", "2024-02-29"),
]


@pytest.mark.parametrize(("sql", "expected"), WIRE)
def test_the_suites_answers(s, sql, expected):
    assert wire(s, sql) == [tuple(expected.split(" ")) if "date_between" in sql else (expected,)]


def test_to_char_of_dates_takes_postgres_templates():
    s = engine.Database().session()
    assert wire(s, "select to_char('2024-04-05'::DATE, 'mon dd, yyyy')") == [("Apr 05, 2024",)]
    assert wire(s, "select to_char('2024-04-05T00:00:00'::TIMESTAMP, 'mon dd HH12AM:MI:SS, yy')") == [
        ("Apr 05 12AM:00:00, 24",)]
    list(s.execute("set timezone = 'Asia/Shanghai'"))
    assert wire(s, "select to_char('2024-04-05'::DATE, 'mon dd, yyyy TZH')") == [("Apr 05, 2024 +08",)]
    assert wire(s, "select to_char('2024-04-05'::DATE, '100% yyyy')") == [("100% 2024",)]
    # a number takes the numeric templates (engine.functions.number_to_char)
    assert wire(s, "select to_char(1, '999')") == [("   1",)]


def test_date_between_refuses_an_unknown_unit(s):
    assert error_code(s, "select date_between('fortnight', '2019-02-28'::Date, '2020-02-28'::Date)") == 1006


def test_try_to_timestamp_of_a_column_is_null_where_it_fails(s):
    rows = wire(s, "SELECT try_to_timestamp(x) FROM (SELECT '2026-01-01 00:00:61' AS x UNION ALL "
                   "SELECT '2026-01-01 10:00:00') ORDER BY 1")
    assert rows == [("2026-01-01 10:00:00.000000",), ("NULL",)]


def test_trunc_with_a_column_named_like_a_unit_abbreviation_is_numeric(s):
    # only whole unit names are read as keywords: TRUNC(x, d) truncates to d digits
    sql = "SELECT {}(x, d) FROM (SELECT 1.256 AS x, 1 AS d)"
    assert wire(s, sql.format("trunc")) == wire(s, sql.format("truncate"))


def test_regexp_extract_all_and_split_to_array_build_arrays(s):
    assert value(s, "select regexp_extract_all('A1 B2 C3', '([A-Z])(\\d)', 2)") == ("1", "2", "3")
    assert value(s, "select regexp_extract_all('img.jpg readme', '(\\w+)(?:\\.(\\w+))?', 2)") == ("jpg", "")
    assert value(s, "select regexp_extract_all('', '(\\d+)', 0)") == ()
    assert value(s, "select regexp_split_to_array(',apple,,banana,', ',')") == ("", "apple", "", "banana", "")
    assert value(s, "SELECT regexp_split_to_array('the quick brown fox', '\\\\s*')") == tuple("thequickbrownfox")
    assert value(s, "SELECT regexp_split_to_array('helloTworld', 't', 'i')") == ("hello", "world")
    assert value(s, "SELECT regexp_split_to_array('helloTworld', 't')") == ("helloTworld",)


def test_regexp_extract_with_names_is_a_map(s):
    got = value(s, "select regexp_extract('2023-04-15', '(\\d+)-(\\d+)-(\\d+)', ['y', 'm'])")
    assert tuple(got) == (("y", "2023"), ("m", "04"))
    got = value(s, "SELECT regexp_extract('no-match-here', '(\\d+)-(\\d+)-(\\d+)', ['x', 'y', 'z'])")
    assert tuple(got) == (("x", ""), ("y", ""), ("z", ""))


def test_regexp_split_to_table_spreads_rows(s):
    assert wire(s, "SELECT regexp_split_to_table('hello world', '\\\\s+')") == [("hello",), ("world",)]
    assert wire(s, "SELECT regexp_split_to_table('a,b', ','), unnest([1, 2, 3])") == [
        ("a", "1"), ("b", "2"), ("NULL", "3")]


@pytest.mark.parametrize("sql", [
    "select regexp_extract('foo-bar-baz', '([a-z]+)-([a-z]+)-([a-z]+)', 10)",
    "select regexp_extract_all('A1 B2 C3', '([A-Z])(\\d)', 3)",
    "select regexp_extract('2023-04-15', '(\\d+)-(\\d+)', ['y', 'm', 'd'])",
    "select regexp_extract('a', '(')",
])
def test_regexp_extract_errors(s, sql):
    assert error_code(s, sql) == 1006


def test_regex_arrays_are_bounded_by_array_elements():
    s = engine.Database(limits=Limits(array_elements=3)).session()
    assert value(s, "select regexp_extract_all('a a a', 'a')") == ("a", "a", "a")
    assert error_code(s, "select regexp_extract_all('a a a a', 'a')") == 1006
    assert value(s, "select regexp_split_to_array('a,b,c', ',')") == ("a", "b", "c")
    assert error_code(s, "select regexp_split_to_array('a,b,c,d', ',')") == 1006


def test_patterns_are_bounded_by_regex_pattern_chars():
    s = engine.Database(limits=Limits(regex_pattern_chars=5)).session()
    assert value(s, "select glob('abcde', 'abcde')") is True
    assert error_code(s, "select glob('abcdef', 'abcdef')") == 1006
    assert error_code(s, "select regexp_extract('aaaaaa', 'aaaaaa')") == 1006


def test_jaro_winkler_is_linear_on_long_text(s):
    # one pointer per character: 200,000 characters compare in one pass, not 10^10 steps
    assert value(s, "select jaro_winkler(repeat('ab', 100000), repeat('ba', 100000))") == pytest.approx(2.5 / 3)


def test_map_cat(s):
    assert wire(s, "SELECT MAP_CAT({}, {})") == [("{}",)]
    assert value(s, "SELECT MAP_CAT({}, {'k1': 'v1'})") == (("k1", "v1"),)
    assert value(s, "SELECT MAP_CAT({'k1': 'v1', 'k2': 'v2'}, {'k1': 'abc'})") == (("k1", "abc"), ("k2", "v2"))
    assert value(s, "SELECT MAP_CAT({'k1': 'v1', 'k2': NULL}, {'k2': 'v2', 'k3': NULL})") == (
        ("k1", "v1"), ("k2", "v2"), ("k3", None))
    assert error_code(s, "SELECT MAP_CAT({1: 2}, 3)") == 1065


def test_distinct_combinators_and_count_if_with_a_value():
    # base/03_common/03_0008_select_aggregator_combinator.test
    s = engine.Database().session()
    sub = "FROM (SELECT number % 100 AS number FROM numbers(1000))"
    assert list(s.execute(f"SELECT sum_distinct(number), count_distinct(number), avg_distinct(number) {sub}")) == [
        (4950, 100, 49.5)]
    assert list(s.execute("SELECT count_if(number, number > 9), count_if(number > 9) FROM numbers(20)")) == [(10, 10)]
    assert list(s.execute("SELECT count_if(x, x > 0) FROM (SELECT NULL::INT AS x UNION ALL SELECT 1)")) == [(1,)]
