"""The page buffer of one query: unread rendered rows, page cutting and long-poll waiters."""

from __future__ import annotations

from twisted.internet.defer import Deferred, succeed

from engine import batch_bytes


class PageBuffer:
    """Rows the producer rendered and no page has taken yet.

    A page is ready when `page_rows` rows wait or the producer has ended. Long-poll requests
    wait on `wait_for_page` (cancellable: a client that goes away only drops its waiter). The
    producer stops adding once `full` and waits on `wait_for_space`, so memory stays bounded
    by `limit_rows` however large the result is.

    While its query runs, the rows it holds count against the query's memory (`memory`, the
    engine's QueryMemory, set by the producer): charged per added batch and released per page
    taken or on discard. The engine frees all of a query's memory when its result ends, so the
    unread rows of an ended query (at most `limit_rows` of them) are no longer counted.
    """

    __slots__ = ("_clock", "page_rows", "limit_rows", "rows", "ended", "_waiters", "_space",
                 "memory", "_charged")

    def __init__(self, clock, page_rows: int, limit_rows: int):
        self._clock = clock
        self.page_rows = page_rows
        self.limit_rows = max(page_rows, limit_rows)
        self.rows: list = []
        self.ended = False
        self._waiters: list[tuple[Deferred, object]] = []
        self._space: Deferred | None = None
        self.memory = None
        self._charged = 0  # bytes charged to `memory` for `rows`

    @property
    def full(self) -> bool:
        return len(self.rows) >= self.limit_rows

    @property
    def page_ready(self) -> bool:
        return self.ended or len(self.rows) >= self.page_rows

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def add(self, rows: list) -> None:
        """Buffer rendered rows; raises the engine's MemoryExceedsLimit (2411) if they do not fit."""
        if self.memory is not None:
            nbytes = batch_bytes(rows)
            self.memory.charge(nbytes)
            self._charged += nbytes
        if self.rows:
            self.rows.extend(rows)
        else:
            self.rows = rows
        if self._waiters and len(self.rows) >= self.page_rows:
            self._wake()

    def end(self, discard: bool = False) -> None:
        """No more rows will come; `discard` drops the unread ones (kill, failure, close)."""
        self.ended = True
        if discard:
            self.rows = []
            self._uncharge(self._charged)
        self._space = None
        self._wake()

    def take(self) -> list:
        """Cut the next page (at most `page_rows` rows, possibly none)."""
        n = self.page_rows
        if len(self.rows) <= n:
            page, self.rows = self.rows, []
        else:
            page = self.rows[:n]
            del self.rows[:n]
        if self._charged:
            self._uncharge(self._charged * len(page) // (len(page) + len(self.rows)))
        if self._space is not None and not self.full:
            d, self._space = self._space, None
            d.callback(None)
        return page

    def _uncharge(self, nbytes: int) -> None:
        if nbytes and self.memory is not None:
            self.memory.release(nbytes)
            self._charged -= nbytes

    def wait_for_space(self) -> Deferred:
        self._space = Deferred()
        return self._space

    def wait_for_page(self, timeout: float) -> Deferred:
        """Fires with None when a page is ready or `timeout` seconds have passed."""
        if self.page_ready or timeout <= 0:
            return succeed(None)
        entry: list = []

        def cancel(d: Deferred) -> None:
            self._forget(entry[0])
            if entry[0][1].active():
                entry[0][1].cancel()

        d = Deferred(cancel)
        call = self._clock.callLater(timeout, self._expire, d)
        entry.append((d, call))
        self._waiters.append(entry[0])
        return d

    def _forget(self, entry) -> None:
        try:
            self._waiters.remove(entry)
        except ValueError:
            pass

    def _expire(self, d: Deferred) -> None:
        for entry in self._waiters:
            if entry[0] is d:
                self._waiters.remove(entry)
                break
        d.callback(None)

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for d, call in waiters:
            if call.active():
                call.cancel()
            d.callback(None)
