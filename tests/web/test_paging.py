"""Pages, long-polling on the clock, page retry, backpressure, kill, disconnects and expiry."""

from tests.web.harness import DATABEND_HEADERS, Harness


def rows(start, stop):
    return [(i,) for i in range(start, stop)]


def wire(start, stop):
    return [[str(i)] for i in range(start, stop)]


def scripted(h, batches, sql="q"):
    h.db.script(sql, [("number", "UInt64")], batches)
    return h.db


def test_pages_hold_at_most_max_rows_per_page_and_cover_every_row_once(h):
    scripted(h, [rows(0, 5), rows(5, 10)])
    a = h.post("q", pagination={"max_rows_per_page": 4}).json
    seen = a["data"]
    assert a["data"] == wire(0, 4) and a["next_uri"].endswith("/page/1")
    pages = 1
    while a["next_uri"]:
        a = h.get(a["next_uri"]).json
        assert len(a["data"]) <= 4
        seen += a["data"]
        pages += 1
    assert seen == wire(0, 10) and pages == 3


def test_databend_format_ends_with_final_after_the_last_data_page(h):
    scripted(h, [rows(0, 7)])
    a = h.post("q", pagination={"max_rows_per_page": 4}, headers=DATABEND_HEADERS).json
    assert a["next_uri"].endswith("/page/1")
    b = h.get(a["next_uri"], headers=DATABEND_HEADERS).json
    assert b["data"] == wire(4, 7) and b["next_uri"].endswith("/final")
    assert h.get(b["next_uri"], headers=DATABEND_HEADERS).json["next_uri"] is None


def test_last_page_can_be_asked_again_and_others_are_404(h):
    scripted(h, [rows(0, 10)])
    a = h.post("q", pagination={"max_rows_per_page": 4}).json
    uri1 = a["next_uri"]
    p1 = h.get(uri1).json
    assert p1["data"] == wire(4, 8)
    assert h.get(uri1).json["data"] == wire(4, 8)  # safe retry
    base = a["stats_uri"]
    missing = h.get(base + "/page/0")  # older than the last one
    assert missing.status == 404
    assert missing.body == b"Invalid page number: requested 0, current page is 2"
    assert h.get(base + "/page/7").status == 404
    assert h.get(base + "/page/x").status == 404
    assert h.get(base + "/page/%C2%B2").status == 404  # a digit, but not an ASCII one
    assert h.get(p1["next_uri"]).json["data"] == wire(8, 10)


def test_unknown_query_is_404_with_the_reason_in_both_formats(h):
    spec = h.get("/v1/query/nope/page/0")
    assert spec.status == 404 and b"nope" in spec.body
    databend = h.get("/v1/query/nope/page/0", headers=DATABEND_HEADERS)
    assert databend.status == 404
    assert databend.json["error"]["code"] == 404 and "nope" in databend.json["error"]["message"]
    assert h.get("/v1/query/nope").status == 404
    assert h.get("/v1/query/nope/kill").status == 404
    assert h.get("/v1/query/nope/final").status == 404


def test_post_long_polls_until_wait_time_then_answers_the_rows_so_far():
    h = Harness(inline_steps=1)
    scripted(h, [rows(0, 3)] + [[]] * 50)
    post = h.start("POST", "/v1/query", {"sql": "q", "pagination": {"wait_time_secs": 2}})
    h.pump(3)
    assert not post.done
    h.clock.advance(1.9)
    assert not post.done
    h.clock.advance(0.1)
    a = post.reply().json
    assert a["state"] == "Running"
    assert a["data"] == wire(0, 3)
    assert a["next_uri"].endswith("/page/1")


def test_empty_long_poll_points_at_the_same_page_again():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 50 + [rows(0, 2)])
    post = h.start("POST", "/v1/query", {"sql": "q"})
    h.clock.advance(1)  # the seed default wait is 1 second
    a = post.reply().json
    assert a["data"] == [] and a["state"] == "Running"
    assert a["next_uri"].endswith("/page/0")
    page = h.start("GET", a["next_uri"])
    h.pump(60)
    b = page.reply().json
    assert b["data"] == wire(0, 2) and b["state"] == "Succeeded" and b["next_uri"] is None


def test_page_returns_as_soon_as_it_is_full():
    h = Harness(inline_steps=1)
    scripted(h, [rows(0, 2), rows(2, 4), rows(4, 6)] + [[]] * 50)
    post = h.start("POST", "/v1/query",
                   {"sql": "q", "pagination": {"max_rows_per_page": 4, "wait_time_secs": 30}})
    assert not post.done
    h.pump(1)
    assert post.done  # 4 rows: full, long before 30 seconds
    assert post.reply().json["data"] == wire(0, 4)


def test_wait_zero_answers_at_once():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 5 + [rows(0, 1)])
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    assert a["state"] == "Running" and a["data"] == [] and a["next_uri"].endswith("/page/0")


def test_default_wait_is_ten_seconds_in_the_databend_format():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 5)
    post = h.start("POST", "/v1/query", {"sql": "q"}, headers=DATABEND_HEADERS)
    h.clock.advance(9.9)
    assert not post.done
    h.clock.advance(0.1)
    assert post.reply().json["state"] == "Running"


def test_producer_pauses_when_the_buffer_is_full_and_resumes_on_read():
    h = Harness(inline_steps=1)
    scripted(h, [rows(i, i + 1) for i in range(100)])
    a = h.post("q", pagination={"max_rows_per_page": 2, "max_rows_in_buffer": 4,
                                "wait_time_secs": 0}).json
    result = h.db.results[-1]
    h.pump(50)
    assert a["data"] == wire(0, 1)  # page 0 took the one row made inside the POST
    assert result.steps == 5  # then paused with 4 unread rows, not 100
    b = h.get(a["next_uri"]).json
    assert b["data"] == wire(1, 3)
    h.pump(50)
    assert result.steps == 7


def test_max_rows_in_buffer_below_a_page_still_serves_whole_pages():
    h = Harness(inline_steps=1)
    scripted(h, [rows(i, i + 1) for i in range(10)])
    a = h.post("q", pagination={"max_rows_per_page": 3, "max_rows_in_buffer": 0,
                                "wait_time_secs": 0}).json
    seen = a["data"]
    for _ in range(20):
        if not a["next_uri"]:
            break
        h.pump(5)
        a = h.get(a["next_uri"]).json
        seen += a["data"]
    assert seen == wire(0, 10)


def test_kill_during_execution_stops_work_and_frees_the_result():
    h = Harness(inline_steps=1)
    scripted(h, [rows(i, i + 1) for i in range(1000)])
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    h.pump(3)
    result = h.db.results[-1]
    steps = result.steps
    killed = h.get(a["kill_uri"])
    assert killed.status == 200 and killed.body == b""
    assert result.closed
    h.pump(10)
    assert result.steps == steps
    query = h.app.queries.find(a["id"])
    assert query.buffer.rows == [] and query._result is None
    page = h.get(a["next_uri"])
    assert page.status == 400 and b"canceled" in page.body
    final = h.get(a["final_uri"], headers=DATABEND_HEADERS).json
    assert final["state"] == "Failed" and final["error"]["code"] == 1043
    assert h.get(a["kill_uri"]).status == 200  # repeatable
    assert h.app.queries.running == 0


def test_kill_by_post_wakes_a_waiting_page_with_a_failed_answer():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 100)
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    h.app.queries.find(a["id"]).wait_secs = 10
    waiting = h.start("GET", a["next_uri"])
    assert not waiting.done
    assert h.request("POST", a["kill_uri"]).status == 200
    b = waiting.reply().json
    assert b["state"] == "Failed" and b["error"]["code"] == 1043 and b["next_uri"] is None


def raw_get(h, path):
    """A real twisted.web request over a dummy channel, so the test can drop its connection."""
    from twisted.web.server import Request
    from twisted.web.test.requesthelper import DummyChannel

    request = Request(DummyChannel())
    request.requestHeaders.setRawHeaders(b"authorization", [b"Basic cm9vdDo="])
    request.method = b"GET"
    request.uri = request.path = path.encode()
    request.clientproto = b"HTTP/1.1"
    request.prepath = []
    request.postpath = request.path.split(b"/")[1:]
    request.render(h.app.resource())
    return request


def test_client_disconnect_ends_only_its_own_request():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 5 + [rows(0, 2)])
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    query = h.app.queries.find(a["id"])
    query.wait_secs = 10
    gone = raw_get(h, a["next_uri"])
    other = h.start("GET", a["stats_uri"])
    assert query.buffer.waiting == 1
    gone.connectionLost(Exception("client went away"))
    assert query.buffer.waiting == 0
    assert h.clock.getDelayedCalls() == []  # its long-poll timer went too
    assert query.state == "Running"
    assert other.reply().status == 200
    h.pump(10)
    assert query.state == "Succeeded"
    assert h.get(a["next_uri"]).json["data"] == wire(0, 2)


def test_stats_uri_does_not_wait():
    h2 = Harness(inline_steps=1)
    scripted(h2, [[]] * 50)
    a = h2.post("q", pagination={"wait_time_secs": 0}).json
    stats = h2.get(a["stats_uri"])
    assert stats.status == 200 and stats.json["data"] == [] and stats.json["state"] == "Running"


def test_unread_query_expires_after_result_timeout():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 50)
    a = h.post("q", pagination={"wait_time_secs": 0},
               session={"settings": {"http_handler_result_timeout_secs": "5"}}).json
    result = h.db.results[-1]
    h.clock.advance(4)
    h.app.sweep()
    assert h.get(a["stats_uri"]).status == 200  # reading refreshes it
    h.clock.advance(5.5)
    h.app.sweep()
    assert result.closed
    gone = h.get(a["next_uri"])
    assert gone.status == 404 and b"expired" in gone.body
    assert h.app.queries.running == 0


def test_a_waiting_poll_keeps_its_query_alive():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 50)
    a = h.post("q", pagination={"wait_time_secs": 0},
               session={"settings": {"http_handler_result_timeout_secs": "2"}}).json
    h.app.queries.find(a["id"]).wait_secs = 100
    waiting = h.start("GET", a["next_uri"])
    h.clock.advance(50)
    h.app.sweep()
    assert h.app.queries.find(a["id"]) is not None
    h.clock.advance(50)
    assert waiting.reply().status == 200


def test_error_while_producing_is_a_failed_page():
    h = Harness(inline_steps=1)
    h.db.script("q", [("number", "UInt64")], [rows(0, 2), [], [], rows(2, 4)], error_at=2)
    a = h.post("q", pagination={"wait_time_secs": 0}, headers=DATABEND_HEADERS).json
    h.pump(5)
    b = h.get(a["next_uri"], headers=DATABEND_HEADERS).json
    assert b["state"] == "Failed" and b["error"] == {"code": 1006, "message": "division by zero"}
    assert b["data"] == [] and b["next_uri"].endswith("/final")


def test_finished_query_is_evicted_beyond_max_retained():
    from web.config import ServiceConfig

    h = Harness(ServiceConfig(max_retained_queries=3))
    ids = [h.post("SELECT 1").json["id"] for _ in range(5)]
    assert len(h.app.queries) == 3
    assert h.get(f"/v1/query/{ids[0]}").status == 404
    assert h.get(f"/v1/query/{ids[-1]}").status == 200


def test_queries_holding_unread_rows_are_capped_until_read():
    from web.config import ServiceConfig

    h = Harness(ServiceConfig(max_retained_queries=2, default_rows_per_page=2))
    unread = [h.post("SELECT * FROM numbers(10)").json for _ in range(4)]
    assert all(a["state"] != "Failed" for a in unread)
    refused = h.post("SELECT 1").json
    assert refused["state"] == "Failed" and refused["error"]["code"] == 1067
    assert "unread results (4)" in refused["error"]["message"]
    assert h.request("POST", unread[0]["final_uri"]).status == 200
    assert h.post("SELECT 1").json["state"] == "Succeeded"


def test_post_final_closes_the_query_and_drops_its_rows():
    h = Harness(inline_steps=1)
    scripted(h, [rows(0, 3)] + [[]] * 20)
    a = h.post("q", pagination={"wait_time_secs": 0}, headers=DATABEND_HEADERS).json
    result = h.db.results[-1]
    final = h.request("POST", a["final_uri"], headers=DATABEND_HEADERS)
    assert final.status == 200
    f = final.json
    assert f["next_uri"] is None and f["data"] == [] and f["session"] is None
    assert f["affect"] is None
    assert result.closed and h.app.queries.running == 0
    page = h.get(a["stats_uri"] + "/page/1", headers=DATABEND_HEADERS)
    assert page.status == 400 and "finalized" in page.json["error"]["message"]
    assert h.request("POST", a["final_uri"]).status == 200  # repeatable


def test_a_query_whose_client_vanished_mid_poll_expires():
    h = Harness(inline_steps=1)
    scripted(h, [[]] * 50)
    a = h.post("q", pagination={"wait_time_secs": 0},
               session={"settings": {"http_handler_result_timeout_secs": "5"}}).json
    query = h.app.queries.find(a["id"])
    query.wait_secs = 100
    gone = raw_get(h, a["next_uri"])
    h.clock.advance(3)
    gone.connectionLost(Exception("client went away"))
    assert query.buffer.waiting == 0
    h.clock.advance(4)  # 4 s after the poll ended: still within the result timeout
    h.app.sweep()
    assert h.app.queries.find(a["id"]) is query
    h.clock.advance(1.5)
    h.app.sweep()
    assert h.app.queries.find(a["id"]) is None
    assert h.db.results[-1].closed and h.app.queries.running == 0
    assert h.clock.getDelayedCalls() == []
