"""The process list (running statements) and the bounded query log, and KILL QUERY.

Every `Session.execute` registers its statement here and the entry leaves the list when the
statement's Result ends, fails, is closed or is dropped unread; the query log keeps the last
`Limits.query_log_size` of them. system.processes, SHOW PROCESSLIST and system.query_log read
these (engine.catalog.system), and KILL QUERY calls the entry's kill callback.

Column names, types and codes follow Databend 1.2.453 (its embedded build answered
`DESC system.processes`, `DESC system.query_log` and `KILL QUERY 'nope'`):

- processes are keyed by query id here (Databend keys them by session id; one of our sessions
  runs one statement at a time, and the HTTP protocol names queries, not sessions);
- the query log holds one row per finished statement (Databend's log_type 2 'Finish' and
  3 'Error' rows, as its embedded build wrote them, and 4 'Aborted' for a killed statement, the
  name Databend's log type has; its 'Start' rows are left out so that the bound counts
  statements);
- an unknown id is UnknownSession 1053 "Not found session id <id>", as Databend answers.
"""

from __future__ import annotations

import datetime
import itertools
import time
import uuid
import weakref
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from engine.catalog.passwords import NOT_USER_STATEMENT, redact_passwords
from engine.core.errors import (
    ABORTED_QUERY,
    AbortedQuery,
    EngineError,
    PermissionDenied,
    UnknownSession,
)
from grammar import ast as A

# Databend's message for a killed query
KILLED_MESSAGE = "Aborted query, because the server is shutting down or the query was killed."

# Databend's system.query_log log_type codes and names
LOG_FINISH = (2, "Finish")
LOG_ERROR = (3, "Error")
LOG_ABORTED = (4, "Aborted")

_QUERY_KINDS = {
    A.Select: "Query", A.SetOperation: "Query", A.With: "Query", A.Insert: "Insert",
    A.Update: "Update", A.Delete: "Delete", A.Explain: "Explain",
    # as Databend 1.2.453 logs them (INSERT ALL | FIRST is Other)
    A.Replace: "Update", A.Merge: "Update", A.Values: "Query",
}


def query_kind(statement) -> str:
    """Databend's query_kind of a statement: Query, Insert, Update, Delete, Explain or Other."""
    return _QUERY_KINDS.get(type(statement), "Other")


def _memory_bytes(memory, attribute: str) -> int:
    """Bytes a query's memory tracker reports (`held` or `peak`); 0 without one. Read
    defensively: the tracker may be absent, a plain number, or lack the attribute."""
    if memory is None:
        return 0
    if isinstance(memory, int):
        return memory
    value = getattr(memory, attribute, None)
    if value is None:
        value = getattr(memory, "held", 0)
    return value if isinstance(value, int) else 0


class Process:
    """One running statement: who runs what since when, its progress and how to stop it.

    Made for every statement, so it stays small: the fields a finished statement needs are
    copied into a `LogEntry` (plain values, untracked by the garbage collector) when it ends."""

    __slots__ = ("query_id", "user", "database", "sql", "started_at", "started", "kind",
                 "handler_type", "progress", "kill", "status", "_result", "_list")

    def __init__(self, query_id: str, user: str, database: str, sql: str, started_at, started: float,
                 handler_type: str, owner: ProcessList):
        self.query_id = query_id
        self.user = user
        self.database = database
        self.sql = sql
        self.started_at = started_at  # wall clock (ProcessList.now), for the tables
        self.started = started  # the process list's monotonic clock, for durations
        self.kind = "Other"
        self.handler_type = handler_type
        self.progress = None  # the Result's Progress once the statement has started
        # Called by KILL QUERY; None aborts the Result (its next step raises AbortedQuery). A
        # server sets its own stop (which closes the Result too).
        self.kill: Callable[[], None] | None = None
        self.status = "executing pipeline"  # system.processes.status (a server's queue: Queued)
        self._result: _ResultRef | None = None  # weak: the list never keeps a Result alive
        self._list: ProcessList | None = owner  # the list it runs in (None once finished)

    @property
    def result(self):
        return self._result() if self._result is not None else None

    @property
    def memory_usage(self) -> int:
        result = self.result
        return _memory_bytes(getattr(result, "memory", None), "held") if result is not None else 0

    def finished(self, error: EngineError | None) -> None:
        """The Result's on_finish callback: log the statement (a bound method, no partial)."""
        owner = self._list
        if owner is not None:  # None: already finished (logged once)
            owner.finish(self, error)


class LogEntry(NamedTuple):
    """A finished statement as system.query_log shows it: plain values only (a tuple of them is
    untracked by the garbage collector, so a full log costs collections nothing)."""

    query_id: str
    user: str
    database: str
    sql: str
    kind: str
    handler_type: str
    log_type: tuple[int, str]
    started_at: float | datetime.datetime
    ended_at: float | datetime.datetime
    duration_ms: int
    counts: tuple[int, ...]  # write rows/bytes, scan rows/bytes, result rows/bytes
    memory_usage_peak: int
    exception_code: int
    exception_text: str


def wall_datetime(value) -> datetime.datetime:
    """A wall-clock reading of ProcessList.now as an aware UTC datetime (epoch seconds are
    converted; a datetime, from an injected clock, is kept)."""
    if isinstance(value, datetime.datetime):
        return value
    return datetime.datetime.fromtimestamp(value, datetime.UTC)


class _ResultRef(weakref.ref):
    """A weak reference to a statement's Result that knows the statement's query id (an id,
    not the Process: the Process holds this reference, and a cycle would outlive both)."""

    __slots__ = ("query_id",)


_NO_COUNTS = (0,) * 6


class ProcessList:
    """The Database's running statements (by query id) and its bounded log of finished ones.

    `clock` (monotonic seconds) and `now` (the wall clock: epoch seconds, or an aware UTC
    datetime) are replaceable for tests.
    """

    def __init__(self, log_size: int, sql_chars: int, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float | datetime.datetime] = time.time):
        self.running: dict[str, Process] = {}
        # statements a server holds in its queue before they start (never logged: they did
        # nothing); listed with the running ones, and KILL QUERY reaches them
        self.queued: dict[str, Process] = {}
        # the statement inside Session.execute (it joins `running` once it has a Result to follow,
        # or is logged at once when it did all its work there: most statements, kept cheap)
        self.starting: Process | None = None
        # finished statements as LogEntry fields (plain tuples: cheaper to make), oldest first
        self.log: deque[tuple] = deque(maxlen=log_size)
        # Databend's handler_type of the statements: "Local" embedded; a server sets "HTTPQuery"
        self.handler_type = "Local"
        # generated ids: UUID-shaped, a random prefix per list and a counter (uuid4() per
        # statement cost 3 us, a twentieth of a SELECT 1)
        self._id_prefix = str(uuid.uuid4())[:24]
        self._id_counter = itertools.count(1)
        self.sql_chars = sql_chars
        self.clock = clock
        self.now = now

    def start(self, session, sql: str, query_id: str | None) -> Process:
        """Register a statement of `session` as running (an id is generated when None)."""
        query_id = query_id or f"{self._id_prefix}{next(self._id_counter):012x}"
        if sql[:1] not in NOT_USER_STATEMENT:  # CREATE / ALTER USER: no password in the list or log
            sql = redact_passwords(sql)
        if len(sql) > self.sql_chars:
            sql = self._kept(sql)
        process = Process(query_id, session.user, session.database, sql, self.now(), self.clock(),
                          self.handler_type, self)
        if self.starting is not None:  # a statement started inside another's execute()
            self.running[self.starting.query_id] = self.starting
        self.starting = process
        return process

    def queue(self, query_id: str, user: str, database: str, sql: str, status: str) -> Process:
        """List a statement a server queued (it starts later through `start`, once `unqueue`d);
        the caller sets its `kill`."""
        if sql[:1] not in NOT_USER_STATEMENT:
            sql = redact_passwords(sql)
        process = Process(query_id, user, database, self._kept(sql), self.now(), self.clock(),
                          self.handler_type, None)
        process.status = status
        self.queued[query_id] = process
        return process

    def unqueue(self, query_id: str) -> None:
        """The queued statement left the queue (started, killed or timed out)."""
        self.queued.pop(query_id, None)

    def processes(self) -> list[Process]:
        """The queued and running statements, oldest first."""
        running = list(self.queued.values()) + list(self.running.values())
        if self.starting is not None and self.starting.query_id not in self.running:
            running.append(self.starting)
        return running

    def entries(self) -> list[LogEntry]:
        """The query log, oldest first."""
        return [LogEntry._make(entry) for entry in self.log]

    def attach(self, process: Process, statement, result) -> None:
        """The statement started: follow its Result until it ends, fails, is closed or dropped."""
        if self.starting is process:
            self.starting = None
        self.running[process.query_id] = process
        process.kind = query_kind(statement)
        process.progress = result.progress
        # a Result dropped unread never ends nor closes: the reference's callback finishes it
        process._result = ref = _ResultRef(result, self._dropped)
        ref.query_id = process.query_id
        result.on_finish.append(process.finished)

    def done(self, process: Process, statement, result) -> None:
        """The statement did all its work inside execute() (an INSERT ... VALUES, DDL, SET: its
        Result holds its few rows already): log it now, with no Result to follow."""
        process.kind = _QUERY_KINDS.get(type(statement), "Other")
        process.progress = result.progress
        self.finish(process, None, result)

    def _dropped(self, ref: _ResultRef) -> None:
        process = self.running.get(ref.query_id)
        if process is not None and process._result is ref:
            self.finish(process, None)

    def finish(self, process: Process, error: EngineError | None, result=None) -> None:
        """The statement ended (`error` None), failed or was killed: log it (once). `result`
        is its Result when the caller has it (else the followed one is read, if still alive)."""
        if self.starting is process:
            self.starting = None
            self.running.pop(process.query_id, None)  # there too when another started inside it
        elif self.running.get(process.query_id) is process:
            del self.running[process.query_id]
        else:
            return
        process.kill = None  # a server's stop holds its whole query
        process._list = None  # finished: logged once
        ref, process._result = process._result, None  # dropped first: its callback will not run
        if result is None and ref is not None:
            result = ref()
        peak = _memory_bytes(getattr(result, "memory", None), "peak") if result is not None else 0
        q = process.progress
        counts = (q.write_rows, q.write_bytes, q.scan_rows, q.scan_bytes, q.result_rows,
                  q.result_bytes) if q is not None else _NO_COUNTS
        if error is None:
            log_type, code, text = LOG_FINISH, 0, ""
        else:
            log_type = LOG_ABORTED if error.code == ABORTED_QUERY else LOG_ERROR
            code, text = error.code, self._kept(error.message)
        self.log.append((process.query_id, process.user, process.database, process.sql,
                         process.kind, process.handler_type, log_type, process.started_at,
                         self.now(), max(0, int((self.clock() - process.started) * 1000)),
                         counts, peak, code, text))

    def _kept(self, text: str) -> str:
        """`text` as the list keeps it: at most sql_chars characters (then cut, ending '...')."""
        if len(text) <= self.sql_chars:
            return text
        return text[:self.sql_chars] + "..."

    def find(self, query_id: str) -> Process | None:
        process = self.running.get(query_id) or self.queued.get(query_id)
        if process is None and self.starting is not None and self.starting.query_id == query_id:
            return self.starting
        return process

    def kill(self, query_id: str, user: str, any_user: bool = False) -> None:
        """KILL QUERY: only the statement's owner or root (or, with `any_user`, the caller, an
        administrator or a holder of SUPER) may stop it."""
        process = self.find(query_id)
        if process is None:
            raise UnknownSession(f"Not found session id {query_id}")
        if user != process.user and user != "root" and not any_user:
            raise PermissionDenied(
                f"Permission denied: user '{user}' cannot kill query {query_id} of user "
                f"'{process.user}' (only its owner or root may)")
        if process.kill is not None:
            process.kill()
        else:
            _abort(process)


def _abort(process: Process) -> None:
    """The embedded kill: the Result's next step raises AbortedQuery (1043)."""
    result = process.result
    if result is not None:
        result.abort(AbortedQuery(KILLED_MESSAGE))

