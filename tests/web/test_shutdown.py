"""Graceful shutdown: stopping the service stops listening, fails running queries with 1043
"server is shutting down", answers waiting long polls at once and refuses new queries."""

import gc

from treq.testing import StubTreq
from twisted.internet.address import IPv4Address
from twisted.internet.defer import succeed
from twisted.internet.testing import MemoryReactorClock

from tests.web.harness import ROOT, Harness
from web.service import SHUTDOWN_GRACE_SECS, QueryHTTPService


def test_shutdown_fails_running_queries_and_answers_waiting_polls_at_once():
    h = Harness(inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 1000)
    a = h.post("slow", pagination={"wait_time_secs": 0}).json
    query = h.app.queries.find(a["id"])
    query.wait_secs = 30
    poll = h.start("GET", a["next_uri"])
    assert not poll.done and query.buffer.waiting == 1
    h.app.shutdown()
    page = poll.reply()  # no clock time passed
    assert page.status == 200
    assert page.json["state"] == "Failed" and page.json["error"]["code"] == 1043
    assert page.json["error"]["message"] == "server is shutting down"
    assert h.app.queries.running == 0 and h.db.results[-1].closed
    assert h.clock.getDelayedCalls() == []  # the poll's timer went too
    refused = h.post("SELECT 1").json
    assert refused["state"] == "Failed" and refused["error"]["code"] == 1043
    assert refused["error"]["message"] == "server is shutting down"


class FakePort:
    def __init__(self):
        self.listening = True

    def getHost(self):
        return IPv4Address("TCP", "127.0.0.1", 8123)

    def stopListening(self):
        self.listening = False
        return succeed(None)


class FakeEndpoint:
    def __init__(self):
        self.port = FakePort()
        self.factory = None

    def listen(self, factory):
        self.factory = factory
        return succeed(self.port)


def test_stopping_the_service_stops_listening_and_ends_queries():
    reactor = MemoryReactorClock()
    endpoint = FakeEndpoint()
    service = QueryHTTPService("unused", reactor=reactor, endpoint=endpoint)
    try:
        service.startService()
    finally:
        gc.unfreeze()  # the start-up heap freeze is for the server process, not this test
    assert endpoint.factory is not None and endpoint.port.listening
    sweeper = service.getServiceNamed("sweeper")
    assert sweeper.running
    http = StubTreq(service.app.resource())
    answers = []
    http.post("http://localhost/v1/query", headers={"Authorization": [ROOT]},
              json={"sql": "SELECT * FROM numbers(100000000)",
                    "pagination": {"wait_time_secs": 0}}).addCallback(answers.append)
    http.flush()
    (posted,) = answers
    first = []
    http.json_content(posted).addCallback(first.append)
    http.flush()
    assert first[0]["state"] == "Running"
    stopped = []
    service.stopService().addCallback(stopped.append)
    http.flush()
    assert not endpoint.port.listening and not sweeper.running
    query = service.app.queries.find(first[0]["id"])
    assert query.state == "Failed" and query.error.code == 1043
    assert stopped == []  # a grace period lets written answers reach their sockets
    reactor.advance(SHUTDOWN_GRACE_SECS)
    assert stopped == [None]
