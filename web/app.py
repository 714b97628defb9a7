"""Klein routes of the query HTTP protocol, on a class holding its collaborators."""

from __future__ import annotations

import time
from functools import partial

from klein import Klein
from twisted.internet.defer import CancelledError, Deferred
from twisted.logger import Logger
from twisted.python.failure import Failure
from werkzeug.exceptions import MethodNotAllowed
from werkzeug.exceptions import NotFound as RouteNotFound

import engine
from engine import STORAGE_OTHER
from web import stage_endpoints
from web.admission import list_queued, skips_queue, unlist_queued
from web.arrow_pages import answer_page, asks_for_arrow, negotiate, refuse_switch
from web.auth import Authenticator
from web.client_sessions import mark_answer
from web.config import SERVER_VERSION, ServiceConfig
from web.console import Console
from web.console_split import script_of, split_answer
from web.dispatch import Dispatcher
from web.errors import BadRequest, FailedToStart, HTTPError, NotFound, PayloadTooLarge
from web.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from web.metrics import Metrics
from web.observe import QueryObserver
from web.presign import Presigner
from web.queries import (
    ABORTED_QUERY,
    INTERNAL,
    SHUTTING_DOWN,
    Page,
    Query,
    client_query_id,
)
from web.query_registry import QueryRegistry
from web.query_request import (
    QueryRequest,
    check_sql_size,
    parse_json,
    parse_query_request,
    sql_bytes,
)
from web.request_helpers import (
    authenticated,
    check_upload_credentials,
    is_deferred,
    prepare_long_statement,
)
from web.response_headers import set_known
from web.session_endpoints import ClientSessionService, queries_to_remove, verify_answer
from web.sessions import TOO_MANY_CONNECTIONS, SessionStore
from web.streaming_load import StreamingLoad
from web.transactions import TransactionStore, refused_txn_state
from web.wire import (
    DATABEND,
    FAILED,
    RUNNING,
    SPEC,
    Answer,
    QueryError,
    SessionView,
    choose_format,
    encode_answer,
    encode_json,
    error_body,
)

log = Logger()
_JSON = b"application/json"
_VERSION = SERVER_VERSION.encode()
# werkzeug lets HEAD into every GET route; these change state, so a HEAD probe is refused there.
_NO_HEAD_ENDPOINTS = (b"kill", b"final")


class QueryApp:
    """The service: POST /v1/query, pages, stats, kill, final, login, health.

    Collaborators come in (engine database, clock, cooperator, authenticator), so tests drive
    it with a task.Clock and a hand-pumped cooperator.
    """

    app = Klein()

    def __init__(self, db: engine.Database, *, clock, cooperator,
                 config: ServiceConfig | None = None,
                 authenticator: Authenticator | None = None, timer=time.perf_counter,
                 run_in_thread=None, call_from_thread=None):
        self.db = db
        # PRESIGN's URLs are made and checked here (web.presign)
        self.presigner = Presigner(clock=clock.seconds)
        db.presigner = self.presigner
        processes = getattr(db, "processes", None)
        if processes is not None:
            processes.handler_type = "HTTPQuery"  # Databend's handler_type for HTTP statements
        self.clock = clock
        self.cooperator = cooperator
        self.config = config or ServiceConfig()
        self.auth = authenticator or Authenticator()
        users = getattr(db, "users", None)  # the engine's users (CREATE USER) may log in too
        if users is not None:
            self.auth.use_sql_users(users)
        self.queries = QueryRegistry(clock, self.config.max_running_queries,
                                     self.config.max_retained_queries,
                                     self.config.max_running_queries_per_user,
                                     self.config.pressure_idle_secs,
                                     self.config.statement_queued_timeout_in_seconds,
                                     on_queue_wait=self._queue_waited)
        self.sessions = SessionStore(clock, self.config.max_sessions,
                                     self.config.max_keep_session_secs)
        # open transactions of client-side sessions between their requests (web.transactions)
        self.transactions = TransactionStore(clock, self.config.max_sessions,
                                             self.config.max_keep_session_secs)
        # client sessions (cookie or header), their temporary tables, and session tokens
        self.client_sessions = ClientSessionService(
            db, clock, max_states=self.config.max_sessions,
            idle_secs=self.config.http_session_timeout_secs, node_id=self.transactions.node_id)
        self.auth.tokens = self.client_sessions.tokens
        self._timer = timer
        if run_in_thread is None:
            from twisted.internet.threads import deferToThread as run_in_thread
        self._run_in_thread = run_in_thread  # deferToThread; tests pass a synchronous one
        if call_from_thread is None:
            from twisted.internet import reactor

            call_from_thread = reactor.callFromThread
        # how the log's writer thread hands "record n is on disk" to the event loop
        self._call_from_thread = call_from_thread
        self.stopping = False
        self.metrics = Metrics(self)  # after self.queries: its gauges read it
        self.observer = QueryObserver(db, self.metrics, timer,
                                      log_start=self.config.log_query_start,
                                      log_succeeded=self.config.log_queries)
        # the browser console at / (web.console); --console off leaves those paths 404
        self.console = Console() if self.config.console else None

    def durable(self, lsn: int | None) -> Deferred:
        """Fires once log record `lsn` is on disk (at once without a data directory or with
        nothing to wait for); fails with StorageError when the log cannot take it."""
        d = Deferred()

        def on_disk():
            failure = self.db.log_failure()
            if failure is None:
                d.callback(None)
            else:
                d.errback(engine.EngineError(failure, STORAGE_OTHER))

        if lsn is None:
            on_disk()
        else:
            self.db.durable_after(lsn, lambda: self._call_from_thread(on_disk))
        return d

    def _stored_durably(self, value):
        """A Deferred firing with `value` once what changed outside a statement (a staged file)
        is on disk."""
        try:
            lsn = self.db.commit_changes()
        except OSError as exc:  # refused: the file is gone again (the Recorder undid it)
            raise BadRequest(f"{STORAGE_OTHER}: {exc}") from None

        def lost(failure):  # the log failed before the record was on disk: the file is undone
            failure.trap(engine.EngineError)
            raise BadRequest(f"{failure.value.code}: {failure.value.message}")

        return self.durable(lsn).addCallbacks(lambda _: value, lost)

    def resource(self, fast_routes: bool = True):
        """The root resource; `fast_routes=False` sends every request through Klein routing."""
        return Dispatcher(self, self.app.resource(), fast=fast_routes, console=self.console)

    def sweep(self) -> None:
        """Expire unread queries and idle server-side sessions (run every second or so)."""
        self.queries.sweep()
        self.sessions.sweep()
        self.transactions.sweep()
        self.client_sessions.store.sweep()

    def shutdown(self) -> None:
        """The server is stopping: refuse new queries, fail the running ones with 1043 (their
        waiting long polls answer now)."""
        self.stopping = True
        self.queries.abort_running(SHUTTING_DOWN)

    # -- request plumbing ----------------------------------------------------------------------

    def _format(self, request) -> str:
        return choose_format(self.config.wire_format,
                             (name for name, _ in request.requestHeaders.getAllRawHeaders()))

    def _body(self, request) -> bytes:
        limit = self.config.max_body_bytes
        if not getattr(request, "body_too_large", False):
            request.content.seek(0)
            body = request.content.read(limit + 1)
            if len(body) <= limit:
                return body
        raise PayloadTooLarge(
            f"request body is larger than {limit} bytes (server option --max_body_bytes)")

    @staticmethod
    def _send(request, status: int, body: bytes, content_type: bytes) -> bytes:
        request.setResponseCode(status)
        set_known(request, b"Content-Type", content_type)
        set_known(request, b"Content-Length", b"%d" % len(body))
        set_known(request, b"X-Databend-Version", _VERSION)
        return body

    def _send_answer(self, request, fmt: str, answer: Answer) -> bytes:
        if answer.query_id:
            set_known(request, b"X-Databend-Query-Id", answer.query_id.encode())
        set_known(request, b"X-Databend-Query-State", answer.state.encode())
        return self._send(request, 200, encode_answer(fmt, answer), _JSON)

    def _answer(self, query: Query, *, data: list, next_page: int | None,
                session: SessionView | None, final: bool = False) -> Answer:
        return Answer(
            query_id=query.id, state=query.state, session_id=query.session_id,
            error=query.error, schema=query.schema, data=data,
            affect=None if final else query.affect, progress=query.progress,
            running_time_ms=query.running_time_ms, next_page=next_page, final=final,
            session=session, result_timeout_secs=query.result_timeout, timezone=query.timezone,
            node_id=self.transactions.node_id)

    def _send_page(self, request, fmt: str, query: Query, page: Page, first: bool) -> bytes:
        # The spec format echoes the session on every page; the databend format on the POST
        # answer, then only when it changed (clients keep the last non-null one).
        session = query.session_for_answer(always=first or fmt != DATABEND)
        if query.arrow is not None or asks_for_arrow(request):  # web.arrow_pages
            return answer_page(self, request, fmt, query, page, session)
        answer = self._answer(query, data=page.rows, next_page=page.next_page, session=session)
        return self._send_answer(request, fmt, answer)

    def _page_response(self, request, fmt: str, query: Query, number: int, first: bool = False):
        """Page `number` of `query` (page 0 of a POST when `first`), now or after its long poll."""
        refuse_switch(request, fmt, query)  # before the page is cut: a refusal loses no rows
        page = query.page(number, query.wait_secs)
        if is_deferred(page):
            return page.addCallback(
                lambda p: self._send_page(request, fmt, query, p, first))
        return self._send_page(request, fmt, query, page, first)

    # -- errors ----------------------------------------------------------------------------------

    @app.handle_errors(RouteNotFound)
    def _route_not_found(self, request, failure):
        body, content_type = error_body(self._format(request), 404, "not found")
        return self._send(request, 404, body, content_type)

    @app.handle_errors(MethodNotAllowed)
    def _method_not_allowed(self, request, failure):
        allowed = set(failure.value.valid_methods or ())
        if request.postpath and request.postpath[-1] in _NO_HEAD_ENDPOINTS:
            allowed.discard("HEAD")
        allowed = ", ".join(sorted(allowed))
        path = "/" + "/".join(segment.decode("latin-1") for segment in request.postpath)
        message = f"method {request.method.decode('latin-1')} not allowed on {path} " \
                  f"(allowed: {allowed})"
        body, content_type = error_body(self._format(request), 405, message)
        request.setHeader(b"allow", allowed.encode())
        return self._send(request, 405, body, content_type)

    @app.handle_errors(Exception)
    def error_response(self, request, failure):
        """The answer to a request that raised: its HTTPError, or a logged 500 for a bug."""
        error = failure.value
        if not isinstance(error, HTTPError):
            log.failure("internal error answering {uri}", failure, uri=request.uri)
            error = HTTPError("internal error; the server log has the details", status=500)
        # the session endpoints are Databend's only: their errors are always its JSON (the
        # JDBC login sends no X-DATABEND header)
        fmt = DATABEND if request.path.startswith(b"/v1/session/") else self._format(request)
        body, content_type = error_body(fmt, error.code, error.message)
        if error.status == 401:
            request.setHeader(b"www-authenticate", b'Basic realm="queryhttp"')
        return self._send(request, error.status, body, content_type)

    # -- starting a query ------------------------------------------------------------------------

    @app.route("/v1/query", methods=["POST"])
    @authenticated
    def post_query(self, request, user: str):
        fmt = self._format(request)
        query_request = parse_query_request(self._body(request))
        # databend-py reads only the text NULL (a JSON null breaks its int() of a numeric column,
        # and it cannot send settings from a DSN, as dbt-databend-cloud uses it): for it, NULL
        # is text unless the session sets format_null_as_str
        agent = request.getHeader(b"user-agent")
        if agent is not None and agent.startswith(b"databend-py"):
            query_request.nulls_as_text = True
        if query_request.sql.lstrip()[:7].lower() == "presign":
            self._presign_base(request)
        client = self.client_sessions.identify(request) if fmt == DATABEND else None
        mark_answer(request, client)
        client_id = client_query_id(request.getHeader(b"x-databend-query-id"))
        existing = self.queries.find(client_id) if client_id is not None else None
        if existing is not None:
            if existing.user != user:
                client_id = None  # never reveal nor replace another user's query
            elif existing.closed is None:
                return self._page_response(request, fmt, existing, 0, first=True)  # a retry
            # else a closed query: the new one takes its id over
        query_request.arrow = negotiate(request, query_request, fmt)  # 400 when unusable
        try:
            query = self._start(user, query_request, fmt, client_id, client)
        except FailedToStart as e:
            self.observer.refused(user, e.code, e.message)
            r = query_request
            answer = Answer(query_id="", state=FAILED, error=QueryError(e.code, e.message),
                            session_id=r.session_id or (client.id if client else ""),
                            session=SessionView(r.database or "default", r.settings, r.session,
                                                r.keep_secs, refused_txn_state(r.session)))
            return self._send_answer(request, fmt, answer)
        if is_deferred(query):  # its statement is being parsed in a thread
            return query.addCallback(
                lambda started: self._page_response(request, fmt, started, 0, first=True))
        return self._page_response(request, fmt, query, 0, first=True)

    def _start(self, user: str, r: QueryRequest, fmt: str,
               query_id: str | None, client=None) -> Query | Deferred:
        """Register and start the query (a Deferred firing with it when its long statement
        is parsed in a thread); FailedToStart when it cannot start."""
        config = self.config
        check_sql_size(r.sql, config.limits.sql_bytes)
        kept = None
        if r.session_id:
            kept = self.sessions.get(r.session_id, user, r.keep_secs)
            session, request_session = kept.engine_session, kept.request_session
        else:
            try:
                session = self.db.session(database=r.database or "default",
                                          settings=r.settings, user=user)
            except engine.EngineError as e:
                raise FailedToStart(e.code, e.message) from None
            request_session = r.session
        role = r.session.get("role")
        if role:  # the client's session role, as Databend sets it for each request
            try:
                session.set_role(role)
            except engine.EngineError as e:
                raise FailedToStart(e.code, e.message) from None
        if self.stopping:
            raise FailedToStart(ABORTED_QUERY, SHUTTING_DOWN)
        refusal = self.queries.refusal()
        if refusal is not None:
            raise FailedToStart(TOO_MANY_CONNECTIONS, refusal)
        if kept is None and r.keep_secs > 0:
            kept = self.sessions.create(user, session, r.keep_secs, r.session)
        # a client-side session (the databend format's): its open transaction was kept here
        client_side = kept is None and fmt == DATABEND
        if client_side:
            self.transactions.resume(r.session, user, session)
            self.client_sessions.restore(session, user, client, r.session)
        page_rows = min(r.page_rows or config.default_rows_per_page, config.max_rows_per_page)
        buffer_rows = page_rows * config.buffer_pages
        if r.buffer_rows is not None:
            buffer_rows = max(page_rows, min(r.buffer_rows, buffer_rows))
        if r.wait_secs is not None:
            wait = min(r.wait_secs, config.max_wait_secs)  # clamped: no timer beyond it
        else:
            wait = config.databend_wait_secs if fmt == DATABEND else config.spec_wait_secs
        result_timeout = int(session.explicit_setting("http_handler_result_timeout_secs")
                             or 0) or config.result_timeout_secs
        query = Query(
            query_id or self.queries.new_id(), user, self.clock, session=session,
            request_session=request_session,
            session_id=kept.id if kept else (client.id if client is not None else ""),
            keep_secs=kept.keep_secs if kept else 0,
            result_timeout=min(result_timeout, config.max_result_timeout_secs),
            page_rows=page_rows, buffer_rows=buffer_rows, wait_secs=wait,
            on_end=partial(self._query_ended, kept, session if client_side else None, client),
            observer=self.observer,
            txn_internal=self.client_sessions.internal if client_side else None,
            durable=self.durable)
        query.arrow = r.arrow
        self.queries.add(query)
        self.observer.started(query, r.sql)
        if kept is not None:
            self.sessions.begin(kept, query)
        started = []  # what _run returned, once the query got a running slot

        def run():
            unlist_queued(self.db, query)
            started.append(self._run(query, session, r, fmt))

        if not self.queries.admit_or_queue(query, run, skip_queue=skips_queue(r.sql)):
            # over the running limits: it waits in the queue; the POST answers Running with
            # no rows (the client long-polls next_uri as usual) and SHOW PROCESSLIST shows it
            list_queued(self.db, query, session.database, r.sql)
            return query
        if started and started[0] is not None:
            return started[0].addCallback(lambda _: query)
        return query

    def _run(self, query: Query, session, r: QueryRequest, fmt: str) -> Deferred | None:
        """Start the statement of a query that has its running slot: now, or (a long
        statement) once a thread parsed it (the Deferred firing then)."""
        config = self.config
        if r.attachment is not None:
            self._execute(query, session, r.sql, fmt, attachment=r.attachment,
                          nulls_as_text=r.nulls_as_text, params=r.params)
            return None
        if sql_bytes(r.sql, config.thread_parse_sql_bytes) > config.thread_parse_sql_bytes:
            # a long statement parses in a thread (Session.parse is pure), which keeps this
            # one serving meanwhile; it is bound and run here, where the catalog lives
            d = self._run_in_thread(prepare_long_statement, session, r.sql, query.id)
            d.addCallbacks(lambda prepared: self._execute(query, session, r.sql, fmt, prepared,
                                                          nulls_as_text=r.nulls_as_text,
                                                          params=r.params),
                           lambda failure: self._not_parsed(query, failure))
            return d
        self._execute(query, session, r.sql, fmt, nulls_as_text=r.nulls_as_text, params=r.params)
        return None

    def _queue_waited(self, seconds: float) -> None:
        self.metrics.queue_wait.observe(max(seconds, 0.0))

    def _execute(self, query: Query, session, sql: str, fmt: str, prepared=None,
                 attachment=None, nulls_as_text: bool = False, params=None) -> None:
        """Bind and start `sql` for `query`; `prepared` is its statement as
        prepare_long_statement parsed it in a thread, None for short SQL; `params` the
        request's values for the SQL's placeholders."""
        if query.state != RUNNING:  # killed or aborted while its statement was parsed
            return
        try:
            result = session.execute(sql, statement=prepared, query_id=query.id,
                                     attachment=attachment, params=params)
        except Exception as e:
            self._not_started(query, e)
            return
        self.observer.executing(query)
        null_as_str = session.explicit_setting("format_null_as_str")
        if null_as_str is None:  # the format's default (and databend-py's, see post_query)
            query.attach(result, fmt == SPEC or nulls_as_text)
        else:
            query.attach(result, null_as_str == "1")
        query.run_inline(self.config.inline_steps, self.config.slice_secs, self._timer)
        query.start(self.cooperator)

    def _not_parsed(self, query: Query, failure: Failure) -> None:
        if failure.check(CancelledError):  # the client went away while its statement parsed
            query.kill()
        else:
            self._not_started(query, failure.value)

    @staticmethod
    def _not_started(query: Query, error: Exception) -> None:
        if isinstance(error, engine.EngineError):
            query.fail(error.code, error.message)
        else:  # an engine bug fails this query only
            log.failure("engine failed to start query {id}", Failure(error), id=query.id)
            query.fail(INTERNAL, f"internal error: {error!r}")

    def _query_ended(self, kept, client_session, client, query: Query) -> None:
        unlist_queued(self.db, query)  # killed, closed or timed out while queued
        self.queries.ended(query)
        self.observer.ended(query)
        if kept is not None:
            self.sessions.finish(kept)
        elif client_session is not None:
            if client_session.txn_state == "Active":
                # the client's next request resumes it (its session names this query)
                self.transactions.keep(query.id, query.user, client_session.transaction)
            self.client_sessions.keep(client_session, query.user, client)

    # -- following a query -----------------------------------------------------------------------

    @app.route("/v1/query/<query_id>/page/<number>", methods=["GET"])
    @authenticated
    def get_page(self, request, query_id: str, number: str, user: str):
        fmt = self._format(request)
        query = self.queries.get(query_id, user)
        # more than 18 digits cannot be a page (and int() of thousands would raise)
        if not (number.isascii() and number.isdigit()) or len(number) > 18:
            raise NotFound(f"Invalid page number: requested {number!r}, "
                           f"current page is {query.next_page}")
        return self._page_response(request, fmt, query, int(number))

    @app.route("/v1/query/<query_id>", methods=["GET"])
    @authenticated
    def get_stats(self, request, query_id: str, user: str):
        fmt = self._format(request)
        query = self.queries.get(query_id, user)
        query.touch()
        next_page = None if query.drained or query.closed else query.next_page
        answer = self._answer(query, data=[], next_page=next_page, session=query.session_view)
        return self._send_answer(request, fmt, answer)

    @staticmethod
    def _refuse_head(request) -> None:
        """A HEAD probe must not kill or close a query: 405 (see _NO_HEAD_ENDPOINTS)."""
        if request.method == b"HEAD":
            raise MethodNotAllowed(valid_methods=["GET", "POST"])

    @app.route("/v1/query/<query_id>/kill", methods=["GET", "POST"])
    @authenticated
    def kill(self, request, query_id: str, user: str):
        self._refuse_head(request)
        query = self.queries.get(query_id, user)
        query.touch()
        query.kill()
        request.setHeader(b"x-databend-query-id", query.id.encode())
        return self._send(request, 200, b"", b"text/plain; charset=utf-8")

    @app.route("/v1/query/<query_id>/final", methods=["GET", "POST"])
    @authenticated
    def final(self, request, query_id: str, user: str):
        self._refuse_head(request)
        fmt = self._format(request)
        query = self.queries.get(query_id, user)
        refuse_switch(request, fmt, query)
        query.touch()
        query.finalize()
        answer = self._answer(query, data=[], next_page=None, session=None, final=True)
        return self._send_answer(request, fmt, answer)

    # -- auxiliary endpoints ---------------------------------------------------------------------

    @app.route("/v1/upload_to_stage", methods=["PUT", "POST"])
    @authenticated
    def upload_to_stage(self, request, user: str):
        return stage_endpoints.upload_to_stage(self, request, user)

    @app.route("/v1/streaming_load", methods=["PUT"])
    @authenticated
    def streaming_load(self, request, user: str):
        """Databend's HTTP streaming load: upload and INSERT in one request (web.streaming_load)."""
        return StreamingLoad(self, request, user).run()

    def _presign_base(self, request) -> None:
        """PRESIGN's URLs point where this client reached the server (its Host header)."""
        host = request.getHeader(b"host")
        if host:
            scheme = "https" if request.isSecure() else "http"
            self.presigner.base_url = f"{scheme}://{host.decode('ascii', 'replace')}"

    @app.route("/v1/presigned/<token>", methods=["PUT", "GET"])
    def presigned(self, request, token: str):
        return stage_endpoints.presigned(self, request, token)

    def upload_gate(self, method: bytes, path: bytes, headers, client: str = "unknown"):
        """The site's check of an upload when its headers arrive (web.site): the presign token
        of /v1/presigned/..., else the Basic credentials; raises the refusal (403, 401), returns
        the user or a Deferred of it (a password hashed in a thread)."""
        return check_upload_credentials(self.presigner, self.auth, method, path, headers, client)

    @app.route("/v1/session/login", methods=["POST"])
    @authenticated
    def login(self, request, user: str):
        """Databend's login (web.session_endpoints): checks, session id, tokens."""
        answer = self.client_sessions.login(request, user, self._body(request), SERVER_VERSION)
        return self._send(request, 200, encode_json(answer), _JSON)

    @app.route("/v1/session/refresh", methods=["POST"])
    def refresh(self, request):
        """New session tokens for the refresh token presented as Bearer."""
        answer = self.client_sessions.refresh(request, self._body(request))
        return self._send(request, 200, encode_json(answer), _JSON)

    @app.route("/v1/verify", methods=["POST"])
    @authenticated
    def verify(self, request, user: str):
        """Who the credentials are (databend-go's Ping checks `user`, and `tenant` when set)."""
        body = verify_answer(self.db.users, user)
        return self._send(request, 200, encode_json(body), _JSON)

    @app.route("/v1/session/heartbeat", methods=["POST"])
    @authenticated
    def heartbeat(self, request, user: str):
        """Keeps the listed queries alive; answers the ones that are gone or closed."""
        gone = queries_to_remove(self.queries, user, parse_json(self._body(request) or b"{}"))
        self.client_sessions.heartbeat(user, self.client_sessions.identify(request))
        return self._send(request, 200, encode_json({"queries_to_remove": gone}), _JSON)

    @app.route("/v1/console/split", methods=["POST"])
    @authenticated
    def console_split(self, request, user: str):
        """The statements of a script, cut by the grammar (the console runs them one by one);
        parsing is pure, so it runs in a thread and the event loop keeps serving."""
        script = script_of(parse_json(self._body(request) or b"{}"))
        d = self._run_in_thread(split_answer, script)
        return d.addCallback(lambda answer: self._send(request, 200, encode_json(answer), _JSON))

    @app.route("/v1/session/logout", methods=["POST"])
    @authenticated
    def logout(self, request, user: str):
        """Ends the client session: its temporary tables are dropped, its token revoked."""
        self.client_sessions.logout(request, user, self.client_sessions.identify(request))
        return self._send(request, 200, b'{"error":null}', _JSON)

    @app.route("/metrics", methods=["GET"])
    def metrics_page(self, request):
        """Prometheus metrics; credentials required unless --metrics_auth none."""
        if self.config.metrics_auth:
            return self._metrics_with_credentials(request)
        return self._send(request, 200, self.metrics.render(), METRICS_CONTENT_TYPE)

    @authenticated
    def _metrics_with_credentials(self, request, user: str):
        return self._send(request, 200, self.metrics.render(), METRICS_CONTENT_TYPE)

    @app.route("/health", methods=["GET"])
    def health(self, request):
        return self._send(request, 200, b"ok", b"text/plain; charset=utf-8")
