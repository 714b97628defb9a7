"""VARIANT values over the query protocol: compact JSON text, JSON null apart from SQL NULL, the
Variant type in the schema (as Databend 1.2.453 answers)."""

from tests.web.harness import DATABEND_HEADERS


def test_variant_values_render_as_compact_json(h):
    h.post("CREATE TABLE j (id INT, v VARIANT)")
    h.post("INSERT INTO j VALUES (1, '{\"b\": [1, 2.5], \"a\": \"x\"}'), (2, 'null'), (3, NULL)")
    a = h.post("SELECT v, v:a, v['b'][1], v ->> 'a' FROM j ORDER BY id", headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert a["schema"] == [{"name": "v", "type": "Nullable(Variant)"},
                           {"name": "v:a", "type": "Nullable(Variant)"},
                           {"name": "v['b'][1]", "type": "Nullable(Variant)"},
                           {"name": "v ->> 'a'", "type": "Nullable(String)"}]
    assert a["data"] == [['{"a":"x","b":[1,2.5]}', '"x"', "2.5", "x"],
                         ["null", None, None, None],
                         [None, None, None, None]]


def test_bad_json_fails_with_1006(h):
    a = h.post("SELECT parse_json('{bad')").json
    assert a["state"] == "Failed"
    assert a["error"]["code"] == 1006
    assert "expected value, pos 2" in a["error"]["message"]
