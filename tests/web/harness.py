"""In-memory harness for the web tests: StubTreq over the app, a task.Clock, a hand-pumped
cooperator, and scripted engine results whose steps the test controls."""

from __future__ import annotations

import base64
import json

from treq.testing import StubTreq
from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.task import Clock, Cooperator
from twisted.python.failure import Failure

import engine
from web.app import QueryApp
from web.auth import Authenticator
from web.config import ServiceConfig

ROOT = "Basic " + base64.b64encode(b"root:").decode()
DATABEND_HEADERS = {"X-DATABEND-ROUTE": "warehouse"}


def run_now(f, *args):
    """A stand-in for deferToThread: runs `f` at once, on the calling thread."""
    return maybeDeferred(f, *args)


class ManualThreads:
    """A deferToThread stand-in that runs nothing until the test says (`finish()`); `calls`
    lists what waits."""

    def __init__(self):
        self.calls = []

    def __call__(self, f, *args):
        d = Deferred()
        self.calls.append((f, args, d))
        return d

    def finish(self) -> int:
        calls, self.calls = self.calls, []
        for f, args, d in calls:
            try:
                result = f(*args)
            except Exception:
                d.errback()
            else:
                d.callback(result)
        return len(calls)


class FakeDelayedCall:
    def __init__(self, scheduler, work):
        self.scheduler = scheduler
        self.work = work

    def cancel(self):
        self.scheduler.pending.remove(self)


class HandScheduler:
    """A Cooperator scheduler that runs nothing until the test calls `pump()`."""

    def __init__(self):
        self.pending: list[FakeDelayedCall] = []

    def __call__(self, work):
        call = FakeDelayedCall(self, work)
        self.pending.append(call)
        return call

    def pump(self, times: int = 1) -> None:
        for _ in range(times):
            pending, self.pending = self.pending, []
            for call in pending:
                call.work()


class ScriptedResult:
    """An engine Result (same interface) whose batches are given by the test."""

    def __init__(self, schema, batches, affect=None, error_at=None, sets=None, session=None):
        self.schema = [engine.Column(n, t) for n, t in schema]
        self._sets = sets or {}  # settings the statement changes in its session, at its end
        self._session = session
        self.affect = affect
        self.progress = engine.Progress()
        self._batches = list(batches)
        self._error_at = error_at
        self.steps = 0
        self.closed = False
        self.memory = None  # no memory accounting

    def past_deadline(self):
        return False

    def batches(self):
        for i, batch in enumerate(self._batches):
            if self.closed:
                return
            if i == self._error_at:
                raise engine.EngineError("division by zero", code=1006)
            self.steps += 1
            self.progress.scan_rows += len(batch)
            self.progress.result_rows += len(batch)
            yield batch
        if self._sets:
            self._session.settings.update(self._sets)

    def renderer(self, null_as_str):
        null = "NULL" if null_as_str else None
        return lambda batch: [[null if v is None else str(v) for v in row] for row in batch]

    def close(self, error=None):
        self.closed = True


class ScriptedSession:
    def __init__(self, real, scripts):
        self._real = real
        self._scripts = scripts

    def __getattr__(self, name):
        return getattr(self._real, name)

    def __setattr__(self, name, value):  # the web layer gives the real session its state
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._real, name, value)

    def execute(self, sql, statement=None, query_id=None, attachment=None, params=None):
        if sql in self._scripts:
            return self._scripts[sql](self._real)
        return self._real.execute(sql, statement, query_id=query_id, attachment=attachment,
                                  params=params)


class ScriptedDatabase:
    """The real engine, except for SQL texts the test scripts."""

    def __init__(self):
        self.real = engine.Database()
        self.processes = self.real.processes  # KILL QUERY reaches the web queries through it
        self.stages = self.real.stages  # uploads land in the real engine's stages
        self.users = self.real.users  # users CREATE USER made log in; the app adds its own

    def __getattr__(self, name):  # durability and the rest: the real engine's
        return getattr(self.real, name)

    @property
    def presigner(self):
        return self.real.presigner

    @presigner.setter
    def presigner(self, value):  # the app's presigner serves the real engine's PRESIGN
        self.real.presigner = value
        self.scripts = {}
        self.results: list[ScriptedResult] = []

    def script(self, sql, schema, batches, **kwargs):
        def make(session):
            result = ScriptedResult(schema, batches, session=session, **kwargs)
            self.results.append(result)
            return result

        self.scripts[sql] = make

    def session(self, database="default", settings=None, user="root"):
        return ScriptedSession(self.real.session(database=database, settings=settings, user=user),
                               self.scripts)


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def json(self):
        return json.loads(self.body)

    def header(self, name):
        values = self.headers.getRawHeaders(name.encode() if isinstance(name, str) else name)
        return values[0] if values else None


class Call:
    """One request in flight; `done` after flushing, `reply()` once answered."""

    def __init__(self, harness, d):
        self.harness = harness
        self._outcome = []
        d.addBoth(self._outcome.append)

    @property
    def done(self) -> bool:
        self.harness.flush()
        return bool(self._outcome)

    def reply(self) -> Reply:
        assert self.done, "the request has not been answered"
        response = self._outcome[0]
        if isinstance(response, Failure):
            response.raiseException()
        body = []
        self.harness.http.content(response).addBoth(body.append)
        self.harness.flush()
        if isinstance(body[0], Failure):
            body[0].raiseException()
        return Reply(response.code, response.headers, body[0])


class Harness:
    def __init__(self, config: ServiceConfig | None = None, authenticator=None,
                 inline_steps: int | None = None, fast_routes: bool = True,
                 run_in_thread=run_now):
        self.clock = Clock()
        self.scheduler = HandScheduler()
        # one engine step per cooperator tick: the test decides how far a query gets
        self.cooperator = Cooperator(terminationPredicateFactory=lambda: (lambda: True),
                                     scheduler=self.scheduler)
        self.db = ScriptedDatabase()
        config = config or ServiceConfig()
        if inline_steps is not None:
            config = ServiceConfig(**{**_fields(config), "inline_steps": inline_steps})
        # logins hash in `run_in_thread` and back off on this clock too
        authenticator = authenticator or Authenticator(clock=self.clock,
                                                       run_in_thread=run_in_thread)
        self.app = QueryApp(self.db, clock=self.clock, cooperator=self.cooperator,
                            config=config, authenticator=authenticator,
                            timer=lambda: 0.0, run_in_thread=run_in_thread)
        self.http = StubTreq(self.app.resource(fast_routes=fast_routes))

    def flush(self):
        self.http.flush()

    def start(self, method, path, body=None, headers=None, auth=ROOT) -> Call:
        all_headers = {}
        if auth is not None:
            all_headers["Authorization"] = auth
        if body is not None:
            all_headers["Content-Type"] = "application/json"
            if not isinstance(body, bytes):
                body = json.dumps(body).encode()
        all_headers.update(headers or {})
        d = self.http.request(method, "http://localhost" + path, data=body,
                              headers={k: [v] for k, v in all_headers.items()})
        call = Call(self, d)
        self.flush()
        return call

    def request(self, method, path, body=None, headers=None, auth=ROOT) -> Reply:
        """Send a request and run the cooperator until it is answered (no clock time passes)."""
        call = self.start(method, path, body, headers, auth)
        for _ in range(10000):
            if call.done or not self.scheduler.pending:
                break
            self.pump()
        return call.reply()

    def post(self, sql=None, headers=None, auth=ROOT, path="/v1/query", **fields) -> Reply:
        body = dict(fields)
        if sql is not None:
            body["sql"] = sql
        return self.request("POST", path, body, headers, auth)

    def get(self, uri, headers=None, auth=ROOT) -> Reply:
        return self.request("GET", uri, None, headers, auth)

    def pump(self, times=1):
        self.scheduler.pump(times)
        self.flush()


def _fields(config: ServiceConfig) -> dict:
    return {name: getattr(config, name) for name in config.__dataclass_fields__}
