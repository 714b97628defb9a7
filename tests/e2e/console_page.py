"""What the console's browser tests share: a server with a users file, headless Chromium, a
fresh page per test that fails on any script error or CSP violation, and the few actions and
readings of the page (sign in, type and run SQL, read the grid and the status)."""

from __future__ import annotations

import pytest

from tests.e2e.browser import find_chromium, screenshot_dir
from tests.e2e.server import RunningServer
from web.auth import hash_password

USER, PASSWORD = "analyst", "c0nsole-pa55"
TIMEOUT_MS = 20_000
EDITOR = "#sql .cm-content"

# every CSP violation is reported on the page, so a test sees what the browser refused
_REPORT_CSP = """document.addEventListener('securitypolicyviolation', (e) => console.error(
    `CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def start_server(tmp_path_factory, env=None) -> RunningServer:
    users = tmp_path_factory.mktemp("console") / "users.txt"
    users.write_text(f"{USER}:{hash_password(PASSWORD)}\n")
    return RunningServer("--users_file", str(users), env=env)


def launch_chromium(playwright):
    from playwright.sync_api import Error

    try:
        return playwright.chromium.launch(executable_path=find_chromium())
    except Error as e:
        pytest.skip(f"browser tests: Chromium at {find_chromium()} does not start: {e}")


class PageErrors:
    """Script errors and console errors of a page (a 401 of a wrong password is expected)."""

    def __init__(self, page):
        self.errors = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                and "status of 401" not in m.text else None)


def new_page(browser, server, path="/", width=1280, height=860, **context_options):
    """(context, page, errors) of a fresh profile (empty localStorage) at `path`."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  accept_downloads=True, **context_options)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(_REPORT_CSP)
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + path)
    return context, page, errors


def shot(page, name, full_page=True):
    path = screenshot_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def submit_login(page, password, user=USER):
    page.fill("#login-user", user)
    page.fill("#login-password", password)
    page.click("#login-submit")


def sign_in(page, user=USER, password=PASSWORD):
    submit_login(page, password, user)
    page.wait_for_selector("#workspace:not([hidden])")


def set_sql(page, sql):
    """Replace the editor's text as typing would (select all, delete, insert)."""
    page.click(EDITOR)
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    if sql:
        page.keyboard.insert_text(sql)
    page.keyboard.press("Escape")  # close a completion popup the text may have opened


def editor_text(page):
    return page.evaluate("""() => [...document.querySelectorAll('#sql .cm-line')]
        .map(line => line.textContent).join('\\n')""")


def wait_done(page, state="Succeeded", timeout=TIMEOUT_MS):
    """Until the shown statement ended in `state` and the console is idle (Run enabled)."""
    page.wait_for_function(
        "s => document.getElementById('status').dataset.state === s"
        " && !document.getElementById('run').disabled", arg=state, timeout=timeout)


def run(page, sql, state="Succeeded", keys="Control+Enter"):
    """Type `sql`, run it with `keys` and wait until it ended in `state`."""
    set_sql(page, sql)
    page.press(EDITOR, keys)
    wait_done(page, state)


def status(page):
    return page.eval_on_selector("#status", "e => [e.dataset.state, Number(e.dataset.rows)]")


def grid(page):
    """[(name, type)] of the shown result's columns and the rows on screen, in order ('<NULL>'
    for a NULL cell)."""
    return page.evaluate("""async () => {
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        const head = [...document.querySelectorAll('#grid-head [data-col]')].map(c =>
            [c.querySelector('.column-name').textContent,
             c.querySelector('.column-type').textContent]);
        const rows = [...document.querySelectorAll('#grid-body .grid-row')]
            .sort((a, b) => Number(a.dataset.row) - Number(b.dataset.row))
            .map(r => [...r.children].slice(1).map(c =>
                c.classList.contains('null') ? '<NULL>' : c.textContent));
        return [head, rows];
    }""")


def visible_rows(page):
    """The rows whose cells are inside the grid's visible box."""
    return page.evaluate("""async () => {
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        const box = document.getElementById('result').getBoundingClientRect();
        const head = document.getElementById('grid-head').getBoundingClientRect();
        return [...document.querySelectorAll('#grid-body .grid-row')].filter(r => {
            const b = r.getBoundingClientRect();
            return b.top >= head.bottom - 1 && b.bottom <= box.bottom + 1;
        }).sort((a, b) => Number(a.dataset.row) - Number(b.dataset.row))
          .map(r => [...r.children].slice(1).map(c => c.textContent));
    }""")

