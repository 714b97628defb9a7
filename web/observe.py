"""What the service tells about each query: structured log events, metrics, and KILL QUERY.

Events are twisted.logger events whose fields (query_id, user, state, error_code, rows, ms,
sql) a JSON log observer keeps as such; `query_event` says which one it is: "start" (debug,
with --log_query_start), "end" (info: every failed query, and every query with
--log_queries), "refused" (info: not admitted) and "slow_step" (warning: one engine step
held the reactor longer than SLOW_STEP_SECS, so every other client waited that long). A
line of twistd's text log costs ~100 us, a third of a SELECT 1 round trip: lines that every
query would write are options.
"""

from __future__ import annotations

from twisted.logger import Logger

from engine import KILLED_MESSAGE, redact_passwords
from web.wire import FAILED

# An engine step longer than this is logged: the reactor served nobody else meanwhile.
SLOW_STEP_SECS = 0.1
# SQL in log events is cut to this many characters (a statement may be megabytes).
SQL_PREFIX_CHARS = 200

log = Logger(namespace="queryhttp.query")


def sql_prefix(sql: str) -> str:
    return sql if len(sql) <= SQL_PREFIX_CHARS else sql[:SQL_PREFIX_CHARS] + "..."


class QueryObserver:
    """Called once per query event by the app and once per engine step by Query.step."""

    def __init__(self, db, metrics, timer, slow_step_secs: float = SLOW_STEP_SECS,
                 log_start: bool = False, log_succeeded: bool = False):
        self.db = db
        self.log_start = log_start
        self.log_succeeded = log_succeeded
        self.metrics = metrics
        self.timer = timer  # seconds, monotonic (injected: tests pass a fake one)
        self.slow_step_secs = slow_step_secs

    def started(self, query, sql: str) -> None:
        query.sql = sql_prefix(redact_passwords(sql))  # no CREATE USER password in the log
        if self.log_start:
            log.debug("query {query_id} started by {user}: {sql}", query_event="start",
                      query_id=query.id, user=query.user, sql=query.sql)

    def executing(self, query) -> None:
        """The engine started the statement: KILL QUERY of its id now stops this HTTP query."""
        processes = getattr(self.db, "processes", None)
        process = processes.find(query.id) if processes is not None else None
        if process is not None:
            process.kill = lambda: query.kill(KILLED_MESSAGE)

    def step_done(self, query, seconds: float) -> None:
        if seconds > self.slow_step_secs:
            self.metrics.slow_steps.inc()
            log.warn("query {query_id} step took {ms} ms: {sql}", query_event="slow_step",
                     query_id=query.id, user=query.user, ms=round(seconds * 1000), sql=query.sql)

    def refused(self, user: str, code: int, message: str) -> None:
        """A query refused before it started (admission: too many queries or sessions)."""
        self.metrics.refused.labels(code=str(code)).inc()
        log.info("query of {user} refused ({error_code}: {error})", query_event="refused",
                 user=user, error_code=code, error=message)

    def ended(self, query) -> None:
        error = query.error
        code = error.code if error is not None else 0
        scan_rows, scan_bytes, write_rows, write_bytes, rows, nbytes = query.progress
        running_ms = query.running_time_ms
        ms = round(running_ms)
        self.metrics.query_ended(query.state, code, running_ms / 1000.0, rows, nbytes)
        failed = query.state == FAILED
        if not failed and not self.log_succeeded:
            return
        fields = dict(query_event="end", query_id=query.id, user=query.user, state=query.state,
                      error_code=code, rows=rows, ms=ms, sql=query.sql)
        if failed:
            log.info("query {query_id} of {user} {state} in {ms} ms ({error_code}: {error})",
                     error=error.message if error is not None else "", **fields)
        else:
            log.info("query {query_id} of {user} {state} in {ms} ms, {rows} rows", **fields)
