"""The real `twistd -n queryhttp` process over 127.0.0.1: answers, options, auth, paging."""

import base64
import json
import urllib.error
import urllib.request

from tests.e2e.server import RunningServer


def call(url, path, body=None, auth=("root", ""), headers=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method or ("POST" if data else "GET"))
    req.add_header("Content-Type", "application/json")
    token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def post(url, body, **kwargs):
    status, raw = call(url, "/v1/query", body, **kwargs)
    return status, json.loads(raw)


def test_select_1(server):
    status, answer = post(server.url, {"sql": "SELECT 1"})
    assert status == 200
    assert answer["state"] == "Succeeded"
    assert answer["error"] is None
    assert answer["data"] == [["1"]]
    assert answer["schema"]["fields"][0]["data_type"] == {"type": "UInt8"}  # spec format


def test_log_says_where_it_listens(server):
    assert f"listening on http://127.0.0.1:{server.port}/v1/query".encode() in server.output


def test_pages_and_kill_over_tcp(server):
    status, a = post(server.url, {"sql": "SELECT * FROM numbers(100000)",
                                  "pagination": {"max_rows_per_page": 30000}})
    rows = a["data"]
    while a["next_uri"]:
        status, raw = call(server.url, a["next_uri"])
        assert status == 200
        a = json.loads(raw)
        rows += a["data"]
    assert rows == [[str(i)] for i in range(100000)]
    status, a = post(server.url, {"sql": "SELECT * FROM numbers(100000000)",
                                  "pagination": {"wait_time_secs": 0}})
    assert call(server.url, a["kill_uri"]) == (200, b"")
    status, body = call(server.url, a["stats_uri"] + "/page/1")
    assert status == 400 and b"canceled" in body


def test_bad_credentials_are_401(server):
    status, body = call(server.url, "/v1/query", {"sql": "SELECT 1"}, auth=("root", "x"))
    assert status == 401 and b"wrong password" in body


def test_wire_format_option_access_log_and_body_limit():
    running = RunningServer("--wire_format", "databend", "--access_log",
                            "--max_body_bytes", "2000")
    try:
        status, a = post(running.url, {"sql": "SELECT 1"})
        assert a["schema"] == [{"name": "1", "type": "UInt8"}]
        assert a["next_uri"].endswith("/final")
        call(running.url, a["next_uri"])
        assert running.wait_for_output(b'"POST /v1/query HTTP/1.1" 200')
        status, error = post(running.url, {"sql": "SELECT '" + "x" * 3000 + "'"})
        assert status == 413 and error["error"]["code"] == 413
        assert "--max_body_bytes" in error["error"]["message"]
    finally:
        running.stop()


def test_access_log_is_off_by_default(server):
    post(server.url, {"sql": "SELECT 1"})
    assert not server.wait_for_output(b'"POST /v1/query', timeout=0.5)


def test_users_file(tmp_path):
    from web.auth import hash_password

    users = tmp_path / "users"
    users.write_text(f"alice:{hash_password('wonder')}\n")
    running = RunningServer("--users_file", str(users))
    try:
        assert post(running.url, {"sql": "SELECT 1"}, auth=("alice", "wonder"))[0] == 200
        assert call(running.url, "/v1/query", {"sql": "SELECT 1"})[0] == 401  # no root
    finally:
        running.stop()


def test_lifecycle_in_the_databend_format(server):
    headers = {"X-DATABEND-ROUTE": "warehouse"}
    status, a = post(server.url, {"sql": "select * from numbers(8)",
                                  "pagination": {"max_rows_per_page": 4}}, headers=headers)
    assert a["data"] == [[str(i)] for i in range(4)] and a["session"] is not None
    status, raw = call(server.url, a["next_uri"], headers=headers)
    p1 = json.loads(raw)
    assert p1["data"] == [[str(i)] for i in range(4, 8)] and p1["session"] is None
    status, raw = call(server.url, a["final_uri"], headers=headers, method="POST")
    assert status == 200 and json.loads(raw)["next_uri"] is None
    status, raw = call(server.url, a["stats_uri"] + "/page/2", headers=headers)
    assert status == 400
    assert json.loads(raw)["error"]["message"] == f"Query {a['id']} is closed for finalized"


def test_metrics_and_query_end_events(server):
    post(server.url, {"sql": "SELECT 'observed' AS marker"})
    status, body = call(server.url, "/metrics")
    assert status == 200
    assert b'queryhttp_queries_total{code="0",state="Succeeded"}' in body
    assert b"queryhttp_query_duration_seconds_bucket" in body
    assert call(server.url, "/metrics", auth=("root", "x"))[0] == 401  # credentials by default
    # a failed query's end event is always logged (a succeeded one's with --log_queries)
    post(server.url, {"sql": "SELECT * FROM no_such_table_for_the_log"})
    assert server.wait_for_output(b"of root Failed")
