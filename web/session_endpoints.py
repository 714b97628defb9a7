"""The answers of the session endpoints that read server state: /v1/verify (who the
credentials are) and /v1/session/heartbeat (which listed queries are gone)."""

from __future__ import annotations

from web.errors import BadRequest


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
