"""twisted.web plumbing: a lean request (bounded body, no form parsing), a channel whose own
400 answers say why and that checks an upload's credentials before its body, and the Site.

Uploads (PUT /v1/upload_to_stage, /v1/streaming_load, /v1/presigned/...) may be large, so the
site's `upload_gate` checks their credentials (or presign token) as soon as the headers have
arrived: a refusal is answered (401/403, `Connection: close`) and the connection closed before
any of the body is read. An accepted upload reserves its declared length in the site's
`UploadBudget` (503 when all uploads in flight would hold more than it allows) and its body
spools to an unlinked temporary file (mode 0600) beyond UPLOAD_MEMORY_BYTES.
"""

from __future__ import annotations

import io
import tempfile
from urllib.parse import unquote_to_bytes as unquote

from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.python import failure
from twisted.web import http, resource, server
from twisted.web.http_headers import Headers

from web.auth import client_host
from web.errors import HTTPError
from web.response_headers import preset
from web.wire import choose_format, error_body

log = Logger()
# an upload body up to this size stays in memory; a larger one spools to a temporary file
UPLOAD_MEMORY_BYTES = 1024 * 1024
_REASONS = {401: b"Unauthorized", 403: b"Forbidden", 413: b"Payload Too Large", 503: b"Service Unavailable"}


def is_upload_path(path: bytes) -> bool:
    """Whether a request path (query string included) is one of the upload routes."""
    path = (path or b"").split(b"?", 1)[0]
    return path.rstrip(b"/").endswith((b"/v1/upload_to_stage", b"/v1/streaming_load")) \
        or b"/v1/presigned/" in path


class ServiceUnavailable(HTTPError):
    status = 503


class UploadBudget:
    """The bytes all uploads in flight may hold together (declared lengths, and the chunks of
    an upload without one as they arrive); each request's share is released when it ends."""

    def __init__(self, limit: int):
        self.limit = limit
        self.held = 0

    def _refusal(self, size: int) -> ServiceUnavailable:
        return ServiceUnavailable(f"the uploads in flight would hold more than {self.limit} bytes with this "
                                  f"one ({size} bytes); retry later (server option --max_upload_inflight_bytes)")

    def reserve(self, request, size: int) -> None:
        """Charge `size` bytes to `request` (released when it finishes or its connection is lost);
        ServiceUnavailable (nothing charged) past the limit."""
        if self.held + size > self.limit:
            raise self._refusal(size)
        self.held += size
        if getattr(request, "_upload_reserved", None) is None:
            request._upload_reserved = 0
            request.notifyFinish().addBoth(self._release, request)
        request._upload_reserved += size

    def _release(self, result, request):
        self.held -= request._upload_reserved
        request._upload_reserved = 0
        return None


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
        # an HTTPError the endpoint answers instead of reading the body (the uploads in flight
        # outgrew their budget while this one's chunks arrived)
        self.upload_refusal: HTTPError | None = None
        self._body_limit = self.max_body_bytes
        self._upload_budget: UploadBudget | None = None
        self._counted_chunks = False
        preset(self, server.version)  # the security headers, Server and Date

    def process(self):
        """twisted.web's Request.process without its two setHeader calls (Server and Date are
        preset, Date formatted once a second: web.response_headers)."""
        self.site = self.channel.site
        self.prepath = []
        self.postpath = list(map(unquote, self.path[1:].split(b"/")))
        if self.path == b"*":
            self._handleStar()
            return
        try:
            resrc = self.site.getResourceFor(self)
            if resource._IEncodingResource.providedBy(resrc):
                encoder = resrc.getEncoder(self)
                if encoder is not None:
                    self._encoder = encoder
            self.render(resrc)
        except BaseException:
            self.processingFailed(failure.Failure())

    def gotLength(self, length):
        # the request line is read already (the channel keeps its path): an upload gets its own
        # limit and a spooled body (memory up to UPLOAD_MEMORY_BYTES, then an unlinked 0600
        # temporary file); twisted.web spools other large bodies to a temporary file
        upload = is_upload_path(getattr(self.channel, "_path", b""))
        if upload:
            self._body_limit = self.max_upload_bytes
        if length is not None and length > self._body_limit:
            self.body_too_large = True
            self.content = io.BytesIO()
        elif upload:
            self.content = tempfile.SpooledTemporaryFile(max_size=UPLOAD_MEMORY_BYTES)
        else:
            super().gotLength(length)

    body_received = False

    def requestReceived(self, command, path, version):
        self.body_received = True
        super().requestReceived(command, path, version)

    def count_chunks_in(self, budget: UploadBudget) -> None:
        """An upload without a declared length: charge its chunks to `budget` as they arrive."""
        self._upload_budget = budget
        self._counted_chunks = True

    def handleContentChunk(self, data):
        if self.body_too_large or self.upload_refusal is not None:
            return
        if self.content.tell() + len(data) > self._body_limit:
            self.body_too_large = True
            self.content = io.BytesIO()
            return
        if self._counted_chunks:
            try:
                self._upload_budget.reserve(self, len(data))
            except HTTPError as refusal:
                self.upload_refusal = refusal
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
    _refused_upload = False
    _peer = _host = None
    # the idle timeout's call is kept, not cancelled, while a request is handled (see setTimeout)
    _in_request_start = False
    _idle_call_held = False

    def allContentReceived(self):
        self._in_request_start = True
        try:
            super().allContentReceived()
        finally:
            self._in_request_start = False

    def setTimeout(self, period):
        """twisted.web suspends the idle timeout while it handles a request: it cancels the
        reactor's call and makes a new one when the request ends, a heap entry and a
        cancellation per request. Here the call is kept (it does nothing if it fires
        meanwhile) and moved to the new deadline at the end. Other cancellations (the
        connection lost) are as twisted.web's."""
        call = getattr(self, "_TimeoutMixin__timeoutCall", None)  # (twisted's private name)
        if period is None and self._in_request_start and call is not None and call.active():
            previous, self.timeOut = self.timeOut, None  # resetTimeout does nothing meanwhile
            self._idle_call_held = True
            return previous
        if self._idle_call_held:
            self._idle_call_held = False
            if period is not None and call is not None and call.active():
                previous, self.timeOut = self.timeOut, period
                call.reset(period)
                return previous
        return super().setTimeout(period)

    def timeoutConnection(self):
        if self._idle_call_held:
            return  # the held call fired during a request: not idle (re-armed when it ends)
        super().timeoutConnection()

    def getPeer(self):
        """The connection's remote address, asked of the transport once: twisted.web asks for
        it (and for getHost) on every request, a new address object each time."""
        peer = self._peer
        if peer is None:
            peer = self._peer = self.transport.getPeer()
        return peer

    def getHost(self):
        """The connection's local address, asked once (for TCP a getsockname() call each)."""
        host = self._host
        if host is None:
            host = self._host = self.transport.getHost()
        return host

    def allHeadersReceived(self):
        """For an upload, the site's gate first: credentials refused -> answered and closed now,
        before any of the body is read; credentials still being verified (a password hash in a
        thread) -> the connection stops reading until they are."""
        site = getattr(self, "site", None)
        gate = getattr(site, "upload_gate", None)
        if gate is None or not is_upload_path(self._path):
            return super().allHeadersReceived()
        request = self.requests[-1]
        try:
            verdict = gate(self._command, self._path, request.requestHeaders,
                           client_host(self.transport.getPeer()))
            if self.length is not None:
                site.upload_budget.reserve(request, self.length)
        except HTTPError as refusal:
            return self._refuse_upload(request, refusal)
        super().allHeadersReceived()
        if self.length is None:
            request.count_chunks_in(site.upload_budget)
        if isinstance(verdict, Deferred):
            self.transport.pauseProducing()
            verdict.addCallbacks(lambda _: self._gate_passed(), self._gate_failed, errbackArgs=(request,))

    def _gate_passed(self) -> None:
        if not self._refused_upload and self.transport is not None:
            self.transport.resumeProducing()

    def _gate_failed(self, failure, request) -> None:
        if not isinstance(failure.value, HTTPError):
            log.failure("checking an upload's credentials", failure)
            failure = HTTPError("internal error; the server log has the details", status=500)
        else:
            failure = failure.value
        if request.body_received:
            return  # the whole body came with the headers: the endpoint answers the refusal
        self._refuse_upload(request, failure)

    def _refuse_upload(self, request, refusal: HTTPError) -> None:
        """Answer `refusal` at once with Connection: close and stop reading the connection."""
        if self._refused_upload or self.transport is None:
            return
        self._refused_upload = True
        fmt = choose_format(getattr(self.site, "wire_format", "auto"),
                            (name for name, _ in request.requestHeaders.getAllRawHeaders()))
        body, content_type = error_body(fmt, refusal.code, refusal.message)
        reason = _REASONS.get(refusal.status, b"Error")
        extra = b'WWW-Authenticate: Basic realm="queryhttp"\r\n' if refusal.status == 401 else b""
        self.transport.write(b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\n%s"
                             b"X-Content-Type-Options: nosniff\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                             % (refusal.status, reason, content_type, extra, len(body)) + body)
        self.transport.resumeProducing()  # (paused while verifying) so the close completes
        self.loseConnection()

    def writeHeaders(self, version, code, reason, headers):
        """twisted.web's, handed to the transport as one bytes object: a sequence is checked and
        measured piece by piece in Python (four pieces per header, ~50 for an answer)."""
        if not isinstance(headers, Headers):
            return super().writeHeaders(version, code, reason, headers)
        parts = [version, b" ", code, b" ", reason, b"\r\n"]
        for name, values in headers.getAllRawHeaders():
            for value in values:
                parts += (name, b": ", value, b"\r\n")
        parts.append(b"\r\n")
        self.transport.write(b"".join(parts))  # TypeError on a piece that is not bytes, as before
        return None

    def rawDataReceived(self, data):
        if self._refused_upload:
            return  # the rest of a refused upload's body, already on its way: dropped
        super().rawDataReceived(data)

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
                 max_upload_bytes: int = LeanRequest.max_upload_bytes, upload_gate=None,
                 max_upload_inflight_bytes: int = 1024 * 1024 * 1024, wire_format: str = "auto",
                 **kwargs):
        super().__init__(root, **kwargs)
        # (method, path, headers) -> None, or a Deferred of the credentials' check; raises an
        # HTTPError to refuse an upload before its body (web.app.QueryApp.upload_gate)
        self.upload_gate = upload_gate
        self.upload_budget = UploadBudget(max_upload_inflight_bytes)
        self.wire_format = wire_format
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
