"""Parsing and validation of a QueryRequest body (POST /v1/query)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from web.errors import BadRequest


@dataclass(slots=True)
class QueryRequest:
    sql: str
    session: dict = field(default_factory=dict)  # the request's session object, as sent
    session_id: str = ""  # a kept server-side session to reuse
    database: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    keep_secs: int = 0
    wait_secs: int | None = None  # None: the format's default
    page_rows: int | None = None
    buffer_rows: int | None = None


def _int(value, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        kind = "a positive" if minimum > 0 else "a non-negative"
        raise BadRequest(f"parse error: `{name}` must be {kind} integer, not {json.dumps(value)}")
    return value


def _object(value, name: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(f"parse error: `{name}` must be an object")
    return value


def parse_json(body: bytes):
    """The JSON document of a request body; BadRequest (400) when it is not JSON."""
    try:
        return json.loads(body)
    except ValueError as e:  # also bad UTF-8 (UnicodeDecodeError is a ValueError)
        raise BadRequest(f"parse error: invalid JSON: {e}") from None
    except RecursionError:
        raise BadRequest("parse error: invalid JSON: nested too deeply") from None


def parse_query_request(body: bytes) -> QueryRequest:
    doc = parse_json(body)
    if not isinstance(doc, dict):
        raise BadRequest("parse error: the body must be a JSON object (a QueryRequest)")
    if "sql" not in doc:
        raise BadRequest("parse error: missing field `sql`")
    sql = doc["sql"]
    if not isinstance(sql, str):
        raise BadRequest("parse error: `sql` must be a string")
    request = QueryRequest(sql)

    session = _object(doc.get("session"), "session")
    request.session = session
    database = session.get("database", session.get("db"))
    if database is not None:
        if not isinstance(database, str):
            raise BadRequest("parse error: `session.database` must be a string")
        request.database = database or None
    settings = _object(session.get("settings"), "session.settings")
    for key, value in settings.items():
        if not isinstance(value, str):
            raise BadRequest(f"parse error: setting `{key}` must be a string, "
                             f"not {json.dumps(value)}")
    request.settings = settings
    if session.get("keep_server_session_secs") is not None:
        request.keep_secs = _int(session["keep_server_session_secs"],
                                 "session.keep_server_session_secs", 0)

    session_id = doc.get("session_id") or session.get("id")
    if session_id is not None:
        if not isinstance(session_id, str):
            raise BadRequest("parse error: `session_id` must be a string")
        request.session_id = session_id

    pagination = _object(doc.get("pagination"), "pagination")
    if pagination.get("wait_time_secs") is not None:
        request.wait_secs = _int(pagination["wait_time_secs"], "pagination.wait_time_secs", 0)
    if pagination.get("max_rows_per_page") is not None:
        request.page_rows = _int(pagination["max_rows_per_page"],
                                 "pagination.max_rows_per_page", 1)
    if pagination.get("max_rows_in_buffer") is not None:
        request.buffer_rows = _int(pagination["max_rows_in_buffer"],
                                   "pagination.max_rows_in_buffer", 0)
    return request
