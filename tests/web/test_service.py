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
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        freeze_startup_heap(db)
        assert gc.get_freeze_count() > 0
        assert list(db.session().execute("SELECT 2")) == [(2,)]
        # young collections every 10,000 net allocations, the older generations' kept
        assert gc.get_threshold() == (service_module.GC_YOUNG_THRESHOLD, 10, 10)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)



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


def started_log(monkeypatch, host="127.0.0.1", **kwargs) -> list[str]:
    """The log lines of a service that started listening on host:8123 (bound to nothing)."""
    from twisted.logger import Logger, formatEvent

    from web.config import ServiceConfig

    class Endpoint(_RecordingEndpoint):
        def listen(self, factory):
            address = SimpleNamespace(host=host, port=8123)
            return succeed(SimpleNamespace(getHost=lambda: address, stopListening=lambda: None))

    events: list = []
    monkeypatch.setattr(service_module, "freeze_startup_heap", lambda db: None)
    monkeypatch.setattr(QueryHTTPService, "log", Logger(observer=events.append))
    users = kwargs.pop("users", None)
    svc = QueryHTTPService("tcp:0", ServiceConfig(**kwargs), users, reactor=Clock(),
                           endpoint=Endpoint([]))
    svc.privilegedStartService()
    svc.startService()
    return [formatEvent(e) for e in events]


def test_the_start_log_gives_the_console_url_and_who_signs_in(monkeypatch):
    assert started_log(monkeypatch) == [
        "queryhttp listening on http://127.0.0.1:8123/v1/query",
        "queryhttp console at http://127.0.0.1:8123/ : sign in as root with an empty password "
        "(no --users_file given)"]


def test_the_console_url_of_a_wildcard_address_is_the_loopback_one(monkeypatch):
    lines = started_log(monkeypatch, host="0.0.0.0", users={"bob": "h", "alice": "h"})
    assert lines[1] == ("queryhttp console at http://127.0.0.1:8123/ : sign in as a user of "
                        "--users_file (alice, bob) with the password its line was made from "
                        "(python -m web.auth NAME)")


def test_without_the_console_the_log_still_says_who_signs_in(monkeypatch):
    users = {f"u{i}": "h" for i in range(5)}
    lines = started_log(monkeypatch, console=False, users=users)
    assert lines[1] == ("queryhttp clients sign in as a user of --users_file (u0, u1, u2 and 2 "
                        "more) with the password its line was made from (python -m web.auth "
                        "NAME) (the console is off)")


def test_a_port_taken_after_the_start_up_check_is_still_one_line(monkeypatch):
    import errno

    import pytest
    from twisted.internet.defer import fail
    from twisted.internet.error import CannotListenError

    class Taken:
        def listen(self, factory):
            return fail(CannotListenError("127.0.0.1", 8123,
                                          OSError(errno.EADDRINUSE, "Address already in use")))

    monkeypatch.setattr(service_module, "freeze_startup_heap", lambda db: None)
    svc = QueryHTTPService("tcp:0", reactor=Clock(), endpoint=Taken())
    with pytest.raises(SystemExit) as exit_:
        svc.privilegedStartService()
    assert exit_.value.code == ("queryhttp: cannot listen on 127.0.0.1:8123: Address already in "
                                "use (another server listens there: stop it or choose another "
                                "--http_handler_port)")
