"""json_path_transform(json, path, v -> body), with the answers of Databend's own sqllogictest
file query/functions/02_0085_function_json_path_transform.test."""

import pytest

import engine
from engine.core.errors import EngineError


@pytest.fixture
def s():
    return engine.Database().session()


def rows(s, sql):
    return list(s.execute(sql))


def error_code(s, sql):
    with pytest.raises(EngineError) as info:
        rows(s, sql)
    return info.value.code


@pytest.mark.parametrize("sql, expected", [
    ("SELECT json_path_transform(parse_json('{\"a\":1,\"b\":\"keep\"}'), '$.a', v -> to_variant(100))",
     '{"a":100,"b":"keep"}'),
    ("SELECT json_path_transform(parse_json('[{\"x\":1},{\"x\":2},{\"y\":3}]'), '$[*].x', v -> to_variant(v::Int64 * 10))",
     '[{"x":10},{"x":20},{"y":3}]'),
    ("SELECT json_path_transform(parse_json('[{\"key\":\"body\",\"value\":\"long text\"},{\"key\":\"other\","
     "\"value\":\"untouched\"}]'), '$[*] ? (@.key == \"body\").value', v -> to_variant(left(v::String, 4)))",
     '[{"key":"body","value":"long"},{"key":"other","value":"untouched"}]'),
    ("SELECT json_path_transform(parse_json('{\"a\":1}'), '$', v -> to_variant('gone'))", '"gone"'),
    ("SELECT json_path_transform(parse_json('{\"a\":{\"b\":1},\"c\":2}'), '$.**{2}', v -> to_variant(10))",
     '{"a":{"b":10},"c":2}'),
    ("SELECT json_path_transform(parse_json('{\"a\":1}'), '$.missing', v -> to_variant(0))", '{"a":1}'),
    ("SELECT json_path_transform(parse_json('{\"a\":1}'), '$.a', v -> NULL)", '{"a":null}'),
    ("SELECT json_path_transform(parse_json('{\"a\":null}'), '$.a', v -> to_variant(v IS NULL))", '{"a":false}'),
    ("SELECT json_path_transform(CAST(NULL AS VARIANT), '$$bad path', v -> to_variant(0))", None),
])
def test_transform(s, sql, expected):
    assert rows(s, sql) == [(expected,)]


def test_outer_columns_and_nested_lambdas(s):
    rows(s, "CREATE TABLE events(id INT, doc VARIANT NULL, max_len INT)")
    rows(s, "INSERT INTO events VALUES (1, parse_json('{\"a\":[{\"k\":\"body\",\"s\":\"abcdefgh\"}]}'), 4), (2, NULL, 1)")
    assert rows(s, "SELECT id, json_path_transform(doc, '$.a[*] ? (@.k == \"body\").s', "
                   "v -> to_variant(left(v::String, max_len))) FROM events ORDER BY id") == [
        (1, '{"a":[{"k":"body","s":"abcd"}]}'), (2, None)]
    assert rows(s, "SELECT json_path_transform(parse_json('{\"c\":[{\"t\":\"text\"}]}'), '$.c', "
                   "c -> json_path_transform(c, '$[*].t', t -> to_variant(upper(t::String))))") == [
        ('{"c":[{"t":"TEXT"}]}',)]


@pytest.mark.parametrize("sql, code", [
    ("SELECT json_path_transform(parse_json('{\"a\":1}'), '$$bad path', v -> to_variant(0))", 1006),
    ("SELECT json_path_transform(parse_json('{\"a\":{\"b\":1}}'), '$.**', v -> to_variant(0))", 1006),
    ("SELECT json_path_transform(parse_json('[1,2,3]'), '$[0, 0]', v -> to_variant(0))", 1006),
    ("SELECT json_path_transform(parse_json('{\"a\":1}'), v -> to_variant(0))", 1065),
    ("SELECT json_path_transform('not variant', NULL, v -> to_variant(0))", 1065),
    ("SELECT json_path_transform(NULL, '$.a', (a, b) -> to_variant(0))", 1065),
    ("SELECT json_path_transform(NULL, '$.a', v -> missing_lambda_function(v))", 1008),
])
def test_errors(s, sql, code):
    assert error_code(s, sql) == code


def test_json_array_lambdas(s):
    """json_array_transform / json_array_filter (query/functions/02_0061_function_array.test)."""
    assert rows(s, "SELECT json_array_transform(['data', 'a', 'b']::Variant, data -> CONCAT(data::String, 'bend'))") == [
        ('["databend","abend","bbend"]',)]
    assert rows(s, "SELECT json_array_transform(parse_json('\"aa\"'), data -> CONCAT(data::String, 'bend'))") == [("[]",)]
    assert rows(s, "SELECT json_array_transform(parse_json('[[1,2,3],[4,5,6]]'), "
                   "arr -> json_array_transform(arr, x -> x::Int + 10))") == [("[[11,12,13],[14,15,16]]",)]
    rows(s, "CREATE TABLE t3(col1 Array(Int) NULL, col2 Int NULL)")
    rows(s, "INSERT INTO t3 VALUES ([1,2,3], 2), ([4,5], NULL), (NULL, 4)")
    assert rows(s, "SELECT json_array_transform(try_cast(col1 AS Variant), a -> a::Int + col2), "
                   "json_array_filter(try_cast(col1 AS Variant), a -> a::Int = col2) FROM t3") == [
        ("[3,4,5]", "[2]"), ("[null,null]", "[]"), (None, None)]
