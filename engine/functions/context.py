"""Functions answered from the session context (evaluated once per query): version,
database, current_user, now, today, pi..."""

from __future__ import annotations

import datetime
import math

from engine.core.version import VERSION_STRING
from engine.functions.dates import session_today
from engine.types import sqltype as T


def context_value(name: str, ctx):
    """Functions answered from the session context (evaluated once per query)."""
    if name == "version":
        return VERSION_STRING, T.STRING
    if name in ("database", "currentdatabase", "current_database", "schema"):
        return ctx.database, T.STRING
    if name in ("current_user", "user", "currentuser"):
        return f"'{ctx.user}'@'%'", T.STRING
    if name in ("now", "current_timestamp", "localtimestamp"):
        return ctx.now, T.TIMESTAMP
    if name in ("today", "current_date", "curdate"):
        return session_today(ctx.now, ctx.timezone), T.DATE
    if name == "yesterday":
        return session_today(ctx.now, ctx.timezone) - datetime.timedelta(days=1), T.DATE
    if name == "tomorrow":
        return session_today(ctx.now, ctx.timezone) + datetime.timedelta(days=1), T.DATE
    if name == "timezone":
        return ctx.timezone, T.STRING
    if name == "pi":
        return math.pi, T.FLOAT64
    if name == "connection_id":
        return ctx.session.connection_id, T.STRING
    if name == "current_role":
        return ctx.session.current_role(), T.STRING
    if name == "last_query_id":
        value = last_query_id(ctx, -1)
        return value, T.STRING if value is not None else T.NULL
    return None


def last_query_id(ctx, index: int) -> str | None:
    """The id of an earlier statement of the session, as current Databend's last_query_id(index):
    -1 the one before this, 0 the first kept; NULL beyond them (1.2.453 answered '')."""
    ids = ctx.session.query_ids
    count = len(ids) - 1  # the statement itself is the newest id
    position = index + count if index < 0 else index
    return ids[position] if 0 <= position < count else None


# the context functions whose value the plan cache's key determines (database, user, settings)
KEYED_CONTEXT_FUNCTIONS = frozenset({
    "version", "database", "currentdatabase", "current_database", "schema", "current_user", "user",
    "currentuser", "pi", "timezone",
})

CONTEXT_FUNCTIONS = frozenset({
    "version", "database", "currentdatabase", "current_database", "schema", "current_user", "user",
    "currentuser", "now", "current_timestamp", "localtimestamp", "today", "current_date", "curdate",
    "yesterday", "tomorrow", "pi", "timezone", "connection_id", "current_role", "last_query_id",
})
