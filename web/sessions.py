"""Server-side sessions: engine sessions kept `keep_server_session_secs` after their last query."""

from __future__ import annotations

import uuid

from engine import BAD_ARGUMENTS, TOO_MANY_CONNECTIONS, UNKNOWN_SESSION
from web.errors import FailedToStart


class ServerSession:
    """A kept engine session, its owner, and when it expires (never while its query runs)."""

    __slots__ = ("id", "user", "engine_session", "keep_secs", "expires_at", "query",
                 "request_session")

    def __init__(self, session_id, user, engine_session, keep_secs, request_session):
        self.id = session_id
        self.user = user
        self.engine_session = engine_session
        self.keep_secs = keep_secs
        self.request_session = request_session
        self.expires_at: float | None = None  # None while a query runs
        self.query = None


class SessionStore:
    """Kept sessions by id: created by a query with keep_server_session_secs > 0, reused by
    its owner through `session_id`, at most one query at a time, bounded in number."""

    def __init__(self, clock, max_sessions: int, max_keep_secs: int):
        self.clock = clock
        self.max_sessions = max_sessions
        self.max_keep_secs = max_keep_secs
        self._sessions: dict[str, ServerSession] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self, user: str, engine_session, keep_secs: int,
               request_session: dict) -> ServerSession:
        if len(self._sessions) >= self.max_sessions:
            self.sweep()
        if len(self._sessions) >= self.max_sessions:
            raise FailedToStart(
                TOO_MANY_CONNECTIONS,
                f"Current server sessions ({len(self._sessions)}) has exceeded the "
                f"max_sessions limit ({self.max_sessions})")
        kept = ServerSession(uuid.uuid4().hex, user, engine_session,
                             min(keep_secs, self.max_keep_secs), request_session)
        self._sessions[kept.id] = kept
        return kept

    def get(self, session_id: str, user: str, keep_secs: int = 0) -> ServerSession:
        """The owner's live session `session_id`, ready for a query; a positive `keep_secs`
        (the request's keep_server_session_secs) replaces its keep time."""
        kept = self._sessions.get(session_id)
        now = self.clock.seconds()
        if kept is not None and kept.expires_at is not None and now > kept.expires_at:
            del self._sessions[session_id]
            kept = None
        if kept is None or kept.user != user:
            raise FailedToStart(UNKNOWN_SESSION,
                                f"unknown session-id {session_id}, maybe expired")
        if kept.query is not None:
            raise FailedToStart(BAD_ARGUMENTS, "last query on the session not finished")
        if keep_secs > 0:
            kept.keep_secs = min(keep_secs, self.max_keep_secs)
        return kept

    def begin(self, kept: ServerSession, query) -> None:
        kept.query = query
        kept.expires_at = None

    def finish(self, kept: ServerSession) -> None:
        """The session's query ended: keep it `keep_secs` from now, or as long as sessions may
        be kept while its transaction is open (or failed and not ended yet)."""
        kept.query = None
        keep = kept.keep_secs
        if getattr(kept.engine_session, "transaction", None) is not None:
            keep = max(keep, self.max_keep_secs)
        kept.expires_at = self.clock.seconds() + keep

    def sweep(self) -> None:
        now = self.clock.seconds()
        for session_id in [k for k, s in self._sessions.items()
                           if s.expires_at is not None and now > s.expires_at]:
            del self._sessions[session_id]
