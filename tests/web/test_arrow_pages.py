"""Arrow result pages over the query protocol (web.arrow_pages): which requests get them, the
negotiated version in `settings`, the refusals Databend answers, and JSON for everything else."""

import json

import pytest

import engine
from tests.web.harness import DATABEND_HEADERS

pa = pytest.importorskip("pyarrow")
arrow_pages = pytest.importorskip("web.arrow_pages")
if arrow_pages.arrow_available() is None:
    pytest.skip("pyarrow too old for Arrow results", allow_module_level=True)

ARROW = "application/vnd.apache.arrow.stream"
ASK = {**DATABEND_HEADERS, "Accept": ARROW}


def decode(reply):
    """(response_header as a dict, rows as tuples, the Arrow schema) of an Arrow answer."""
    assert reply.status == 200
    assert reply.header("content-type") == ARROW.encode()
    reader = pa.ipc.open_stream(reply.body)
    header = json.loads(reader.schema.metadata[b"response_header"])
    table = reader.read_all()
    rows = list(zip(*(c.to_pylist() for c in table.columns), strict=True))
    return header, rows, table.schema


def test_a_query_asking_for_arrow_gets_an_ipc_stream_with_the_answer_in_its_metadata(h):
    reply = h.post("SELECT number, concat('x', number::STRING) s FROM numbers(3)", headers=ASK,
                   arrow_result_version_max=2)
    header, rows, schema = decode(reply)
    assert rows == [(0, "x0"), (1, "x1"), (2, "x2")]
    assert [f.type for f in schema] == [pa.uint64(), pa.string_view()]
    assert header["state"] == "Succeeded" and header["error"] is None
    assert header["schema"] == [] and header["data"] == [] and header["has_result_set"] is True
    assert header["settings"]["arrow_result_version"] == 2
    assert "arrow_features" not in header["settings"]  # negotiated from version 3 on
    assert header["settings"]["timezone"] == "UTC"
    assert reply.header("x-databend-query-id") == header["id"].encode()
    assert reply.header("x-databend-query-state") == b"Succeeded"
    assert reply.header("x-databend-query-page-rows") == b"3"


def test_the_version_is_capped_at_the_servers_and_version_3_negotiates_decimal64(h):
    header, rows, schema = decode(h.post("SELECT 1.25::DECIMAL(10, 2) d", headers=ASK,
                                         arrow_result_version_max=7))
    assert header["settings"]["arrow_result_version"] == 3
    assert header["settings"]["arrow_features"] == {"decimal64": True}
    assert schema.field(0).type == pa.decimal64(10, 2)
    header, rows, schema = decode(h.post("SELECT 1.25::DECIMAL(10, 2) d", headers=ASK,
                                         arrow_result_version_max=3,
                                         arrow_features={"decimal64": False}))
    assert "arrow_features" not in header["settings"]
    assert schema.field(0).type == pa.decimal128(10, 2)
    assert [str(v) for v, in rows] == ["1.25"]


def test_arrow_without_a_version_or_with_version_0_is_refused_as_databend_does(h):
    reply = h.post("SELECT 1", headers=ASK)
    assert reply.status == 400
    assert reply.json["error"]["code"] == engine.BAD_ARGUMENTS
    assert "arrow_result_version_max" in reply.json["error"]["message"]
    reply = h.post("SELECT 1", headers=ASK, arrow_result_version_max=0)
    assert reply.status == 400
    assert reply.json["error"]["message"] == "arrow_result_version_max must be greater than 0"
    # a JSON request ignores the fields (Databend negotiates only for Arrow)
    assert h.post("SELECT 1", headers=DATABEND_HEADERS, arrow_result_version_max=0).json["data"] == [["1"]]


def test_old_python_drivers_get_version_1_unnamed_in_settings(h):
    legacy = {**ASK, "User-Agent": "databend-driver-python/0.33.7"}
    header, rows, _ = decode(h.post("SELECT 1 a", headers=legacy))
    assert rows == [(1,)]
    assert "arrow_result_version" not in header["settings"]
    newer = {**ASK, "User-Agent": "databend-driver-python/0.33.8"}
    assert h.post("SELECT 1 a", headers=newer).status == 400


def test_version_1_results_holding_a_variant_are_json(h):
    legacy = {**ASK, "User-Agent": "databend-driver-python/0.33.1"}
    reply = h.post("SELECT [parse_json('1')] v", headers=legacy)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["[1]"]]  # as the JSON path writes it (a VARIANT inside as its JSON)


@pytest.mark.parametrize("body, field", [
    ({"arrow_result_version_max": "2"}, "arrow_result_version_max"),
    ({"arrow_result_version_max": -1}, "arrow_result_version_max"),
    ({"arrow_result_version_max": 2.0}, "arrow_result_version_max"),
    ({"arrow_features": []}, "arrow_features"),
    ({"arrow_features": {"decimal64": "no"}}, "arrow_features.decimal64"),
])
def test_arrow_fields_of_the_wrong_type_are_400_naming_the_field(h, body, field):
    reply = h.post("SELECT 1", headers=ASK, **body)
    assert reply.status == 400
    assert f"`{field}`" in reply.json["error"]["message"]


def test_pages_follow_each_requests_accept_header(h):
    first = decode(h.post("SELECT number FROM numbers(6)", headers=ASK, arrow_result_version_max=2,
                          pagination={"max_rows_per_page": 2, "wait_time_secs": 0}))
    header, rows, _ = first
    assert rows == [(0,), (1,)]
    header, rows, _ = decode(h.get(header["next_uri"], headers=ASK))
    assert rows == [(2,), (3,)]
    assert header["settings"]["arrow_result_version"] == 2
    # the same query answers a JSON request in JSON, its rows rendered as text
    reply = h.get(header["next_uri"], headers=DATABEND_HEADERS)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["4"], ["5"]]
    assert "arrow_result_version" not in reply.json["settings"]
    # and an Arrow request of the page again as Arrow
    _, rows, _ = decode(h.get(header["next_uri"], headers=ASK))
    assert rows == [(4,), (5,)]


def test_answers_without_rows_are_json_naming_the_version(h):
    reply = h.post("SELECT number FROM numbers(3) WHERE number > 5", headers=ASK,
                   arrow_result_version_max=3)
    assert reply.header("content-type") == b"application/json"
    answer = reply.json
    assert answer["data"] == [] and answer["schema"] == [{"name": "number", "type": "UInt64"}]
    assert answer["settings"]["arrow_result_version"] == 3
    assert answer["settings"]["arrow_features"] == {"decimal64": True}
    failed = h.post("SELECT 1/0", headers=ASK, arrow_result_version_max=3).json
    assert failed["state"] == "Failed" and failed["settings"]["arrow_result_version"] == 3


def test_a_json_query_cannot_switch_to_arrow(h):
    answer = h.post("SELECT number FROM numbers(4)", headers={**DATABEND_HEADERS,
                                                              "X-DATABEND-QUERY-ID": "q1"},
                    pagination={"max_rows_per_page": 2, "wait_time_secs": 0}).json
    for reply in (h.get(answer["next_uri"], headers=ASK),
                  h.post("SELECT number FROM numbers(4)", arrow_result_version_max=2,
                         headers={**ASK, "X-DATABEND-QUERY-ID": "q1"}),
                  h.get(answer["final_uri"], headers=ASK)):
        assert reply.status == 400
        assert "cannot switch from JSON to Arrow later" in reply.json["error"]["message"]
    # the refused page was not cut: a JSON request still gets it
    assert h.get(answer["next_uri"], headers=DATABEND_HEADERS).json["data"] == [["2"], ["3"]]


def test_the_seed_format_and_untyped_results_are_json(h):
    reply = h.post("SELECT 1 a", headers={"Accept": ARROW}, arrow_result_version_max=2)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["1"]]
    h.db.script("SELECT scripted", [("a", "Int32")], [[(1,)]])  # a result without engine types
    reply = h.post("SELECT scripted", headers=ASK, arrow_result_version_max=2)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["1"]]


def test_a_page_whose_values_do_not_fit_their_types_is_json(h):
    string_type = engine.Database().session().execute("SELECT 'x'").types
    h.db.script("SELECT odd", [("a", "String")], [[(1,)]])  # an int where a String is typed
    make = h.db.scripts["SELECT odd"]

    def typed(session):
        result = make(session)
        result.types = string_type
        return result

    h.db.scripts["SELECT odd"] = typed
    reply = h.post("SELECT odd", headers=ASK, arrow_result_version_max=2)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["1"]]
    assert reply.json["settings"]["arrow_result_version"] == 2


def test_without_pyarrow_accept_is_ignored_and_nothing_is_advertised(h, monkeypatch):
    monkeypatch.setattr(arrow_pages, "_USABLE", False)
    assert arrow_pages.arrow_available() is None
    assert arrow_pages.login_fields() == {}
    reply = h.post("SELECT 1 a", headers=ASK)  # no version asked: no 400 either
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["1"]]
    assert "arrow_result_version" not in reply.json["settings"]


def test_the_login_fields_with_pyarrow():
    assert arrow_pages.arrow_available() == 3
    assert arrow_pages.login_fields() == {"server_max_arrow_result_version": 3,
                                          "server_arrow_features": {"decimal64": True}}


def test_a_script_whose_columns_are_known_at_its_end_answers_json(h):
    reply = h.post("EXECUTE IMMEDIATE $$ BEGIN RETURN TABLE(SELECT 1 a, 'x' b); END; $$", headers=ASK,
                   arrow_result_version_max=2)
    assert reply.header("content-type") == b"application/json"
    assert reply.json["data"] == [["1", "x"]] and [c["name"] for c in reply.json["schema"]] == ["a", "b"]
