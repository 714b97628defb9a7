"""Server-wide settings of the HTTP service: wire format choice, defaults and limits."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import VERSION as SERVER_VERSION
from engine import Limits

#: The version reported by /v1/session/login and X-DATABEND-VERSION: the engine's, a current
#: Databend's (clients turn on heartbeats, streaming load, server-side `params` and Arrow pages
#: by it; docs/protocol.rst lists what each version gate brings).

__all__ = ["SERVER_VERSION", "WIRE_FORMATS", "ServiceConfig"]

WIRE_FORMATS = ("auto", "spec", "databend")


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """What `twistd queryhttp` options set; every limit has a safe default."""

    wire_format: str = "auto"  # auto: X-DATABEND-* request header -> databend, else spec
    max_body_bytes: int = 10 * 1024 * 1024  # largest accepted request body
    max_upload_bytes: int = 256 * 1024 * 1024  # largest PUT /v1/upload_to_stage body
    # the bytes all uploads in flight may hold together (bodies past 1 MiB spool to temporary
    # files); an upload that would take them past it is answered 503 before its body is read
    max_upload_inflight_bytes: int = 1024 * 1024 * 1024
    # Queries producing rows at the same time; a query paused on a full page buffer that
    # nobody reads does not count (it holds memory, bounded by its buffer, not CPU).
    max_running_queries: int = 64
    max_running_queries_per_user: int = 16  # the same, per user: no user takes every slot
    # a query over those limits waits in the queue (web.admission) at most this long, then
    # fails with 1122 (Databend's session setting of that name, whose 0 means no limit here
    # must be a bound: queued queries hold their client's long polls)
    statement_queued_timeout_in_seconds: int = 60
    max_retained_queries: int = 1000  # fully read queries kept for retry/final before eviction
    # When twice max_retained_queries hold unread results, queries unread for this long are
    # expired before their result timeout (longest idle first) so new queries can start.
    pressure_idle_secs: int = 10
    # server-side sessions (keep_server_session_secs > 0); as many kept open transactions
    max_sessions: int = 1000
    # upper bound of keep_server_session_secs; an open transaction is kept that long
    max_keep_session_secs: int = 3600
    # a client session (cookie or X-DATABEND-SESSION) unused this long loses its temporary
    # tables; refresh tokens live as long, session tokens a quarter of it (Databend's default)
    http_session_timeout_secs: int = 14400
    max_rows_per_page: int = 100_000  # upper bound of pagination.max_rows_per_page
    default_rows_per_page: int = 10_000
    buffer_pages: int = 2  # a producer pauses once this many full pages are unread
    spec_wait_secs: int = 1  # default pagination.wait_time_secs, seed (spec) format
    databend_wait_secs: int = 10  # default pagination.wait_time_secs, databend format
    result_timeout_secs: int = 60  # default http_handler_result_timeout_secs
    max_wait_secs: int = 60  # upper bound of pagination.wait_time_secs (larger is clamped)
    max_result_timeout_secs: int = 3600  # upper bound of http_handler_result_timeout_secs
    # SQL longer than this (UTF-8 bytes) is parsed in a thread, off the reactor
    thread_parse_sql_bytes: int = 64 * 1024
    limits: Limits = field(default_factory=Limits)  # the engine's limits (engine.core.limits)
    inline_steps: int = 64  # engine steps tried inside the POST before handing to the cooperator
    slice_secs: float = 0.004  # longest cooperator time slice (also the inline budget)
    access_log: bool = False
    # A connection that sends nothing for this long between requests (or stalls inside
    # one) is closed; twisted.web's default is 12 hours, which lets idle clients pile up.
    idle_connection_secs: int = 60
    # a debug event when each query starts; off by default: a line in twistd's text log costs
    # ~100 us of the server's CPU (more with a pipe as stdout), a third of a SELECT 1 round trip
    log_query_start: bool = False
    # the end event of every query; without it only failed queries' end events (with their
    # error) are logged, the metrics count the others (issue 24: the line per query halved
    # the SELECT 1 round trips)
    log_queries: bool = False
    metrics_auth: bool = True  # GET /metrics asks for credentials (--metrics_auth none: open)
    console: bool = True  # the browser console at / and /console (--console off: 404 there)
    data_dir: str | None = None  # where the database persists (None: in memory only)
    fsync: bool = True  # --fsync always (True) or off: whether a commit waits for fsync
    # --recover_to_last_good: a log record that does not fit sets the log from it on aside
    # (logged) instead of stopping the start
    recover_to_last_good: bool = False
    # the listener speaks TLS (--http_handler_tls_server_cert/_key): its announced URL and
    # PRESIGN's URLs are https://
    tls: bool = False
    # longest wait a client address's failed logins build up before its next check (web.auth)
    login_backoff_max_secs: float = 8.0
