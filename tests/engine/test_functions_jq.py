"""jq(filter, v) (engine.functions.json_jq), with the answers of Databend's own test file
query/functions/02_0065_function_json.test: in FROM and spread in a SELECT list, its errors, the
output limit, and the error naming the `jq` extra when the jq package is missing. Also the
VARIANT arguments of object_construct / array_construct, which those tests build inputs with."""

import pytest

import engine
from engine.core.limits import Limits
from engine.functions import json_jq
from tests.engine.sql_helpers import error_code, q


@pytest.fixture
def session():
    return engine.Database().session()


_PEOPLE = ("array_construct(object_construct('name', 'Alice', 'age', 25), "
           "object_construct('name', 'Bob', 'age', 35))")


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT * FROM jq('.[] | .', object_construct('k1', 'v1', 'k2', 'v2')) ORDER BY 1", ['"v1"', '"v2"']),
    ("SELECT * FROM jq($$[.[] | .]$$, object_construct('k1', 'v1', 'k2', 'v2'))", ['["v1","v2"]']),
    ("SELECT * FROM jq('.[]', array_construct(1, 2, 3))", ["1", "2", "3"]),
    ("SELECT * FROM jq('.a.b', object_construct('a', object_construct('b', 'nested_value')))",
     ['"nested_value"']),
    (f"SELECT * FROM jq('.[] | select(.age > 30)', {_PEOPLE})", ['{"age":35,"name":"Bob"}']),
    (f"SELECT * FROM jq('.[] | .name, .age', {_PEOPLE})", ['"Alice"', "25", '"Bob"', "35"]),
    ("SELECT * FROM jq('.', NULL)", []),
    ("SELECT * FROM jq('.', object_construct())", ["{}"]),
    ("SELECT * FROM jq('.[]', array_construct())", []),
    # object keys sorted, as Databend's JSONB keeps them
    ("SELECT * FROM jq('{min: min, max: max, sum: add, length: length}', array_construct(1, 2, 3, 4, 5))",
     ['{"length":5,"max":5,"min":1,"sum":15}']),
    ("SELECT * FROM jq('.[] | ascii_upcase', array_construct('hello', 'world'))", ['"HELLO"', '"WORLD"']),
    ("SELECT * FROM jq('.[] | if . == 0 then \"zero\" elif . == 1 then \"one\" else \"many\" end', "
     "array_construct(0, 1, 2))", ['"zero"', '"one"', '"many"']),
    ("SELECT jq FROM jq('.[] * 2', array_construct(1, 2, 3)) AS t", ["2", "4", "6"]),
])
def test_jq_in_from_answers_as_databend(session, sql, expected):
    pytest.importorskip("jq")
    assert [row[0] for row in q(session, sql)] == expected


def test_jq_in_a_select_list_spreads_over_rows(session):
    pytest.importorskip("jq")
    q(session, "CREATE TABLE test_data (id INT, json_data JSON)")
    q(session, """INSERT INTO test_data VALUES (1, '{"name": "Alice", "scores": [85, 90, 78]}'),
                  (2, '{"name": "Bob", "scores": [92, 88, 95]}')""")
    rows = q(session, "SELECT id, jq('to_entries[] | {key: .key, value: (.value | tostring)}', json_data) AS jq "
                      "FROM test_data ORDER BY jq:key, id")
    assert rows == [(1, '{"key":"name","value":"Alice"}'), (2, '{"key":"name","value":"Bob"}'),
                    (1, '{"key":"scores","value":"[85,90,78]"}'), (2, '{"key":"scores","value":"[92,88,95]"}')]
    # in FROM after a table: once per row of it (with or without LATERAL)
    assert q(session, "SELECT t.id, j.jq FROM test_data t, jq('.scores[0]', t.json_data) j ORDER BY 1") == [
        (1, "85"), (2, "92")]
    assert q(session, "SELECT t.id, j.jq FROM test_data t, LATERAL jq('.scores | max', t.json_data) j "
                      "ORDER BY 1") == [(1, "90"), (2, "95")]
    # set-returning: refused in WHERE and HAVING (1065), as Databend
    assert error_code(session, "SELECT * FROM test_data WHERE jq('.scores | min', json_data) > 85") == 1065
    assert error_code(session, "SELECT * FROM test_data HAVING jq('.scores | min', json_data) > 85") == 1065


def test_jq_errors(session):
    pytest.importorskip("jq")
    for sql in ("SELECT * FROM jq('invalid_expression', object_construct('k', 'v'))",  # unknown name
                "SELECT * FROM jq('.[', object_construct('k', 'v'))",  # does not parse
                "SELECT * FROM jq('.a', array_construct(1))"):  # fails on the value
        assert error_code(session, sql) == 1006
    assert error_code(session, "SELECT * FROM jq('.', 1)") == 1065  # not a VARIANT


def test_jq_outputs_are_counted_as_they_come():
    pytest.importorskip("jq")
    s = engine.Database(limits=Limits(array_elements=100)).session()
    assert len(q(s, "SELECT * FROM jq('range(100)', parse_json('null'))")) == 100
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT * FROM jq('repeat(1)', parse_json('null'))")  # endless: stopped at the limit
    assert info.value.code == 1006 and "array_elements = 100" in str(info.value)


def test_without_the_jq_package_jq_names_the_extra(monkeypatch):
    def missing():
        raise ImportError("No module named 'jq'")

    monkeypatch.setattr(json_jq, "_loaded", [])
    monkeypatch.setattr(json_jq, "_import", missing)
    json_jq._compiled.cache_clear()
    try:
        with pytest.raises(engine.EngineError) as info:
            q(engine.Database().session(), "SELECT * FROM jq('.', parse_json('1'))")
    finally:
        json_jq._compiled.cache_clear()
    assert info.value.code == 1002 and "pip install 'queryhttp[jq]'" in str(info.value)


def test_variant_arguments_of_the_constructors_are_nested_values(session):
    assert q(session, "SELECT json_object('a', parse_json('{\"b\":1}'), 'c', '[2]'), "
                      "array_construct(parse_json('[1]'), 'x', 2), "
                      "try_object_construct(NULL, 1, 'k', parse_json('true'))") == [
        ('{"a":{"b":1},"c":"[2]"}', '[[1],"x",2]', '{"k":true}')]
