"""The query lifecycle conversation of Databend's own conformance test, over the real engine:
POST page 0, pages 1 and 2, /final (repeatable), pages after /final, stats and kill."""

from tests.web.harness import DATABEND_HEADERS as DB
from tests.web.harness import Harness

PAGINATION = {"wait_time_secs": 2, "max_rows_per_page": 4, "max_rows_in_buffer": 4}
SESSION = {"settings": {"http_handler_result_timeout_secs": "3", "max_threads": "32"}}


def start(h):
    reply = h.post("select * from numbers(8)", headers=DB, pagination=PAGINATION, session=SESSION)
    assert reply.status == 200
    return reply.json


def test_post_is_page_0_with_the_full_session(h):
    a = start(h)
    qid = a["id"]
    assert a["data"] == [["0"], ["1"], ["2"], ["3"]]
    assert a["schema"] == [{"name": "number", "type": "UInt64"}]
    assert a["next_uri"] == f"/v1/query/{qid}/page/1"
    assert a["session"]["settings"] == SESSION["settings"]
    assert a["result_timeout_secs"] == 3
    assert a["stats"]["scan_progress"] == {"rows": 8, "bytes": 64}
    assert a["error"] is None and a["affect"] is None


def test_later_pages_carry_no_session_when_it_did_not_change(h):
    a = start(h)
    qid = a["id"]
    p1 = h.get(a["next_uri"], headers=DB).json
    assert p1["data"] == [["4"], ["5"], ["6"], ["7"]]
    assert p1["session"] is None
    assert p1["schema"] == a["schema"]
    assert p1["next_uri"] == f"/v1/query/{qid}/page/2"
    p2 = h.get(p1["next_uri"], headers=DB).json
    assert p2["data"] == [] and p2["session"] is None
    assert p2["state"] == "Succeeded"
    assert p2["next_uri"] == f"/v1/query/{qid}/final"


def test_final_is_repeatable_and_closes_the_query(h):
    a = start(h)
    qid = a["id"]
    p2 = h.get(h.get(a["next_uri"], headers=DB).json["next_uri"], headers=DB).json
    for _ in range(3):
        f = h.get(p2["next_uri"], headers=DB)
        assert f.status == 200
        body = f.json
        assert body["next_uri"] is None and body["data"] == []
        assert body["session"] is None and body["affect"] is None
        assert body["schema"] == a["schema"] and body["state"] == "Succeeded"
    closed = h.get(f"/v1/query/{qid}/page/2", headers=DB)
    assert closed.status == 400
    assert closed.json == {"error": {"code": 400,
                                     "message": f"Query {qid} is closed for finalized"}}
    assert h.get(a["stats_uri"], headers=DB).status == 200
    assert h.get(a["kill_uri"], headers=DB).status == 200


def test_wrong_page_numbers_name_the_current_page(h):
    a = start(h)
    qid = a["id"]
    ahead = h.get(f"/v1/query/{qid}/page/2", headers=DB)
    assert ahead.status == 404
    assert ahead.json["error"]["message"] == "Invalid page number: requested 2, current page is 1"
    assert h.get(f"/v1/query/{qid}/page/0", headers=DB).json["data"] == a["data"]  # retry


def test_a_page_carries_the_session_when_it_changed_since_the_previous_answer():
    h = Harness(inline_steps=1)
    h.db.script("q", [("n", "UInt64")], [[(1,)], [(2,)], [(3,)]], sets={"max_threads": "9"})
    a = h.post("q", headers=DB, pagination={"wait_time_secs": 0, "max_rows_per_page": 1}).json
    assert a["data"] == [["1"]] and a["session"]["settings"] == {}
    h.pump(5)  # two rows buffered: the producer pauses before the statement's end
    p1 = h.get(a["next_uri"], headers=DB).json
    assert p1["data"] == [["2"]] and p1["session"] is None
    h.pump(5)  # the statement ends and changes its session
    p2 = h.get(p1["next_uri"], headers=DB).json
    assert p2["data"] == [["3"]] and p2["session"]["settings"] == {"max_threads": "9"}
    assert h.get(p1["next_uri"], headers=DB).json["session"] is None  # sent once


def test_spec_format_pages_keep_the_session(h):
    a = h.post("select * from numbers(8)", pagination={"max_rows_per_page": 4}).json
    assert h.get(a["next_uri"]).json["session"] == a["session"]
