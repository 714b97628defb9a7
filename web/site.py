"""twisted.web plumbing: a lean request (bounded body, no form parsing), a channel whose own
400 answers say why, and the Site."""

from __future__ import annotations

import io

from twisted.web import http, server

from web.security import add_security_headers


class LeanRequest(server.Request):
    """A request that skips form-body parsing (twisted.web would parse every POST's
    Content-Type with the slow stdlib email parser) and stops buffering a body beyond
    `max_body_bytes`; the handler then answers 413."""

    max_body_bytes = 10 * 1024 * 1024
    # file uploads (PUT /v1/upload_to_stage, /v1/streaming_load) may be larger than other bodies
    max_upload_bytes = 256 * 1024 * 1024

    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)
        self.body_too_large = False
        self._body_limit = self.max_body_bytes
        add_security_headers(self.responseHeaders)

    def gotLength(self, length):
        # the request line is read already (the channel keeps its path): an upload gets its own
        # limit, and its body is kept in memory (it becomes a staged file, which lives in memory:
        # a temporary file would only add a write and a read of it); twisted.web spools other
        # large bodies to a temporary file
        path = getattr(self.channel, "_path", b"") or b""
        path = path.split(b"?", 1)[0]
        upload = path.rstrip(b"/").endswith((b"/v1/upload_to_stage", b"/v1/streaming_load")) \
            or b"/v1/presigned/" in path
        if upload:
            self._body_limit = self.max_upload_bytes
        if length is not None and length > self._body_limit:
            self.body_too_large = True
            self.content = io.BytesIO()
        elif upload:
            self.content = io.BytesIO()
        else:
            super().gotLength(length)

    def handleContentChunk(self, data):
        if self.body_too_large:
            return
        if self.content.tell() + len(data) > self._body_limit:
            self.body_too_large = True
            self.content = io.BytesIO()
            return
        super().handleContentChunk(data)


class QueryChannel(http.HTTPChannel):
    """An HTTP channel whose protocol-level refusals carry a reason.

    twisted.web answers a request it cannot parse (request line, header, chunked body,
    too many or too large headers) with a bare `400 Bad Request` and no body, and drops a
    connection whose line is too long without any answer. Here each is a 400 with a
    text/plain body naming the problem, then the connection closes (as before).
    """

    _reading_request_line = False
    _reason: str | None = None

    def lineReceived(self, line):
        # twisted keeps "the next line is a request line" private; read it to name errors
        self._reading_request_line = bool(self._HTTPChannel__first_line)
        super().lineReceived(line)

    def lineLengthExceeded(self, line):
        self._reason = (f"a request line or header line is longer than {self.MAX_LENGTH} "
                        f"bytes")
        self._respondToBadRequestAndDisconnect()

    def _failChooseTransferDecoder(self) -> bool:
        self._reason = "invalid or conflicting Content-Length / Transfer-Encoding headers"
        return super()._failChooseTransferDecoder()

    def _bad_request_reason(self) -> str:
        if self._reason is not None:
            return self._reason
        if self._receivedHeaderSize > self.totalHeadersSize:
            return f"the request line and headers are larger than {self.totalHeadersSize} bytes"
        if self._receivedHeaderCount > self.maxHeaders:
            return f"more than {self.maxHeaders} request headers"
        if not self.line_mode:
            return "malformed chunked request body"
        if self._reading_request_line:
            return "malformed request line (expected: METHOD /path HTTP/1.x)"
        return "malformed request header"

    def _respondToBadRequestAndDisconnect(self):
        if self.transport is None or getattr(self, "_answered_bad_request", False):
            return
        self._answered_bad_request = True
        body = f"bad request: {self._bad_request_reason()}".encode()
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\n"
                             b"Content-Type: text/plain; charset=utf-8\r\n"
                             b"X-Content-Type-Options: nosniff\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
                             + body)
        self.loseConnection()


class QuerySite(server.Site):
    """The Site of the service; writes an access log only when asked to."""

    def __init__(self, root, *, max_body_bytes: int, access_log: bool,
                 max_upload_bytes: int = LeanRequest.max_upload_bytes, **kwargs):
        super().__init__(root, **kwargs)
        self.noisy = False
        self.displayTracebacks = False
        self._access_log = access_log
        self.requestFactory = type("BoundedLeanRequest", (LeanRequest,),
                                   {"max_body_bytes": max_body_bytes,
                                    "max_upload_bytes": max_upload_bytes})

    def protocol(self):
        # a plain channel (no HTTP/2 negotiation, which plain TCP never offers)
        return QueryChannel()

    def log(self, request):
        if self._access_log:
            super().log(request)
