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
    assert a["data"] == [["[1,NULL]", '{"k":2}', '(3,"x")', "1", "2", "x"],
                         [None, None, None, None, None, None]]


def test_a_literal_array_and_its_functions(h):
    a = h.post("SELECT [1, 2], array_sort(['b', 'a']), split('a,b', ',')", headers=DATABEND_HEADERS).json
    assert a["error"] is None
    assert [c["name"] for c in a["schema"]] == ["[1, 2]", "array_sort(['b', 'a'])", "split('a,b', ',')"]
    assert a["data"] == [["[1,2]", '["a","b"]', '["a","b"]']]


def test_a_named_tuple_column_in_both_formats(h):
    # as Databend 1.2.453: the field names are the column's (p:a reads them) but neither the
    # type name nor the text on the wire shows them
    h.post("CREATE TABLE nt (p TUPLE(a INT, b STRING))")
    h.post("INSERT INTO nt VALUES ((1, 'x')), (NULL)")
    sql = "SELECT p, p:a, p['b'] FROM nt ORDER BY p:a"
    databend = h.post(sql, headers=DATABEND_HEADERS).json
    assert [c["type"] for c in databend["schema"]] == [
        "Nullable(Tuple(Nullable(Int32), Nullable(String)))", "Nullable(Int32)", "Nullable(String)"]
    assert databend["data"] == [['(1,"x")', "1", "x"], [None, None, None]]
    spec = h.post(sql).json
    assert [(f["name"], f["data_type"]["type"], f["nullable"]) for f in spec["schema"]["fields"]] == [
        ("p", "Tuple(Nullable(Int32), Nullable(String))", True), ("p:a", "Int32", True), ("p['b']", "String", True)]
    assert spec["data"] == [['(1,"x")', "1", "x"], ["NULL", "NULL", "NULL"]]  # (the seed format's NULL)


def test_timestamps_inside_nested_values_are_shown_and_read_in_the_session_zone(h):
    tokyo = {"settings": {"timezone": "Asia/Tokyo"}}
    h.post("CREATE TABLE nz (a ARRAY(TIMESTAMP), m MAP(STRING, TIMESTAMP), t TUPLE(TIMESTAMP, INT))")
    h.post("INSERT INTO nz VALUES (['2024-01-01 10:00:00'], {'k': '2024-01-01 10:00:00'}, "
           "('2024-01-01 10:00:00', 1))", session=tokyo)
    sql = "SELECT a, m, t, to_unix_timestamp(a[1]) FROM nz"
    utc = h.post(sql, headers=DATABEND_HEADERS).json
    assert utc["data"] == [['["2024-01-01 01:00:00.000000"]', '{"k":"2024-01-01 01:00:00.000000"}',
                            '("2024-01-01 01:00:00.000000",1)', "1704070800"]]
    shown = h.post(sql, headers=DATABEND_HEADERS, session=tokyo).json
    assert shown["data"][0][:3] == ['["2024-01-01 10:00:00.000000"]', '{"k":"2024-01-01 10:00:00.000000"}',
                                    '("2024-01-01 10:00:00.000000",1)']
