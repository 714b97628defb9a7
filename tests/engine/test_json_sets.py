"""Set-returning JSON functions: json_path_query, json_array_elements and json_each in a SELECT
list (one row per result) and json_each / json_array_elements in FROM; answers, column names and
types checked against Databend 1.2.453."""

import pytest

import engine

OBJECT = "parse_json('{\"a\":1,\"b\":[2,3]}')"


@pytest.fixture
def s():
    return engine.Database().session()


def answer(session, sql):
    result = session.execute(sql)
    return [c.name for c in result.schema], [c.type for c in result.schema], result.renderer(False)(list(result))


def test_json_path_query_gives_a_row_per_match(s):
    names, types, rows = answer(s, "SELECT json_path_query(parse_json('{\"a\":[1,2,3]}'), '$.a[*]')")
    assert types == ["Nullable(Variant)"] and rows == [("1",), ("2",), ("3",)]
    assert names == ["json_path_query(parse_json('{\"a\":[1,2,3]}'), '$.a[*]')"]
    assert answer(s, "SELECT json_path_query(NULL, '$.a')")[2] == []
    assert answer(s, "SELECT json_path_query(parse_json('[1]'), 'xx')")[2] == []  # no match: no row
    assert answer(s, "SELECT typeof(json_path_query(parse_json('[1]'), '$[*]'))")[2] == [("VARIANT NULL",)]


def test_set_returning_calls_repeat_the_other_columns(s):
    rows = answer(s, "SELECT number AS n, json_path_query(parse_json('[10,20]'), '$[*]') AS v "
                     "FROM numbers(2) ORDER BY n, v")[2]
    assert rows == [("0", "10"), ("0", "20"), ("1", "10"), ("1", "20")]


def test_json_each_and_array_elements_in_a_select_list(s):
    assert answer(s, "SELECT json_array_elements(parse_json('[1,\"x\",null]'))")[2] == [("1",), ('"x"',), ("null",)]
    assert answer(s, "SELECT json_array_elements(parse_json('{\"a\":1}'))")[2] == []
    names, types, rows = answer(s, "SELECT json_each(parse_json('{\"a\":1}'))")
    assert types == ["Tuple(Nullable(String), Nullable(Variant))"] and len(rows) == 1


def test_json_each_and_array_elements_in_from(s):
    assert answer(s, f"SELECT * FROM json_each({OBJECT})") == (
        ["key", "value"], ["Nullable(String)", "Nullable(Variant)"], [("a", "1"), ("b", "[2,3]")])
    assert answer(s, "SELECT * FROM json_array_elements(parse_json('[1,2]'))") == (
        ["value"], ["Nullable(Variant)"], [("1",), ("2",)])
    assert answer(s, "SELECT j.key FROM json_each(parse_json('{\"x\":true}')) AS j")[2] == [("x",)]


def test_json_each_of_a_non_variant_is_1065(s):
    with pytest.raises(engine.EngineError) as err:
        list(s.execute("SELECT * FROM json_each(1)"))
    assert err.value.code == 1065 and "no overload satisfies `json_each(UInt8)`" in err.value.message
