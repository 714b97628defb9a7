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


NESTED = "parse_json('{\"a\":1,\"b\":[2,{\"c\":3}]}')"


@pytest.mark.parametrize("sql, rows", [  # each checked against Databend 1.2.453
    (f"SELECT seq, key, path, index, value::varchar, this::varchar FROM flatten(input => {NESTED}, recursive => true)",
     [("1", "a", "a", None, "1", '{"a":1,"b":[2,{"c":3}]}'),
      ("1", "b", "b", None, '[2,{"c":3}]', '{"a":1,"b":[2,{"c":3}]}'),
      ("1", None, "b[0]", "0", "2", '[2,{"c":3}]'), ("1", None, "b[1]", "1", '{"c":3}', '[2,{"c":3}]'),
      ("1", "c", "b[1].c", None, "3", '{"c":3}')]),
    ("SELECT seq, key, path, index, value::varchar FROM flatten(input => parse_json('[10,20]'))",
     [("1", None, "[0]", "0", "10"), ("1", None, "[1]", "1", "20")]),
    ("SELECT key, path, value::varchar FROM flatten(input => parse_json('{\"a\":{\"x\":[1]}}'), path => 'a')",
     [("x", "a.x", "[1]")]),
    ("SELECT seq, key, path, index, value FROM flatten(input => parse_json('[]'), outer => true)",
     [("1", None, None, None, None)]),
    ("SELECT seq FROM flatten(input => parse_json('5'))", []),
    ("SELECT path FROM flatten(input => parse_json('{\"a\":[1]}'), recursive => true, mode => 'object')", [("a",)]),
])
def test_flatten(s, sql, rows):
    assert answer(s, sql)[2] == rows


def test_flatten_names_and_types(s):
    names, types, _ = answer(s, "SELECT f.* FROM flatten(input => parse_json('[1]')) f")
    assert names == ["seq", "key", "path", "index", "value", "this"]
    assert types == ["Nullable(UInt64)", "Nullable(String)", "Nullable(String)", "Nullable(UInt64)",
                     "Nullable(Variant)", "Nullable(Variant)"]


def test_lateral_table_functions_run_once_per_row(s):
    list(s.execute("CREATE TABLE ft (id INT, v VARIANT)"))
    list(s.execute("INSERT INTO ft VALUES (1, parse_json('[1,2]')), (2, parse_json('[3]'))"))
    assert answer(s, "SELECT ft.id, f.seq, f.value::varchar AS v FROM ft, LATERAL FLATTEN(input => ft.v) f "
                     "ORDER BY 1, 3")[2] == [("1", "1", "1"), ("1", "1", "2"), ("2", "2", "3")]
    assert answer(s, "SELECT ft.id, x.value FROM ft, LATERAL json_array_elements(ft.v) x ORDER BY 1, 2")[2] == [
        ("1", "1"), ("1", "2"), ("2", "3")]
    assert answer(s, "SELECT ft.id, u.value FROM ft, LATERAL unnest([ft.id, ft.id * 10]) u ORDER BY 1, 2")[2] == [
        ("1", "1"), ("1", "10"), ("2", "2"), ("2", "20")]


@pytest.mark.parametrize("sql, message", [
    ("SELECT * FROM flatten(parse_json('[1]'), 'a', true, true, 'both', 1)", "at most 5 arguments"),
    ("SELECT * FROM flatten(input => parse_json('[1]'), depth => 2)", "no argument `depth`"),
    ("SELECT * FROM flatten(path => 'a')", "needs `input =>"),
    ("SELECT * FROM flatten(input => parse_json('[1]'), mode => 'rows')", "Invalid mode"),
])
def test_flatten_errors(s, sql, message):
    with pytest.raises(engine.EngineError) as err:
        list(s.execute(sql))
    assert err.value.code == 1006 and message in err.value.message


def test_a_view_over_lateral_flatten_survives_the_data_directory(tmp_path):
    with engine.Database(data_dir=str(tmp_path / "d")) as db:
        s = db.session()
        list(s.execute("CREATE TABLE ft (id INT, v VARIANT)"))
        list(s.execute("INSERT INTO ft VALUES (1, parse_json('[1,2]'))"))
        list(s.execute("CREATE VIEW fv AS SELECT ft.id, f.value FROM ft, LATERAL FLATTEN(input => ft.v) f"))
        assert [r[0] for r in s.execute("EXPLAIN SYNTAX SELECT * FROM ft, LATERAL FLATTEN(input => ft.v) f")][-1] \
            == "    LATERAL flatten(input => ft.v) AS f"
    with engine.Database(data_dir=str(tmp_path / "d")) as db:
        assert answer(db.session(), "SELECT * FROM fv ORDER BY 2")[2] == [("1", "1"), ("1", "2")]


def test_to_variant_and_json_array_take_nested_values_as_json(s):
    # checked against Databend 1.2.453: to_variant(range(0, 3)) is [0,1,2], not a string
    assert answer(s, "SELECT to_variant(range(0, 3)), to_variant({'k': 1}), "
                     "to_variant([1, 2]) = parse_json('[1,2]'), json_array([1, 2], 'x')")[2] == [
        ("[0,1,2]", '{"k":1}', "1", '[[1,2],"x"]')]


@pytest.mark.parametrize("sql, message", [
    ("SELECT * FROM json_each(parse_json('{\"a\": true}')) WHERE json_each(parse_json('{\"a\": true}'))",
     "set-returning functions are not allowed in WHERE clause"),
    ("SELECT * FROM json_array_elements(parse_json('[true]')) HAVING json_array_elements(parse_json('[true]'))",
     "set-returning functions cannot be used in HAVING clause"),
    ("SELECT 1 WHERE json_path_query(parse_json('{\"a\":1}'), '$.a') = 1",
     "set-returning functions are not allowed in WHERE clause"),
])
def test_set_returning_calls_are_refused_in_where_and_having(s, sql, message):
    """Databend's 1065 (query/functions/02_0065 and 02_0051)."""
    from engine.core.errors import EngineError
    with pytest.raises(EngineError) as info:
        list(s.execute(sql))
    assert info.value.code == 1065 and message in str(info.value)
