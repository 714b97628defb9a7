"""The browser console: its static files (web/console/) served at / and /console, cached safely.

The page (index.html) is revalidated on every load (`no-cache` with an ETag, so an unchanged
page costs a 304); its scripts, styles and icon live under /console/assets/<version>/, where
the version is a digest of all the files, so they are cached for a year and a new release is
a new URL. Nothing is built or fetched from elsewhere: the files are read from the installed
package once, at start.
"""

from __future__ import annotations

import hashlib
from importlib import resources

from web.security import CONSOLE_CONTENT_SECURITY_POLICY

INDEX = "index.html"
ASSETS = b"assets"
#: where the page finds its files; index.html names them as {{assets}}/file
ASSET_PLACEHOLDER = b"{{assets}}"

_CONTENT_TYPES = {
    ".html": b"text/html; charset=utf-8",
    ".js": b"text/javascript; charset=utf-8",
    ".css": b"text/css; charset=utf-8",
    ".svg": b"image/svg+xml",
}
_REVALIDATE = b"no-cache"
_IMMUTABLE = b"public, max-age=31536000, immutable"
_ALLOWED = b"GET, HEAD"


def _content_type(name: str) -> bytes | None:
    dot = name.rfind(".")
    return _CONTENT_TYPES.get(name[dot:]) if dot > 0 else None


def load_console_files() -> dict[str, bytes]:
    """The console's files from the installed package: {name: content}."""
    folder = resources.files("web").joinpath("console")
    return {entry.name: entry.read_bytes() for entry in folder.iterdir()
            if entry.is_file() and _content_type(entry.name) is not None}


class _File:
    __slots__ = ("body", "content_type", "etag")

    def __init__(self, body: bytes, content_type: bytes):
        self.body = body
        self.content_type = content_type
        self.etag = b'"' + hashlib.sha256(body).hexdigest()[:32].encode() + b'"'


class Console:
    """Answers GET/HEAD of `/`, `/console` and `/console/assets/<version>/<file>`.

    `render(request, segments)` takes the path segments (empty ones already dropped) and
    returns the body; every answer carries the console's Content-Security-Policy.
    """

    def __init__(self, files: dict[str, bytes] | None = None):
        files = load_console_files() if files is None else files
        if INDEX not in files:
            raise ValueError("the console has no index.html")
        digest = hashlib.sha256()
        for name in sorted(files):
            digest.update(name.encode() + b"\0" + files[name] + b"\0")
        self.version = digest.hexdigest()[:16]
        self.asset_base = f"/console/{ASSETS.decode()}/{self.version}"
        self._assets = {name.encode(): _File(body, _content_type(name))
                        for name, body in files.items() if name != INDEX}
        page = files[INDEX].replace(ASSET_PLACEHOLDER, self.asset_base.encode())
        self._page = _File(page, _CONTENT_TYPES[".html"])

    @staticmethod
    def handles(segments: list[bytes]) -> bool:
        """Whether the path belongs to the console (`/` or under `/console`)."""
        return not segments or segments[0] == b"console"

    def render(self, request, segments: list[bytes]) -> bytes:
        request.setHeader(b"content-security-policy", CONSOLE_CONTENT_SECURITY_POLICY)
        found = self._find(segments[1:] if segments else segments)
        if found is None:
            return self._plain(request, 404, b"not found")
        file, cache_control = found
        if request.method not in (b"GET", b"HEAD"):
            request.setHeader(b"allow", _ALLOWED)
            return self._plain(request, 405, b"method %s not allowed on the console (allowed: "
                               b"GET, HEAD)" % request.method)
        request.setHeader(b"cache-control", cache_control)
        request.setHeader(b"content-type", file.content_type)
        if request.setETag(file.etag):  # If-None-Match matched: 304, no body
            return b""
        request.setHeader(b"content-length", b"%d" % len(file.body))
        return file.body

    def _find(self, rest: list[bytes]) -> tuple[_File, bytes] | None:
        """The file at `rest` (the path after /console) and its Cache-Control, or None."""
        if not rest:
            return self._page, _REVALIDATE
        if len(rest) != 3 or rest[0] != ASSETS:
            return None
        file = self._assets.get(rest[2])
        if file is None:
            return None
        # a page of another release asks for its own version: answer today's file, uncached
        current = rest[1] == self.version.encode()
        return file, _IMMUTABLE if current else _REVALIDATE

    @staticmethod
    def _plain(request, status: int, body: bytes) -> bytes:
        request.setResponseCode(status)
        request.setHeader(b"content-type", b"text/plain; charset=utf-8")
        request.setHeader(b"cache-control", _REVALIDATE)
        request.setHeader(b"content-length", b"%d" % len(body))
        return body
