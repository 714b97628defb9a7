"""The browser console in headless Chromium against a real `twistd queryhttp`: sign in, rows,
a 100,000-row result streaming in, Cancel, an error's place in the editor, USE and the schema
sidebar, CSV download, a chart. Each state is saved as a screenshot (see tests/e2e/browser.py).
"""

from __future__ import annotations

import base64
import csv
import io
import json
import time
import urllib.request

import pytest

from tests.e2e.browser import unavailable_reason
from tests.e2e.console_page import (
    EDITOR,
    PASSWORD,
    USER,
    editor_text,
    grid,
    launch_chromium,
    new_page,
    run,
    set_sql,
    shot,
    sign_in,
    start_server,
    status,
    submit_login,
)
from tests.e2e.server import RunningServer

_REASON = unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"browser tests: {_REASON}")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = start_server(tmp_path_factory)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser profile (empty localStorage) on the console's page."""
    context, tab, errors = new_page(browser, server)
    yield tab
    context.close()
    assert errors.errors == []  # no script error, no CSP violation, no failed load


def table(page):
    return grid(page)


def server_rows(server, sql):
    """The rows of `sql` straight from the protocol (databend format: NULL is null)."""
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    headers = {"Authorization": f"Basic {token}", "Content-Type": "application/json",
               "X-DATABEND-ROUTE": "warehouse"}
    request = urllib.request.Request(server.url + "/v1/query", json.dumps({"sql": sql}).encode(),
                                     headers)
    rows = []
    while request is not None:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.load(response)
        assert answer["error"] is None, answer["error"]
        rows += answer["data"]
        nxt = answer["next_uri"]
        request = urllib.request.Request(server.url + nxt, headers=headers) if nxt else None
    return rows


def test_sign_in_and_see_rows_with_types_and_nulls(page, server):
    shot(page, "01-sign-in")
    submit_login(page, "wrong")
    page.wait_for_selector("#login-error:has-text('Wrong user or password')")
    shot(page, "02-wrong-password")
    sign_in(page)
    run(page, "SELECT number AS n, if(number % 2 = 0, NULL, 'odd ' || number::String) AS label,"
              " number / 4 AS quarter FROM numbers(5)")
    head, rows = table(page)
    assert head == [["n", "UInt64"], ["label", "Nullable(String)"], ["quarter", "Float64"]]
    # whole Float64 values keep their .0, as current Databend writes them
    assert rows == [["0", "<NULL>", "0.0"], ["1", "odd 1", "0.25"], ["2", "<NULL>", "0.5"],
                    ["3", "odd 3", "0.75"], ["4", "<NULL>", "1.0"]]
    assert status(page) == ["Succeeded", 5]
    assert "Succeeded · 5 rows" in page.text_content("#status")
    shot(page, "03-rows")
    # credentials are in no URL and no storage; the SQL and the history are
    stored = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    assert PASSWORD not in stored and PASSWORD not in page.url
    assert "odd" in stored  # the editor's text (in its tab)


def test_reload_keeps_the_sql_and_history_but_not_the_credentials(page):
    sign_in(page)
    run(page, "SELECT 42 AS answer")
    page.reload()
    page.wait_for_selector("#login:not([hidden])")
    assert page.is_hidden("#workspace")
    sign_in(page)
    assert editor_text(page) == "SELECT 42 AS answer"
    assert page.text_content("#history li") == "SELECT 42 AS answer"
    page.click("#logout")
    page.wait_for_selector("#login:not([hidden])")
    assert page.input_value("#login-password") == "" and page.is_hidden("#workspace")


def test_a_large_result_streams_in_page_by_page(page):
    sign_in(page)
    page.evaluate("""() => {
        const status = document.getElementById('status');
        window.seen = [];
        new MutationObserver(() => window.seen.push([status.dataset.state,
            Number(status.dataset.rows)])).observe(status, {attributes: true});
    }""")
    set_sql(page, "SELECT number, number * 2 AS twice, 'row ' || number::String AS label "
                  "FROM numbers(100000)")
    page.press(EDITOR, "Control+Enter")
    page.wait_for_function("() => window.seen.some(([s, n]) => n > 0)")
    shot(page, "04-streaming")
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'Succeeded'",
                           timeout=60_000)
    seen = page.evaluate("window.seen")
    counts = sorted({rows for _, rows in seen})
    running = [rows for state, rows in seen if state == "Running" and rows > 0]
    assert running and min(running) < 100_000  # rows shown while the query still ran
    assert len([c for c in counts if c > 0]) >= 3  # several pages, not one answer
    assert status(page) == ["Succeeded", 100_000]
    head, rows = table(page)
    # all rows behind a virtual scroll: only those on screen (and a few more) are in the page
    assert 10 < len(rows) < 100 and rows[0] == ["0", "0", "row 0"]
    assert page.text_content("#grid-count") == "100,000 rows"
    shot(page, "05-streamed")


def test_cancel_a_long_query(page):
    sign_in(page)
    run(page, "SET max_execute_time_in_seconds = 120")  # bounded even if the cancel failed
    assert "max_execute_time_in_seconds = 120" in page.text_content("#session-settings")
    set_sql(page, "SELECT count(*) FROM numbers(10000000000)")
    page.click("#run")
    page.wait_for_function("""() => {
        const s = document.getElementById('status');
        return s.dataset.state === 'Running' && s.textContent.includes('scanned');
    }""")
    shot(page, "06-long-query-running")
    started = time.monotonic()
    page.click("#cancel")
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'Failed'"
                           " && !document.getElementById('run').disabled")
    assert time.monotonic() - started < 10
    assert page.text_content("#error-code").startswith("Error 1043")
    assert "canceled" in page.text_content("#status")
    assert page.is_enabled("#run") and page.is_disabled("#cancel")
    shot(page, "07-canceled")
    run(page, "SELECT 1 AS still_serving")  # the server is free again
    assert table(page)[1] == [["1"]]
    set_sql(page, "SELECT count(*) FROM numbers(10000000000)")
    page.click("#run")
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'Running'")
    page.keyboard.press("Escape")  # the key cancels too
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'Failed'"
                           " && !document.getElementById('run').disabled")
    assert page.text_content("#error-code").startswith("Error 1043")


def test_an_error_marks_its_place_in_the_editor(page):
    sign_in(page)
    sql = "SELECT number,\n  FROM numbers(3)"
    run(page, sql, state="Failed")
    assert page.text_content("#error-code") == "Error 1005 at line 2, column 3"
    assert "unexpected `FROM`" in page.text_content("#error-message")
    assert page.text_content("mark#error-mark") == "FROM"
    shot(page, "08-syntax-error")
    run(page, "SELECT nope\nFROM numbers(3)", state="Failed")  # no position: found by name
    assert page.text_content("#error-code").startswith("Error 1065")
    assert page.text_content("mark#error-mark") == "nope"
    page.keyboard.press("End")
    page.keyboard.type(" ")
    assert page.query_selector("mark#error-mark") is None  # editing clears the mark


def test_use_a_database_and_the_sidebar_follows(page):
    sign_in(page)
    page.wait_for_selector("#schema-tree details.database.current[data-name='default']")
    run(page, "CREATE DATABASE shop")
    page.wait_for_selector("#schema-tree details.database[data-name='shop']")
    run(page, "USE shop")
    assert page.text_content("#session-database") == "shop"
    page.wait_for_selector("#schema-tree details.database.current[data-name='shop']")
    assert page.query_selector("#schema-tree details.database.current[data-name='default']") \
        is None
    run(page, "CREATE TABLE items (id INT, name VARCHAR NULL, price DECIMAL(10, 2))")
    table_folder = "#schema-tree details.table[data-name='shop.items']"
    page.wait_for_selector(table_folder)
    page.click(f"{table_folder} > summary")
    columns = page.eval_on_selector_all(
        f"{table_folder} li.column",
        "items => items.map(i => [i.dataset.name, i.querySelector('.column-type').textContent])")
    assert [name for name, _ in columns] == ["id", "name", "price"]
    run(page, "INSERT INTO items VALUES (1, 'pen', 1.50)")  # in shop: the session kept USE
    run(page, "SELECT name, price FROM items")
    assert table(page)[1] == [["pen", "1.50"]]
    shot(page, "09-use-database")


def test_download_csv_matches_the_query_rows(page, server):
    sign_in(page)
    sql = ("SELECT number AS n, if(number % 3 = 0, NULL, 'a,\"b\" ' || number::String) AS s, "
           "number * 1.5 AS x FROM numbers(40)")
    run(page, sql)
    with page.expect_download() as download_info:
        page.click("#download-csv")
    download = download_info.value
    assert download.suggested_filename == "result.csv"
    text = open(download.path(), encoding="utf-8", newline="").read()
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == ["n", "s", "x"]
    expected = [["" if v is None else v for v in row] for row in server_rows(server, sql)]
    assert parsed[1:] == expected and len(expected) == 40
    shot(page, "10-csv")


def test_chart_of_a_numeric_column(page):
    sign_in(page)
    run(page, "SELECT 'day ' || number::String AS day, number * number AS visits, "
              "number AS n FROM numbers(12)")
    page.select_option("#chart-kind", "bar")
    assert page.eval_on_selector("#chart-x", "s => s.selectedOptions[0].textContent") == "day"
    page.select_option("#chart-y", label="visits")
    bars = page.eval_on_selector_all("#chart svg rect.bar",
                                     "rs => rs.map(r => Number(r.getAttribute('height')))")
    assert len(bars) == 12 and bars == sorted(bars) and bars[-1] > bars[1] > 0
    assert page.text_content("#chart .chart-caption") == "visits by day"
    shot(page, "11-bar-chart")
    page.select_option("#chart-kind", "line")
    points = page.get_attribute("#chart svg polyline.line", "points").split()
    assert len(points) == 12
    ys = [float(p.split(",")[1]) for p in points]
    assert ys == sorted(ys, reverse=True)  # growing values climb (SVG y grows downwards)
    shot(page, "12-line-chart")
    run(page, "SELECT 'a' AS text_only")
    assert page.is_hidden("#chart") and page.is_disabled("#chart-y")


def test_a_server_answering_in_the_spec_format(browser):
    spec_server = RunningServer("--wire_format", "spec")  # root with an empty password
    context, tab, errors = new_page(browser, spec_server, "/console")
    try:
        tab.fill("#login-user", "root")
        tab.click("#login-submit")
        tab.wait_for_selector("#workspace:not([hidden])")
        run(tab, "SELECT number AS n, number::String AS s FROM numbers(3)")
        head, rows = table(tab)
        assert head == [["n", "UInt64"], ["s", "String"]]
        assert rows == [["0", "0"], ["1", "1"], ["2", "2"]]
        run(tab, "USE system")
        assert tab.text_content("#session-database") == "system"
        run(tab, "SELECT count(*) AS tables FROM tables WHERE name = 'columns'")
        assert table(tab)[1] == [["1"]]
        shot(tab, "13-spec-format-server")
        assert errors.errors == []
    finally:
        context.close()
        spec_server.stop()
