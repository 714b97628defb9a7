"""The statement queue: over max_running_queries(_per_user) a query waits (fair between users)
instead of failing, and fails with 1122 only after statement_queued_timeout_in_seconds."""

import base64

from tests.web.harness import DATABEND_HEADERS, ROOT, Harness, ScriptedResult, run_now
from web.auth import Authenticator, hash_password
from web.config import ServiceConfig

NO_WAIT = {"wait_time_secs": 0}


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def queue_harness(order, steps=3, **config):
    """A harness whose statements q* each take `steps` engine steps, one per pump, and note
    in `order` when they start."""
    users = {"root": hash_password(""), "alice": hash_password("a"), "bob": hash_password("b")}
    h = Harness(ServiceConfig(**config), authenticator=Authenticator(users, run_in_thread=run_now),
                inline_steps=1)

    class Scripts(dict):
        def __contains__(self, sql):
            return sql.startswith("q")

        def __getitem__(self, sql):
            def make(session):
                order.append(sql)
                return ScriptedResult([("n", "UInt64")], [[]] * (steps - 1) + [[(1,)]])
            return make

    h.db.scripts = Scripts()
    return h


def read_to_end(h, answer, auth=ROOT):
    """Poll `answer`'s query to its end, running the engine's steps between polls."""
    for _ in range(200):
        if not answer.get("next_uri"):
            return answer
        h.pump()
        answer = h.get(answer["next_uri"], auth=auth).json
    raise AssertionError(f"query {answer['id']} did not end: {answer['state']}")


def test_more_clients_than_slots_all_succeed_in_fifo_order():
    order = []
    h = queue_harness(order, max_running_queries=2, max_running_queries_per_user=2)
    answers = [h.post(f"q{i}", pagination=NO_WAIT).json for i in range(6)]
    assert [a["state"] for a in answers] == ["Running"] * 6  # none refused
    assert order == ["q0", "q1"] and h.app.queries.queued == 4
    assert answers[5]["data"] == [] and answers[5]["next_uri"]  # queued: poll as usual
    finals = [read_to_end(h, a) for a in answers]
    assert [f["state"] for f in finals] == ["Succeeded"] * 6
    assert order == [f"q{i}" for i in range(6)]  # first come, first served
    assert h.app.queries.queued == 0 and h.app.queries.running == 0


def test_a_long_poll_of_a_queued_query_answers_once_it_ran():
    order = []
    h = queue_harness(order, max_running_queries=1)
    first = h.post("q0", pagination=NO_WAIT).json
    queued = h.start("POST", "/v1/query", {"sql": "q1", "pagination": {"wait_time_secs": 5}})
    assert not queued.done  # q1 waits for a slot, its POST long-polls
    h.clock.advance(5)  # the poll ends with no rows yet: Running, a next_uri
    answer = queued.reply().json
    assert answer["state"] == "Running" and answer["data"] == [] and order == ["q0"]
    poll = h.start("GET", answer["next_uri"])
    assert not poll.done
    read_to_end(h, first)  # q0 is read to its end: it leaves, q1 starts
    h.pump(3)
    assert poll.done and poll.reply().json["data"] == [["1"]] and order == ["q0", "q1"]


def test_one_users_burst_does_not_starve_another_user():
    order = []
    h = queue_harness(order, max_running_queries=1)
    alice, bob = basic("alice", "a"), basic("bob", "b")
    burst = [h.post(f"q-alice-{i}", auth=alice, pagination=NO_WAIT).json for i in range(4)]
    bobs = h.post("q-bob", auth=bob, pagination=NO_WAIT).json
    for a in burst:
        read_to_end(h, a, alice)
    read_to_end(h, bobs, bob)
    # alice's first ran at once; then the users take turns: bob waits behind one of
    # alice's queued queries, not behind all three
    assert order == ["q-alice-0", "q-alice-1", "q-bob", "q-alice-2", "q-alice-3"]


def test_over_the_per_user_limit_a_query_waits_while_other_users_run():
    order = []
    h = queue_harness(order, max_running_queries=8, max_running_queries_per_user=1)
    alice, bob = basic("alice", "a"), basic("bob", "b")
    a0 = h.post("q-a0", auth=alice, pagination=NO_WAIT).json
    a1 = h.post("q-a1", auth=alice, pagination=NO_WAIT).json
    b0 = h.post("q-b0", auth=bob, pagination=NO_WAIT).json
    assert order == ["q-a0", "q-b0"]  # alice's second waits; bob is not held up
    assert a1["state"] == "Running" and h.app.queries.queued == 1
    assert read_to_end(h, a0, alice)["state"] == "Succeeded"
    assert order == ["q-a0", "q-b0", "q-a1"]
    assert read_to_end(h, a1, alice)["state"] == read_to_end(h, b0, bob)["state"] == "Succeeded"


def test_a_queued_query_fails_after_the_queue_timeout_and_frees_nothing():
    order = []
    h = queue_harness(order, max_running_queries=1, statement_queued_timeout_in_seconds=5)
    running = h.post("q0", pagination=NO_WAIT).json
    queued = h.post("q1", pagination=NO_WAIT).json
    h.clock.advance(4)  # N - 1 seconds: still waiting
    assert h.get(queued["stats_uri"]).json["state"] == "Running"
    h.clock.advance(1)  # N seconds
    failed = read_to_end(h, h.get(queued["stats_uri"]).json)
    assert failed["state"] == "Failed"
    assert failed["error"]["code"] == 1122
    assert failed["error"]["message"] == "[QUERY-QUEUE] Query queuing timeout exceeded"
    h.clock.advance(1)  # N + 1: nothing more happens
    assert order == ["q0"] and h.app.queries.queued == 0
    assert h.app.queries.producing() == 1  # q0 keeps its slot; nothing was freed
    assert h.post("q2", pagination=NO_WAIT).json["state"] == "Running"
    assert h.app.queries.queued == 1  # q2 queues behind q0, as q1 did
    read_to_end(h, running)
    assert order == ["q0", "q2"]


def test_kill_while_queued_leaves_the_queue_and_admits_no_one_early():
    order = []
    h = queue_harness(order, max_running_queries=1)
    running = h.post("q0", pagination=NO_WAIT).json
    killed = h.post("q1", pagination=NO_WAIT).json
    by_sql = h.post("q2", pagination=NO_WAIT).json
    waiting = h.post("q3", pagination=NO_WAIT).json
    assert h.get(killed["kill_uri"]).status == 200
    assert h.post(f"KILL QUERY '{by_sql['id']}'").json["state"] == "Succeeded"  # skips the queue
    assert h.app.queries.queued == 1 and order == ["q0"]  # q0 still holds the only slot
    answer = read_to_end(h, h.get(by_sql["stats_uri"]).json)
    assert answer["error"]["code"] == 1043
    assert answer["error"]["message"] == (f"[QUERY-QUEUE] Query {by_sql['id']} was killed "
                                          "while in queue")
    assert h.get(killed["next_uri"]).status == 400  # closed, as any killed query
    read_to_end(h, running)
    assert order == ["q0", "q3"]
    assert read_to_end(h, waiting)["state"] == "Succeeded"


def test_show_processlist_and_metrics_show_the_queue():
    order = []
    h = queue_harness(order, max_running_queries=1)
    running = h.post("q0", pagination=NO_WAIT).json
    queued = h.post("q1", pagination=NO_WAIT).json
    listing = h.post("SHOW PROCESSLIST", headers=DATABEND_HEADERS).json  # a light statement: not queued
    assert listing["state"] == "Succeeded"
    names = [c["name"] for c in listing["schema"]]
    status = {row[names.index("id")]: row[names.index("status")] for row in listing["data"]}
    assert status[queued["id"]] == "Queued"
    metrics = h.get("/metrics").body.decode()
    assert "queryhttp_queued_queries 1.0" in metrics
    assert "queryhttp_queue_wait_seconds_count 0.0" in metrics
    h.clock.advance(2)
    read_to_end(h, running)  # q1 is admitted after waiting 2 s
    metrics = h.get("/metrics").body.decode()
    assert "queryhttp_queued_queries 0.0" in metrics
    assert "queryhttp_queue_wait_seconds_count 1.0" in metrics
    assert 'queryhttp_queue_wait_seconds_bucket{le="1.0"} 0.0' in metrics
    assert 'queryhttp_queue_wait_seconds_bucket{le="2.5"} 1.0' in metrics
    listing = h.post("SHOW PROCESSLIST", headers=DATABEND_HEADERS).json
    assert queued["id"] not in [row[names.index("id")] for row in listing["data"]
                                if row[names.index("status")] == "Queued"]
