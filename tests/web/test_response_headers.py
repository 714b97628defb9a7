"""web.response_headers: the preset headers and the direct setter give what twisted.web's
public API gives, on the fast path and on the fallback."""

from __future__ import annotations

import pytest
from twisted.web.http_headers import Headers
from twisted.web.server import version

from web import response_headers
from web.security import EVERY_RESPONSE


class _Request:
    def __init__(self):
        self.responseHeaders = Headers()


@pytest.fixture(params=[True, False], ids=["fast", "public API"])
def path(request, monkeypatch):
    monkeypatch.setattr(response_headers, "FAST", request.param)
    return request.param


def test_twisted_keeps_the_header_map_the_fast_path_writes():
    # a twisted.web release that renames it turns FAST off (and this test tells)
    assert response_headers.FAST


def test_preset_gives_the_security_headers_server_and_date(path):
    request = _Request()
    response_headers.preset(request, version)
    headers = request.responseHeaders
    for name, values in EVERY_RESPONSE:
        assert headers.getRawHeaders(name.lower()) == values
    assert headers.getRawHeaders(b"server") == [version]
    assert headers.getRawHeaders(b"date")[0].endswith(b" GMT")
    # a later setHeader replaces a preset value, as with the public API
    headers.setRawHeaders(b"content-security-policy", [b"default-src 'self'"])
    assert headers.getRawHeaders(b"Content-Security-Policy") == [b"default-src 'self'"]
    assert len(list(headers.getAllRawHeaders())) == len(EVERY_RESPONSE) + 2


def test_preset_values_are_private_to_each_request(path):
    first, second = _Request(), _Request()
    response_headers.preset(first, version)
    response_headers.preset(second, version)
    first.responseHeaders.addRawHeader(b"x-content-type-options", b"other")
    assert second.responseHeaders.getRawHeaders(b"x-content-type-options") == [b"nosniff"]


def test_set_known_is_found_by_any_spelling(path):
    request = _Request()
    response_headers.set_known(request, b"X-Databend-Query-Id", b"abc")
    response_headers.set_known(request, b"X-Databend-Query-Id", b"def")
    assert request.responseHeaders.getRawHeaders(b"x-databend-query-id") == [b"def"]
    assert request.responseHeaders.getRawHeaders(b"X-DATABEND-QUERY-ID") == [b"def"]


def test_date_is_formatted_once_a_second(monkeypatch):
    now = [1_700_000_000.2]
    monkeypatch.setattr(response_headers.time, "time", lambda: now[0])
    monkeypatch.setattr(response_headers, "_date", [0, b""])
    first = response_headers.http_date()
    assert first == b"Tue, 14 Nov 2023 22:13:20 GMT"
    now[0] += 0.5
    assert response_headers.http_date() is first  # the same second: not formatted again
    now[0] += 1
    assert response_headers.http_date() == b"Tue, 14 Nov 2023 22:13:21 GMT"
