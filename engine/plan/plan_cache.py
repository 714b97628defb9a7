"""The plan cache: plans of repeated queries, keyed by their SQL text and what planning read.

A query (SELECT, set operation, WITH, VALUES) planned outside a transaction and without
params is kept under (SQL text, database, user, session settings, global settings, catalog
version), in a bounded LRU (Limits.plan_cache_entries). A plan is only reused when planning it
again would give the same plan:

- the catalog's version is in the key: every change of tables, views or databases bumps it, and
  the version of its routines (user functions, sequences, procedures);
- the plan's snapshots must still be current: each table it scans is still the one its name
  resolves to, with the same version of its rows (engine.catalog.table_storage) and row count (a write since then, which could also
  change the NULL / negative / NaN facts the generated code relies on, is a miss: it is planned
  again and replaces the entry);
- privileges are checked on every execution: the SELECT checks planning made are replayed
  against the user's current privileges (a REVOKE between two executions refuses the second);
- plans that read the statement's context are never kept: now() and the other clock
  functions, connection_id(), current_role(), last_query_id(), nextval() (a statement using a
  sequence is logged), staged files and recursive CTEs (their work tables hold state while
  they run). Inside a transaction (private copies of the
  tables) and with params nothing is cached.

The counters (hits, misses, entries) are shown by the server's /metrics.
"""

from __future__ import annotations

from collections import OrderedDict

from engine.catalog.privileges import check_read


class PlanRecord:
    """What planning one query read, gathered on its QueryContext while the planner runs."""

    __slots__ = ("cacheable", "scans", "views", "reads")

    def __init__(self):
        self.cacheable = True
        self.scans: list = []  # (database, name as written, table, TableData, row count)
        self.views: list = []  # (database, name as written, view)
        self.reads: list = []  # (database, name, pos): SELECT checks made outside views


class CachedPlan:
    """A planned query and what makes it valid."""

    __slots__ = ("stmt", "plan", "names", "nonnull", "nonneg", "nonnan", "record", "columns",
                 "geo")

    def __init__(self, stmt, plan, names, nonnull, nonneg, nonnan, record: PlanRecord):
        # the result's schema (engine.exec.result.Column list), made by its first run and then
        # shared by every run (a query's Result never changes its schema in place; only a
        # script's own Result does): a server keeps its encoding
        self.columns = None
        self.geo = False  # (with columns) whether a column holds GEOMETRY / GEOGRAPHY values
        self.stmt = stmt
        self.plan = plan
        self.names = names
        self.nonnull = nonnull
        self.nonneg = nonneg
        self.nonnan = nonnan
        self.record = record


class PlanCache:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict = OrderedDict()
        self._version = None  # the catalog version of the entries kept
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()

    def key(self, session, sql: str, version: int):
        """The key of `sql` run now in `session` (None: the cache is off)."""
        if self.capacity <= 0:
            return None
        if version != self._version:  # the definitions changed: every plan kept is stale
            self._entries.clear()
            self._version = version
        return (sql, session.database, session.user, session.role,
                tuple(session.settings.items()), tuple(session.db.global_settings.items()))

    def lookup(self, key, ctx) -> CachedPlan | None:
        """The plan kept under `key` if it is still valid for `ctx` (its privileges checked now:
        raises as planning would); a stale one is dropped. The caller counts a miss when it
        plans a query instead (`misses`): other statements are no misses."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        if not _current(entry.record, ctx.catalog):
            del self._entries[key]
            return None
        access = ctx.access
        if access is not None:
            for database, name, pos in entry.record.reads:
                check_read(access, database, name, pos, ctx.catalog)
        self._entries.move_to_end(key)
        self.hits += 1
        return entry

    def store(self, key, entry: CachedPlan) -> None:
        if not entry.record.cacheable:
            return
        entries = self._entries
        entries[key] = entry
        entries.move_to_end(key)
        while len(entries) > self.capacity:
            entries.popitem(last=False)


def _current(record: PlanRecord, catalog) -> bool:
    """Whether the tables and views planning read are still the same, rows and all."""
    for database, name, table, data, count in record.scans:
        try:
            now = catalog.table(database, name)
        except Exception:  # noqa: BLE001 - gone (an EngineError): planning again reports it
            return False
        if now is not table or table.data is not data or len(data) != count:
            return False
    for database, name, view in record.views:
        if catalog.view(database, name) is not view:
            return False
    return True
