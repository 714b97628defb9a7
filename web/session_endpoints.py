"""The answers of the session endpoints that read server state: /v1/verify (who the
credentials are) and /v1/session/heartbeat (which listed queries are gone); and of the
console's /v1/console/split (a script's statements, as the grammar cuts it)."""

from __future__ import annotations

from bisect import bisect_left

import engine
from web.errors import BadRequest

#: statements one script may hold for /v1/console/split (400 above)
MAX_SCRIPT_STATEMENTS = 10_000


def verify_answer(users, user: str) -> dict:
    """Databend's /v1/verify answer for `user` (databend-go's Ping checks `user`, and `tenant`
    when one is configured)."""
    return {"tenant": "", "user": user, "auth_type": "password", "is_configured": True,
            "default_role": users.default_role(user), "default_warehouse": "",
            "roles": sorted(users.available_roles(user))}


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


def script_of(doc) -> str:
    """The `sql` of /v1/console/split's body ({"sql": "..."}); BadRequest otherwise."""
    if not isinstance(doc, dict) or not isinstance(doc.get("sql"), str):
        raise BadRequest('parse error: expected {"sql": "<script>"}')
    return doc["sql"]


def split_answer(script: str) -> dict:
    """/v1/console/split's answer: {"statements": [{"start", "end", "complete", "params"}]},
    offsets in UTF-16 code units (JavaScript's string indices), `params` the names of the
    statement's `:name` placeholders. Parse-only work, run in a thread."""
    try:
        spans = engine.split_statements(script, MAX_SCRIPT_STATEMENTS)
    except engine.TooManyStatements as exc:
        raise BadRequest(f"{exc} (the console runs at most {MAX_SCRIPT_STATEMENTS})") from None
    to_utf16 = _utf16_offsets(script)
    return {"statements": [{"start": to_utf16(span.start), "end": to_utf16(span.end),
                            "complete": span.complete, "params": list(span.params)}
                           for span in spans]}


def _utf16_offsets(script: str):
    """A function from a code point offset of `script` to its UTF-16 offset (characters past
    U+FFFF take two units)."""
    if not script or max(script) <= "\uffff":
        return lambda offset: offset
    astral = [i for i, char in enumerate(script) if char > "\uffff"]
    return lambda offset: offset + bisect_left(astral, offset)
