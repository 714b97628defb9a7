"""Hot routes skip Klein's routing and answer exactly as the Klein routes do."""

import re

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness
from tests.web.test_paging import raw_get, rows, scripted

HOT = [("POST", "/v1/query"), ("GET", "/v1/query/ID/page/0"), ("GET", "/v1/query/ID/final"),
       ("POST", "//v1//query/ID/final/")]
COLD = [("GET", "/v1/query"), ("HEAD", "/v1/query/ID/page/0"), ("GET", "/v1/query/ID"),
        ("GET", "/v1/query/ID/kill"), ("GET", "/v1/query/ID%2Fx/page/0"), ("GET", "/v1/query/%C3%A9/page/0"), ("GET", "/health"),
        ("PUT", "/v1/query/ID/final")]


class CountingFallback:
    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.calls = 0

    def render(self, request):
        self.calls += 1
        return self.wrapped.render(request)


def klein_calls(method, path):
    h = Harness()
    a = h.post("SELECT 1", headers=DATABEND_HEADERS).json
    dispatcher = h.app.resource()
    counter = dispatcher._fallback = CountingFallback(dispatcher._fallback)
    h.http = type(h.http)(dispatcher)
    h.request(method, path.replace("ID", a["id"]), {"sql": "SELECT 1"} if method == "POST" else None)
    return counter.calls


@pytest.mark.parametrize("method, path", HOT)
def test_hot_routes_bypass_klein(method, path):
    assert klein_calls(method, path) == 0


@pytest.mark.parametrize("method, path", COLD)
def test_other_requests_go_through_klein(method, path):
    assert klein_calls(method, path) == 1


def normalized(reply, query_id):
    """Status, headers that matter and the body, with the run's query and server ids replaced."""
    body = reply.body.replace(query_id.encode(), b"ID") if query_id else reply.body
    body = re.sub(rb'[0-9a-f]{32}', b"NODE", body)
    headers = {name: reply.header(name) for name in
               ("content-type", "x-databend-query-state", "allow", "www-authenticate")}
    return reply.status, headers, body


def conversation(h):
    """A query paged in two pages plus the error cases of the hot routes."""
    scripted(h, [rows(0, 3), rows(3, 5)])
    h.db.script("f", [("n", "Int32")], [rows(0, 1)], error_at=0)
    replies = []
    first = h.post("q", headers=DATABEND_HEADERS, pagination={"max_rows_per_page": 3})
    qid = first.json["id"]
    replies.append(normalized(first, qid))
    for path in (first.json["next_uri"], first.json["next_uri"], f"/v1/query/{qid}/page/9",
                 f"/v1/query/{qid}/page/x", "/v1/query/nope/page/0", "/v1/query/a%20b/page/0",
                 "/v1/query/a%25b/page/0", "/v1/query/a%2Fb/page/0",
                 "/v1/query/%C3%A9/final"):
        replies.append(normalized(h.get(path, headers=DATABEND_HEADERS), qid))
    replies.append(normalized(h.get(path, auth=None), qid))
    replies.append(normalized(h.request("POST", f"/v1/query/{qid}/final"), qid))
    replies.append(normalized(h.get(f"/v1/query/{qid}/page/1"), qid))
    replies.append(normalized(h.post("f"), None)[:2])
    replies.append(normalized(h.request("POST", "/v1/query", b"{bad"), None))
    return replies


def test_fast_and_klein_routes_give_the_same_answers():
    assert conversation(Harness()) == conversation(Harness(fast_routes=False))


def test_a_bug_on_a_hot_route_is_a_logged_500(h, no_logged_errors):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    h.app.queries.get = broken
    reply = h.get("/v1/query/x/page/0", headers=DATABEND_HEADERS)
    assert reply.status == 500 and b"boom" not in reply.body
    assert len(no_logged_errors) == 1
    no_logged_errors.clear()  # the one expected error


def test_a_long_poll_answers_after_the_wait_on_the_hot_route():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 3 + [rows(0, 2)])
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    h.app.queries.find(a["id"]).wait_secs = 10
    waiting = h.start("GET", a["next_uri"])
    assert not waiting.done
    h.pump(10)
    assert waiting.reply().json["data"] == [["0"], ["1"]]


def test_a_disconnected_long_poll_writes_nothing():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 5 + [rows(0, 2)])
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    h.app.queries.find(a["id"]).wait_secs = 10
    gone = raw_get(h, a["next_uri"])
    transport = gone.channel.transport
    gone.connectionLost(Exception("client went away"))
    h.pump(10)
    assert transport.written.getvalue() == b""
    assert h.get(a["next_uri"]).json["data"] == [["0"], ["1"]]
