"""Fair admission: queries paused on unread pages hold no running slot, and no user takes
every slot (max_running_queries_per_user)."""

import base64

from tests.web.harness import Harness, run_now
from web.auth import Authenticator, hash_password
from web.config import ServiceConfig


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def rows(start, stop):
    return [(i,) for i in range(start, stop)]


def test_abandoned_queries_paused_on_full_buffers_do_not_lock_others_out():
    h = Harness()  # max_running_queries=64
    h.db.script("big", [("n", "UInt64")], [rows(0, 2)] * 100)
    abandoned = []
    for _ in range(64):  # each starts a result larger than its buffer and never reads it
        a = h.post("big", pagination={"max_rows_per_page": 2, "wait_time_secs": 0}).json
        assert a["state"] == "Running"
        abandoned.append(h.app.queries.find(a["id"]))
        h.pump(5)  # the producer refills the buffer page 0 took from, then pauses
    assert all(q.state == "Running" and q.buffer.full for q in abandoned)
    assert h.app.queries.running == 64 and h.app.queries.producing() == 0
    assert h.post("SELECT 1").json["state"] == "Succeeded"  # the 65th client
    a = h.post("big", pagination={"max_rows_per_page": 2, "wait_time_secs": 0}).json
    assert a["state"] == "Running"


def test_producing_queries_hold_their_slots_up_to_max_running_queries():
    h = Harness(ServiceConfig(max_running_queries=3, max_running_queries_per_user=3),
                inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 20)
    for _ in range(3):  # N = 3: accepted
        assert h.post("slow", pagination={"wait_time_secs": 0}).json["state"] == "Running"
    queued = h.post("slow", pagination={"wait_time_secs": 0}).json  # N + 1 waits
    assert queued["state"] == "Running" and h.app.queries.queued == 1
    assert h.app.queries.producing() == 3


def test_a_paused_query_that_is_read_again_takes_its_slot_back():
    h = Harness(ServiceConfig(max_running_queries=1), inline_steps=1)
    h.db.script("big", [("n", "UInt64")], [rows(0, 2)] * 100)
    a = h.post("big", pagination={"max_rows_per_page": 2, "wait_time_secs": 0}).json
    h.pump(5)
    query = h.app.queries.find(a["id"])
    assert query.buffer.full and h.app.queries.producing() == 0
    h.get(a["next_uri"])  # a page read: the producer may run again
    assert not query.buffer.full and h.app.queries.producing() == 1
    h.post("SELECT 1", pagination={"wait_time_secs": 0})
    assert h.app.queries.queued == 1  # the slot is taken again: the next query waits


def test_running_queries_are_capped_per_user():
    users = {"alice": hash_password("a"), "bob": hash_password("b")}
    h = Harness(ServiceConfig(max_running_queries_per_user=2),
                authenticator=Authenticator(users, run_in_thread=run_now), inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 20)
    alice, bob = basic("alice", "a"), basic("bob", "b")
    for _ in range(2):  # N = 2: accepted
        a = h.post("slow", auth=alice, pagination={"wait_time_secs": 0}).json
        assert a["state"] == "Running"
    third = h.post("slow", auth=alice, pagination={"wait_time_secs": 0}).json  # N + 1
    assert third["state"] == "Running" and h.app.queries.queued == 1  # waits
    assert h.post("SELECT 1", auth=bob).json["state"] == "Succeeded"  # others are not capped
    h.pump(60)  # alice's queries end: her third runs
    assert h.app.queries.queued == 0
    assert h.post("SELECT 1", auth=alice).json["state"] == "Succeeded"


def test_under_pressure_queries_unread_for_pressure_idle_secs_expire_early():
    h = Harness(ServiceConfig(max_retained_queries=2, default_rows_per_page=2,
                              pressure_idle_secs=10))
    unread = [h.post("SELECT * FROM numbers(10)").json for _ in range(4)]  # the hold limit
    h.clock.advance(9)
    h.get(unread[1]["stats_uri"])  # read recently: not idle
    refused = h.post("SELECT 1").json  # nobody idle for 10 s yet
    assert refused["state"] == "Failed" and refused["error"]["code"] == 1067
    h.clock.advance(1)
    assert h.post("SELECT 1").json["state"] == "Succeeded"
    gone = [a for a in unread if h.app.queries.find(a["id"]) is None]
    assert [a["id"] for a in gone] == [unread[0]["id"]]  # the longest idle, not all of them
    assert h.get(unread[0]["next_uri"]).status == 404  # as after its result timeout
