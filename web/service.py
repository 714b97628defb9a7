"""Composition root: the engine, the HTTP app, its listener and its sweeper as Twisted services."""

from __future__ import annotations

import gc
import time

from twisted.application import service
from twisted.application.internet import StreamServerEndpointService, TimerService
from twisted.internet.endpoints import serverFromString
from twisted.internet.error import CannotListenError
from twisted.internet.task import Cooperator, deferLater
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger

import engine
from engine import DataDirectoryError
from web.app import QueryApp
from web.auth import Authenticator
from web.config import ServiceConfig
from web.site import QuerySite
from web.startup import cannot_listen, local_url, sign_in_hint

SWEEP_INTERVAL_SECS = 1.0
# After a stop, how long answers already written get to reach their sockets before the
# reactor drops every connection.
SHUTDOWN_GRACE_SECS = 0.2


def time_slices(secs: float):
    """A Cooperator termination predicate factory: each tick runs for at most `secs`."""

    def factory():
        deadline = time.perf_counter() + secs
        return lambda: time.perf_counter() >= deadline

    return factory


# The collector's first threshold: container objects allocated (net of those freed) between
# two young collections. CPython's 700 made a `SELECT 1` round trip (a few hundred containers,
# almost all freed by reference counting before it ends) pay a young collection every ~50
# requests and a full one every ~500 (the frozen heap makes every tenth young-generation-1 pass
# a full one): 11-25 us of its ~250 us. At 10,000 a round trip's net allocations stay under the
# threshold, and cyclic garbage still waits at most 10,000 containers (about a megabyte).
GC_YOUNG_THRESHOLD = 10_000


def freeze_startup_heap(db: engine.Database) -> None:
    """Run one statement (so the lazily built SQL parser and code caches exist), then move every
    object alive into the permanent generation: full collections then scan only what requests
    created, about 10% less CPU per request and shorter collection pauses. Young collections
    then run every GC_YOUNG_THRESHOLD net container allocations instead of CPython's 700."""
    result = db.session().execute("SELECT 1")
    list(result)
    result.close()
    gc.collect()
    gc.freeze()
    young, older, oldest = gc.get_threshold()
    gc.set_threshold(max(GC_YOUNG_THRESHOLD, young), older, oldest)


def _open_database(config: ServiceConfig, log) -> engine.Database:
    """The engine's database, recovered from --data_dir when there is one (its lock held);
    a directory another server holds, one open to group or others, or a damaged log (a record
    that does not fit, unless --recover_to_last_good) stops the start with the reason."""
    if config.data_dir is None:
        return engine.Database(limits=config.limits)
    try:
        return engine.Database(limits=config.limits, data_dir=config.data_dir, fsync=config.fsync,
                               wait_durable=False, log=lambda message: log.info("{message}", message=message),
                               recover_to_last_good=config.recover_to_last_good)
    except (DataDirectoryError, OSError) as exc:
        raise SystemExit(f"queryhttp: cannot open --data_dir {config.data_dir}: {exc}") from None


class _AnnouncingEndpoint:
    """A server endpoint that logs where it listens once it does (the line tests and
    benchmarks wait for)."""

    def __init__(self, endpoint, log, scheme: str = "http", listening=None):
        self._endpoint = endpoint
        self._log = log
        self._scheme = scheme
        self._on_listening = listening  # called with (scheme, host, port) once listening

    def listen(self, factory):
        return self._endpoint.listen(factory).addCallback(self._listening)

    def _listening(self, port):
        addr = port.getHost()
        host = f"[{addr.host}]" if ":" in addr.host else addr.host
        self._log.info("queryhttp listening on {scheme}://{host}:{port}/v1/query",
                       scheme=self._scheme, host=host, port=addr.port)
        if self._on_listening is not None:
            self._on_listening(self._scheme, addr.host, addr.port)
        return port


class QueryHTTPService(service.MultiService):
    """The server as Twisted services: the HTTP listener ("http") and the once-a-second
    sweeper of unread queries and idle sessions ("sweeper", a TimerService, which logs a
    failing sweep). Stopping it (SIGTERM) stops listening, fails running queries with 1043
    "server is shutting down" and answers waiting long polls at once."""

    log = Logger()

    def __init__(self, description: str, config: ServiceConfig | None = None,
                 users: dict[str, str] | None = None, reactor=None, endpoint=None):
        super().__init__()
        if reactor is None:
            from twisted.internet import reactor
        self.reactor = reactor
        self.description = description
        self.config = config = config or ServiceConfig()
        self.users = users
        self.cooperator = Cooperator(
            terminationPredicateFactory=time_slices(config.slice_secs),
            scheduler=lambda work: reactor.callLater(0, work))
        self.db = _open_database(config, self.log)
        self.app = QueryApp(self.db, clock=reactor,
                            cooperator=self.cooperator, config=config,
                            authenticator=Authenticator(
                                users, clock=reactor,
                                backoff_max_secs=config.login_backoff_max_secs))
        site = QuerySite(self.app.resource(), max_body_bytes=config.max_body_bytes,
                         max_upload_bytes=config.max_upload_bytes, upload_gate=self.app.upload_gate,
                         max_upload_inflight_bytes=config.max_upload_inflight_bytes,
                         wire_format=config.wire_format,
                         access_log=config.access_log, timeout=config.idle_connection_secs,
                         reactor=reactor)
        endpoint = _AnnouncingEndpoint(endpoint or serverFromString(reactor, description),
                                       self.log, "https" if config.tls else "http",
                                       self._listening_at)
        listener = StreamServerEndpointService(endpoint, site)
        listener._raiseSynchronously = True  # twistd reports a port it cannot bind and exits
        listener.setName("http")
        listener.setServiceParent(self)
        sweeper = TimerService(SWEEP_INTERVAL_SECS, self.app.sweep)
        sweeper.clock = reactor
        sweeper.setName("sweeper")
        sweeper.setServiceParent(self)

    def _listening_at(self, scheme: str, host: str, port: int) -> None:
        # PRESIGN's URLs point here until a request's Host header says where clients reach us
        self.app.presigner.base_url = f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"
        hint = sign_in_hint(self.users)
        if self.config.console:
            self.log.info("queryhttp console at {url} : {hint}",
                          url=local_url(scheme, host, port), hint=hint)
        else:
            self.log.info("queryhttp clients {hint} (the console is off)", hint=hint)

    def privilegedStartService(self):
        # twistd binds the listener here, before startService: the parser is warmed first, so
        # the port (and the line announcing it) opens only once requests are answered at once
        self._warm_up()
        try:
            super().privilegedStartService()
        except CannotListenError as e:  # taken since makeService's check: still one line
            reason = getattr(e.socketError, "strerror", None) or str(e.socketError)
            raise cannot_listen(e.interface, e.port, getattr(e.socketError, "errno", None),
                                reason) from None

    def startService(self):
        self._warm_up()
        super().startService()

    def _warm_up(self):
        if not getattr(self, "_warmed_up", False):
            self._warmed_up = True
            freeze_startup_heap(self.app.db)

    def stopService(self):
        """Stop listening and sweeping, then end every running query (waiting polls answer
        now); the Deferred fires a short grace later so those answers reach the sockets
        before the reactor drops the connections."""
        stopped = super().stopService()
        self.app.shutdown()
        self.cooperator.stop()
        stopped.addCallback(lambda _: deferLater(self.reactor, SHUTDOWN_GRACE_SECS,
                                                 lambda: None))
        if self.db.durability is not None:
            # the last checkpoint, off the event loop (it may write a few seconds)
            stopped.addCallback(lambda _: deferToThreadPool(self.reactor, self.reactor.getThreadPool(),
                                                            self._close_database))
        return stopped

    def _close_database(self) -> None:
        started = time.monotonic()
        self.db.close()
        self.log.info("checkpoint written and data directory closed in {secs:.2f} s",
                      secs=time.monotonic() - started)
