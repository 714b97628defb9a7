"""The real `twistd -n queryhttp` process answers SELECT 1 over 127.0.0.1."""

import base64
import json
import urllib.request


def post(url, body, auth=("root", "")):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.status, json.loads(resp.read())


def test_select_1(server):
    status, answer = post(server.url, {"sql": "SELECT 1"})
    assert status == 200
    assert answer["state"] == "Succeeded"
    assert answer["error"] is None
    assert answer["data"] == [["1"]]


def test_log_says_where_it_listens(server):
    assert f"listening on http://127.0.0.1:{server.port}/v1/query".encode() in server.output
