"""The installed package serves the console: a real `twistd queryhttp` answers its page and
every file the page names (package data), with the security headers; --console off."""

import re
import urllib.error
import urllib.request

from tests.e2e.server import RunningServer


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def test_the_page_and_its_files_are_served(server):
    status, headers, page = fetch(server.url + "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assets = re.findall(r'(?:src|href)="(/console/assets/[^"]+)"', page.decode())
    modules = set()
    for path in assets:
        status, headers, body = fetch(server.url + path)
        assert status == 200, path
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        if path.endswith(".js"):
            base = path.rsplit("/", 1)[0]
            modules |= {f"{base}/{name}" for name in re.findall(r"from '\./([\w.]+)'",
                                                                 body.decode())}
    assert len(modules) >= 5
    for path in modules:  # the modules app.js imports are installed too
        assert fetch(server.url + path)[0] == 200, path


def test_api_answers_carry_the_security_headers(server):
    status, headers, _ = fetch(server.url + "/v1/query/unknown/page/0")  # 401: no credentials
    assert status == 401
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


def test_console_off():
    running = RunningServer("--console", "off")
    try:
        assert fetch(running.url + "/")[0] == 404
        assert fetch(running.url + "/console")[0] == 404
        assert fetch(running.url + "/health")[2] == b"ok"
    finally:
        running.stop()
