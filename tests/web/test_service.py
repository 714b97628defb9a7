"""The composition root's process set-up: the start-up heap is frozen after a warm-up statement,
before the port opens."""

import gc
from types import SimpleNamespace

from twisted.internet.defer import succeed
from twisted.internet.task import Clock

import engine
import web.service as service_module
from web.service import QueryHTTPService, freeze_startup_heap


def test_startup_heap_is_frozen_after_a_warm_up_statement():
    db = engine.Database()
    gc.unfreeze()
    try:
        freeze_startup_heap(db)
        assert gc.get_freeze_count() > 0
        assert list(db.session().execute("SELECT 2")) == [(2,)]
    finally:
        gc.unfreeze()



class _RecordingEndpoint:
    """A server endpoint that notes when it is asked to listen (and never binds)."""

    def __init__(self, events: list):
        self.events = events

    def listen(self, factory):
        self.events.append("listen")
        address = SimpleNamespace(host="127.0.0.1", port=0)
        return succeed(SimpleNamespace(getHost=lambda: address, stopListening=lambda: None))


def test_the_warm_up_runs_before_the_port_opens(monkeypatch):
    """twistd binds ports in privilegedStartService: the warm-up (building the parser takes
    about a second under load) comes first, so no first request waits behind it."""
    events: list = []
    monkeypatch.setattr(service_module, "freeze_startup_heap", lambda db: events.append("warm"))
    svc = QueryHTTPService("tcp:0", reactor=Clock(), endpoint=_RecordingEndpoint(events))
    svc.privilegedStartService()
    svc.startService()
    assert events == ["warm", "listen"]
