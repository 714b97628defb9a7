"""The console's static files: where they are served, their caching and security headers,
--console off, and what the page's own files promise (no inline code, every module served)."""

import re

import pytest
from twisted.python import usage
from twisted.web.test.requesthelper import DummyChannel

from tests.e2e.browser import find_chromium, unavailable_reason
from tests.web.harness import Harness
from web.config import ServiceConfig
from web.console import Console, load_console_files
from web.security import CONSOLE_CONTENT_SECURITY_POLICY
from web.site import LeanRequest
from web.tap import Options

PAGE_PATHS = ["/", "/console", "/console/", "//console//"]


def asset_paths(page: bytes) -> list[str]:
    return re.findall(r'(?:src|href)="(/console/assets/[^"]+)"', page.decode())


@pytest.mark.parametrize("path", PAGE_PATHS)
def test_page_is_served_at_root_and_console(h, path):
    reply = h.get(path, auth=None)  # the page itself needs no credentials
    assert reply.status == 200
    assert reply.header("content-type") == b"text/html; charset=utf-8"
    assert reply.header("cache-control") == b"no-cache"
    assert reply.header("etag").startswith(b'"')
    assert reply.header("content-security-policy") == CONSOLE_CONTENT_SECURITY_POLICY
    assert b"<title>queryhttp console</title>" in reply.body
    assert b"{{assets}}" not in reply.body


def test_page_has_no_inline_script_or_style(h):
    page = h.get("/", auth=None).body.decode()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
    assert "<style" not in page and " style=" not in page
    assert not re.search(r"\son[a-z]+\s*=", page)  # no onclick= handlers
    policy = CONSOLE_CONTENT_SECURITY_POLICY.decode()
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy and "connect-src 'self'" in policy


def test_every_asset_and_module_import_is_served_immutable(h):
    page = h.get("/", auth=None).body
    paths = asset_paths(page)
    assert {p.rsplit("/", 1)[1] for p in paths} == {"icon.svg", "console.css", "app.js"}
    base = paths[0].rsplit("/", 1)[0]
    seen, todo = set(), list(paths)
    while todo:  # follow the ES module imports from app.js
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        reply = h.get(path, auth=None)
        assert reply.status == 200, path
        assert reply.header("cache-control") == b"public, max-age=31536000, immutable"
        if path.endswith(".js"):
            assert reply.header("content-type") == b"text/javascript; charset=utf-8"
            for name in re.findall(r"from '\./([\w.]+)'", reply.body.decode()):
                todo.append(f"{base}/{name}")
    served = {p.rsplit("/", 1)[1] for p in seen}
    assert served == set(load_console_files()) - {"index.html"}  # no file is dead weight


def test_console_scripts_never_build_html_from_text():
    # results, names and messages reach the page as textContent only: no markup injection
    # (codemirror.js, the vendored editor, is checked in test_vendored_editor_bundle)
    for name, body in load_console_files().items():
        if name.endswith(".js") and name != "codemirror.js":
            text = body.decode()
            for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                          "eval(", "new Function"):
                assert risky not in text, (name, risky)


def test_credentials_stay_out_of_storage_and_urls():
    scripts = {n: b.decode() for n, b in load_console_files().items() if n.endswith(".js")}
    writers = {name for name, text in scripts.items() if "localStorage.setItem" in text}
    assert writers == {"store.js"}  # one place writes the browser's storage...
    store = scripts["store.js"]
    keys = re.search(r"KEYS = Object\.freeze\(\{(.*?)\}\)", store, re.S).group(1)
    # ...under a fixed list of keys, none of them for credentials
    assert re.findall(r"^\s*(\w+):", keys, re.M) == [
        "tabs", "history", "saved", "theme", "rowCap", "legacyText"]
    assert "not a console storage key" in store
    assert not re.search(r"password|authorization|credential", keys, re.I)
    assert "sessionStorage" not in "".join(scripts.values())
    assert "indexedDB" not in "".join(s for n, s in scripts.items() if n != "codemirror.js")
    assert "credentials: 'omit'" in scripts["protocol.js"]  # never the browser's popup


def test_unchanged_files_answer_304(h):
    first = h.get("/", auth=None)
    again = h.get("/", headers={"If-None-Match": first.header("etag").decode()}, auth=None)
    assert again.status == 304 and again.body == b""
    asset = asset_paths(first.body)[0]
    etag = h.get(asset, auth=None).header("etag").decode()
    assert h.get(asset, headers={"If-None-Match": etag}, auth=None).status == 304
    assert h.get(asset, headers={"If-None-Match": '"other"'}, auth=None).status == 200


def test_an_older_release_gets_the_current_file_uncached(h):
    reply = h.get("/console/assets/0123456789abcdef/app.js", auth=None)
    assert reply.status == 200 and reply.header("cache-control") == b"no-cache"


@pytest.mark.parametrize("path", [
    "/console/assets", "/console/nothing", "/console/assets/x/missing.js",
    "/console/assets/x/../console.py", "/console/assets/x/%2E%2E%2Fconsole.py",
    "/console/assets/x/app.js/more", "/console/index.html",
])
def test_other_console_paths_are_404(h, path):
    reply = h.get(path, auth=None)
    assert reply.status == 404
    assert reply.header("content-type") == b"text/plain; charset=utf-8"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_wrong_method_is_405_with_allow(h, method):
    reply = h.request(method, "/", auth=None)
    assert reply.status == 405
    assert reply.header("allow") == b"GET, HEAD"
    assert method.encode() in reply.body


def test_head_answers_headers_only(h):
    reply = h.request("HEAD", "/console", auth=None)
    assert reply.status == 200 and reply.body == b""
    assert reply.header("content-type") == b"text/html; charset=utf-8"


def test_console_off_leaves_root_unanswered():
    h = Harness(ServiceConfig(console=False))
    assert h.app.console is None
    for path in ("/", "/console", "/console/assets/x/app.js"):
        assert h.get(path, auth=None).status == 404
    assert h.post("SELECT 1").json["state"] == "Succeeded"  # the API is unchanged


def test_api_routes_are_not_taken_by_the_console(h):
    assert h.get("/health", auth=None).body == b"ok"
    assert h.post("SELECT 1").json["data"] == [["1"]]


def test_version_changes_with_any_file():
    files = load_console_files()
    changed = dict(files, **{"app.js": files["app.js"] + b"\n"})
    assert Console(files).version != Console(changed).version
    assert Console(files).version == Console(dict(files)).version


def test_index_is_required():
    with pytest.raises(ValueError, match="index.html"):
        Console({"app.js": b""})


def test_every_response_carries_the_security_headers():
    request = LeanRequest(DummyChannel())
    headers = request.responseHeaders
    assert headers.getRawHeaders(b"x-content-type-options") == [b"nosniff"]
    assert headers.getRawHeaders(b"referrer-policy") == [b"no-referrer"]
    assert headers.getRawHeaders(b"content-security-policy") == [
        b"default-src 'none'; frame-ancestors 'none'"]


def test_console_option():
    options = Options()
    options.parseOptions([])
    assert options.service_config().console is True
    options = Options()
    options.parseOptions(["--console", "off"])
    assert options.service_config().console is False
    with pytest.raises(usage.UsageError, match="--console must be on or off"):
        Options().parseOptions(["--console", "maybe"])


def test_browser_tests_say_why_they_cannot_run(monkeypatch, tmp_path):
    monkeypatch.setenv("QUERYHTTP_CHROMIUM", str(tmp_path / "no-such-chromium"))
    assert find_chromium() is None
    reason = unavailable_reason()
    assert "playwright is not installed" in reason or "no Chromium found" in reason
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setenv("QUERYHTTP_CHROMIUM", str(fake))
    assert find_chromium() == str(fake)


def test_vendored_editor_bundle():
    """codemirror.js is one self-contained module built by web/console_src (its licenses ship
    beside it), small enough to serve, and patched to keep its styles within the CSP."""
    from importlib import resources

    files = load_console_files()
    bundle = files["codemirror.js"].decode()
    assert bundle.startswith("// CodeMirror 6 for the queryhttp console")
    assert not re.search(r"^\s*import\b|\bimport\(", bundle, re.M)  # nothing fetched later
    assert len(files["codemirror.js"]) < 600_000
    assert "document.write" not in bundle and "new Function" not in bundle
    # style-mod adopts a constructed stylesheet for the document (no <style> element, which
    # style-src 'self' refuses): the build's patch is in
    assert "adoptedStyleSheets&&" in bundle
    assert not re.search(r"\w\.head&&\w\.adoptedStyleSheets", bundle)
    licenses = resources.files("web").joinpath("console", "codemirror.LICENSE.txt").read_text()
    for package in ("@codemirror/view", "@codemirror/lang-sql", "@lezer/lr", "style-mod"):
        assert package in licenses
    assert "MIT" in licenses
