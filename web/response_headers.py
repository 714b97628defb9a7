"""Response headers on the hot path, set without twisted.web's per-call name and value checks.

twisted.web's `Request.setHeader` canonicalises the name and sanitises the value on every
call (about a microsecond each); a `SELECT 1` answer sets a dozen headers whose names are
constants and whose values the server made itself, and twisted.web adds a `Date` header it
formats anew for every request. Here the constant headers go into the request's header map in
one step, `Date` is formatted once a second, and the per-answer headers (query id, state,
length) are set directly. The header map is twisted.web's own `Headers._rawHeaders` (canonical
name -> list of values); `FAST` is False when a twisted.web release changes that, and then every
helper takes the public API instead (tests/web/test_response_headers.py checks both paths).
"""

from __future__ import annotations

import time

from twisted.web.http import datetimeToString
from twisted.web.http_headers import Headers

from web.security import EVERY_RESPONSE

FAST = isinstance(getattr(Headers(), "_rawHeaders", None), dict)


def _canonical(name: bytes) -> bytes:
    return b"-".join(word.capitalize() for word in name.split(b"-"))


# what every response starts with: the security headers (web.security), canonical names
_PRESET = tuple((_canonical(name), tuple(values)) for name, values in EVERY_RESPONSE)
_date = [0, b""]  # (the second, its Date header value)


def http_date() -> bytes:
    """The Date header's value for now, formatted once per second."""
    now = int(time.time())
    if _date[0] != now:
        _date[0], _date[1] = now, datetimeToString(now)
    return _date[1]


def preset(request, server: bytes) -> None:
    """Give a new request's response the headers every response carries, `Server` and
    `Date` (what twisted.web's Request.process would set)."""
    headers = request.responseHeaders
    if FAST:
        raw = headers._rawHeaders
        for name, values in _PRESET:
            raw[name] = list(values)
        raw[b"Server"] = [server]
        raw[b"Date"] = [http_date()]
        return
    for name, values in EVERY_RESPONSE:
        headers.setRawHeaders(name, list(values))
    headers.setRawHeaders(b"Server", [server])
    headers.setRawHeaders(b"Date", [http_date()])


def set_known(request, name: bytes, value: bytes) -> None:
    """Set header `name` (already in canonical Header-Case) to `value`, a value this server
    made (no CR or LF: the callers pass ids, states, numbers and constants)."""
    if FAST:
        request.responseHeaders._rawHeaders[name] = [value]
    else:
        request.responseHeaders.setRawHeaders(name, [value])
