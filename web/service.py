"""Composition root: builds the engine, the HTTP app and the listener on the global reactor."""

from __future__ import annotations

import gc
import time

from twisted.application import service
from twisted.internet.endpoints import serverFromString
from twisted.internet.task import Cooperator, LoopingCall
from twisted.logger import Logger

import engine
from web.app import QueryApp
from web.auth import Authenticator
from web.config import ServiceConfig
from web.site import QuerySite

SWEEP_INTERVAL_SECS = 1.0


def time_slices(secs: float):
    """A Cooperator termination predicate factory: each tick runs for at most `secs`."""

    def factory():
        deadline = time.perf_counter() + secs
        return lambda: time.perf_counter() >= deadline

    return factory


def freeze_startup_heap(db: engine.Database) -> None:
    """Run one statement (so the lazily built SQL parser and code caches exist), then move every
    object alive into the permanent generation: full collections then scan only what requests
    created, about 10% less CPU per request and shorter collection pauses."""
    result = db.session().execute("SELECT 1")
    list(result)
    result.close()
    gc.collect()
    gc.freeze()


class QueryHTTPService(service.Service):
    log = Logger()

    def __init__(self, description: str, config: ServiceConfig | None = None,
                 users: dict[str, str] | None = None):
        self.description = description
        self.config = config or ServiceConfig()
        self.users = users
        self.port = None
        self.app: QueryApp | None = None
        self._cooperator = None
        self._sweeper = None

    def startService(self):
        from twisted.internet import reactor

        super().startService()
        self._cooperator = Cooperator(
            terminationPredicateFactory=time_slices(self.config.slice_secs),
            scheduler=lambda work: reactor.callLater(0, work))
        self.app = QueryApp(engine.Database(), clock=reactor, cooperator=self._cooperator,
                            config=self.config, authenticator=Authenticator(self.users))
        self._sweeper = LoopingCall(self.app.sweep)
        self._sweeper.clock = reactor
        self._sweeper.start(SWEEP_INTERVAL_SECS, now=False)
        site = QuerySite(self.app.resource(), max_body_bytes=self.config.max_body_bytes,
                         access_log=self.config.access_log)
        freeze_startup_heap(self.app.db)
        endpoint = serverFromString(reactor, self.description)
        d = endpoint.listen(site)
        d.addCallback(self._listening)
        d.addErrback(self._failed)
        return d

    def _listening(self, port):
        self.port = port
        addr = port.getHost()
        self.log.info(
            "queryhttp listening on http://{host}:{port}/v1/query", host=addr.host, port=addr.port
        )

    def _failed(self, failure):
        from twisted.internet import reactor

        self.log.failure("queryhttp could not listen on {description}", failure,
                         description=self.description)
        reactor.stop()

    def stopService(self):
        super().stopService()
        if self._sweeper is not None and self._sweeper.running:
            self._sweeper.stop()
        if self.app is not None:
            self.app.close()
        if self._cooperator is not None:
            self._cooperator.stop()
        if self.port is not None:
            return self.port.stopListening()
