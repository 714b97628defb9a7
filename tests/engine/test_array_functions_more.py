"""The array functions of Databend's current test files (query/functions/02_0061_function_array.test)
and the map editing functions (02_0074_function_map.test): set operations as multisets,
array_remove / array_reverse / array_compact / arrays_zip, the array_<aggregate> family,
range with a step, map_delete / map_pick / map_insert."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_nested_values import error, wire


@pytest.fixture
def s():
    return engine.Database().session()


def rows(session, sql):
    return wire(session, sql)[2]


def test_set_operations_count_duplicates_and_nulls(s):
    assert rows(s, "SELECT array_intersection([1, 2, 3, 3, 3, null], [1, 2, 3, null]), "
                   "array_except([1, 2, 3, 3, 3, null, null], [null, 1, 2, 3]), "
                   "array_overlap([NULL, 1, 2], [NULL]), array_overlap([1, 2, 3], [4, 5, 6])") == [
        ("[1,2,3,NULL]", "[3,3,NULL]", "1", "0")]
    # the VARIANT versions are still answered
    assert rows(s, "SELECT array_intersection(parse_json('[1,2]'), parse_json('[2]'))") == [("[2]",)]


def test_remove_reverse_compact_zip(s):
    assert rows(s, "SELECT array_remove(['a', 'b', 'a', null], 'a'), array_remove([NULL, 1, 2, NULL], NULL), "
                   "array_reverse(['a', 'b', 'c', null]), array_compact([NULL, NULL, NULL])") == [
        ('["b",NULL]', "[1,2]", '[NULL,"c","b","a"]', "[]")]
    assert rows(s, "SELECT arrays_zip([1,2,3], ['a','b','c'], 10), arrays_zip(1, 'a', null)") == [
        ('[(1,"a",10),(2,"b",10),(3,"c",10)]', '[(1,"a",NULL)]')]
    assert error(s, "SELECT arrays_zip([1,2,3], ['a','b'], 10)")[0] == 1006


def test_array_aggregates(s):
    s.execute("CREATE TABLE t (col1 Array(Int Null) NOT NULL)")
    s.execute("INSERT INTO t VALUES ([1,2,3,3])")
    assert rows(s, "SELECT array_any(col1), array_stddev_samp(col1), array_std(col1), array_median(col1), "
                   "array_kurtosis(col1), array_skewness(col1), array_approx_count_distinct(col1) FROM t") == [
        ("1", "0.9574271077563381", "0.82915619758885", "2.5", "-1.2892561983471085", "-0.8545630383279711", "3")]
    assert rows(s, "SELECT array_aggregate(col1, 'max'), array_aggregate(col1, 'min'), "
                   "array_aggregate(col1, 'sum') FROM t") == [("3", "1", "9")]


def test_range_step_sort_order_append_to_null(s):
    assert rows(s, "SELECT range(10, 20, 2), range(-1, -20, -3)") == [
        ("[10,12,14,16,18]", "[-1,-4,-7,-10,-13,-16,-19]")]
    assert error(s, "SELECT array_sort([1, 2], 'asc', 'nulls fir')")[0] == 1065
    assert rows(s, "SELECT array_prepend(0, CAST(NULL AS Nullable(Array(Int)))), "
                   "array_append(CAST(NULL AS Nullable(Array(String))), 'z'), array_reduce([], (x, y) -> x + y)") == [
        ("[0]", '["z"]', "[]")]


def test_map_delete_pick_insert(s):
    assert rows(s, "SELECT MAP_DELETE({'k1': 'v1', 'k2': 'v2', 'k3': 'v3', 'k4': 'v4'}, ['k3', 'k2', 'k10']), "
                   "map_delete({'k1': 'v1', 'k2': 'v2'}, 'k1', 'k1'), MAP_DELETE({}, 'k1')") == [
        ('{"k1":"v1","k4":"v4"}', '{"k2":"v2"}', "{}")]
    assert rows(s, "SELECT map_pick({'k1': 'v1', 'k2': 'v2', 'k3': null}, 'k1', 'k3'), map_pick({}, 1, 2)") == [
        ('{"k1":"v1","k3":NULL}', "{}")]
    assert rows(s, "SELECT map_insert({'k1': 'v1', 'k2': 'v2'}, 'k3', NULL), "
                   "map_insert({'k1': 'v1', 'k2': 'v2'}, 'k2', 'v3', true), map_insert({}, 'k1', 'v1')") == [
        ('{"k1":"v1","k2":"v2","k3":NULL}', '{"k1":"v1","k2":"v3"}', '{"k1":"v1"}')]
    assert error(s, "SELECT map_insert({'k1': 'v1', 'k2': 'v2'}, 'k2', 'v3', false)")[0] == 1006
    s.execute("CREATE TABLE mi(col_int Map(String, Int Null) Null)")
    s.execute("INSERT INTO mi VALUES ({'d':40}), (NULL)")
    assert rows(s, "SELECT map_insert(col_int, 'c', 100, false) FROM mi") == [('{"d":40,"c":100}',), ('{"c":100}',)]


def test_unnest_spreads_nested_arrays_to_their_leaves(s):
    assert rows(s, "SELECT unnest([[1, 2, null], null, [3, null, 4]])") == [
        ("1",), ("2",), ("NULL",), ("3",), ("NULL",), ("4",)]
    assert len(rows(s, "SELECT unnest([[[1,2], [3,4]], [[5,6], [7,8,9]]])")) == 9
    assert len(rows(s, "SELECT * FROM unnest([[1,2], [3,4,5]])")) == 5
    assert rows(s, "SELECT unnest([null])") == [] and rows(s, "SELECT unnest([[]])") == []
    s.execute("CREATE TABLE t (a array(array(int)))")
    s.execute("INSERT INTO t VALUES ([[1,2], [3,4]]), ([[5,6], [7,8,9]])")
    assert [r[0] for r in rows(s, "SELECT 1 + unnest(a) FROM t")] == [str(i) for i in range(2, 11)]


def test_unnest_of_variant_and_refusals(s):
    assert rows(s, "SELECT unnest(parse_json('[1,2,\"a\",[3,4]]'))") == [("1",), ("2",), ('"a"',), ("[3,4]",)]
    assert rows(s, "SELECT unnest(parse_json('\"a\"'))") == []
    assert error(s, "SELECT unnest(try_cast('hello' as varchar))")[0] == 1065
    assert error(s, "SELECT * FROM numbers(10) WHERE unnest([1,2,3])::BOOLEAN")[0] == 1065
    assert error(s, "SELECT * FROM numbers(10) HAVING unnest([1,2,3])::BOOLEAN")[0] == 1065


def test_generate_series_of_timestamps_steps_in_microseconds(s):
    assert rows(s, "SELECT * FROM generate_series('2021-01-03'::timestamp, '2021-01-01'::timestamp, -86400000000)") == [
        ("2021-01-03 00:00:00.000000",), ("2021-01-02 00:00:00.000000",), ("2021-01-01 00:00:00.000000",)]
    assert rows(s, "SELECT * FROM generate_series('1970-01-01 00:00'::timestamp, to_timestamp(2), 2000000)") == [
        ("1970-01-01 00:00:00.000000",), ("1970-01-01 00:00:02.000000",)]


def test_variant_elements_show_their_json_text_and_constructors(s):
    assert rows(s, "SELECT [parse_json('1'), parse_json('[1,2]'), parse_json('\"a\"'), NULL]") == [
        ('[1,[1,2],"a",NULL]',)]
    assert rows(s, "SELECT array(1), tuple([1,2,3], ['a','b','c'], 10), ignore(1, 'a')") == [
        ("[1]", '([1,2,3],["a","b","c"],10)', "0")]


def test_aggregates_of_set_returning_calls_read_the_spread_rows(s):
    assert rows(s, "SELECT max(unnest([11,12])), count(regexp_split_to_table(',apple,,banana,', ','))") == [
        ("12", "5")]
    assert rows(s, "SELECT number % 2 k, sum(unnest([number, 10])) FROM numbers(4) GROUP BY k ORDER BY k") == [
        ("0", "22"), ("1", "24")]


def test_create_table_as_values(s):
    list(s.execute("CREATE TABLE t1 AS VALUES (1), (2), (3)"))
    assert rows(s, "SELECT * FROM t1 WHERE t1.col0 IN (1, 1, 222, 2) ORDER BY col0") == [("1",), ("2",)]


def test_lateral_generate_series_and_range(s):
    assert rows(s, "SELECT t.start, s.generate_series FROM (SELECT 1 AS start, 3 AS finish) t, "
                   "LATERAL generate_series(t.start, t.finish) s") == [("1", "1"), ("1", "2"), ("1", "3")]
    assert rows(s, "SELECT s.generate_series FROM (SELECT 5 AS start, 1 AS finish) t, "
                   "LATERAL generate_series(t.start, t.finish, -2) s") == [("5",), ("3",), ("1",)]
    assert rows(s, "SELECT s.range FROM (SELECT 1 AS a) t, LATERAL range(t.a, 7, 3) s") == [("1",), ("4",)]
