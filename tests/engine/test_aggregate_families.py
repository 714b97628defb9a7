"""Aggregates of Databend's own test files (query/functions/02_0000_function_aggregate_*.test,
02_0011_function_window_funnel.test, base/03_common/03_0008_select_aggregator_combinator.test),
with the answers those files give: combinators by name, several-argument DISTINCT counts,
window_funnel, retention, histogram, mode, bool_and / bool_or, multi-level and t-digest
quantiles, moving sums, JSON aggregates, moments and their errors."""

import json
import math

import pytest

import engine
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types.render import nested_renderer
from tests.engine.sql_helpers import error_code, q


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE funnel_test (timestamp UInt32, d Date, dt DateTime(0), event UInt32)",
        "INSERT INTO funnel_test VALUES (0, '2021-01-01', '2021-01-01 00:00:00', 1000),"
        " (1, '2021-01-02', '2021-01-01 00:00:01', 1001), (2, '2021-01-03', '2021-01-01 00:00:02', 1002),"
        " (3, '2021-01-04', '2021-01-01 00:00:03', 1003), (4, '2021-01-05', '2021-01-01 00:00:04', 1004),"
        " (5, '2021-01-06', '2021-01-01 00:00:05', 1005), (6, '2021-01-07', '2021-01-01 00:00:06', 1006),"
        " (7, '2021-01-08', '2021-01-01 00:00:07', 1007), (8, '2021-01-09', '2021-01-01 00:00:08', 1008)",
        "CREATE TABLE aggr (k INT, v INT, v2 INT NULL)",
        "INSERT INTO aggr VALUES (1, 10, NULL), (2, 10, 11), (2, 10, 15), (2, 10, 18), (2, 20, 22), (2, 20, 25),"
        " (2, 25, NULL), (2, 30, 35), (2, 30, 40), (2, 30, 50), (2, 30, 51)",
        "CREATE TABLE d (a DECIMAL(10, 2), b STRING, c INT, d VARIANT)",
        "INSERT INTO d VALUES (20, 'abc', NULL, '{\"k\":\"v\"}'), (10, 'de', 100, 'null'),"
        " (4.23, NULL, 200, '\"uvw\"'), (5.99, 'xyz', 300, '[1,2,3]')",
    ]:
        q(s, sql)
    return s


def one(session, sql):
    [(value,)] = q(session, sql)
    return value


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT sum_distinct(number) FROM (SELECT number % 100 AS number FROM numbers(1000))", 4950),
    ("SELECT count_distinct(number) FROM (SELECT number % 100 AS number FROM numbers(1000))", 100),
    ("SELECT avg_distinct(number) FROM (SELECT number % 10 AS number FROM numbers(1000))", 4.5),
    ("SELECT count_if(number, number > 9) FROM numbers(10)", 0),
    ("SELECT count_if(number > 6) FROM numbers(10)", 3),
    ("SELECT max_if(number, number < 5) FROM numbers(10)", 4),
    ("SELECT uniq(number % 7) FROM numbers(100)", 7),
    ("SELECT count(DISTINCT number % 3, number % 5) FROM numbers(100)", 15),
    # a row with a NULL in any argument is not counted
    ("SELECT count(DISTINCT a, b) FROM (VALUES (1, NULL), (2, 2), (2, 2), (NULL, 3)) t(a, b)", 1),
    ("SELECT approx_count_distinct(0.01625)(number % 100) FROM numbers(1000)", 100),
])
def test_combinators_by_name(session, sql, expected):
    assert one(session, sql) == expected


@pytest.mark.parametrize(("sql", "expected"), [
    ("window_funnel(10000)(timestamp, event = 1000, event = 1001, event = 1002, event = 1008)", 4),
    ("window_funnel(2)(timestamp, event = 1003, event = 1004, event = 1005, event = 1006, event = 1007)", 3),
    ("window_funnel(3)(d, event = 1003, event = 1004, event = 1005, event = 1006, event = 1007)", 4),
    ("window_funnel(4000000)(dt, event = 1003, event = 1004, event = 1005, event = 1006, event = 1007)", 5),
    ("window_funnel(1)(timestamp, event = 1000)", 1),
    ("window_funnel(5)(timestamp, event = 2000)", 0),
])
def test_window_funnel(session, sql, expected):
    assert one(session, f"SELECT {sql} FROM funnel_test") == expected


def test_window_funnel_refuses_a_string_timestamp(session):
    assert error_code(session, "SELECT window_funnel(1)(to_string(timestamp), event = 1) FROM funnel_test") == 1010


def test_retention(session):
    rows = q(session, "SELECT retention(number < 5, number = 3, number = 7) FROM numbers(10)")
    assert [list(r[0]) for r in rows] == [[1, 1, 1]]
    assert list(one(session, "SELECT retention(number > 50, number = 3) FROM numbers(10)")) == [0, 0]


def test_histogram(session):
    assert json.loads(one(session, "SELECT histogram(3)(number) FROM numbers(100)")) == [
        {"lower": "0", "upper": "33", "ndv": 34, "count": 34, "pre_sum": 0},
        {"lower": "34", "upper": "67", "ndv": 34, "count": 34, "pre_sum": 34},
        {"lower": "68", "upper": "99", "ndv": 32, "count": 32, "pre_sum": 68}]
    assert one(session, "SELECT histogram(number % 2, 1) FROM numbers(10)") == (
        '[{"lower":"0","upper":"1","ndv":2,"count":10,"pre_sum":0}]')
    assert one(session, "SELECT histogram(b) FROM d") == (
        '[{"lower":"\'abc\'","upper":"\'abc\'","ndv":1,"count":1,"pre_sum":0},'
        '{"lower":"\'de\'","upper":"\'de\'","ndv":1,"count":1,"pre_sum":1},'
        '{"lower":"\'xyz\'","upper":"\'xyz\'","ndv":1,"count":1,"pre_sum":2}]')
    assert error_code(session, "SELECT histogram(number, -1) FROM numbers(3)") == 1010


def test_mode_and_booleans(session):
    assert q(session, "SELECT k, mode(v) FROM aggr GROUP BY k ORDER BY k") == [(1, 10), (2, 30)]
    assert q(session, "SELECT bool_and(t), bool_or(t) FROM (VALUES (true), (false), (NULL)) a(t)") == [(False, True)]
    assert q(session, "SELECT bool_and(t), bool_or(t) FROM (VALUES (NULL)) a(t)") == [(None, None)]


def test_quantiles(session):
    assert list(one(session, "SELECT quantile_cont(0, 0.5, 0.6, 1)(number) FROM numbers(10000)")) == [
        0.0, 4999.5, 5999.4, 9999.0]
    assert list(one(session, "SELECT quantile_disc(0, 0.5, 0.6, 1)(number) FROM numbers(10000)")) == [
        0, 4999, 5999, 9999]
    # Databend's t-digest: 5999.5 where the exact quantile is 5999.4
    assert one(session, "SELECT quantile_tdigest(0.6)(number) FROM numbers(10000)") == 5999.5
    assert one(session, "SELECT median_tdigest(number) FROM numbers(10000)") == 4999.5
    assert list(one(session, "SELECT quantile_tdigest_weighted(0, 0.5, 0.6, 1)(number, 1) FROM numbers(10000)")) == [
        0.0, 4999.5, 5999.5, 9999.0]


def test_moving_sums_and_averages(session):
    sums, averages = q(session, "SELECT group_array_moving_sum(2)(v), group_array_moving_avg(2)(v) FROM aggr")[0]
    assert list(sums) == [10, 20, 20, 20, 30, 40, 45, 55, 60, 60, 60]
    assert list(averages) == [5.0, 10.0, 10.0, 10.0, 15.0, 20.0, 22.5, 27.5, 30.0, 30.0, 30.0]
    assert error_code(session, "SELECT group_array_moving_sum('x')(1)") == 2004


def test_json_aggregates(session):
    assert q(session, "SELECT json_agg(a), json_array_agg(b), json_agg(d) FROM d") == [
        ("[20.00,10.00,4.23,5.99]", '["abc","de","xyz"]', '[{"k":"v"},null,"uvw",[1,2,3]]')]
    assert one(session, "SELECT json_object_agg(b, c) FROM d") == '{"de":100,"xyz":300}'
    assert one(session, "SELECT json_object_agg(b, d) FROM d") == '{"abc":{"k":"v"},"de":null,"xyz":[1,2,3]}'


def test_moments_as_the_current_databend(session):
    k, v, v2 = q(session, "SELECT kurtosis(k), kurtosis(v), kurtosis(v2) FROM aggr")[0]
    assert (k, v, v2) == (10.99999999999836, -1.9614277138467147, -1.4451196915855287)
    assert q(session, "SELECT skewness(k), skewness(v), skewness(v2) FROM aggr")[0] == (
        -3.316624790355393, -0.16344366935199225, 0.3654008511025841)
    [(nan,)] = q(session, "SELECT skewness(if(number > 5, number::double, 'NAN'::Double)) FROM numbers(100)")
    assert math.isnan(nan)
    assert one(session, "SELECT stddev_samp(a) FROM d WHERE b = 'abc'") is None


def test_string_agg_of_other_types(session):
    assert one(session, "SELECT string_agg(c + 1, '|') FROM d") == "101|201|301"
    assert one(session, "SELECT string_agg(c > 150, '|') FROM d") == "false|true|true"


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT abs(c) FILTER (WHERE c > 1) FROM d", 1065),
    ("SELECT sum(DISTINCT c) FILTER (WHERE c > 1) FROM d", 1065),
    ("SELECT rank(42) WITHIN GROUP (ORDER BY c) FROM d", 1065),
])
def test_refusals(session, sql, code):
    assert error_code(session, sql) == code


def test_arg_max_by_variant(session):
    assert q(session, "SELECT arg_max(c, d), arg_min(c, d) FROM d") == [(100, 200)]


def test_bitmap_construct_and_set_aggregates(session):
    assert q(session, "SELECT to_string(bitmap_construct_agg((number % 4)::UNSIGNED)) FROM numbers(10)") == [
        ("0,1,2,3",)]
    assert q(session, "SELECT to_string(bitmap_and_agg(b)), to_string(bitmap_or_agg(b)), to_string(bitmap_xor_agg(b))"
                      " FROM (SELECT to_bitmap('1,2,3') AS b UNION ALL SELECT to_bitmap('2,3,4'))") == [
        ("2,3", "1,2,3,4", "1,4")]
    assert error_code(session, "SELECT bitmap_construct_agg(c) FROM d") == 1010  # not unsigned


def test_numbers_names_its_column(session):
    assert q(session, "SELECT sum(n) FROM numbers(5) t(n)") == [(10,)]
    assert error_code(session, "SELECT * FROM numbers(5) t(a, b)") == 1065


def test_combinators_over_windows(session):
    assert q(session, "SELECT count_if(number > 0) OVER (), sum_distinct(number) OVER (PARTITION BY number % 2)"
                      " FROM numbers(4) ORDER BY number") == [(3, 2), (3, 4), (3, 2), (3, 4)]
    assert error_code(session, "SELECT sum_state(number) OVER () FROM numbers(3)") == 1002


def test_variants_inside_nested_values_render_as_json(session):
    [(values,)] = q(session, "SELECT array_agg(d) FROM d")
    text = nested_renderer(N.array_type(T.SqlType("Variant")))(values)
    assert text == '[{"k":"v"},null,"uvw",[1,2,3]]'  # the current Databend (1.2.453 quoted each)
