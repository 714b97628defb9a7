"""The session side of the protocol: /v1/session/login, /refresh, /logout, /heartbeat and
/v1/verify, and what a query of a client session carries from one request to the next (its
`internal` state, its temporary tables)."""

from __future__ import annotations

import json

import engine
from web.arrow_pages import login_fields
from web.client_sessions import (
    ClientSessionId,
    ClientSessionStore,
    identify,
    mark_answer,
    new_session_id,
)
from web.errors import BadRequest, FailedToStart, Unauthorized
from web.query_request import parse_json
from web.tokens import REFRESH, SESSION, SessionTokens

SESSION_TIMEOUT = 5110  # Databend's SessionTimeout: the session's temporary tables expired
SESSION_LOST = 5111
_MAX_INTERNAL_CHARS = 1 << 20  # a session's `internal` text (variables travel in it)


def verify_answer(users, user: str) -> dict:
    """Databend's /v1/verify answer for `user` (databend-go's Ping checks `user`, and `tenant`
    when one is configured)."""
    return {"tenant": "", "user": user, "auth_type": "password",
            "is_configured": True, "default_role": users.default_role(user),
            "default_warehouse": "", "roles": sorted(users.available_roles(user))}


def queries_to_remove(queries, user: str, doc) -> list:
    """Keeps the queries a heartbeat lists ({"node_to_queries": {node: [ids]}}) alive; returns
    the ids that are gone, closed or another user's (answered alike)."""
    node_to_queries = (doc.get("node_to_queries") or {}) if isinstance(doc, dict) else None
    if not isinstance(node_to_queries, dict) or not all(
            isinstance(ids, list) for ids in node_to_queries.values()):
        raise BadRequest("parse error: expected {\"node_to_queries\": {node: [query ids]}}")
    gone = []
    for query_id in (str(q) for ids in node_to_queries.values() for q in ids):
        query = queries.find(query_id)
        if query is None or query.user != user or query.closed is not None:
            gone.append(query_id)
        else:
            query.touch()
    return gone


def internal_state(text) -> dict:
    """The client's `internal` session text as a dict ({} when absent or not an object)."""
    if not text or not isinstance(text, str) or len(text) > _MAX_INTERNAL_CHARS:
        return {}
    try:
        state = json.loads(text)
    except ValueError:
        return {}
    return state if isinstance(state, dict) else {}


def _json_object(raw_body: bytes) -> dict:
    body = parse_json(raw_body or b"{}")
    if not isinstance(body, dict):
        raise BadRequest("parse error: expected a JSON object")
    return body


def has_temp_tables(engine_session) -> bool:
    return not engine_session.temp_tables.is_empty()


class ClientSessionService:
    """Client sessions (web.client_sessions) and session tokens (web.tokens) for the app."""

    def __init__(self, db, clock, *, max_states: int, idle_secs: int, node_id: str):
        self.db = db
        self.store = ClientSessionStore(clock, max_states, idle_secs)
        self.tokens = SessionTokens(clock, idle_secs)
        self.node_id = node_id  # this server's id, in `internal` and as the answers' node_id

    def identify(self, request) -> ClientSessionId | None:
        """The request's client session: cookie or header, else the session of its token."""
        found = identify(request)
        if found is not None:
            return found
        header = request.getHeader(b"authorization")
        if header is not None and header[:7].lower() == b"bearer ":
            claim = self.tokens.verify(header[7:].strip().decode("latin-1"), SESSION)
            return ClientSessionId(claim.session_id, "token", False)
        return None

    # -- the login -------------------------------------------------------------------------------

    def login(self, request, user: str, raw_body: bytes, version: str) -> dict:
        """Databend's login answer, after checking the requested database, role and settings
        (400 with the engine's code when one is wrong); session tokens unless the request says
        `?disable_session_token=true`."""
        session = self.identify(request)
        mark_answer(request, session)
        body = _json_object(raw_body)
        self._check_login(user, body)
        session_id = session.id if session is not None else new_session_id()
        if session is None:
            request.setHeader(b"x-databend-session-id", session_id.encode())
        answer = {"version": version, "session_id": session_id, **login_fields()}
        disable = request.args.get(b"disable_session_token", [b"false"])[0].lower() == b"true"
        if not disable:
            answer["tokens"] = self.tokens.issue(user, body.get("role"), session_id)
        return answer

    def _check_login(self, user: str, body: dict) -> None:
        for key in ("database", "role"):
            if body.get(key) is not None and not isinstance(body[key], str):
                raise BadRequest(f"parse error: `{key}` must be a string")
        settings = body.get("settings")
        if settings is not None and not (isinstance(settings, dict) and all(
                isinstance(v, str) for v in settings.values())):
            raise BadRequest("parse error: `settings` must be an object of strings")
        try:
            session = self.db.session(database=body.get("database") or "default",
                                      settings=settings, user=user)
            if body.get("database"):
                session.require_database(body["database"])
            if body.get("role"):
                session.set_role(body["role"])
        except engine.EngineError as e:
            raise BadRequest(e.message, code=e.code) from None

    def refresh(self, request, raw_body: bytes) -> dict:
        """/v1/session/refresh with the refresh token as Bearer: a new token pair; the old
        refresh token (and the session token the body names) stop working."""
        header = request.getHeader(b"authorization") or b""
        if header[:7].lower() != b"bearer ":
            raise Unauthorized("refresh endpoint requires a Databend refresh token",
                               code=5100)
        claim = self.tokens.verify(header[7:].strip().decode("latin-1"), REFRESH)
        old_session = _json_object(raw_body).get("session_token")
        if old_session is not None and not isinstance(old_session, str):
            raise BadRequest("parse error: `session_token` must be a string")
        tokens = self.tokens.issue(claim.user, claim.role, claim.session_id)
        self.tokens.revoke(claim)
        self.tokens.revoke_text(old_session, SESSION)
        # Databend answers {"tokens": ...}; bendsql reads the pair at the top level: both
        return {"tokens": tokens, **tokens}

    def logout(self, request, user: str, session: ClientSessionId | None) -> None:
        if session is not None:
            self.store.drop(user, session.id)
        header = request.getHeader(b"authorization") or b""
        if header[:7].lower() == b"bearer ":
            self.tokens.revoke_text(header[7:].strip().decode("latin-1"), SESSION)

    def heartbeat(self, user: str, session: ClientSessionId | None) -> None:
        if session is not None:
            self.store.find(user, session.id)  # keeps its temporary tables alive

    # -- queries of a client session -------------------------------------------------------------

    def restore(self, engine_session, user: str, session: ClientSessionId | None,
                request_session: dict) -> None:
        """Give the request's engine session what its client session had: the last query id,
        the variables, the temporary tables (FailedToStart when they are gone)."""
        state = internal_state(request_session.get("internal"))
        query_ids = state.get("last_query_ids")
        if isinstance(query_ids, list) and query_ids and isinstance(query_ids[0], str):
            engine_session.query_ids.append(query_ids[0])
        variables = state.get("variables")
        if variables:
            try:
                engine_session.import_variables(variables)
            except engine.EngineError as e:
                raise FailedToStart(e.code, e.message) from None
        kept = self.store.find(user, session.id) if session is not None else None
        if state.get("has_temp_table"):
            node = state.get("last_node_id")
            if node != self.node_id:
                raise FailedToStart(SESSION_LOST, "Temp table lost due to server restart or "
                                    f"route error: node_id={self.node_id} (expected {node})")
            if kept is None or not kept.holds_tables():
                name = session.id if session is not None else "None"
                raise FailedToStart(SESSION_TIMEOUT, f"temporary tables in session {name} expired "
                                    f"after idle for more than {self.store.idle_secs} seconds")
        if kept is not None:
            if kept.temp_tables is not None:
                engine_session.temp_tables = kept.temp_tables
            if kept.result_cache is not None:
                engine_session.result_cache = kept.result_cache

    def keep(self, engine_session, user: str, session: ClientSessionId | None) -> None:
        """A query of the session ended: keep its temporary tables and cached results."""
        if session is None:
            return
        cache = engine_session.result_cache
        cached = cache is not None and not cache.is_empty()
        if not (has_temp_tables(engine_session) or cached):
            return
        kept = self.store.get_or_create(user, session.id)
        kept.temp_tables = engine_session.temp_tables
        kept.result_cache = cache

    def internal(self, request_internal, query_id: str, engine_session) -> str:
        """The `internal` text of an answer: the client's, with this server's id, the query id
        (last_query_id() of the next request), the variables and whether temporary tables
        live here, under Databend's keys."""
        state = internal_state(request_internal)
        state["last_node_id"] = self.node_id
        state["last_query_ids"] = [query_id]
        variables = engine_session.export_variables()
        if variables:
            state["variables"] = variables
        else:
            state.pop("variables", None)
        if has_temp_tables(engine_session):
            state["has_temp_table"] = True
        else:
            state.pop("has_temp_table", None)
        return json.dumps(state, separators=(",", ":"))
