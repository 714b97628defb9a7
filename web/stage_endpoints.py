"""The file endpoints around stages: PUT /v1/upload_to_stage (Databend's File Upload API) and
the presigned URLs of PRESIGN (GET reads a staged file, PUT writes one). Each answers once what
it stored is durable (`app._stored_durably`)."""

from __future__ import annotations

import uuid

import engine
from engine import StageLocation
from web.errors import BadRequest, HTTPError, NotFound
from web.request_helpers import check_upload_body, read_all
from web.upload import split_multipart, stage_headers, stored_path
from web.wire import encode_json

_JSON = b"application/json"


def upload_to_stage(app, request, user: str):
    """The multipart body's files into a stage (web.upload); a named stage takes WRITE on it
    (engine.catalog.privileges)."""
    check_upload_body(request, app.config)
    stage, relative_path = stage_headers(request)
    if getattr(app.db, "users", None) is not None:
        try:
            engine.check_user_stage(app.db, user, stage, engine.STAGE_WRITE)
        except engine.EngineError as exc:
            raise HTTPError(exc.message, code=exc.code, status=403) from None
    query_id = (request.getHeader(b"x-databend-query-id") or b"").decode("utf-8", "replace") \
        or uuid.uuid4().hex
    d = app._run_in_thread(split_multipart, request.content, request.getHeader(b"content-type"))

    def store(files):
        stored = []
        for filename, data in files:
            path = stored_path(relative_path, filename)
            try:
                app.db.stages.put(user, engine.parse_location(f"@{stage}/{path}"), data)
            except engine.EngineError as exc:
                raise BadRequest(f"{exc.code}: {exc.message}") from None
            stored.append(filename)
        body = {"id": query_id, "stage_name": stage, "state": "SUCCESS", "files": stored}
        return app._stored_durably(None).addCallback(
            lambda _: app._send(request, 200, encode_json(body), _JSON))

    return d.addCallback(store)


def presigned(app, request, token: str):
    """A presigned URL (web.presign): its signature is the credential, no Basic auth."""
    method = request.method.decode("ascii")
    user, stage, path = app.presigner.verify(token, method)
    location = StageLocation(stage, path)
    if method == "GET":
        try:
            data = app.db.stages.get(user, location)
        except engine.EngineError as exc:
            raise NotFound(exc.message) from None
        return app._send(request, 200, data, b"application/octet-stream")
    check_upload_body(request, app.config)

    def store(data: bytes):
        try:
            app.db.stages.put(user, location, data)
        except engine.EngineError as exc:
            raise BadRequest(f"{exc.code}: {exc.message}") from None
        return app._stored_durably(None).addCallback(
            lambda _: app._send(request, 200, b"", b"text/plain"))

    return app._run_in_thread(read_all, request.content).addCallback(store)
