"""Query log events (start, end, slow engine step) with their fields, and KILL QUERY of HTTP
queries from another session, in memory."""

import base64

import pytest
from twisted.logger import LogLevel, globalLogPublisher

from tests.web.harness import Harness, ScriptedResult, run_now
from web.auth import Authenticator, hash_password
from web.config import ServiceConfig
from web.observe import SQL_PREFIX_CHARS

BIG = "SELECT number FROM numbers(1000000)"
SMALL_PAGES = {"max_rows_per_page": 10, "max_rows_in_buffer": 10, "wait_time_secs": 0}


@pytest.fixture
def events():
    seen = []
    observer = seen.append
    globalLogPublisher.addObserver(observer)
    yield seen
    globalLogPublisher.removeObserver(observer)


def _query_events(events, kind):
    return [e for e in events if e.get("query_event") == kind]


def test_start_and_end_events_carry_fields(events):
    h = Harness(config=ServiceConfig(log_query_start=True, log_queries=True))
    a = h.post("SELECT 1 AS one").json
    start, = _query_events(events, "start")
    assert start["log_level"] == LogLevel.debug
    assert (start["query_id"], start["user"], start["sql"]) == (a["id"], "root", "SELECT 1 AS one")
    end, = _query_events(events, "end")
    assert end["log_level"] == LogLevel.info
    assert {k: end[k] for k in ("query_id", "user", "state", "error_code", "rows", "sql")} == {
        "query_id": a["id"], "user": "root", "state": "Succeeded", "error_code": 0, "rows": 1,
        "sql": "SELECT 1 AS one"}
    assert isinstance(end["ms"], int)


def test_start_events_are_off_by_default(h, events):
    h.post("SELECT 1")
    assert _query_events(events, "start") == []
    # a succeeded query's end is logged only with --log_queries (a line per query costs a third
    # of a SELECT 1 round trip); /metrics counts it
    assert _query_events(events, "end") == []
    assert 'queryhttp_queries_total{code="0",state="Succeeded"} 1.0' in \
        h.app.metrics.render().decode()


def test_end_events_of_every_query_with_log_queries(events):
    h = Harness(config=ServiceConfig(log_queries=True))
    h.post("SELECT 1")
    h.post("SELECT 1 DIV 0")
    assert [e["state"] for e in _query_events(events, "end")] == ["Succeeded", "Failed"]


def test_end_event_of_a_failed_query_has_its_error_code(h, events):
    a = h.post("SELECT 1 DIV 0").json
    assert a["state"] == "Failed"
    end, = _query_events(events, "end")
    assert (end["query_id"], end["state"], end["error_code"]) == (a["id"], "Failed", 1006)
    assert "divided by zero" in end["error"]


def test_end_event_of_a_statement_that_failed_to_start(h, events):
    h.post("SELEC 1")
    end, = _query_events(events, "end")
    assert (end["state"], end["error_code"]) == ("Failed", 1005)


def test_end_event_comes_with_the_durations_of_the_clock(h, events):
    a = h.post(BIG, pagination=SMALL_PAGES).json
    assert a["state"] == "Running"
    h.clock.advance(2.5)
    h.get(f"/v1/query/{a['id']}/kill")
    end, = _query_events(events, "end")
    assert (end["state"], end["error_code"], end["ms"]) == ("Failed", 1043, 2500)


def test_sql_in_events_is_cut_to_its_prefix(events):
    h = Harness(config=ServiceConfig(log_queries=True))
    sql = "SELECT " + " + ".join(["1"] * 200)
    h.post(sql)
    end, = _query_events(events, "end")
    assert end["sql"] == sql[:SQL_PREFIX_CHARS] + "..."


class FakeTimer:
    """Seconds that only the test moves."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class TimedResult(ScriptedResult):
    """A scripted result whose steps take the given (fake) seconds each."""

    def __init__(self, timer, step_seconds):
        super().__init__([("n", "UInt8")], [[(i,)] for i in range(len(step_seconds))])
        self._timer = timer
        self._step_seconds = step_seconds

    def batches(self):
        for seconds, batch in zip(self._step_seconds, super().batches(), strict=False):
            self._timer.now += seconds
            yield batch


@pytest.mark.parametrize("seconds, warned", [(0.100, False), (0.101, True)])
def test_a_step_over_100_ms_is_a_warning(h, events, seconds, warned):
    timer = FakeTimer()
    h.app.observer.timer = timer
    sql = "SELECT slowly"
    h.db.scripts[sql] = lambda session: TimedResult(timer, [0.001, seconds, 0.001])
    a = h.post(sql).json
    assert a["state"] == "Succeeded"
    slow = _query_events(events, "slow_step")
    if not warned:
        assert slow == []
        return
    warning, = slow
    assert warning["log_level"] == LogLevel.warn
    assert (warning["query_id"], warning["ms"], warning["sql"]) == (a["id"], 101, sql)


def test_slow_steps_run_by_the_cooperator_are_timed_too(events):
    h = Harness(inline_steps=1)
    timer = FakeTimer()
    h.app.observer.timer = timer
    h.db.scripts["SELECT later"] = lambda session: TimedResult(timer, [0.0, 0.0, 0.5])
    a = h.post("SELECT later", pagination={"wait_time_secs": 0}).json
    assert a["state"] == "Running" and _query_events(events, "slow_step") == []
    h.pump(5)
    warning, = _query_events(events, "slow_step")
    assert warning["ms"] == 500


# -- KILL QUERY of HTTP queries ------------------------------------------------------------------


def _kill(h, query_id, auth=None):
    kwargs = {"auth": auth} if auth else {}
    return h.post(f"KILL QUERY '{query_id}'", **kwargs).json


def test_kill_query_stops_a_paused_http_query(h):
    a = h.post(BIG, pagination=SMALL_PAGES).json
    assert a["state"] == "Running"
    query = h.app.queries.find(a["id"])
    assert query.buffer.full  # paused until the client reads
    steps_before = query.progress[0]
    killed = _kill(h, a["id"])
    assert killed["state"] == "Succeeded", killed["error"]
    stats = h.get(f"/v1/query/{a['id']}").json
    assert stats["state"] == "Failed"
    assert stats["error"]["code"] == 1043 and "killed" in stats["error"]["message"]
    assert h.get(a["next_uri"]).status == 400  # closed for canceled, as after /kill
    h.pump(10)
    assert query.progress[0] == steps_before  # the producer stopped
    assert a["id"] not in h.db.processes.running
    log = h.post(f"SELECT log_type_name, exception_code, handler_type FROM system.query_log "
                 f"WHERE query_id = '{a['id']}'").json
    assert log["data"] == [["Aborted", "1043", "HTTPQuery"]]


def test_kill_query_stops_a_query_the_cooperator_is_running():
    h = Harness(inline_steps=1)
    a = h.post(BIG).json
    assert a["state"] == "Running"
    assert not h.app.queries.find(a["id"]).buffer.full
    _kill(h, a["id"])
    assert h.app.queries.running == 0
    h.pump(3)
    assert h.get(f"/v1/query/{a['id']}").json["error"]["code"] == 1043


def test_processes_show_the_http_query_under_its_id(h):
    a = h.post(BIG, pagination=SMALL_PAGES).json
    rows = h.post(f"SELECT id, type, user, extra_info FROM system.processes "
                  f"WHERE id = '{a['id']}'").json["data"]
    assert rows == [[a["id"], "HTTPQuery", "root", BIG]]


def _basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_kill_query_of_another_users_http_query_is_refused():
    # bob is a user SQL made, without SUPER (the users file's users are administrators, who may)
    h = Harness(authenticator=Authenticator({"alice": hash_password("a")}, run_in_thread=run_now))
    alice, bob = _basic("alice", "a"), _basic("bob", "b")
    assert h.post("CREATE USER bob IDENTIFIED BY 'b'", auth=alice).json["state"] == "Succeeded"
    a = h.post(BIG, auth=alice, pagination=SMALL_PAGES).json
    denied = _kill(h, a["id"], auth=bob)
    assert denied["state"] == "Failed" and denied["error"]["code"] == 1063
    assert h.get(f"/v1/query/{a['id']}", auth=alice).json["state"] == "Running"
    assert _kill(h, a["id"], auth=alice)["state"] == "Succeeded"
    assert h.get(f"/v1/query/{a['id']}", auth=alice).json["state"] == "Failed"


def test_a_refused_query_is_an_event_with_its_code(events):
    h = Harness(config=ServiceConfig(max_retained_queries=1, default_rows_per_page=2))
    for _ in range(2):  # twice max_retained_queries hold unread rows: the hold limit
        h.post("SELECT * FROM numbers(10)")
    h.post("SELECT 1")
    refused, = _query_events(events, "refused")
    assert (refused["user"], refused["error_code"]) == ("root", 1067)
    assert "max_retained_queries" in refused["error"]
