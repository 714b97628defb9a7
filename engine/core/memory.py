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

Large values are charged before they are built (the code review's N9: a step is one generated
comprehension, so a charge after it comes after the allocation). A builder of a string or array
of at least ALLOCATION_CHARGE_BYTES (REPEAT, LPAD, CONCAT, `||`, REPLACE, regexp_replace,
string_agg, range...) calls `reserve(nbytes)` before building and `keep(value)` after: the bytes
count against the running query (the one whose step the reactor is running, set by `enter_step`)
until the step ends. A reserved value that nothing references any more (a temporary, as in
length(repeat(...))) is found by its reference count when the step's reservations are swept, and
its bytes are given back, so only what a step really holds at once counts. After the step, the
consumer or breaker that keeps its rows charges them as before.
"""

from __future__ import annotations

from sys import getrefcount, getsizeof

from engine.core import steps
from engine.core.errors import MemoryExceedsLimit

# One pointer in a list (a held row).
LIST_SLOT_BYTES = 8
# A sort also holds one key pointer a row while list.sort runs.
SORT_SLOT_BYTES = 8
# One entry of a dict or set: hash, key (and value) pointers, and the table's spare room
# (CPython keeps tables at most 2/3 full and their index array besides).
HASH_ENTRY_BYTES = 64
# A built value of at least this many bytes is charged before it is built; a smaller one costs its
# builder one comparison. What that leaves uncharged during a step is below this times the
# values of one batch (2,048 rows: 128 MiB a column), which the consumers charge after the step.
ALLOCATION_CHARGE_BYTES = 64 << 10
# Reserved bytes a step adds before its reservations are swept for values already freed: dead
# temporaries are kept alive (by the reservation's reference) until then, so this bounds them.
SWEEP_BYTES = 16 << 20

# The QueryMemory of the query whose step is running (None between steps). The reactor thread
# runs one step at a time, and `enter_step` / `leave_step` save and restore it, so a step that
# runs another query's step (nested) charges each to its own query.
_running: QueryMemory | None = None


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

    __slots__ = ("server", "limit", "held", "peak", "step_reserved", "step_bytes", "_unswept", "_sweep_at")

    def __init__(self, server: ServerMemory, limit: int):
        self.server = server
        self.limit = limit
        self.held = 0
        self.peak = 0
        # the running step's reservations: [value or None until kept, bytes] (see `reserve`)
        self.step_reserved: list[list] = []
        self.step_bytes = 0  # bytes those reservations hold now
        self._unswept = 0  # bytes reserved since the last sweep
        self._sweep_at = SWEEP_BYTES

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

    def reserve(self, nbytes: int) -> None:
        """Charge `nbytes` for a value the running step is about to build (module `reserve`)."""
        if self._unswept + nbytes > self._sweep_at:
            self._sweep()
        try:
            self.charge(nbytes)
        except MemoryExceedsLimit:
            if not self._sweep():  # nothing reserved has been freed: the step really holds it
                raise
            self.charge(nbytes)
        self.step_reserved.append([None, nbytes])
        self.step_bytes += nbytes
        self._unswept += nbytes

    def _sweep(self) -> int:
        """Give back the reservations of values only the reservation still references (and of
        builds that failed); returns the bytes given back."""
        kept, freed = [], 0
        for entry in self.step_reserved:
            # two references: the entry's slot and getrefcount's own argument
            if entry[0] is None or getrefcount(entry[0]) <= 2:
                freed += entry[1]
            else:
                kept.append(entry)
        self.step_reserved = kept
        self.step_bytes -= freed
        self.release(freed)
        self._unswept = 0
        # sweep again after as many bytes as survived (or SWEEP_BYTES): sweeps stay linear overall
        self._sweep_at = max(SWEEP_BYTES, self.step_bytes)
        return freed

    def end_step(self) -> None:
        """The step is over: its reservations are given back and its values left to their holders."""
        self.release(self.step_bytes)
        self.step_reserved = []
        self.step_bytes = 0
        self._unswept = 0
        self._sweep_at = SWEEP_BYTES

    def release(self, nbytes: int | None = None) -> None:
        """Free `nbytes` of what the query holds (everything when None); never below zero."""
        if nbytes is None:
            self.step_reserved = []  # the query is over: drop its references to built values
            self.step_bytes = 0
        freed = self.held if nbytes is None else min(nbytes, self.held)
        if freed > 0:
            self.held -= freed
            self.server.used -= freed


# Fixed part of a compact non-ASCII str: getsizeof(s) is this + (len(s) + 1) * bytes per character.
_WIDE_STR_HEADER = getsizeof("\xe9") - 2


def char_width(s: str) -> int:
    """Bytes one character of `s` takes in memory (1, 2 or 4: CPython's compact str kinds), in O(1)."""
    if s.isascii():
        return 1
    return (getsizeof(s) - _WIDE_STR_HEADER) // (len(s) + 1)


def text_bytes(chars: int, *parts: str) -> int:
    """Estimated bytes of a string of `chars` characters built from `parts` (its widest kind)."""
    width = 1
    for part in parts:
        if not part.isascii():
            width = max(width, char_width(part))
    return chars * width + 80


def reserve(nbytes: int) -> None:
    """Charge `nbytes` the running step's query is about to build (MemoryExceedsLimit, 2411, if
    that takes it past a budget); follow with `keep(value)` once built. A no-op outside a step
    (binding folds constants with no query to charge) and for values under
    ALLOCATION_CHARGE_BYTES, so callers may call it for every large value without checking."""
    memory = _running
    if memory is not None and nbytes >= ALLOCATION_CHARGE_BYTES:
        memory.reserve(nbytes)


def keep(value):
    """`value` (returned), recorded as the holder of the newest reservation of the running step."""
    memory = _running
    if memory is not None:
        reserved = memory.step_reserved
        if reserved and reserved[-1][0] is None:
            reserved[-1][0] = value
    return value


def enter_step(memory: QueryMemory | None) -> QueryMemory | None:
    """Make `memory` the running query's before one of its steps runs; returns the one to pass
    to `leave_step` after it."""
    global _running
    previous = _running
    _running = memory
    steps.enter()
    return previous


def leave_step(memory: QueryMemory | None, previous: QueryMemory | None) -> None:
    """End the step `enter_step(memory)` began: give back what the step reserved (whoever keeps
    its rows charges them now) and restore `previous`."""
    global _running
    _running = previous
    steps.leave()
    if memory is not None and memory is not previous and memory.step_reserved:
        memory.end_step()
