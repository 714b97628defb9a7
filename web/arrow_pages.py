"""Arrow IPC result pages: which queries get them (negotiation) and how a page is answered.

As Databend's HTTP handler (docs/protocol.rst, "Arrow result pages"): a request whose `Accept`
header is `application/vnd.apache.arrow.stream` asks for Arrow. When it starts a query, the
query negotiates a result version: the request's `arrow_result_version_max` (0 is a 400),
capped at the server's (3), or 1 for databend-driver-python up to 0.33.7, which asked without
the field; with neither, a 400. Version 3 also negotiates `arrow_features.decimal64` (on unless
the client says false; versions 1 and 2 always use decimal64). A page request may then ask for
Arrow or JSON; asking Arrow of a query that started as JSON is a 400, as there.

A page with rows of a negotiated query answered to an Arrow request is one Arrow IPC stream
(LZ4-framed buffers, as Databend writes them): its schema's metadata `response_header` is the
JSON answer without `data` and `schema`, its record batch the rows (web.arrow_types). Every
other answer is JSON; an Arrow request's JSON answer names the version in `settings` too.

Without pyarrow (the optional extra `queryhttp[arrow]`) nothing is negotiated: Accept is
ignored and every answer is JSON. Result version 1 (JSONB variants) is served as JSON pages
when the result holds a VARIANT (this server writes no JSONB); so are results of statements
whose columns carry no engine types, and a page whose values do not fit their Arrow types.
"""

from __future__ import annotations

import json

from twisted.logger import Logger

import engine
from web import arrow_types
from web.errors import BadRequest
from web.wire import DATABEND, encode_answer

log = Logger()

CONTENT_TYPE = b"application/vnd.apache.arrow.stream"
JSON_CONTENT_TYPE = b"application/json"
LEGACY_VERSION = 1  # JSONB variants; not named in the answer's settings
FEATURES_VERSION = 3  # from this version on the client negotiates `arrow_features`
SERVER_MAX_VERSION = FEATURES_VERSION
# clients of this user agent up to this version asked for Arrow without a version (and decode
# VARIANT as JSONB): they get version 1
_LEGACY_AGENT = "databend-driver-python/"
_LEGACY_AGENT_MAX = (0, 33, 7)

_USABLE = arrow_types.usable()
_IPC_OPTIONS = arrow_types.pa.ipc.IpcWriteOptions(compression="lz4") if _USABLE else None


def arrow_available() -> int | None:
    """The highest Arrow result version this server writes (the login's
    `server_max_arrow_result_version`), or None without a usable pyarrow."""
    return SERVER_MAX_VERSION if _USABLE else None


def login_fields() -> dict:
    """The Arrow fields of the login answer: the version and, from version 3 on, the features
    (decimal64 on), as Databend sends them; none without pyarrow."""
    if not _USABLE:
        return {}
    return {"server_max_arrow_result_version": SERVER_MAX_VERSION,
            "server_arrow_features": {"decimal64": True}}


def asks_for_arrow(request) -> bool:
    """Whether the request's (first) Accept header is exactly Arrow's content type, as
    Databend reads it; always False without pyarrow."""
    if not _USABLE:
        return False
    accept = request.requestHeaders.getRawHeaders(b"accept")
    return bool(accept) and accept[0] == CONTENT_TYPE


class ArrowEncoding:
    """What a query negotiated: its result version and whether Decimal(p <= 18) is decimal64;
    once its result is attached, the Arrow fields of its columns (None: its pages are JSON)
    and the JSON rendering of its rows (its buffered rows are the engine's values)."""

    __slots__ = ("version", "decimal64", "fields", "render_json")

    def __init__(self, version: int, decimal64: bool = True):
        self.version = version
        self.decimal64 = decimal64
        self.fields = None
        self.render_json = None

    def attach(self, result, render_json):
        """The producer's renderer for `result`: the engine's values kept as they are (a copy
        of each batch list: the page buffer cuts it), or `render_json` when its pages are JSON."""
        types = getattr(result, "types", None) or ()
        if not result.schema or len(types) != len(result.schema) or any(t is None for t in types) \
                or getattr(result, "rows_are_text", False):
            return render_json  # columns without engine types (or known only at the end): JSON
        if self.version == LEGACY_VERSION and any(arrow_types.has_variant(t) for t in types):
            return render_json  # version 1 wants JSONB variants
        self.fields = [arrow_types.arrow_field(c.name, t, self.decimal64)
                       for c, t in zip(result.schema, types, strict=True)]
        self.render_json = render_json
        return list

    @property
    def keeps_values(self) -> bool:
        return self.render_json is not None

    def settings_fields(self) -> str:
        """The JSON members the answer's `settings` gains (Databend names no version 1)."""
        members = []
        if self.version != LEGACY_VERSION:
            members.append(f'"arrow_result_version":{self.version}')
        if self.version >= FEATURES_VERSION and self.decimal64:
            members.append('"arrow_features":{"decimal64":true}')
        return ",".join(members)

    def ipc_stream(self, header: str, rows: list) -> bytes:
        """One IPC stream: the schema (with `header` as its `response_header` metadata) and
        one record batch of `rows` (raises pyarrow's errors when a value does not fit)."""
        pa = arrow_types.pa
        fields = self.fields
        schema = pa.schema(fields, metadata={"response_header": header})
        if len(fields) == 1:
            columns = [[row[0] for row in rows]]
        else:
            columns = list(zip(*rows, strict=True))
        arrays = [arrow_types.arrow_array(values, field) for values, field in zip(columns, fields, strict=True)]
        batch = pa.RecordBatch.from_arrays(arrays, schema=schema)
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, schema, options=_IPC_OPTIONS) as writer:
            writer.write_batch(batch)
        return sink.getvalue().to_pybytes()


def negotiate(request, query_request, fmt: str) -> ArrowEncoding | None:
    """The Arrow encoding a new query negotiates, None for JSON; BadRequest (1006) as Databend
    refuses an Arrow request without a usable version."""
    if fmt != DATABEND or not asks_for_arrow(request):
        return None
    client_max = query_request.arrow_result_version_max
    if client_max is not None:
        if client_max == 0:
            raise BadRequest("arrow_result_version_max must be greater than 0",
                             code=engine.BAD_ARGUMENTS)
        version = min(client_max, SERVER_MAX_VERSION)
    elif _legacy_agent(request.getHeader(b"user-agent")):
        version = LEGACY_VERSION
    else:
        raise BadRequest("Arrow responses require arrow_result_version_max in the request body "
                         "to declare the client max supported Arrow result format version",
                         code=engine.BAD_ARGUMENTS)
    features = query_request.arrow_features or {}
    decimal64 = version < FEATURES_VERSION or features.get("decimal64") is not False
    return ArrowEncoding(version, decimal64)


def _legacy_agent(agent: bytes | None) -> bool:
    """databend-driver-python up to 0.33.7 (its user agent's version, patch digits only)."""
    if not agent:
        return False
    for part in agent.decode("latin-1").split():
        if part.startswith(_LEGACY_AGENT):
            numbers = part[len(_LEGACY_AGENT):].split(".", 3)
            if len(numbers) < 3:
                return False
            patch = ""
            for ch in numbers[2]:
                if not ch.isdigit():
                    break
                patch += ch
            if not (numbers[0].isdigit() and numbers[1].isdigit() and patch):
                return False
            return (int(numbers[0]), int(numbers[1]), int(patch)) <= _LEGACY_AGENT_MAX
    return False


def refuse_switch(request, fmt: str, query) -> None:
    """A request asking for Arrow of a query that started as JSON: 400, as Databend."""
    if query.arrow is None and fmt == DATABEND and asks_for_arrow(request):
        raise BadRequest(f"Query {query.id} did not negotiate an Arrow result version when it "
                         "started and cannot switch from JSON to Arrow later",
                         code=engine.BAD_ARGUMENTS)


def answer_page(app, request, fmt: str, query, page, session) -> bytes:
    """The answer to a page of `query` that negotiated Arrow, or to an Arrow request (`app`
    is the web.app.QueryApp: its `_answer` and `_send`). The app refused a switch from JSON
    to Arrow before it cut the page (refuse_switch)."""
    encoding = query.arrow
    asked = encoding is not None and fmt == DATABEND and asks_for_arrow(request)
    rows = page.rows
    if encoding is not None and encoding.keeps_values:
        if asked and rows and encoding.fields:
            body = _arrow_body(app, query, page, session, encoding)
            if body is not None:
                _query_headers(request, query, len(rows))
                return app._send(request, 200, body, CONTENT_TYPE)
        rows = encoding.render_json(rows)  # a JSON page of the engine's values
    answer = app._answer(query, data=rows, next_page=page.next_page, session=session)
    body = encode_answer(fmt, answer)
    if asked:
        body = _with_settings(body, encoding.settings_fields())
    _query_headers(request, query, len(rows))
    return app._send(request, 200, body, JSON_CONTENT_TYPE)


def _arrow_body(app, query, page, session, encoding: ArrowEncoding) -> bytes | None:
    """The IPC stream of a page, or None (logged) when its values do not fit the Arrow types
    (the page is then JSON)."""
    answer = app._answer(query, data=[], next_page=page.next_page, session=session)
    header = json.loads(encode_answer(DATABEND, answer))
    header["schema"] = []  # the stream's own schema says it
    settings = header.get("settings")
    if isinstance(settings, dict):
        settings.update(json.loads("{" + encoding.settings_fields() + "}"))
    try:
        return encoding.ipc_stream(json.dumps(header, separators=(",", ":")), page.rows)
    except (arrow_types.pa.ArrowException, TypeError, ValueError, OverflowError) as e:
        log.warn("query {id}: page {n} is answered as JSON, a value does not fit its Arrow "
                 "type: {error}", id=query.id, n=page.number, error=repr(e))
        return None


def _with_settings(body: bytes, members: str) -> bytes:
    """A JSON answer whose top-level `settings` object (the last one: the session's comes
    before it) gains `members`."""
    if not members:
        return body
    at = body.rfind(b'"settings":{')
    if at < 0:
        return body
    at += len(b'"settings":{')
    separator = b"" if body[at:at + 1] == b"}" else b","
    return body[:at] + members.encode() + separator + body[at:]


def _query_headers(request, query, rows: int) -> None:
    request.setHeader(b"x-databend-query-id", query.id.encode())
    request.setHeader(b"x-databend-query-state", query.state.encode())
    request.setHeader(b"x-databend-query-page-rows", b"%d" % rows)
