"""Client sessions as Databend keeps them: an id the client carries (a cookie, or the
X-DATABEND-SESSION header), and the server-side state tied to it between requests.

Databend's drivers ask for a session on every request: bendsql and databend-go send the cookie
`cookie_enabled`, and the server answers a new `session_id` cookie (with `last_refresh_time`)
the first time; a client announcing `X-DATABEND-CLIENT-CAPS: session_header` carries the id in
`X-DATABEND-SESSION` instead (JSON, or base64url of it). Every answer names the id in
`X-DATABEND-SESSION-ID`, and the login answers it as `session_id`.

What the client cannot carry lives here, per (user, session id): the session's temporary
tables and its query result cache (the engine's containers). Most of a session's state
travels in the answer's `session` object instead (database, settings, role, and in
`internal` the variables and the last query ids), so a session without temporary tables costs
the server nothing. State nobody used for `idle_secs` (Databend's http_session_timeout_secs,
4 hours) is dropped with its temporary tables; logout drops it at once. At most `max_states`
sessions hold state: past that, the one idle longest goes first.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
import uuid
from http.cookies import CookieError, SimpleCookie

from web.errors import BadRequest

COOKIE_SESSION_ID = b"session_id"
COOKIE_LAST_REFRESH = b"last_refresh_time"
COOKIE_ENABLED = "cookie_enabled"
HEADER_SESSION = b"x-databend-session"
HEADER_SESSION_ID = b"x-databend-session-id"
HEADER_CLIENT_CAPS = b"x-databend-client-caps"
MAX_SESSION_ID_CHARS = 128  # a uuid is 36; anything much longer is not a session id

COOKIE = "cookie"
HEADER = "header"


class ClientSessionId:
    """The session a request belongs to: its id, how the client carries it, and whether this
    request created it (then the answer sets the cookies)."""

    __slots__ = ("id", "carrier", "is_new")

    def __init__(self, session_id: str, carrier: str, is_new: bool):
        self.id = session_id
        self.carrier = carrier
        self.is_new = is_new


def _cookies(request) -> SimpleCookie:
    jar = SimpleCookie()
    for raw in request.requestHeaders.getRawHeaders(b"cookie") or ():
        try:
            jar.load(raw.decode("latin-1"))
        except CookieError:
            raise BadRequest("Invalid Cookie header") from None
    return jar


def _valid_id(value: str, where: str) -> str:
    value = value.strip()
    if not value or len(value) > MAX_SESSION_ID_CHARS or not value.isprintable():
        raise BadRequest(f"Invalid session id in {where}")
    return value


def _decode_session_header(value: bytes) -> str:
    """The id of an X-DATABEND-SESSION value: {"id": ..., "last_refresh_time": ...} as JSON,
    or base64url of that JSON (Databend's encode_json_header)."""
    text = value.decode("latin-1").strip()
    try:
        if not text.startswith("{"):
            text = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")
        doc = json.loads(text)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise BadRequest("Invalid value for X-DATABEND-SESSION: expected JSON "
                         "{\"id\": ..., \"last_refresh_time\": ...}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
        raise BadRequest("Invalid value for X-DATABEND-SESSION: no id")
    return _valid_id(doc["id"], "X-DATABEND-SESSION")


def identify(request) -> ClientSessionId | None:
    """The client session of `request`, as Databend's session middleware finds it: the
    X-DATABEND-SESSION header when the client announces `session_header`, else the cookie when
    the client enables cookies (a new id when it has none yet); None without either."""
    headers = request.requestHeaders
    caps_raw = headers.getRawHeaders(HEADER_CLIENT_CAPS)
    caps = set()
    if caps_raw:
        caps = {c.strip().lower() for c in caps_raw[0].decode("latin-1").split(";")}
    if "session_header" in caps:
        raw = headers.getRawHeaders(HEADER_SESSION)
        if raw and raw[0].strip():
            return ClientSessionId(_decode_session_header(raw[0]), HEADER, False)
        return ClientSessionId(new_session_id(), HEADER, True)
    if not headers.hasHeader(b"cookie") and "session_cookie" not in caps:
        return None
    jar = _cookies(request)
    if COOKIE_ENABLED not in jar and "session_cookie" not in caps:
        return None
    sid = jar.get(COOKIE_SESSION_ID.decode())
    if sid is not None and sid.value:
        return ClientSessionId(_valid_id(sid.value, "the session_id cookie"), COOKIE, False)
    return ClientSessionId(new_session_id(), COOKIE, True)


def new_session_id() -> str:
    return str(uuid.uuid4())


def mark_answer(request, session: ClientSessionId | None, now: float | None = None) -> None:
    """The headers an answer carries for the request's client session: its id, and the new
    cookies (a new cookie session) or the X-DATABEND-SESSION value (a header session)."""
    if session is None:
        return
    request.setHeader(HEADER_SESSION_ID, session.id.encode())
    seconds = int(time.time() if now is None else now)
    if session.carrier == COOKIE and session.is_new:
        request.addCookie(COOKIE_SESSION_ID, session.id.encode(), path=b"/")
        request.addCookie(COOKIE_LAST_REFRESH, b"%d" % seconds, path=b"/")
    elif session.carrier == HEADER:
        value = json.dumps({"id": session.id, "last_refresh_time": seconds},
                           separators=(",", ":")).encode()
        request.setHeader(HEADER_SESSION, base64.urlsafe_b64encode(value))


class SessionState:
    """What one client session keeps on the server: the engine's containers of its temporary
    tables and of its query results, created when a request first needs them."""

    __slots__ = ("user", "session_id", "temp_tables", "result_cache", "last_used")

    def __init__(self, user: str, session_id: str, now: float):
        self.user = user
        self.session_id = session_id
        self.temp_tables = None
        self.result_cache = None
        self.last_used = now

    def holds_tables(self) -> bool:
        tables = self.temp_tables
        return tables is not None and not tables.is_empty()

    def release(self) -> None:
        """Drop the temporary tables (their memory is freed) and the cached results."""
        if self.temp_tables is not None:
            self.temp_tables.drop_all()
        if self.result_cache is not None:
            self.result_cache.clear()  # its rows are charged to the server's memory
        self.temp_tables = None
        self.result_cache = None


class ClientSessionStore:
    """Server-side state of client sessions by (user, session id), bounded in number and in
    idle time."""

    def __init__(self, clock, max_states: int, idle_secs: int):
        self.clock = clock
        self.max_states = max_states
        self.idle_secs = idle_secs
        self._states: dict[tuple[str, str], SessionState] = {}

    def __len__(self) -> int:
        return len(self._states)

    def find(self, user: str, session_id: str) -> SessionState | None:
        """The session's live state (refreshed: used now), None when it has none."""
        state = self._states.get((user, session_id))
        if state is None:
            return None
        now = self.clock.seconds()
        if now - state.last_used > self.idle_secs:
            self.drop(user, session_id)
            return None
        state.last_used = now
        return state

    def get_or_create(self, user: str, session_id: str) -> SessionState:
        state = self.find(user, session_id)
        if state is not None:
            return state
        if len(self._states) >= self.max_states:
            self.sweep()
        while self._states and len(self._states) >= self.max_states:
            oldest = min(self._states, key=lambda k: self._states[k].last_used)
            self.drop(*oldest)
        state = self._states[(user, session_id)] = SessionState(user, session_id,
                                                                self.clock.seconds())
        return state

    def drop(self, user: str, session_id: str) -> bool:
        """Logout or expiry: the session's temporary tables go; True if it had state."""
        state = self._states.pop((user, session_id), None)
        if state is None:
            return False
        state.release()
        return True

    def sweep(self) -> None:
        limit = self.clock.seconds() - self.idle_secs
        for key in [k for k, s in self._states.items() if s.last_used < limit]:
            self.drop(*key)
