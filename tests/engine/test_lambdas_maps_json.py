"""Two-parameter lambdas over maps (map_filter, map_transform_keys, map_transform_values) and the
json_* lambda functions over VARIANT values, with the answers of Databend's own test files
(query/functions/02_0074_function_map.test, 02_0061_function_array.test)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_nested_values import error, wire


@pytest.fixture
def s():
    return engine.Database().session()


def rows(session, sql):
    return wire(session, sql)[2]


def test_map_filter_with_two_parameters(s):
    assert rows(s, "SELECT map_filter({1:0,2:2,3:-1}, (k, v) -> k > v)") == [("{1:0,3:-1}",)]
    assert rows(s, "SELECT map_filter({1:1,2:null,3:3}, (k, v) -> v IS NOT NULL)") == [("{1:1,3:3}",)]
    assert rows(s, "WITH t AS (SELECT 2 AS threshold) "
                   "SELECT map_filter({1:10,2:20,3:30}, (k, v) -> k = threshold) FROM t") == [("{2:20}",)]
    assert rows(s, "SELECT map_filter(CAST(NULL AS Nullable(Map(Int64, Int64))), (k, v) -> k > v)") == [("NULL",)]
    assert error(s, "SELECT map_filter({1:1,2:null,3:3}, (k, v) -> k + 1)")[0] == 1065
    assert error(s, "SELECT array_filter([1, 2], x -> x + 1)")[0] == 1065


def test_map_transform_keys_and_values(s):
    assert rows(s, "SELECT map_transform_keys({11:111,22:222,33:333}, (k, v) -> k + v + 1)") == [
        ("{123:111,245:222,367:333}",)]
    assert rows(s, "SELECT map_transform_keys({'a':1,'b':2,'c':3}, (k, v) -> v + 1)") == [("{2:1,3:2,4:3}",)]
    assert error(s, "SELECT map_transform_keys({1:10,2:20}, (k, v) -> 1)")[0] == 1006  # duplicate keys
    assert rows(s, "SELECT map_transform_values({1:'a',2:'b',3:'c'}, (k, v) -> k + 1)") == [("{1:2,2:3,3:4}",)]
    assert rows(s, "SELECT map_transform_values({}, (k, v) -> k + v + 1)") == [("{}",)]
    s.execute("CREATE TABLE ml(col1 Map(Int, Int), col2 Map(String, String))")
    s.execute("INSERT INTO ml VALUES ({1:1},{'k1':'v1','k2':'v2'}), ({2:1,1:2},{'data':'bend','space':'time'})")
    assert rows(s, "SELECT map_transform_values(col2, (k, v) -> CONCAT(k, v)) FROM ml") == [
        ('{"k1":"k1v1","k2":"k2v2"}',), ('{"data":"databend","space":"spacetime"}',)]
    assert error(s, "SELECT map_transform_keys(col1, (k, v) -> k + v) FROM ml")[0] == 1006


def test_json_lambdas(s):
    assert rows(s, "SELECT json_array_transform(['data', 'a', 'b']::Variant, data -> CONCAT(data::String, 'bend'))") \
        == [('["databend","abend","bbend"]',)]
    assert rows(s, "SELECT array_reduce([1,2,3,4]::Variant, (x, y) -> x::Int + y::Int), "
                   "array_transform(parse_json('\"aa\"'), d -> CONCAT(d::String, 'bend'))") == [("10", "[]")]
    assert rows(s, "SELECT json_array_transform(parse_json('[[1,2,3],[4,5,6]]'), "
                   "arr -> json_array_transform(arr, x -> x::Int + 10))") == [("[[11,12,13],[14,15,16]]",)]
    assert rows(s, "SELECT json_map_transform_keys({'data':'bend','a':'b'}::Variant, (k, v) -> CONCAT(k, v))") == [
        ('{"ab":"b","databend":"bend"}',)]
    assert rows(s, "SELECT json_map_filter({'data':'bend','a':'b'}::Variant, (k, v) -> k = 'data'), "
                   "json_array_filter(parse_json('[1,2,3]'), x -> x::Int > 1)") == [('{"data":"bend"}', "[2,3]")]
