"""Running queries: the producer that feeds a query's page buffer (the id -> query registry is
web.query_registry)."""

from __future__ import annotations

import re
from collections.abc import Callable

from twisted.internet.defer import Deferred
from twisted.internet.task import SchedulerStopped, TaskFinished, TaskStopped
from twisted.logger import Logger

import engine
from engine import ABORTED_QUERY, INTERNAL
from web.errors import BadRequest, NotFound
from web.pages import PageBuffer
from web.session_endpoints import has_temp_tables
from web.wire import FAILED, RUNNING, SUCCEEDED, QueryError, SessionView

_SAFE_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")
_DONE = object()  # the end of a result's batches
log = Logger()

# The error message of queries a stopping server aborts (code ABORTED_QUERY)
SHUTTING_DOWN = "server is shutting down"


def client_query_id(value: bytes | None) -> str | None:
    """The client's X-DATABEND-QUERY-ID if it is usable in a URI path segment, else None."""
    if not value:
        return None
    try:
        text = value.decode("ascii")
    except UnicodeDecodeError:
        return None
    return text if _SAFE_ID.fullmatch(text) else None


class Page:
    """One page as served: its number, its rows, and the number of the page after it (None
    once the result is fully served)."""

    __slots__ = ("number", "rows", "next_page")

    def __init__(self, number: int, rows: list, next_page: int | None):
        self.number = number
        self.rows = rows
        self.next_page = next_page


class Query:
    """One statement: its result, its producer state and its pages.

    Only `step()` pulls from the engine. The POST runs a few steps inline; the rest run as one
    cooperative task, which pauses while the page buffer is full.
    """

    __slots__ = ("id", "user", "clock", "session_id", "result_timeout", "wait_secs", "state",
                 "error", "schema", "affect", "closed", "started", "last_access", "ended_at",
                 "buffer", "next_page", "last_page", "_engine_session",
                 "_request_session", "_keep_secs", "_session_view", "_session_sent", "_progress_snapshot",
                 "_txn_internal",
                 "_result", "_batches", "_render", "_task", "_on_end", "sql", "_observer",
                 "_durable", "_durable_wait", "timezone", "arrow")

    def __init__(self, query_id: str, user: str, clock, *, session, request_session: dict,
                 session_id: str = "", keep_secs: int = 0, result_timeout: int = 60,
                 page_rows: int = 10000, buffer_rows: int = 20000, wait_secs: int = 1,
                 on_end: Callable[[Query], None] | None = None, observer=None,
                 txn_internal: Callable[[str | None, str, object], str] | None = None,
                 durable=None):
        self.id = query_id
        self.user = user
        self.clock = clock
        self.session_id = session_id
        self.result_timeout = result_timeout
        self.wait_secs = wait_secs  # the long-poll wait of every page of this query
        self.state = RUNNING
        self.error: QueryError | None = None
        self.schema: list = []
        self.affect = None
        self.closed: str | None = None  # "finalized", "canceled" or "timed out"
        self.started = self.last_access = clock.seconds()
        self.ended_at: float | None = None
        self.buffer = PageBuffer(clock, page_rows, buffer_rows)
        self.next_page = 0
        self.last_page: Page | None = None
        self._engine_session = session
        self._request_session = request_session
        self._keep_secs = keep_secs
        self._session_view: SessionView | None = None
        self._session_sent: SessionView | None = None
        self._progress_snapshot: tuple | None = None
        self._result = None
        self._batches = None
        self._render = None
        self._task = None
        self._on_end = on_end
        self.sql = ""  # its SQL text (a prefix), for log events
        self._observer = observer  # web.observe.QueryObserver: times each step
        # with a data directory: lsn -> Deferred firing once that log record is on disk; a
        # write statement ends (Succeeded is sent) only then
        self._durable = durable
        self._durable_wait: Deferred | None = None
        # (the client's `internal`, query id, engine session) -> the answer's `internal`
        # (web.session_endpoints); None for a server-side session
        self._txn_internal = txn_internal
        self.timezone = "UTC"  # the session zone its rows are written in (set when attached)
        self.arrow = None  # the web.arrow_pages.ArrowEncoding it negotiated (None: JSON only)

    # -- producing ---------------------------------------------------------------------------

    def attach(self, result, null_as_str: bool) -> None:
        self._result = result
        if self._engine_session is not None:
            self.timezone = self._engine_session.setting("timezone")
        self.schema = result.schema
        self.affect = result.affect
        self._batches = result.batches()
        self._render = result.renderer(null_as_str)
        if self.arrow is not None:  # Arrow pages: the buffer keeps the engine's values
            self._render = self.arrow.attach(result, self._render)
        self.buffer.memory = result.memory  # unread rows count against the query's memory

    def fail(self, code: int, message: str) -> None:
        """End the query as Failed (an error before or while producing rows)."""
        self._end(FAILED, QueryError(code, message))

    def step(self) -> bool:
        """One bounded unit of engine work; False once the query has ended."""
        observer = self._observer
        if observer is None or self.state != RUNNING:
            return self._step()
        started = observer.timer()
        try:
            return self._step()
        finally:
            observer.step_done(self, observer.timer() - started)

    def _step(self) -> bool:
        if self.state != RUNNING or self._durable_wait is not None:
            return False
        # One try around the whole step (pull, render, buffer): a failure anywhere in it fails
        # this query, never the cooperative task that runs every query's steps.
        try:
            batch = next(self._batches, _DONE)
            if batch is _DONE:
                lsn = getattr(self._result, "commit_lsn", None)
                if lsn is not None and self._durable is not None:
                    self._wait_until_durable(lsn)
                else:
                    self._end(SUCCEEDED)
                return False
            if batch:
                held = getattr(self._result, "held_lsn", None)
                if held is not None and self._durable is not None:
                    self._result.held_lsn = None
                    self._add_when_durable(held, self._render(batch))
                    return True
                self.buffer.add(self._render(batch))  # may raise MemoryExceedsLimit (2411)
        except engine.EngineError as e:
            self._end(FAILED, QueryError(e.code, e.message))
            return False
        except Exception as e:  # an engine bug must fail one query, never the server
            log.failure("query {id} failed inside the engine", id=self.id)
            self._end(FAILED, QueryError(INTERNAL, f"internal error: {e!r}"))
            return False
        return True

    def _wait_until_durable(self, lsn: int) -> None:
        """The statement's changes are logged; it succeeds once the log has them on disk (group
        commit: concurrent statements share one fsync), or fails if the log cannot take them."""
        wait = self._durable_wait = self._durable(lsn)

        def on_disk(_):
            self._durable_wait = None
            self._end(SUCCEEDED)

        def failed(failure):
            self._durable_wait = None
            error = failure.value
            self._end(FAILED, QueryError(getattr(error, "code", INTERNAL), str(getattr(error, "message", error))))

        wait.addCallbacks(on_disk, failed)

    def _add_when_durable(self, lsn: int, rows) -> None:
        """Rows holding sequence values whose reservation is logged in record `lsn`: shown once
        the record is on disk (no value a client saw is handed out again after a crash)."""
        wait = self._durable_wait = self._durable(lsn)

        def on_disk(_):
            self._durable_wait = None
            if self.state == RUNNING:
                try:
                    self.buffer.add(rows)
                except engine.EngineError as e:
                    self._end(FAILED, QueryError(e.code, e.message))

        def failed(failure):
            self._durable_wait = None
            error = failure.value
            self._end(FAILED, QueryError(getattr(error, "code", INTERNAL), str(getattr(error, "message", error))))

        wait.addCallbacks(on_disk, failed)

    def run_inline(self, max_steps: int, budget_secs: float, timer) -> None:
        """Run steps now (inside the POST) until the query ends, the buffer is full or the
        budget is spent: small results end here, and page 0 can say so."""
        deadline = timer() + budget_secs
        for _ in range(max_steps):
            if not self.step() or self.buffer.full or timer() > deadline:
                return

    def start(self, cooperator) -> None:
        if self.state == RUNNING and self._task is None:
            self._task = cooperator.cooperate(self._work())
            self._task.whenDone().addErrback(self._task_failed)

    def _task_failed(self, failure) -> None:
        """The producer task ended abnormally (stopped by _release, or a bug outside step):
        a bug is logged and fails the query with 1001, so nothing ends silently."""
        if failure.check(TaskStopped):
            return None
        self._task = None  # finished already: _release must not stop it again
        if failure.check(SchedulerStopped):  # the server stopped its cooperator
            self._end(FAILED, QueryError(ABORTED_QUERY, SHUTTING_DOWN))
            return None
        log.failure("query {id}: its producer task failed", failure, id=self.id)
        self._end(FAILED, QueryError(INTERNAL, f"internal error: {failure.value!r}"))
        return None

    def _work(self):
        while self.state == RUNNING:
            if self._durable_wait is not None:
                yield _resumed_by(self._durable_wait)
                continue
            if self.buffer.full:
                yield self.buffer.wait_for_space()
                continue
            self.step()
            yield None

    def _end(self, state: str, error: QueryError | None = None) -> None:
        if self.state != RUNNING:
            return
        self.state = state
        self.error = error
        self.ended_at = self.clock.seconds()
        if state == FAILED and self._engine_session is not None:
            # the session's open transaction fails with the statement, before the answer's
            # session says its state (the engine does it too when the error reaches it; a long
            # statement failing to parse in a thread, or a killed one, may not have yet)
            self._engine_session.fail_transaction()
        self._session_view = self._current_session()
        self._release(state == FAILED)
        if self._on_end is not None:
            on_end, self._on_end = self._on_end, None
            on_end(self)

    def _release(self, discard_rows: bool) -> None:
        if self._result is not None:
            self._progress_snapshot = self._progress_now()
            error = self.error  # the engine's query log records why it failed
            if error is not None:
                error = engine.EngineError(error.message, error.code)
            try:
                self._result.close(error)
            finally:
                self._result = self._batches = self._render = None
        if self._task is not None:
            task, self._task = self._task, None
            try:
                task.stop()
            except TaskFinished:  # done, or failed (its whenDone errback handled that)
                pass
        self._engine_session = None
        self.buffer.end(discard=discard_rows)

    def abort(self, message: str) -> None:
        """Fail the query with 1043 if it still runs (the server is stopping); its rows go."""
        self._end(FAILED, QueryError(ABORTED_QUERY, message))

    def check_deadline(self) -> None:
        """Fail the query if it ran out of max_execute_time_in_seconds while paused (a full page
        buffer stops its steps, and the engine checks the limit only at a step)."""
        if self.state == RUNNING and self._result is not None and self._result.past_deadline():
            self._end(FAILED, QueryError(ABORTED_QUERY, engine.TIME_LIMIT_MESSAGE))

    def kill(self, message: str = "canceled by client") -> None:
        """Stop the producer now and free the result; later page requests get 400."""
        self._close("canceled", message)

    def finalize(self) -> None:
        """The client is done (/final): stop if still running and drop every row."""
        self._close("finalized", "query finalized before it ended")

    def expire(self) -> None:
        """Nobody read the result for its timeout: stop and drop every row."""
        self._close("timed out", "timed out: nobody read the result")

    def _close(self, reason: str, message: str) -> None:
        """End the query (Failed with `message` if it still runs) and drop its rows; page
        requests then answer 400 'closed for <reason>' (the first reason sticks)."""
        self._end(FAILED, QueryError(ABORTED_QUERY, message))
        self.closed = self.closed or reason
        self.last_page = None
        self.buffer.end(discard=True)

    # -- reading -----------------------------------------------------------------------------

    @property
    def running_time_ms(self) -> float:
        end = self.ended_at if self.ended_at is not None else self.clock.seconds()
        return (end - self.started) * 1000.0

    def _progress_now(self) -> tuple:
        p = self._result.progress
        return (p.scan_rows, p.scan_bytes, p.write_rows, p.write_bytes,
                p.result_rows, p.result_bytes)

    @property
    def progress(self) -> tuple:
        if self._result is not None:
            return self._progress_now()
        return self._progress_snapshot or (0, 0, 0, 0, 0, 0)

    def _current_session(self) -> SessionView:
        s = self._engine_session
        if s is None:
            return self._session_view
        state = s.txn_state
        internal = None
        temp_tables = False
        if self._txn_internal is not None:  # a client-side session of the databend format
            internal = self._txn_internal(self._request_session.get("internal"), self.id, s)
            temp_tables = has_temp_tables(s)
        return SessionView(s.database, dict(s.settings), self._request_session, self._keep_secs,
                           state, internal, s.current_role(), temp_tables)

    @property
    def session_view(self) -> SessionView | None:
        return self._session_view if self._session_view is not None else self._current_session()

    def session_for_answer(self, always: bool) -> SessionView | None:
        """The session an answer carries: `always` (the POST answer), else only if it changed
        since the previous answer that carried one, None otherwise (as the current server)."""
        view = self.session_view
        if always or view != self._session_sent:
            self._session_sent = view
            return view
        return None

    @property
    def drained(self) -> bool:
        """Nothing more to give: ended with no unread rows."""
        return self.state != RUNNING and not self.buffer.rows

    def touch(self) -> None:
        self.last_access = self.clock.seconds()

    def page(self, number: int, wait_secs: float) -> Page | Deferred:
        """Page `number`: the next one (long-polling up to `wait_secs`) or the last one again."""
        self.touch()
        if self.closed is not None:
            raise BadRequest(f"Query {self.id} is closed for {self.closed}")
        if number == self.next_page:
            if self.buffer.page_ready or wait_secs <= 0:
                return self._cut(number)
            # "being polled" is the buffer's waiter list: nothing to undo if this raises
            d = self.buffer.wait_for_page(wait_secs)
            d.addBoth(self._poll_done)
            d.addCallback(lambda _: self._page_after_wait(number))
            return d
        if self.last_page is not None and number == self.last_page.number:
            return self.last_page
        raise NotFound(f"Invalid page number: requested {number}, current page is {self.next_page}")

    def _poll_done(self, passthrough):
        self.touch()
        return passthrough

    def _page_after_wait(self, number: int) -> Page:
        if number == self.next_page:
            return self._cut(number)
        if self.last_page is not None and number == self.last_page.number:
            return self.last_page
        return Page(number, [], None)

    def _cut(self, number: int) -> Page:
        rows = self.buffer.take()
        if rows:
            more = not (self.buffer.ended and not self.buffer.rows)
            page = Page(number, rows, number + 1 if more else None)
            self.last_page = page
            self.next_page = number + 1
            return page
        if self.buffer.ended:
            return Page(number, [], None)
        return Page(number, [], number)


def _resumed_by(wait: Deferred) -> Deferred:
    """A Deferred firing (with None) when `wait` fires either way, leaving `wait`'s result to
    its own callbacks: what a cooperative task yields to pause until then."""
    resumed = Deferred()

    def resume(value):
        resumed.callback(None)
        return value

    wait.addBoth(resume)
    return resumed
