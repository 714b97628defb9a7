"""A client session's kept query results, which RESULT_SCAN(query_id) reads back (Databend's
query result cache as a session sees it).

With the setting enable_query_result_cache = 1, a query whose first rows took at least
query_result_cache_min_execute_secs and whose whole result fits in query_result_cache_max_bytes
is kept, rows, column names and types, under its query id when it ends (a query closed or failed
early is not). A session keeps at most Limits.result_cache_entries results (the oldest goes for a
new one); what they hold counts against the server's memory budget, and a result that does not fit
is simply not kept. An engine Session has a private ResultCache; a server attaches a client
session's (`session.result_cache = cache`)."""

from __future__ import annotations

import weakref
from collections import OrderedDict

from engine.core.errors import MemoryExceedsLimit
from engine.core.memory import QueryMemory, batch_bytes


class CachedResult:
    """One kept result: column names, SqlTypes, rows, and the bytes charged for them."""

    __slots__ = ("names", "types", "rows", "nbytes")

    def __init__(self, names: list[str], types: list, rows: list[tuple], nbytes: int):
        self.names = names
        self.types = types
        self.rows = rows
        self.nbytes = nbytes


class ResultCache:
    """query id -> CachedResult, oldest first."""

    def __init__(self):
        self._results: OrderedDict[str, CachedResult] = OrderedDict()
        self._memory: QueryMemory | None = None

    def is_empty(self) -> bool:
        return not self._results

    def get(self, query_id: str) -> CachedResult | None:
        found = self._results.get(query_id)
        if found is None:  # Databend matches query ids case-insensitively
            lowered = query_id.lower()
            found = next((r for key, r in self._results.items() if key.lower() == lowered), None)
        return found

    def put(self, query_id: str, result: CachedResult, server_memory, max_entries: int) -> bool:
        """Keep `result` (the oldest kept ones go beyond `max_entries`); False when its bytes do
        not fit in the server's memory budget (nothing kept)."""
        if max_entries <= 0:
            return False
        memory = self._memory
        if memory is None:
            memory = self._memory = QueryMemory(server_memory, 0)
            weakref.finalize(self, memory.release)  # a cache nobody holds gives its memory back
        while len(self._results) >= max_entries:
            self._drop(next(iter(self._results)))
        try:
            memory.charge(result.nbytes)
        except MemoryExceedsLimit:
            return False
        self._drop(query_id)
        self._results[query_id] = result
        return True

    def _drop(self, query_id: str) -> None:
        old = self._results.pop(query_id, None)
        if old is not None and self._memory is not None:
            self._memory.release(old.nbytes)

    def clear(self) -> None:
        """Forget every result and release their memory (the client session ended)."""
        self._results.clear()
        if self._memory is not None:
            self._memory.release()

    @property
    def held_bytes(self) -> int:
        return self._memory.held if self._memory is not None else 0


def keep_result(result, cache: ResultCache, query_id: str, server_memory, max_bytes: int, max_entries: int,
                min_secs: int, clock, started: float) -> None:
    """Make `result` (an engine Result of a query) keep its rows in `cache` when it ends, if its
    first rows came after at least `min_secs` and all its rows take at most `max_bytes`."""
    names = [c.name for c in result.schema]
    types = list(result.types)
    if result.complete:  # computed already: kept at once
        batches = list(result._rows)
        result._rows = iter(batches)
        if clock() - started >= min_secs:
            rows = [row for batch in batches for row in batch]
            nbytes = batch_bytes(rows)
            if nbytes <= max_bytes:
                cache.put(query_id, CachedResult(names, types, rows, nbytes), server_memory, max_entries)
        return
    result._rows = _kept_steps(result._rows, cache, query_id, server_memory, max_bytes, max_entries,
                               min_secs, clock, started, names, types)


def _kept_steps(steps, cache, query_id, server_memory, max_bytes, max_entries, min_secs, clock, started,
                names, types):
    """The result's steps, passed on unchanged; their rows kept while they fit, and put in the
    cache when the last step ran (a result closed early is not kept)."""
    rows: list | None = []
    nbytes = 0
    timed = min_secs <= 0
    try:
        for batch in steps:
            if batch and rows is not None:
                if not timed:  # the first rows: were they slow enough to be worth keeping?
                    timed = True
                    if clock() - started < min_secs:
                        rows = None
                if rows is not None:
                    nbytes += batch_bytes(batch)
                    if nbytes > max_bytes:
                        rows = None
                    else:
                        rows.extend(batch)
            yield batch
    finally:
        close = getattr(steps, "close", None)
        if close is not None:
            close()
    if rows is not None and (timed or clock() - started >= min_secs):
        cache.put(query_id, CachedResult(names, types, rows, nbytes), server_memory, max_entries)
