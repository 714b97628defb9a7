"""bool_and(x) / bool_or(x): whether every / some non-NULL value of the group is true (NULL when
there is none), as Databend's boolean aggregates. Collected: `final` runs once per group."""

from __future__ import annotations

from engine.functions.collected import COLLECTED, Collected
from engine.types import sqltype as T


def _bool_and(values, _params):
    seen = [v for v in values if v is not None]
    return all(seen) if seen else None


def _bool_or(values, _params):
    seen = [v for v in values if v is not None]
    return any(seen) if seen else None


_ENTRIES = [
    Collected("bool_and", (1, 1), lambda ts: T.BOOLEAN.as_nullable(True), _bool_and),
    Collected("bool_or", (1, 1), lambda ts: T.BOOLEAN.as_nullable(True), _bool_or),
]
COLLECTED.update((c.name, c) for c in _ENTRIES)
