"""Memory accounting: the server-wide budget and each query's tracker (max_memory_usage).

Operators that hold rows (sorts, aggregations, DISTINCT and set-operation sets, join builds,
IN-subquery sets and caches, INSERT/UPDATE/DELETE buffers, the web page buffer) charge an
estimate of what they hold once per batch, never per row; the estimate samples one row of the
batch with sys.getsizeof. A charge that would take the query past its max_memory_usage, or the
server past its budget, fails the query with MemoryExceedsLimit (2411); everything a query
holds is released when it ends, fails or is closed.

Calibration (CPython 3.11, tracemalloc, 200k rows, estimate / measured): a sort of rows of two
ints and a short string 0.99 (38.1 MB / 38.3 MB), of one-int rows 1.04, a GROUP BY of 50k
groups 1.09, a DISTINCT of 200k ints 1.22. With max_memory_usage = 1 GiB the sort of the
10**10-row cross join of two numbers(100000) fails with 2411 after the process grew by ~1.0 GB
(RSS). Rows shared with a stored table (a sort straight over a scan) really cost only their
list slot, so for those the estimate is high: accounting errs on the side of refusing early.
"""

from __future__ import annotations

from sys import getsizeof

from engine.core.errors import MemoryExceedsLimit

# One pointer in a list (a held row).
LIST_SLOT_BYTES = 8
# A sort also holds one key pointer a row while list.sort runs.
SORT_SLOT_BYTES = 8
# One entry of a dict or set: hash, key (and value) pointers, and the table's spare room
# (CPython keeps tables at most 2/3 full and their index array besides).
HASH_ENTRY_BYTES = 64


def value_bytes(value) -> int:
    """Estimated bytes of one value (a tuple or list counted with its items, one level deep; an
    ARRAY / MAP / TUPLE value among them, a tuple subclass, with all of its own)."""
    if type(value) is tuple or type(value) is list:
        return getsizeof(value) + sum([getsizeof(v) if not isinstance(v, tuple) else _nested_bytes(v)
                                       for v in value])
    if isinstance(value, tuple):
        return _nested_bytes(value)
    return getsizeof(value)


def _nested_bytes(value) -> int:
    return getsizeof(value) + sum([_nested_bytes(v) if isinstance(v, tuple) else getsizeof(v) for v in value])


def row_bytes(row) -> int:
    """Estimated bytes one held row costs: the tuple, its values and its slot in a list."""
    return value_bytes(row) + LIST_SLOT_BYTES


def batch_bytes(batch, per_row_extra: int = 0) -> int:
    """Estimated bytes of holding `batch` (a list), sampling its first row."""
    if not batch:
        return 0
    return len(batch) * (row_bytes(batch[0]) + per_row_extra)


def growth_bytes(held, grown: int, per_item_extra: int = 0) -> int:
    """Estimated bytes of `grown` more items like the newest one of `held` (a list, dict or set)."""
    if grown <= 0 or not held:
        return 0
    if type(held) is dict:
        key, value = next(reversed(held.items()))  # the newest entry
        each = value_bytes(key) + value_bytes(value)
    elif type(held) is list:
        each = value_bytes(held[-1])
    else:
        each = value_bytes(next(iter(held)))
    return grown * (each + per_item_extra)


def charge_growth(memory, held, counted: int, per_item_extra: int = 0) -> int:
    """Charge for the items `held` gained since it had `counted` of them; returns the new count
    to pass next time (a shrink keeps the old count: what was charged stays charged). Call once
    per batch."""
    grown = len(held) - counted
    if grown <= 0:
        return counted
    memory.charge(growth_bytes(held, grown, per_item_extra))
    return len(held)


class ServerMemory:
    """The server-wide budget every running query's charges count against (owned by Database)."""

    __slots__ = ("budget", "used")

    def __init__(self, budget: int):
        self.budget = budget
        self.used = 0

    def query(self, limit: int) -> QueryMemory:
        """A tracker for one query; `limit` is its max_memory_usage (0: only the server budget)."""
        return QueryMemory(self, limit)


class QueryMemory:
    """What one query holds; charges count against its own limit and the server budget."""

    __slots__ = ("server", "limit", "held", "peak")

    def __init__(self, server: ServerMemory, limit: int):
        self.server = server
        self.limit = limit
        self.held = 0
        self.peak = 0

    def charge(self, nbytes: int) -> None:
        """Count `nbytes` more as held, or raise MemoryExceedsLimit (2411) and count nothing."""
        if nbytes <= 0:
            return
        held = self.held + nbytes
        if self.limit and held > self.limit:
            raise MemoryExceedsLimit(
                f"Memory usage of query exceeds max_memory_usage ({self.limit} bytes): it would hold "
                f"~{held} bytes; raise the setting or make the query hold fewer rows")
        server = self.server
        if server.used + nbytes > server.budget:
            raise MemoryExceedsLimit(
                f"Memory usage of query exceeds the server's memory budget ({server.budget} bytes, "
                f"Limits.server_memory_bytes, the server option --max_memory_mb): running queries hold ~{server.used} bytes and this one asked "
                f"for {nbytes} more")
        self.held = held
        server.used += nbytes
        if held > self.peak:
            self.peak = held

    def release(self, nbytes: int | None = None) -> None:
        """Free `nbytes` of what the query holds (everything when None); never below zero."""
        freed = self.held if nbytes is None else min(nbytes, self.held)
        if freed > 0:
            self.held -= freed
            self.server.used -= freed
