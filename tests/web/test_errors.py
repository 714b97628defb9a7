"""HTTP error statuses with their reasons (400, 401, 404, 405, 413) and SQL errors as 200."""

import base64

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness
from web.auth import BACKOFF_MAX_SECS
from web.config import ServiceConfig


@pytest.mark.parametrize("body, reason", [
    (b"{bad json", "invalid JSON"),
    (b"", "invalid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"sql": "SELECT 1", "x": ' + b"[" * 100_000, "invalid JSON: nested too deeply"),
    (b"{}", "missing field `sql`"),
    (b'{"sql": 1}', "`sql` must be a string"),
    (b'{"sql": "SELECT 1", "session": {"settings": {"max_threads": 2}}}',
     "setting `max_threads` must be a string"),
    (b'{"sql": "SELECT 1", "session": 3}', "`session` must be an object"),
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": -1}}',
     "`pagination.wait_time_secs` must be a non-negative integer"),
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": 1.5}}',
     "`pagination.wait_time_secs` must be a non-negative integer"),
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": true}}',
     "`pagination.wait_time_secs` must be a non-negative integer"),
    (b'{"sql": "SELECT 1", "pagination": {"max_rows_per_page": 0}}',
     "`pagination.max_rows_per_page` must be a positive integer"),
    (b'{"sql": "SELECT 1", "session_id": 5}', "`session_id` must be a string"),
])
def test_bad_requests_are_400_with_the_reason(h, body, reason):
    spec = h.request("POST", "/v1/query", body)
    assert spec.status == 400
    assert reason in spec.body.decode()
    databend = h.request("POST", "/v1/query", body, headers=DATABEND_HEADERS)
    assert databend.status == 400
    assert databend.json["error"]["code"] == 400
    assert reason in databend.json["error"]["message"]


def test_sql_error_is_200_failed_with_the_code_in_both_formats(h):
    spec = h.post("SELEC 1")
    assert spec.status == 200
    a = spec.json
    assert a["state"] == "Failed"
    assert a["error"]["code"] == a["error"]["stats"] == 1005
    assert a["error"]["message"] and "backtrace" in a["error"]
    assert a["data"] == [] and a["next_uri"] is None and a["id"]
    assert a["schema"] == {"fields": [], "metadata": {}}
    d = h.post("SELEC 1", headers=DATABEND_HEADERS).json
    assert d["state"] == "Failed" and d["error"]["code"] == 1005 and set(d["error"]) == {
        "code", "message"}
    assert d["schema"] == [] and d["data"] == []
    assert d["next_uri"] == f"/v1/query/{d['id']}/final"
    final = h.get(d["next_uri"], headers=DATABEND_HEADERS).json
    assert final["state"] == "Failed" and final["next_uri"] is None


def test_heartbeat_with_a_bad_body_is_400(h):
    for body in (b"[", b"[" * 100_000, b'{"node_to_queries": 3}', b"[1]",
                 b'{"node_to_queries": {"n": "abc"}}'):
        assert h.request("POST", "/v1/session/heartbeat", body).status == 400


def test_unknown_path_is_404(h):
    assert h.get("/v2/nothing").status == 404
    assert h.get("/v2/nothing", headers=DATABEND_HEADERS).json == {
        "error": {"code": 404, "message": "not found"}}


def test_wrong_method_is_405_naming_the_allowed_ones(h):
    reply = h.get("/v1/query")
    assert reply.status == 405 and reply.header("allow") == b"POST"
    assert reply.header("content-type") == b"text/plain; charset=utf-8"
    assert reply.body == b"method GET not allowed on /v1/query (allowed: POST)"
    options = h.request("OPTIONS", "/v1/query", headers=DATABEND_HEADERS)
    assert options.status == 405
    assert options.json == {"error": {"code": 405, "message":
                                      "method OPTIONS not allowed on /v1/query (allowed: POST)"}}
    a = h.post("SELECT 1").json
    put = h.request("PUT", a["final_uri"])
    assert put.status == 405 and put.header("allow") == b"GET, POST"


def test_head_never_kills_or_closes_a_query(h):
    a = h.post("SELECT * FROM numbers(30000)", pagination={"max_rows_per_page": 10000}).json
    for uri in (a["kill_uri"], a["final_uri"]):
        head = h.request("HEAD", uri)
        assert head.status == 405 and head.header("allow") == b"GET, POST"
    page = h.get(a["next_uri"])
    assert page.status == 200 and page.json["state"] != "Failed"
    assert len(page.json["data"]) == 10000


@pytest.mark.parametrize("auth, reason", [
    (None, "no authorization header"),
    ("Basic " + base64.b64encode(b"root:secret").decode(), "unknown user or wrong password"),
    ("Basic " + base64.b64encode(b"alice:").decode(), "unknown user or wrong password"),
    ("Bearer abc", "invalid Bearer token"),
    ("Digest abc", "unsupported authorization header format"),
    ("Basic !!!", "malformed"),
])
def test_bad_credentials_are_401_with_the_reason(h, auth, reason):
    reply = h.post("SELECT 1", auth=auth)
    assert reply.status == 401 and reason in reply.body.decode()
    assert reply.header("www-authenticate") == b'Basic realm="queryhttp"'
    h.clock.advance(BACKOFF_MAX_SECS)  # past a failed login's back-off
    d = h.post("SELECT 1", auth=auth, headers=DATABEND_HEADERS)
    assert d.status == 401 and d.json["error"]["code"] == 5100


def test_auth_comes_before_json_parsing(h):
    assert h.request("POST", "/v1/query", b"{bad", auth=None).status == 401


@pytest.mark.parametrize("method, suffix", [("GET", "/page/0"), ("GET", ""), ("GET", "/kill"),
                                             ("POST", "/final"), ("POST", "/kill"),
                                             ("GET", "/final")])
def test_every_query_endpoint_needs_credentials(h, method, suffix):
    a = h.post("SELECT 1").json
    assert h.request(method, a["stats_uri"] + suffix, auth=None).status == 401


@pytest.mark.parametrize("path", ["/v1/session/login", "/v1/session/heartbeat",
                                  "/v1/session/logout", "/v1/verify"])
def test_session_endpoints_need_credentials(h, path):
    assert h.request("POST", path, {}, auth=None).status == 401


def test_body_larger_than_the_limit_is_413():
    h = Harness(ServiceConfig(max_body_bytes=100))
    reply = h.request("POST", "/v1/query", {"sql": "SELECT 1", "pad": "x" * 200})
    assert reply.status == 413 and b"--max_body_bytes" in reply.body
    assert h.post("SELECT 1").status == 200


def test_a_bug_is_a_500_without_a_traceback_and_is_logged(h, no_logged_errors):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    h.app.queries.get = broken
    reply = h.get("/v1/query/x", headers=DATABEND_HEADERS)
    assert reply.status == 500
    assert reply.json["error"]["message"].startswith("internal error")
    assert b"boom" not in reply.body
    assert len(no_logged_errors) == 1
    no_logged_errors.clear()  # the one expected error
