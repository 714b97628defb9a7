"""PUT /v1/streaming_load: one request uploads a file and loads it into a table (Databend's HTTP
streaming load).

The SQL comes in the header `X-Databend-SQL`: `INSERT INTO [db.]t [(cols)] [VALUES] FROM
@_databend_load FILE_FORMAT = (...)` (or with `VALUES (?, ..., constant or expression)`);
the file is the multipart/form-data field `upload`. The file is staged under the user stage
(`@~/_databend_load/<random name>`, removed again whatever happens; a data directory keeps
neither it nor a load history of it, only the rows loaded) and loaded by `COPY INTO t
[(cols)] FROM @~/... FILE_FORMAT = (...)`, so it goes through the same readers and column
converters as COPY INTO, in bounded steps on the event loop; `VALUES (?, ?, 'x')` with other
expressions than `?` loads through `COPY INTO t (cols) FROM (SELECT $1, $2, 'x' FROM @~/...)`.
The answer is Databend's `{"id": query id, "stats": {"rows": rows loaded, "bytes": file
bytes}}`; an error is
`{"error": {"code", "message"}}` with HTTP 400 (415 when the body is no multipart upload).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import uuid

from twisted.internet.defer import Deferred

import engine
from web.errors import HTTPError, PayloadTooLarge
from web.session_endpoints import internal_state
from web.upload import split_multipart
from web.wire import DATABEND, encode_json, error_body

LOAD_PLACEHOLDER = "@_databend_load"
STAGED_FOLDER = "_databend_load"

# INSERT [/*+ hints */] INTO <target> [VALUES [(...)]] FROM @_databend_load <file format...>
_INSERT_RE = re.compile(
    r"^\s*INSERT\s+(?:/\*.*?\*/\s*)?(?:INTO\s+)(?P<target>.+?)\s*"
    r"(?:\bVALUES\s*(?P<values>\(.*\))?\s*)?"
    r"\bFROM\s+@_databend_load\b(?P<options>.*?)\s*;?\s*$",
    re.IGNORECASE | re.DOTALL)
_TARGET_RE = re.compile(r"^[\w.`\"]+\s*(\([^()]*\))?$", re.DOTALL)


class UnsupportedMedia(HTTPError):
    status = 415


def copy_statement(header_sql: str, staged_location: str) -> str:
    """The COPY INTO statement loading `staged_location` as the streaming load's INSERT says;
    HTTPError (400, Databend's code) when the SQL is not such an INSERT."""
    match = _INSERT_RE.match(header_sql or "")
    if match is None:
        if LOAD_PLACEHOLDER not in (header_sql or "").lower():
            raise HTTPError(f"the statement in X-Databend-SQL must read FROM {LOAD_PLACEHOLDER}: "
                            "INSERT INTO t [(columns)] FROM @_databend_load FILE_FORMAT = (...)",
                            code=1006)
        raise HTTPError("the statement in X-Databend-SQL is not INSERT INTO t [(columns)] "
                        "[VALUES (?, ...)] FROM @_databend_load FILE_FORMAT = (...)", code=1005)
    target = match.group("target").strip()
    if not _TARGET_RE.match(target):
        raise HTTPError(f"cannot read the target table of the streaming load from {target!r}",
                        code=1005)
    values = match.group("values")
    options = match.group("options").strip()
    if values is None or not values[1:-1].replace("?", "").replace(",", "").strip():
        return f"COPY INTO {target} FROM {staged_location} {options}".rstrip()
    # VALUES (?, ?, 'BJ'): each ? is the file's next field ($1, $2 ...), the rest as written
    return f"COPY INTO {target} FROM (SELECT {_numbered_placeholders(values[1:-1])} " \
           f"FROM {staged_location}) {options}".rstrip()


def _numbered_placeholders(text: str) -> str:
    """`text` with each ? outside quotes replaced by $1, $2 ... in order."""
    out, number, quote = [], 0, None
    for char in text:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"`":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _context_state(context_header: bytes | None) -> dict | None:
    """The client's session in an X-DATABEND-QUERY-CONTEXT header (JSON, or base64 of it);
    None when there is none or it is not a JSON object."""
    if not context_header:
        return None
    for decode in (lambda raw: raw, _unbase64):
        try:
            state = json.loads(decode(context_header))
        except (ValueError, binascii.Error):
            continue
        return state if isinstance(state, dict) else None
    return None


def database_of(context_header: bytes | None) -> str | None:
    """The current database in an X-DATABEND-QUERY-CONTEXT header, if it names one."""
    state = _context_state(context_header)
    if state is not None and isinstance(state.get("database"), str):
        return state["database"] or None
    return None


def answer_context(context_header: bytes | None, query_id: str, failed: bool) -> bytes | None:
    """The X-DATABEND-QUERY-CONTEXT of the answer, as Databend writes it: the client's session
    with `internal.last_query_ids` naming this load (an Active transaction Fail when the load
    failed), base64url JSON; None when the request sent none."""
    state = _context_state(context_header)
    if state is None:
        return None
    internal = internal_state(state.get("internal"))
    internal["last_query_ids"] = [query_id]
    state["internal"] = json.dumps(internal, separators=(",", ":"))
    if failed and state.get("txn_state") == "Active":
        state["txn_state"] = "Fail"
    return base64.urlsafe_b64encode(json.dumps(state, separators=(",", ":")).encode())


def _unbase64(raw: bytes) -> bytes:
    padded = raw.strip() + b"=" * (-len(raw.strip()) % 4)
    return base64.urlsafe_b64decode(padded.replace(b"+", b"-").replace(b"/", b"_"))


def loaded_rows(answer_rows: list) -> int:
    """The rows COPY INTO loaded (its answer: one row per file, Rows_loaded second)."""
    return sum(int(row[1] or 0) for row in answer_rows)


def run_to_end(cooperator, result) -> Deferred:
    """A Deferred firing with all rows of `result`, pulled one bounded step (batch) at a time
    by `cooperator` (the event loop serves others between steps)."""
    rows: list = []

    def steps():
        for batch in result.batches():
            rows.extend(batch)
            yield None

    return cooperator.cooperate(steps()).whenDone().addCallback(lambda _: rows)


class StreamingLoad:
    """One PUT /v1/streaming_load: upload parsed in a thread, the file staged, COPY INTO run in
    steps, the staged file removed, the answer sent (`app` is the web.app.QueryApp)."""

    def __init__(self, app, request, user: str):
        self.app = app
        self.request = request
        self.user = user
        self.query_id = (request.getHeader(b"x-databend-query-id") or b"").decode(
            "utf-8", "replace").strip() or uuid.uuid4().hex
        self.location = None
        self.size = 0

    def run(self):
        request = self.request
        try:
            if getattr(request, "body_too_large", False):
                raise PayloadTooLarge(f"upload is larger than {self.app.config.max_upload_bytes} "
                                      "bytes (server option --max_upload_bytes)")
            if getattr(request, "upload_refusal", None) is not None:
                raise request.upload_refusal
            sql = (request.getHeader(b"x-databend-sql") or b"").decode("utf-8", "replace")
            if not sql.strip():
                raise HTTPError("Missing required header X-Databend-SQL (an INSERT INTO t FROM "
                                "@_databend_load FILE_FORMAT = (...))")
            content_type = request.getHeader(b"content-type") or b""
            if not content_type.lower().startswith(b"multipart/form-data"):
                raise UnsupportedMedia("streaming_load takes a multipart/form-data body with the "
                                       "file in the field `upload`")
            staged = f"@~/{STAGED_FOLDER}/{uuid.uuid4().hex}"  # unique, whatever the query id
            statement = f"{copy_statement(sql, staged)} PURGE = TRUE FORCE = TRUE"
        except HTTPError as error:
            return self._error(error.status, error.code, error.message)
        d = self.app._run_in_thread(split_multipart, request.content, content_type)
        d.addCallback(self._load, staged, statement)
        d.addCallbacks(self._answer, self._failed)
        return d

    def _load(self, files, staged: str, statement: str):
        if len(files) != 1:
            raise HTTPError(f"streaming_load takes exactly one file (in the field `upload`), "
                            f"not {len(files)}", status=415)
        data = files[0][1]
        self.size = len(data)
        app, user = self.app, self.user
        database = database_of(self.request.getHeader(b"x-databend-query-context"))
        session = app.db.session(database=database or "default", user=user)
        self.location = engine.parse_location(staged)
        # not logged: the rows the COPY loads are (a crash before the answer loses the upload,
        # which the client was never told is loaded)
        app.db.stages.put(user, self.location, data, logged=False)
        result = session.execute(statement, query_id=self.query_id)
        d = run_to_end(app.cooperator, result)

        def durable(rows):
            lsn = getattr(result, "commit_lsn", None)
            return app.durable(lsn).addCallback(lambda _: rows)

        def closed(outcome):
            result.close()
            self._remove_staged()
            return outcome

        return d.addCallback(durable).addBoth(closed)

    def _remove_staged(self) -> None:
        if self.location is None:
            return
        try:
            self.app.db.stages.remove(self.user, self.location)
        except engine.EngineError:
            pass  # purged by the load already
        self.location = None

    def _mark_context(self, failed: bool) -> None:
        context = answer_context(self.request.getHeader(b"x-databend-query-context"),
                                 self.query_id, failed)
        if context is not None:
            self.request.setHeader(b"x-databend-query-context", context)

    def _answer(self, rows):
        self._mark_context(failed=False)
        body = {"id": self.query_id, "stats": {"rows": loaded_rows(rows), "bytes": self.size}}
        return self.app._stored_durably(None).addCallback(
            lambda _: self.app._send(self.request, 200, encode_json(body), b"application/json"))

    def _failed(self, failure):
        self._remove_staged()
        error = failure.value
        if isinstance(error, engine.EngineError):
            return self._error(400, error.code, error.message)
        if isinstance(error, HTTPError):
            return self._error(error.status, error.code, error.message)
        return failure  # a bug: the app's error handler logs it and answers 500

    def _error(self, status: int, code: int, message: str):
        self._mark_context(failed=True)
        body, content_type = error_body(DATABEND, code, message)
        return self.app._send(self.request, status, body, content_type)
