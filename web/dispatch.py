"""Request dispatch: the per-query hot routes matched by path shape, every other request by Klein.

Klein (werkzeug routing, a Deferred chain per request) costs about as much as answering
`SELECT 1` itself, so the three requests every query makes (POST /v1/query, GET of a page,
/final) go straight to the same endpoint methods Klein would call. Klein keeps the whole URL
map: any request the shape match does not take (other paths and methods, HEAD, escaped or
non-ASCII segments) goes through it, with the same answers as before.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet.defer import CancelledError, Deferred
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.web import resource, server

from web.errors import BadRequest, HTTPError
from web.request_helpers import is_deferred

log = Logger()


class Dispatcher(resource.Resource):
    """The root resource of the service.

    `//v1//query/` is routed like `/v1/query`: empty path segments are dropped first.
    `app` provides `post_query(request)`, `get_page(request, query_id, number)`,
    `final(request, query_id)` (each returning bytes or a Deferred firing bytes) and
    `error_response(request, failure)`; `fallback` is the Klein resource. `console`, when
    given (web.console.Console), answers `/` and the paths under `/console`.
    """

    isLeaf = True

    def __init__(self, app, fallback: resource.IResource, fast: bool = True, console=None):
        super().__init__()
        self._app = app
        self._fallback = fallback
        self._fast = fast
        self._console = console

    def render(self, request):
        segments = request.postpath
        if b"" in segments:
            segments = request.postpath = [segment for segment in segments if segment]
        if self._fast:
            route = self._match(request.method, segments)
            if route is not None:
                return self._call(request, *route)
        if self._console is not None and self._console.handles(segments):
            return self._console.render(request, segments)
        if not all(_utf8(segment) for segment in segments):
            # Klein would answer 400 too, but log a traceback per request: a log flood
            error = BadRequest("the URL path is not valid UTF-8 (after percent-decoding)")
            return self._app.error_response(request, Failure(error))
        return self._fallback.render(request)

    def _match(self, method: bytes, segments: list) -> tuple[Callable, tuple] | None:
        n = len(segments)
        if n < 2 or segments[0] != b"v1" or segments[1] != b"query":
            return None
        if n == 2:
            return (self._app.post_query, ()) if method == b"POST" else None
        query_id = _plain(segments[2])
        if query_id is None:
            return None
        if n == 5 and method == b"GET" and segments[3] == b"page":
            number = _plain(segments[4])
            return None if number is None else (self._app.get_page, (query_id, number))
        if n == 4 and segments[3] == b"final" and (method == b"GET" or method == b"POST"):
            return self._app.final, (query_id,)
        return None

    def _call(self, request, endpoint: Callable, args: tuple):
        try:
            body = endpoint(request, *args)
        except Exception:
            return self._app.error_response(request, Failure())
        if is_deferred(body):
            return self._later(request, body)
        return body

    def _later(self, request, answer: Deferred):
        """Write a long-polled answer when it comes; a client that goes away cancels it."""
        gone = []

        def write(body: bytes) -> None:
            if not gone:
                request.write(body)
                request.finish()

        def failed(failure: Failure) -> None:
            if gone:  # nobody to answer; only a bug is worth a log line
                if not failure.check(CancelledError, HTTPError):
                    log.failure("error after the client went away from {uri}", failure,
                                uri=request.uri)
                return
            write(self._app.error_response(request, failure))

        def disconnected(failure: Failure) -> None:
            gone.append(True)
            answer.cancel()

        request.notifyFinish().addErrback(disconnected)
        answer.addCallbacks(write, failed)
        return server.NOT_DONE_YET


def _utf8(segment: bytes) -> bool:
    if segment.isascii():
        return True
    try:
        segment.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _plain(segment: bytes) -> str | None:
    """A (twisted-unquoted) path segment as text, or None when Klein must judge it: non-ASCII
    (Klein answers 400 to bad UTF-8) or holding a slash (Klein would route it as two)."""
    if not segment.isascii() or b"/" in segment:
        return None
    return segment.decode("ascii")
