"""ARRAY / MAP / TUPLE values over the query protocol: Databend's wire text and type names."""

from tests.web.harness import DATABEND_HEADERS


def test_nested_values_render_as_databend_writes_them(h):
    h.post("CREATE TABLE tn (id INT, a ARRAY(INT), m MAP(STRING, INT), t TUPLE(INT, STRING))")
    h.post("INSERT INTO tn VALUES (1, [1, NULL], {'k': 2}, (3, 'x')), (2, NULL, NULL, NULL)")
    a = h.post("SELECT a, m, t, a[1], m['k'], t.2 FROM tn ORDER BY id", headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert [c["type"] for c in a["schema"]] == [
        "Nullable(Array(Nullable(Int32)))", "Nullable(Map(String, Nullable(Int32)))",
        "Nullable(Tuple(Nullable(Int32), Nullable(String)))", "Nullable(Int32)", "Nullable(Int32)",
        "Nullable(String)"]
    assert a["data"] == [["[1,NULL]", "{'k':2}", "(3,'x')", "1", "2", "x"],
                         [None, None, None, None, None, None]]


def test_a_literal_array_and_its_functions(h):
    a = h.post("SELECT [1, 2], array_sort(['b', 'a']), split('a,b', ',')", headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert [c["name"] for c in a["schema"]] == ["[1, 2]", "array_sort(['b', 'a'])", "split('a,b', ',')"]
    assert a["data"] == [["[1,2]", "['a','b']", "['a','b']"]]
