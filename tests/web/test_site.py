"""The lean request (bounded body, no form parsing) and the access-log switch."""

import pytest
from twisted.web.test.requesthelper import DummyChannel

from web.site import LeanRequest, QuerySite


def make_request(limit):
    request_class = type("R", (LeanRequest,), {"max_body_bytes": limit})
    return request_class(DummyChannel())


def test_declared_oversized_body_is_not_buffered():
    request = make_request(10)
    request.gotLength(11)
    request.handleContentChunk(b"x" * 11)
    assert request.body_too_large and request.content.getvalue() == b""


def test_chunked_body_stops_buffering_at_the_limit():
    request = make_request(10)
    request.gotLength(None)
    request.handleContentChunk(b"x" * 6)
    assert not request.body_too_large
    request.handleContentChunk(b"x" * 6)
    assert request.body_too_large and request.content.getvalue() == b""


def test_post_bodies_are_not_parsed_as_forms():
    request = make_request(100)
    assert request._parsePOSTFormSubmission is False


class Recorder:
    def __init__(self):
        self.lines = []

    def write(self, line):
        self.lines.append(line)

    def flush(self):
        pass


def logged_lines(access_log):
    from twisted.web.resource import Resource

    site = QuerySite(Resource(), max_body_bytes=100, access_log=access_log)
    recorder = Recorder()
    site._logFile = recorder
    request = site.requestFactory(DummyChannel())
    request.method, request.uri, request.clientproto = b"GET", b"/x", b"HTTP/1.1"
    request.code, request.sentLength = 200, 0
    site._logDateTime = "now"
    site.log(request)
    return recorder.lines


def test_access_log_is_off_by_default_and_switchable():
    assert logged_lines(False) == []
    assert len(logged_lines(True)) == 1



def channel_answer(data: bytes) -> bytes:
    """What the site's HTTP channel writes back for raw request bytes (no reactor)."""
    from twisted.internet.address import IPv4Address
    from twisted.internet.testing import StringTransport
    from twisted.web.resource import Resource

    site = QuerySite(Resource(), max_body_bytes=100, access_log=False)
    channel = site.buildProtocol(IPv4Address("TCP", "127.0.0.1", 5000))
    transport = StringTransport()
    channel.makeConnection(transport)
    channel.dataReceived(data)
    channel.connectionLost(None)
    return transport.value()


@pytest.mark.parametrize("data, reason", [
    (b"GARBAGE\r\n\r\n", b"malformed request line"),
    (b"GET / HTTP/1.1\r\nNoColonHere\r\n\r\n", b"malformed request header"),
    (b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", b"malformed request header"),
    (b"POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
     b"invalid or conflicting Content-Length / Transfer-Encoding headers"),
    (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", b"malformed chunked"),
    (b"GET /" + b"x" * 20000 + b" HTTP/1.1\r\n\r\n", b"longer than 16384 bytes"),
    (b"GET / HTTP/1.1\r\n" + b"".join(b"H%d: v\r\n" % i for i in range(501)) + b"\r\n",
     b"more than 500 request headers"),
    (b"GET / HTTP/1.1\r\n" + b"".join(b"H%d: %s\r\n" % (i, b"v" * 1000) for i in range(20))
     + b"\r\n", b"larger than 16384 bytes"),
])
def test_requests_twisted_cannot_parse_are_400_with_the_reason(data, reason):
    answer = channel_answer(data)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"content-length: %d" % len(body) in head.lower()
    assert body.startswith(b"bad request: ") and reason in body


def test_an_idle_connection_is_closed_after_the_idle_timeout():
    from twisted.internet.address import IPv4Address
    from twisted.internet.task import Clock
    from twisted.internet.testing import StringTransport
    from twisted.web.resource import Resource

    clock = Clock()
    site = QuerySite(Resource(), max_body_bytes=100, access_log=False, timeout=60,
                     reactor=clock)
    channel = site.buildProtocol(IPv4Address("TCP", "127.0.0.1", 5000))
    transport = StringTransport()
    channel.makeConnection(transport)
    channel.dataReceived(b"GET / HTTP/1.1\r\n")  # a request that stalls after its first line
    clock.advance(59.9)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting


def _idle_timeout_site(clock, pending: list):
    """A site with a 60 s idle timeout on `clock`: GET /slow answers only when the test
    finishes the request left in `pending`, any other path at once."""
    from twisted.web import server
    from twisted.web.resource import Resource

    class Answers(Resource):
        isLeaf = True

        def render_GET(self, request):
            if request.path == b"/slow":
                pending.append(request)
                return server.NOT_DONE_YET
            return b"ok"

    return QuerySite(Answers(), max_body_bytes=100, access_log=False, timeout=60, reactor=clock)


def _connect(site):
    from twisted.internet.address import IPv4Address
    from twisted.internet.testing import StringTransport

    channel = site.buildProtocol(IPv4Address("TCP", "127.0.0.1", 5000))
    transport = StringTransport()
    channel.makeConnection(transport)
    return channel, transport


def test_requests_keep_one_idle_timeout_call_and_it_counts_from_the_last_answer():
    from twisted.internet.task import Clock

    clock = Clock()
    channel, transport = _connect(_idle_timeout_site(clock, []))
    [call] = clock.getDelayedCalls()
    for _ in range(5):
        clock.advance(50)
        channel.dataReceived(b"GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        assert transport.value().endswith(b"ok")
        assert clock.getDelayedCalls() == [call]  # moved, not cancelled and made anew
        assert not transport.disconnecting
    clock.advance(59.9)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting


def test_a_request_longer_than_the_idle_timeout_is_not_cut_and_the_timeout_comes_back():
    from twisted.internet.task import Clock

    clock = Clock()
    pending = []
    channel, transport = _connect(_idle_timeout_site(clock, pending))
    channel.dataReceived(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
    clock.advance(600)  # the held call fires mid-request: ignored
    assert not transport.disconnecting
    pending.pop().finish()
    clock.advance(59.9)
    assert not transport.disconnecting
    clock.advance(0.2)
    assert transport.disconnecting


def test_a_lost_connection_leaves_no_idle_timeout_call():
    from twisted.internet.task import Clock
    from twisted.python.failure import Failure

    clock = Clock()
    pending = []
    channel, _ = _connect(_idle_timeout_site(clock, pending))
    channel.dataReceived(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")  # the call held
    channel.connectionLost(Failure(ConnectionError("gone")))
    assert clock.getDelayedCalls() == []


class _Writes:
    """A transport that records each write and writeSequence call."""

    def __init__(self):
        self.calls = []

    def write(self, data):
        self.calls.append(("write", data))

    def writeSequence(self, parts):
        self.calls.append(("writeSequence", b"".join(parts)))


def test_the_response_head_is_one_write_with_twisted_webs_bytes():
    from twisted.web.http import HTTPChannel
    from twisted.web.http_headers import Headers

    from web.site import QueryChannel

    headers = Headers()
    headers.setRawHeaders(b"Content-Type", [b"application/json"])
    headers.setRawHeaders(b"Set-Cookie", [b"a=1", b"b=2"])  # a header with two values
    written = {}
    for channel_class in (QueryChannel, HTTPChannel):
        channel = channel_class()
        channel.transport = _Writes()
        channel.writeHeaders(b"HTTP/1.1", b"200", b"OK", headers)
        written[channel_class] = channel.transport.calls
    ((kind, head),) = written[QueryChannel]
    assert kind == "write" and head == written[HTTPChannel][0][1]
    assert head == (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n")
    channel = QueryChannel()
    channel.transport = _Writes()
    with pytest.raises(TypeError):  # a piece that is not bytes is refused, as twisted.web does
        channel.writeHeaders(b"HTTP/1.1", 200, b"OK", headers)
