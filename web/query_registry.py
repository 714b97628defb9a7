"""The id -> query registry: running slots, the fair queue over them, and expiry of the queries
nobody reads."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable

from twisted.logger import Logger

from engine import INTERNAL, TIMEOUT
from web.admission import QUEUE_TIMEOUT_MESSAGE, QueryQueue, Waiting
from web.errors import NotFound
from web.queries import Query
from web.wire import RUNNING

log = Logger()


class QueryRegistry:
    """Queries by id; counts the running ones, queues those over the running limits (fair
    between users: web.admission); expires the ones nobody reads."""

    def __init__(self, clock, max_running: int, max_retained: int,
                 max_running_per_user: int | None = None, pressure_idle_secs: float = 10.0,
                 queue_timeout_secs: float = 60.0, on_queue_wait=None):
        self.clock = clock
        self.queue = QueryQueue()
        self.queue_timeout_secs = queue_timeout_secs
        # called with the seconds a query waited in the queue when it is admitted (metrics)
        self._on_queue_wait = on_queue_wait
        self._admitting = False  # inside admit_waiting (see there)
        # ids: a random prefix per registry and a counter, unique without a random read each
        self._id_prefix = os.urandom(8).hex()
        self._id_counter = itertools.count(1)
        self.max_running = max_running
        self.max_running_per_user = max_running_per_user or max_running
        self.max_retained = max_retained
        self.pressure_idle_secs = pressure_idle_secs
        self._running: dict[int, Query] = {}  # queries whose producer has not ended
        self._queries: dict[str, Query] = {}
        self._evict_above = max_retained

    def __len__(self) -> int:
        return len(self._queries)

    def __iter__(self):
        """The held queries (a copy: callers may end or forget queries meanwhile)."""
        return iter(list(self._queries.values()))

    def new_id(self) -> str:
        return f"{self._id_prefix}{next(self._id_counter):016x}"

    def find(self, query_id: str) -> Query | None:
        return self._queries.get(query_id)

    def get(self, query_id: str, user: str) -> Query:
        query = self._queries.get(query_id)
        if query is None or query.user != user:
            # another user's query is answered exactly as an unknown one: ids are guessable,
            # and a different answer would tell that the id exists
            raise NotFound(f"query id {query_id} not found (unknown, or expired)")
        return query

    @property
    def held_limit(self) -> int:
        """Queries held at most, drained or not: eviction keeps drained ones under
        max_retained, so reaching this means about max_retained queries hold unread rows."""
        return 2 * self.max_retained

    @property
    def running(self) -> int:
        """Queries whose producer has not ended (producing, or paused on unread pages)."""
        return len(self._running)

    def producing(self, user: str | None = None) -> int:
        """Running queries (of `user`, or of everyone) that hold a running slot: a producer
        paused because its page buffer is full and unread does not (it costs no CPU, and its
        memory is bounded by its buffer), so abandoned queries cannot lock others out.
        Counted when a query asks to start: a pass over the running queries, not the rows."""
        return sum(1 for q in self._running.values()
                   if not q.buffer.full and (user is None or q.user == user))

    def refusal(self) -> str | None:
        """Why a new query cannot even wait for a slot now (too many queries held even after
        forgetting the drained ones: they hold memory), or None when it can."""
        if len(self._queries) >= self.held_limit:
            self._evict()
            if len(self._queries) >= self.held_limit:
                self._expire_idle()
            if len(self._queries) >= self.held_limit:
                return (f"Current queries holding unread results ({len(self._queries)}) have "
                        f"reached the limit ({self.held_limit}, twice max_retained_queries): "
                        f"read, kill or /final them, or wait for their result timeout")
        return None

    def _expire_idle(self) -> None:
        """Under pressure (the hold limit is reached), expire the queries nobody has read for
        pressure_idle_secs, longest idle first, before their result timeout: up to a tenth
        of the limit, so the next refusals do not rescan at once."""
        cutoff = self.clock.seconds() - self.pressure_idle_secs
        idle = sorted((q for q in self._queries.values()
                       if q.buffer.waiting == 0 and q.last_access <= cutoff),
                      key=lambda q: q.last_access)
        for query in idle[:max(1, self.held_limit // 10)]:
            del self._queries[query.id]
            try:
                query.expire()
            except Exception:
                log.failure("expiring query {id} failed", id=query.id)

    def add(self, query: Query) -> None:
        """Hold `query` (not yet running: `admit_or_queue` starts or queues it)."""
        old = self._queries.pop(query.id, None)
        if old is not None:
            old.finalize()
        self._queries[query.id] = query
        if len(self._queries) > self._evict_above:
            self._evict()

    def _free_slots(self) -> Callable[[str], bool]:
        """Whether a query of a user may take a running slot now: fewer than max_running
        producing in all and fewer than max_running_per_user of that user. Counted once
        (a pass over the running queries), for one admission."""
        producing_by_user: dict[str, int] = {}
        for q in self._running.values():
            if not q.buffer.full:
                producing_by_user[q.user] = producing_by_user.get(q.user, 0) + 1
        if sum(producing_by_user.values()) >= self.max_running:
            return lambda user: False
        return lambda user: producing_by_user.get(user, 0) < self.max_running_per_user

    def _has_slot(self, user: str) -> bool:
        """Whether a query of `user` may take a running slot now; without counting when fewer
        queries run than either limit (the producing ones are among them)."""
        running = len(self._running)
        if running < self.max_running and running < self.max_running_per_user:
            return True
        return self._free_slots()(user)

    def admit_or_queue(self, query: Query, start: Callable[[], None],
                       skip_queue: bool = False) -> bool:
        """Start `query` now (`start()`, True) when it may take a running slot and nobody
        waits before it, or queue it (False) until a slot frees or its queue timeout fails
        it. A light statement (`skip_queue`) starts at once, as in Databend."""
        if query.state != RUNNING:
            return True
        if skip_queue or (not self.queue and self._has_slot(query.user)):
            self._running[id(query)] = query
            start()
            return True
        entry = Waiting(query, start, self.clock.seconds())
        entry.timer = self.clock.callLater(self.queue_timeout_secs, self._queue_timed_out, query)
        self.queue.push(entry)
        self.admit_waiting()  # a user with no running query may take a slot others cannot
        return query not in self.queue

    def admit_waiting(self) -> None:
        """Start queued queries while slots are free, one user after another. Not reentrant:
        a query started here may end at once and call this again; the pass already running
        sees the slot it freed (a nested pass per admitted query would recurse as deep as
        the queue is long)."""
        if self._admitting:
            return
        self._admitting = True
        try:
            self._admit_while_free()
        finally:
            self._admitting = False

    def _admit_while_free(self) -> None:
        while self.queue:
            entry = self.queue.pop(self._free_slots())
            if entry is None:
                return
            if entry.timer is not None and entry.timer.active():
                entry.timer.cancel()
            if self._on_queue_wait is not None:
                self._on_queue_wait(self.clock.seconds() - entry.since)
            self._running[id(entry.query)] = entry.query
            try:
                entry.start()
            except Exception:  # one broken start must not keep the others queued
                log.failure("starting queued query {id} failed", id=entry.query.id)
                entry.query.fail(INTERNAL, "internal error starting a queued query")

    def _queue_timed_out(self, query: Query) -> None:
        entry = self.queue.remove(query)
        if entry is not None:
            entry.timer = None
            query.fail(TIMEOUT, QUEUE_TIMEOUT_MESSAGE)

    @property
    def queued(self) -> int:
        return len(self.queue)

    def ended(self, query: Query) -> None:
        """Called once by a query when its producer ends (a queued one leaves the queue, and
        frees no slot: it held none)."""
        entry = self.queue.remove(query)
        if entry is not None:
            if entry.timer is not None and entry.timer.active():
                entry.timer.cancel()
            return
        if self._running.pop(id(query), None) is not None:
            self.admit_waiting()

    def _evict(self) -> None:
        """Forget the oldest drained queries, down to 90% of the limit.

        Amortised: the next pass waits until a tenth of the limit more queries came, also when
        this one could not drop enough (queries with unread rows stay until their result
        timeout), so a registry full of unread queries is not rescanned on every POST."""
        excess = len(self._queries) - self.max_retained * 9 // 10
        victims = []
        for query in self._queries.values():
            if len(victims) >= excess:
                break
            if query.drained:
                victims.append(query)
        for query in victims:
            del self._queries[query.id]
            query.finalize()
        self._evict_above = max(self.max_retained,
                                len(self._queries) + max(1, self.max_retained // 10))

    def sweep(self) -> None:
        """Close and forget queries nobody polled for their result timeout."""
        now = self.clock.seconds()
        stale = [q for q in self._queries.values()
                 if q.buffer.waiting == 0 and now - q.last_access > q.result_timeout]
        for query in stale:
            del self._queries[query.id]
            try:
                query.expire()
            except Exception:  # one broken query must not stop the sweep of the others
                log.failure("expiring query {id} failed", id=query.id)
        for query in list(self._queries.values()):
            try:
                query.check_deadline()
            except Exception:  # as above
                log.failure("checking the time limit of query {id} failed", id=query.id)
        if stale:
            self._evict_above = self.max_retained
        self.admit_waiting()  # producers paused on full buffers since have freed slots

    def abort_running(self, message: str) -> None:
        for query in [q for q in self._queries.values() if q.state == RUNNING]:
            try:
                query.abort(message)
            except Exception:  # one broken query must not keep the others running
                log.failure("aborting query {id} failed", id=query.id)
