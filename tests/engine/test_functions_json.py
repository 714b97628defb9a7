"""The JSON functions: json_typeof, is_*, as_*, json_array, json_object, json_object_keys /
object_keys, check_json, json_extract_path_text, their NULL cases, argument types and errors
(as Databend 1.2.453 answers)."""

import pytest

import engine
from engine.core.errors import EngineError


@pytest.fixture
def s():
    session = engine.Database().session()
    list(session.execute("CREATE TABLE k (v VARIANT NOT NULL)"))
    list(session.execute("INSERT INTO k VALUES ('{\"a\":1}'),('[3,1]'),('2'),('\"x\"'),('null'),('true'),"
                         "('1.5'),('-1')"))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def error(s, sql):
    with pytest.raises(EngineError) as info:
        rows(s, sql)
    return info.value.code, str(info.value)


def test_kind_tests_and_json_typeof(s):
    sql = ("SELECT json_typeof(v), is_object(v), is_array(v), is_string(v), is_integer(v), is_float(v), "
           "is_boolean(v), is_null_value(v), typeof(is_null_value(v)), typeof(json_typeof(v)) FROM k")
    b = ("BOOLEAN", "VARCHAR")
    assert rows(s, sql) == [
        ("object", True, False, False, False, False, False, False, *b),
        ("array", False, True, False, False, False, False, False, *b),
        ("number", False, False, False, True, True, False, False, *b),
        ("string", False, False, True, False, False, False, False, *b),
        ("null", False, False, False, False, False, False, True, *b),
        ("boolean", False, False, False, False, False, True, False, *b),
        ("number", False, False, False, False, True, False, False, *b),
        ("number", False, False, False, True, True, False, False, *b)]


def test_as_functions(s):
    sql = ("SELECT as_integer(parse_json('3')), as_string(parse_json('\"s\"')), as_float(parse_json('1.5')), "
           "as_boolean(parse_json('true')), as_integer(parse_json('\"3\"')), as_array(parse_json('[1]')), "
           "as_object(parse_json('{}')), typeof(as_integer(parse_json('3')))")
    assert rows(s, sql) == [(3, "s", 1.5, True, None, "[1]", "{}", "TINYINT UNSIGNED")]
    got = rows(s, "SELECT as_integer(v), as_string(v), typeof(as_integer(v)), typeof(as_float(v)), "
                  "typeof(as_array(v)) FROM k WHERE is_string(v) OR is_integer(v)")
    types = ("BIGINT NULL", "DOUBLE NULL", "VARIANT NULL")
    assert sorted(got, key=repr) == sorted([(None, "x", *types), (2, None, *types), (-1, None, *types)], key=repr)


def test_json_array_json_object_and_keys(s):
    sql = ("SELECT json_array(1, 'a', NULL, 2.5, true), json_object('k', 1, 'a', 'x', 'n', NULL), "
           "object_keys(parse_json('{\"b\":1,\"a\":2}')), json_object_keys(parse_json('[1]')), json_array()")
    assert rows(s, sql) == [('[1,"a",null,2.5,true]', '{"a":"x","k":1}', '["a","b"]', None, "[]")]
    assert [c.type for c in s.execute(sql).schema][:2] == ["Variant", "Variant"]


@pytest.mark.parametrize("sql, message", [
    ("SELECT json_object('a')",
     "The number of keys and values must be equal while evaluating function `object_construct('a')`"),
    ("SELECT json_object(1, 2)", "Key must be a string value while evaluating function `object_construct(1, 2)`"),
    ("SELECT json_object('a', 1, 'a', 2)",
     "Keys have to be unique while evaluating function `object_construct('a', 1, 'a', 2)`"),
    ("SELECT json_extract_path_text('{bad', 'a')",
     "expected value, pos 2 while evaluating function `json_extract_path_text('{bad', 'a')`"),
])
def test_bad_arguments_are_1006(s, sql, message):
    assert error(s, sql) == (1006, message)


@pytest.mark.parametrize("sql, message", [
    ("SELECT json_typeof('{\"a\":1}')", "no overload satisfies `json_typeof(String)`"),
    ("SELECT get('{\"a\":1}', 'a')", "no overload satisfies `get(String, String)`"),
    ("SELECT get_path('{\"a\":1}', 'a')", "no overload satisfies `get_path(String, String)`"),
    ("SELECT is_object('{}')", "no overload satisfies `is_object(String)`"),
    ("SELECT as_integer('1')", "no overload satisfies `as_integer(String)`"),
    ("SELECT object_keys('{}')", "no overload satisfies `json_object_keys(String)`"),
    ("SELECT parse_json(123)", "no overload satisfies `parse_json(UInt8)`"),
])
def test_arguments_of_other_types_are_1065(s, sql, message):
    assert error(s, sql) == (1065, message)


def test_check_json_and_extract_path_text(s):
    sql = ("SELECT check_json('{a'), check_json('[1]'), check_json(NULL), typeof(check_json('1')), "
           "json_extract_path_text('{\"a\":{\"b\":\"x\"}}', 'a.b'), json_extract_path_text('{\"a\":1}', 'z'), "
           "typeof(json_extract_path_text('{\"a\":1}', 'a')), json_extract_path_text('{\"a\":[1,{\"c\":2}]}', 'a[1]')")
    assert rows(s, sql) == [("expected value, pos 2", None, None, "NULL", "x", None, "VARCHAR", '{"c":2}')]


def test_null_arguments(s):
    assert rows(s, "SELECT json_typeof(NULL), json_typeof(parse_json(NULL)), object_keys(parse_json('[1]')), "
                   "get(NULL, 'a'), get_path(parse_json('{}'), NULL), try_parse_json(NULL)") == [(None,) * 6]


@pytest.fixture
def doc():
    session = engine.Database().session()
    rows(session, "CREATE TABLE d (v VARIANT NOT NULL)")
    rows(session, "INSERT INTO d VALUES ('{\"a\":[1,{\"b\":2}],\"c\":\"x\"}')")
    return session


def test_json_path_functions(doc):
    sql = ("SELECT json_path_query_first(v, '$.a[*]') AS f, typeof(f), json_path_query_array(v, '$.a[*]') AS r, "
           "typeof(r), json_path_query_first(v, '$.z'), json_path_query_array(v, '$.z'), "
           "json_path_exists(v, '$.a[1].b'), typeof(json_path_exists(v, '$.a[1].b')), json_path_exists(v, '$.q') "
           "FROM d")
    assert rows(doc, sql) == [("1", "VARIANT NULL", '[1,{"b":2}]', "VARIANT NULL", None, "[]", True,
                               "BOOLEAN NULL", False)]


@pytest.mark.parametrize("path, answer", [
    ("$.*", '[[1,{"b":2}],"x"]'), ("$", '[{"a":[1,{"b":2}],"c":"x"}]'), ("$.a[0]", "[1]"),
    ("$.a[last]", '[{"b":2}]'), ('$["c"]', '["x"]'), ("$.a[0 to 1]", '[1,{"b":2}]'), ("$.a[*].b", "[2]"),
    ("a", '[[1,{"b":2}]]'),
])
def test_json_path_forms(doc, path, answer):
    assert rows(doc, f"SELECT json_path_query_array(v, '{path}') FROM d") == [(answer,)]


def test_bad_json_path_is_1006(doc):
    assert error(doc, "SELECT json_path_query_first(v, '$.a[') FROM d") == (
        1006, "Invalid JSON Path '$.a[' while evaluating function "
              "`json_path_query_first('{\"a\":[1,{\"b\":2}],\"c\":\"x\"}', '$.a[')`")


def test_pretty_strip_nulls_to_string_and_exists_key(s):
    sql = ("SELECT json_exists_key(parse_json('[1]'), 'a'), json_exists_key(parse_json('{\"a\":1}'), 'a'), "
           "json_strip_nulls(parse_json('[null,{\"a\":null}]')), json_strip_nulls(parse_json('null')), "
           "json_strip_nulls(parse_json('{\"a\":null,\"b\":1}')), json_to_string(parse_json('{\"a\":1}'))")
    assert rows(s, sql) == [(False, True, "[null,{}]", "null", '{"b":1}', '{"a":1}')]
    assert rows(s, "SELECT json_pretty(parse_json('{\"a\":[1,{\"b\":2}],\"c\":\"x\"}')) AS p, typeof(p)") == [
        ('{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ],\n  "c": "x"\n}', "VARCHAR")]


def test_try_cast_to_variant(s):
    assert rows(s, "SELECT TRY_CAST('{bad' AS VARIANT), TRY_CAST('[1, 2]' AS VARIANT)") == [(None, "[1,2]")]


@pytest.mark.parametrize("sql, expected", [
    ("SELECT object_construct('k1', 1, 'k2', 'str', 'k5', null)", '{"k1":1,"k2":"str"}'),
    ("SELECT object_construct_keep_null('k2', 'str', 'k1', 1, 'k5', null)", '{"k1":1,"k2":"str","k5":null}'),
    ("SELECT try_object_construct('k1', 1, 'k2')", None),
    ("SELECT array_construct(true, 1, 'str', null)", '[true,1,"str",null]'),
    ("SELECT object_delete('{\"a\":1,\"b\":2,\"d\":4}'::variant, 'b', 'b', null, 'd')", '{"a":1}'),
    ("SELECT json_object_pick('{\"a\":1,\"b\":2,\"d\":4}'::variant, 'a', 'c')", '{"a":1}'),
    ("SELECT strip_null_value(parse_json('null'))", None),
    ("SELECT try_to_variant(12.34)", "12.34"),
    ("SELECT parse_json('{\"key1\":null}')->>'key1'", None),
    ("SELECT json_extract_path_text('{\"attr\":null}', 'attr')", None),
])
def test_current_databend_object_functions(s, sql, expected):
    """Answers of Databend's own sqllogictest files (query/functions/02_0065, 02_0051, 02_0048)."""
    assert rows(s, sql) == [(expected,)]


@pytest.mark.parametrize("sql", [
    "SELECT object_construct('k1', 1, 'k2', 'str', 'k3')",
    "SELECT object_delete('1234'::variant, 'a')",
    "SELECT object_pick('1234'::variant, 'a')",
])
def test_object_functions_refuse_bad_arguments(s, sql):
    assert error(s, sql)[0] == 1006


def test_check_json_says_where_the_text_ends(s):
    """query/functions/02_0049: a text that ends inside a value."""
    assert rows(s, "SELECT check_json('[1,'), check_json('\"ab'), check_json('abc')") == [
        ("EOF while parsing a value, pos 3", "EOF while parsing a value, pos 3", "expected value, pos 1")]


def test_variants_inside_nested_values_are_written_as_json():
    """A VARIANT inside a tuple or array is its JSON text (query/functions/02_0065 json_each,
    02_0002 a::Array(Variant))."""
    from engine.types import nested as N
    from engine.types import render as R
    from engine.types import sqltype as T
    variant = T.SqlType("Variant").as_nullable(True)
    pair = R.nested_renderer(T.SqlType("Tuple", args=(T.STRING.as_nullable(True), variant)))
    assert pair(N.TupleValue(("k1", '"v1"'))) == '("k1","v1")'
    assert R.nested_renderer(N.array_type(variant))(N.ArrayValue(("1", '"3"', None))) == '[1,"3",NULL]'


@pytest.mark.parametrize("sql", ["SELECT parse_json()", "SELECT parse_json('a', 'aa')", "SELECT if(true, 1)"])
def test_a_call_of_no_signature_is_1065(s, sql):
    """query/functions/02_0048 and 02_0053: a wrong number of arguments is a semantic error."""
    assert error(s, sql)[0] == 1065


def test_variant_elements_of_arrays_and_maps_keep_their_json_value(s):
    # Databend's 02_0002_function_cast.test: a JSON string element stays a string both ways
    assert rows(s, "SELECT '[1,2,\"3\"]'::Variant a, a::Array(Variant) b, b::Variant = a, b[3], b::Variant") == [
        ('[1,2,"3"]', ('1', '2', '"3"'), True, '"3"', '[1,2,"3"]')]
    assert rows(s, "SELECT '{\"k\":\"v\",\"j\":[1]}'::Variant::Map(String, Variant)::Variant, "
                   "[parse_json('\"x\"'), parse_json('1')]::Variant, to_variant([parse_json('\"x\"')])") == [
        ('{"j":[1],"k":"v"}', '["x",1]', '["x"]')]
