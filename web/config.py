"""Server-wide settings of the HTTP service: wire format choice, defaults and limits."""

from __future__ import annotations

from dataclasses import dataclass

#: The version reported by /v1/session/login and X-DATABEND-VERSION: the engine's, a strict
#: semver no higher than 1.2.781, so current clients pick neither streaming load, Arrow bodies
#: nor server-side parameter binding.
from engine.version import VERSION as SERVER_VERSION

__all__ = ["SERVER_VERSION", "WIRE_FORMATS", "ServiceConfig"]

WIRE_FORMATS = ("auto", "spec", "databend")


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """What `twistd queryhttp` options set; every limit has a safe default."""

    wire_format: str = "auto"  # auto: X-DATABEND-* request header -> databend, else spec
    max_body_bytes: int = 10 * 1024 * 1024  # largest accepted request body
    max_running_queries: int = 64  # queries still producing rows at the same time
    max_retained_queries: int = 1000  # fully read queries kept for retry/final before eviction
    max_sessions: int = 1000  # server-side sessions (keep_server_session_secs > 0)
    max_keep_session_secs: int = 3600  # upper bound of keep_server_session_secs
    max_rows_per_page: int = 100_000  # upper bound of pagination.max_rows_per_page
    default_rows_per_page: int = 10_000
    buffer_pages: int = 2  # a producer pauses once this many full pages are unread
    spec_wait_secs: int = 1  # default pagination.wait_time_secs, seed (spec) format
    databend_wait_secs: int = 10  # default pagination.wait_time_secs, databend format
    result_timeout_secs: int = 60  # default http_handler_result_timeout_secs
    inline_steps: int = 64  # engine steps tried inside the POST before handing to the cooperator
    slice_secs: float = 0.004  # longest cooperator time slice (also the inline budget)
    access_log: bool = False
    # a debug event when each query starts (the end event is always logged); off by default:
    # a line in twistd's text log costs ~100 us, a third of a SELECT 1 round trip
    log_query_start: bool = False
    metrics_auth: bool = True  # GET /metrics asks for credentials (--metrics_auth none: open)
