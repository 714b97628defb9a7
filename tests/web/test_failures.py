"""Producer failures are never silent: a failing step fails its query (1001, logged), the
sweeper survives a query that fails to expire, and the service's parts are Twisted services."""

from twisted.application.internet import StreamServerEndpointService, TimerService
from twisted.internet.task import Clock

from tests.web.harness import Harness


def rows(start, stop):
    return [(i,) for i in range(start, stop)]


def failing_renderer(h, fail_on_call):
    """Make the next scripted result's renderer raise on its `fail_on_call`-th batch."""
    original = h.db.script

    def script(sql, schema, batches, **kwargs):
        original(sql, schema, batches, **kwargs)
        make = h.db.scripts[sql]

        def make_failing(session):
            result = make(session)
            render = result.renderer
            calls = []

            def renderer(null_as_str):
                inner = render(null_as_str)

                def run(batch):
                    calls.append(1)
                    if len(calls) == fail_on_call:
                        raise ValueError("renderer bug")
                    return inner(batch)

                return run

            result.renderer = renderer
            return result

        h.db.scripts[sql] = make_failing

    return script


def test_a_renderer_failure_fails_the_query_with_1001_and_is_logged(no_logged_errors):
    h = Harness(inline_steps=1)
    failing_renderer(h, 2)("q", [("number", "UInt64")], [rows(0, 2), rows(2, 4), rows(4, 6)])
    sweeper = TimerService(1.0, h.app.sweep)
    sweeper.clock = h.clock
    sweeper.startService()
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    assert a["state"] == "Running"
    h.pump(5)
    query = h.app.queries.find(a["id"])
    assert query.state == "Failed"
    assert query.error.code == 1001 and "renderer bug" in query.error.message
    assert h.app.queries.running == 0
    assert h.db.results[-1].closed
    logged = [e for e in no_logged_errors if "log_failure" in e]
    assert len(logged) == 1 and logged[0]["log_failure"].check(ValueError)
    no_logged_errors.clear()
    h.clock.advance(62)  # the result timeout passes: the sweeper expires it and keeps running
    assert h.app.queries.find(a["id"]) is None
    assert sweeper.running and sweeper._loop.running
    sweeper.stopService()


def test_sweep_carries_on_past_a_query_that_fails_to_expire(no_logged_errors, monkeypatch):
    h = Harness(inline_steps=1)
    h.db.script("q", [("number", "UInt64")], [rows(0, 1)] * 50)
    first = h.post("q", pagination={"wait_time_secs": 0}).json["id"]
    second = h.post("q", pagination={"wait_time_secs": 0}).json["id"]
    broken = h.app.queries.find(first)
    original_expire = type(broken).expire

    def expire(query):
        if query is broken:
            raise RuntimeError("expire bug")
        original_expire(query)

    monkeypatch.setattr(type(broken), "expire", expire)
    h.clock.advance(61)
    h.app.sweep()
    assert h.app.queries.find(first) is None and h.app.queries.find(second) is None
    assert h.db.results[1].closed  # the second query was expired all the same
    assert len(no_logged_errors) == 1 and "expire bug" in str(no_logged_errors[0]["log_failure"])
    no_logged_errors.clear()


def test_a_producer_task_that_fails_outside_step_fails_its_query(no_logged_errors, monkeypatch):
    h = Harness(inline_steps=1)
    h.db.script("q", [("number", "UInt64")], [rows(0, 1)] * 50)
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    query = h.app.queries.find(a["id"])

    def broken_step(self):
        raise RuntimeError("scheduler-side bug")

    monkeypatch.setattr(type(query), "step", broken_step)
    h.pump(2)
    assert query.state == "Failed" and query.error.code == 1001
    assert h.app.queries.running == 0
    assert len(no_logged_errors) == 1
    no_logged_errors.clear()


def test_the_service_is_a_listener_and_a_sweeper_on_the_given_clock():
    from web.service import QueryHTTPService

    clock = Clock()
    top = QueryHTTPService("tcp:0:interface=127.0.0.1", reactor=clock)
    listener = top.getServiceNamed("http")
    sweeper = top.getServiceNamed("sweeper")
    assert isinstance(listener, StreamServerEndpointService)
    assert isinstance(sweeper, TimerService)
    assert sweeper.clock is clock and sweeper.call[0] == top.app.sweep
    assert top.app.db.limits is top.config.limits
    assert listener.factory.timeOut == top.config.idle_connection_secs == 60
