"""The lean request (bounded body, no form parsing) and the access-log switch."""

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

