"""The statement queue: queries over the running limits wait here, fair between users.

Databend queues a statement over `max_running_queries` instead of refusing it, and fails it
only after `statement_queued_timeout_in_seconds` (ErrorCode::Timeout, 1122, "[QUERY-QUEUE]
Query queuing timeout exceeded"). Here the queue is one FIFO per user, served round-robin:
a user's burst waits behind that user's own earlier queries, never in front of another
user's. Statements Databend calls light (SHOW, SET, USE, KILL, DESC) skip the queue, as
there, so an operator can still see and kill what is queued.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from web.wire import RUNNING

# Databend's message of a query that waited its whole statement_queued_timeout_in_seconds
QUEUE_TIMEOUT_MESSAGE = "[QUERY-QUEUE] Query queuing timeout exceeded"
# the process list's status of a queued statement (system.processes, SHOW PROCESSLIST)
QUEUED_STATUS = "Queued"

_LIGHT_STATEMENTS = frozenset({"SHOW", "SET", "UNSET", "USE", "KILL", "DESC", "DESCRIBE"})


def skips_queue(sql: str) -> bool:
    """Whether a statement is light enough to start without waiting for a running slot (its
    first keyword; a look at the first 16 characters, not a parse)."""
    head = sql[:16].lstrip().split(None, 1)
    return bool(head) and head[0].upper() in _LIGHT_STATEMENTS


class Waiting:
    """A queued query: what starts it once admitted, since when it waits, its timeout."""

    __slots__ = ("query", "start", "since", "timer")

    def __init__(self, query, start: Callable[[], None], since: float):
        self.query = query
        self.start = start
        self.since = since
        self.timer = None  # the clock's DelayedCall that fails it when it waited too long


class QueryQueue:
    """Queued queries, one FIFO per user; `pop` serves the users round-robin."""

    def __init__(self):
        # user -> that user's waiting queries, oldest first; the dict's order is the
        # round-robin order (a user served moves to its end)
        self._by_user: dict[str, deque[Waiting]] = {}
        self._entries: dict[int, Waiting] = {}  # id(query) -> its entry

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, query) -> bool:
        return id(query) in self._entries

    def push(self, entry: Waiting) -> None:
        self._entries[id(entry.query)] = entry
        self._by_user.setdefault(entry.query.user, deque()).append(entry)

    def remove(self, query) -> Waiting | None:
        """Take `query` out of the queue (killed, closed, timed out); None if not queued."""
        entry = self._entries.pop(id(query), None)
        if entry is None:
            return None
        waiting = self._by_user[query.user]
        waiting.remove(entry)  # a scan of one user's queue, bounded by the held-query limit
        if not waiting:
            del self._by_user[query.user]
        return entry

    def pop(self, may_start: Callable[[str], bool]) -> Waiting | None:
        """The oldest query of the first user in round-robin order that `may_start` (a free
        running slot for that user), taken out of the queue; None when no one may."""
        for user in list(self._by_user):
            if may_start(user):
                waiting = self._by_user.pop(user)
                entry = waiting.popleft()
                if waiting:
                    self._by_user[user] = waiting  # re-inserted last: the others go first
                del self._entries[id(entry.query)]
                return entry
        return None

    def entries(self) -> list[Waiting]:
        return list(self._entries.values())


def list_queued(db, query, database: str, sql: str) -> None:
    """List a queued query in the process list (status Queued), so that SHOW PROCESSLIST shows
    it and KILL QUERY reaches it (with Databend's message for a statement killed in the queue)."""
    processes = getattr(db, "processes", None)
    if processes is not None and query.state == RUNNING:
        process = processes.queue(query.id, query.user, database, sql, QUEUED_STATUS)
        process.kill = lambda: query.kill(f"[QUERY-QUEUE] Query {query.id} was killed "
                                          "while in queue")


def unlist_queued(db, query) -> None:
    """The queued entry of `query` off the process list (it got its running slot)."""
    processes = getattr(db, "processes", None)
    if processes is not None:
        processes.unqueue(query.id)
