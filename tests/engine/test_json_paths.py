"""JSON path filters, predicates, recursive descent and arithmetic (json_path_query*,
json_path_exists / @?, json_path_match / @@), with the answers of Databend's own sqllogictest
files (query/functions/02_0051 and 02_0065)."""

import pytest

import engine
from engine.core.errors import EngineError


@pytest.fixture
def s():
    return engine.Database().session()


def one(s, sql):
    return list(s.execute(sql))[0][0]


def column(s, sql):
    return [r[0] for r in s.execute(sql)]


def test_filters_select_what_matches(s):
    arr = "parse_json('[1,2,3,[\"a\",\"b\",\"c\"]]')"
    assert column(s, f"SELECT json_path_query({arr}, '$[*]?(@ > 1 && @ <= 3)')") == ["2", "3"]
    assert column(s, f"SELECT json_path_query({arr}, '$[3][*]?(@ starts with \"a\")')") == ['"a"']
    obj = "parse_json('{\"a\":1,\"b\":{\"c\":2}}')"
    assert one(s, f"SELECT json_path_query_array({obj}, '$.b?(@.c == 2)')") == '[{"c":2}]'
    assert one(s, f"SELECT json_path_query_array({obj}, '$.b?(@.c > 2)')") == "[]"
    assert one(s, f"SELECT json_path_query_first({obj}, '$.b?(@.c > 2)')") is None


def test_exists_with_filters(s):
    assert one(s, "SELECT json_path_exists(parse_json('{\"a\": 1, \"b\": 2}'), '$.a ? (@ == 1)')") is True
    assert one(s, "SELECT parse_json('{\"a\": 1, \"b\": 2}') @? '$.a ? (@ > 1)'") is False
    assert one(s, "SELECT parse_json('{\"a\": 1, \"b\": [1,2,3]}') @? '$.b[1 to last] ? (@ >=2 && @ <=3)'") is True


def test_predicates_match(s):
    assert one(s, "SELECT json_path_match(parse_json('{\"a\":1,\"b\":2}'), '$.a == 1')") is True
    assert one(s, "SELECT parse_json('{\"a\":1,\"b\":2}') @@ '$.c > 0'") is False
    assert one(s, "SELECT parse_json('{\"a\":1,\"b\":[1,2,3]}') @@ '$.b[1 to last] == 2 || $.b[1 to last] == 3'") is True
    # an object compares with nothing: the answer is unknown
    assert one(s, "SELECT parse_json('{\"a\":\"b\"}') @@ '$[*] == \"b\"'") is None
    assert one(s, "SELECT parse_json('[\"a\",\"b\"]') @@ '$[*] == \"b\"'") is True
    assert one(s, "SELECT json_path_match(parse_json('{\"a\":1}'), '$.a')") is None


def test_recursive_descent_by_level(s):
    obj = "parse_json('{\"obj\":{\"a\":{\"b\":[1,2]},\"c\":1}}')"
    assert column(s, f"SELECT json_path_query({obj}, '$.obj.**')") == [
        '{"a":{"b":[1,2]},"c":1}', '{"b":[1,2]}', "[1,2]", "1", "2", "1"]
    assert column(s, f"SELECT json_path_query({obj}, '$.obj.**{{2 to last}}')") == ["[1,2]", "1", "2"]
    assert column(s, f"SELECT json_path_query({obj}, '$.obj.**{{1}}')") == ['{"b":[1,2]}', "1"]
    assert column(s, f"SELECT json_path_query({obj}, '$.obj.**{{1}}.b')") == ["[1,2]"]


def test_arithmetic_expressions(s):
    obj = "parse_json('{\"nums\":[-10,-11]}')"
    assert column(s, f"SELECT json_path_query({obj}, '-$.nums')") == ["10", "11"]
    assert column(s, f"SELECT json_path_query({obj}, '7 - $.nums[0]')") == ["17"]
    assert column(s, f"SELECT json_path_query({obj}, '$.nums[1] / 2')") == ["-5.5"]
    assert column(s, f"SELECT json_path_query({obj}, '$.nums[1] % 2')") == ["-1"]


def test_escaped_member_names_and_bad_paths(s):
    obj = "parse_json('{\"测试\\\\\"💎\":\"a\"}')"
    assert one(s, f"SELECT json_path_query_first({obj}, '$.测试\\\\\"\\\\uD83D\\\\uDC8E')") == '"a"'
    with pytest.raises(EngineError) as info:
        list(s.execute("SELECT json_path_query_first(parse_json('{}'), '--')"))
    assert info.value.code == 1006 and "Invalid JSON Path '--'" in str(info.value)


def test_get_path_reads_json_paths(s):
    """get_path follows the JSON path syntax (escaped quoted names; several matches are an array)."""
    obj = "parse_json('{\"测试\\\\\"💎\":\"a\",\"b\":[1,2]}')"
    assert one(s, f"SELECT get_path({obj}, '[\"测试\\\\\"\\\\uD83D\\\\uDC8E\"]')") == '"a"'
    assert one(s, f"SELECT get_path({obj}, 'b[*]')") == "[1,2]"
    assert one(s, f"SELECT get_path({obj}, 'b[0]')") == "1"
    assert one(s, f"SELECT get_path({obj}, 'c')") is None
