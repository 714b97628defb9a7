"""The bare Klein route bench.http compares against: POST /v1/query returns a fixed QueryResponse.

    python -m bench.http_baseline --port 0      # prints "listening on http://127.0.0.1:PORT/v1/query"

The body is roughly what a Databend server returns for the last page of `SELECT 1` (about
1 KB, next_uri null), pre-encoded once: the route measures twisted.web + Klein alone, with no
JSON parsing, no SQL and no query registry. Access logging is off (Site.log does nothing).
"""

from __future__ import annotations

import argparse
import json
import sys

RESPONSE = {
    "id": "1e1a6a1e-9b0c-4d4e-8c2f-6c0d3b0e5a11",
    "session_id": "5c3a1f0e-2b7d-4c9e-9a1b-0d8e7f6a5b4c",
    "node_id": "node-0",
    "session": {"database": "default", "role": None, "secondary_roles": None,
                "settings": {}, "txn_state": "AutoCommit", "need_sticky": False,
                "need_keep_alive": False},
    "schema": [{"name": "1", "type": "UInt8"}],
    "data": [["1"]],
    "state": "Succeeded",
    "error": None,
    "warnings": [],
    "has_result_set": True,
    "stats": {"scan_progress": {"rows": 1, "bytes": 1},
              "write_progress": {"rows": 0, "bytes": 0},
              "result_progress": {"rows": 1, "bytes": 1},
              "total_scan": {"rows": 0, "bytes": 0},
              "spill_progress": {"file_nums": 0, "bytes": 0},
              "running_time_ms": 0.41},
    "affect": None,
    "result_timeout_secs": None,
    "stats_uri": "/v1/query/1e1a6a1e-9b0c-4d4e-8c2f-6c0d3b0e5a11",
    "final_uri": "/v1/query/1e1a6a1e-9b0c-4d4e-8c2f-6c0d3b0e5a11/final",
    "next_uri": None,
    "kill_uri": "/v1/query/1e1a6a1e-9b0c-4d4e-8c2f-6c0d3b0e5a11/kill",
}
BODY = json.dumps(RESPONSE).encode()


def make_app():
    from klein import Klein

    app = Klein()

    @app.route("/v1/query", methods=["POST"])
    def query(request):
        request.setHeader(b"content-type", b"application/json")
        return BODY

    return app


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.http_baseline")
    p.add_argument("--port", type=int, default=0)
    a = p.parse_args(argv)

    from twisted.internet import reactor
    from twisted.web.server import Site

    class QuietSite(Site):
        def log(self, request):
            pass

    port = reactor.listenTCP(a.port, QuietSite(make_app().resource()), interface="127.0.0.1",
                             backlog=1024)
    print(f"listening on http://127.0.0.1:{port.getHost().port}/v1/query", flush=True)
    reactor.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
