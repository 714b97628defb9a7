"""Klein routes of the query HTTP protocol."""

from __future__ import annotations

import json
import time
import uuid

from klein import Klein

import engine


class QueryApp:
    app = Klein()

    def __init__(self, db: engine.Database):
        self.db = db

    def resource(self):
        return self.app.resource()

    @app.route("/v1/query", methods=["POST"])
    @app.route("/v1/query/", methods=["POST"])
    def post_query(self, request):
        request.setHeader(b"content-type", b"application/json")
        started = time.monotonic()
        try:
            body = json.loads(request.content.read())
            sql = body["sql"]
            if not isinstance(sql, str):
                raise TypeError("sql must be a string")
        except (ValueError, KeyError, TypeError) as e:
            request.setResponseCode(400)
            return json.dumps({"error": {"code": 400, "message": f"parse error: {e}"}})
        query_id = uuid.uuid4().hex
        session = self.db.session()
        try:
            result = session.execute(sql)
            rows = []
            render = result.renderer(null_as_str=True)
            for batch in result.batches():
                rows.extend(render(batch))
            state, error, schema = "Succeeded", None, result.schema
        except engine.EngineError as e:
            state, error, schema, rows = "Failed", {"code": e.code, "message": e.message}, [], []
        progress = {"rows": 0, "bytes": 0}
        return json.dumps({
            "id": query_id,
            "session_id": "",
            "session": {"database": session.database, "settings": session.settings},
            "state": state,
            "error": error,
            "schema": [{"name": c.name, "type": c.type} for c in schema],
            "data": rows,
            "affect": None,
            "stats": {
                "running_time_ms": (time.monotonic() - started) * 1000,
                "scan_progress": progress,
                "write_progress": progress,
                "result_progress": {"rows": len(rows), "bytes": 0},
            },
            "stats_uri": f"/v1/query/{query_id}",
            "final_uri": f"/v1/query/{query_id}/final",
            "next_uri": None,
            "kill_uri": f"/v1/query/{query_id}/kill",
        })
