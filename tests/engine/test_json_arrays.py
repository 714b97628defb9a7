"""The array functions on VARIANT arrays (array_insert, array_distinct, array_remove, array_append,
array_flatten, array_slice, array_indexof...), with the answers of Databend's own sqllogictest file
query/functions/02_0065_function_json.test."""

import pytest

import engine
from engine.core.errors import EngineError


@pytest.fixture
def s():
    return engine.Database().session()


def one(s, sql):
    return list(s.execute(sql))[0]


@pytest.mark.parametrize("sql, expected", [
    ("SELECT array_insert('[0,1,2,3]'::variant, -1, '\"hello\"'::variant)", ('[0,1,2,"hello",3]',)),
    ("SELECT array_insert('[0,1,2,3]'::variant, 7, '\"hello\"'::variant)", ('[0,1,2,3,"hello"]',)),
    ("SELECT json_array_insert('\"A\"'::variant, 0, '[1,2,3]'::variant)", ('[[1,2,3],"A"]',)),
    ("SELECT array_distinct('[[1,2],[1,2],[3,4,3,3],{\"k\":\"v\"},{\"k\":\"v\"}]'::variant)",
     ('[[1,2],[3,4,3,3],{"k":"v"}]',)),
    ("SELECT json_array_distinct('true'::variant)", ("[true]",)),
    ("SELECT array_append(parse_json('[1, \"a\", true]'), null)", ('[1,"a",true,null]',)),
    ("SELECT array_prepend('a', parse_json('[]'))", ('["a"]',)),
    ("SELECT array_compact(parse_json('[1, null, 2, null, 3]'))", ("[1,2,3]",)),
    ("SELECT array_contains(parse_json('1'), 1), array_contains(parse_json('1'), 4)", (True, False)),
    ("SELECT array_concat(parse_json('1'), parse_json('[2,3]'))", ("[1,2,3]",)),
    ("SELECT array_flatten(parse_json('[[1,[2,3]],[4]]'))", ("[1,[2,3],4]",)),
    ("SELECT array_indexof(parse_json('[1,2,2,3]'), 2), array_indexof(parse_json('[1,2,3]'), 4)", (1, None)),
    ("SELECT array_remove(parse_json('\"a\"'), 'a'), array_remove(parse_json('\"a\"'), 'b')", ("[]", '["a"]')),
    ("SELECT array_remove_first(parse_json('1')), array_remove_last(parse_json('[1,2,3,2]'))", ("[]", "[1,2,3]")),
    ("SELECT array_reverse(parse_json('\"a\"'))", ('["a"]',)),
    ("SELECT array_slice(parse_json('[1,2,3,4,5]'), -2, -1), slice(parse_json('[1,2,3,4,5]'), 1, 3)", ("[4]", "[2,3]")),
    ("SELECT array_unique(parse_json('[\"a\", \"b\", \"a\", null, \"c\"]'))", (4,)),
])
def test_variant_array_functions(s, sql, expected):
    assert one(s, sql) == expected


@pytest.mark.parametrize("sql", [
    "SELECT array_compact(parse_json('11'))",
    "SELECT array_flatten(parse_json('[1, 2, 3]'))",
])
def test_not_an_array_is_refused(s, sql):
    with pytest.raises(EngineError) as info:
        one(s, sql)
    assert info.value.code == 1006


def test_arrays_of_sql_keep_their_own_functions(s):
    assert one(s, "SELECT array_distinct([1, 1, 2]), array_slice([1, 2, 3], 1, 2)") == ((1, 2), (1, 2))


def test_length_of_a_variant_array(s):
    """query/functions/02_0052: the number of elements; NULL for a value that is not an array."""
    assert one(s, "SELECT length(parse_json('[1, 2, [1, 2]]')), length(parse_json('[]')), "
                  "length(parse_json('{}'))") == (3, 0, None)


def test_unnest_of_a_variant_array(s):
    """query/functions/02_0062_function_unnest.test: a row per element; none for another value."""
    assert list(s.execute("SELECT unnest(parse_json('[1,2,\"a\",[3,4]]'))")) == [("1",), ("2",), ('"a"',), ("[3,4]",)]
    assert list(s.execute("SELECT unnest(parse_json('\"a\"'))")) == []
