"""POST /v1/query with `params` (databend-driver >= 0.34's server-side binding)."""

import pytest

from tests.web.harness import DATABEND_HEADERS


def test_params_array_binds_question_marks(h):
    a = h.post("SELECT ?, ?, ?", params=[1, "a'b", None], headers=DATABEND_HEADERS).json
    assert a["state"] == "Succeeded", a
    assert [c["type"] for c in a["schema"]] == ["UInt8", "String", "NULL"]
    assert a["data"] == [["1", "a'b", None]]


def test_params_object_binds_names_and_inserts_values(h):
    h.post("CREATE TABLE t (a INT, b STRING)", headers=DATABEND_HEADERS)
    a = h.post("INSERT INTO t VALUES (:a, :b)", params={"a": 7, "b": "'); DROP TABLE t; --"},
               headers=DATABEND_HEADERS).json
    assert a["state"] == "Succeeded" and a["data"] == [["1"]], a
    rows = h.post("SELECT a, b FROM t", headers=DATABEND_HEADERS).json["data"]
    assert rows == [["7", "'); DROP TABLE t; --"]]


def test_params_that_do_not_fit_fail_the_query_with_1006(h):
    a = h.post("SELECT ?", params={"x": 1}, headers=DATABEND_HEADERS).json
    assert a["state"] == "Failed" and a["error"]["code"] == 1006
    assert a["error"]["message"].startswith("params must be a JSON array")


@pytest.mark.parametrize("params", ["1", 5, True])
def test_params_of_another_json_type_are_a_400(h, params):
    reply = h.post("SELECT ?", params=params, headers=DATABEND_HEADERS)
    assert reply.status == 400
    assert "`params` must be an array or an object" in reply.json["error"]["message"]
