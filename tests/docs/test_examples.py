"""Every code example of README.rst and docs/*.rst runs as written (see tests/docs/examples.py
for the conventions), and the option and limit tables match the code."""

from __future__ import annotations

import dataclasses
import re

import pytest

import engine
from engine.core.limits import Limits
from tests.docs.examples import (
    DOCUMENTED_ADDRESS,
    ROOT,
    Block,
    blocks,
    in_passes,
    needs_server,
    pages,
    run_python,
    run_sql,
    sql_steps,
    twistd_options,
)
from web.tap import Options

PAGES = pages()


def _page_id(page):
    return str(page.relative_to(ROOT))


def _plugin_options() -> dict[str, str]:
    """Every `twistd queryhttp` option with its default as --help shows it."""
    options = {name: "off" for name, *_ in Options.optFlags}
    for name, _, default, *_ in Options.optParameters:
        options[name] = "(none)" if default is None else str(default)
    return options


@pytest.fixture(scope="module")
def docs_server(tmp_path_factory):
    """The server the client examples talk to, as `make serve` runs it (with a data
    directory), shared by every page: examples that follow each other must chain."""
    from tests.e2e.server import RunningServer

    running = RunningServer("--data_dir", str(tmp_path_factory.mktemp("docs-server") / "data"))
    yield running
    running.stop()


@pytest.mark.parametrize("page", [p for p in PAGES if any(b.lang == "python" for b in blocks(p))],
                         ids=_page_id)
def test_python_examples_run_twice_in_a_row(page, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)  # examples may make a data directory
    python = [b for b in blocks(page) if b.lang == "python"]
    address = None
    if any(needs_server(b) for b in python):
        address = f"127.0.0.1:{request.getfixturevalue('docs_server').port}"
    namespace: dict = {"__name__": "__docs__"}
    for block in in_passes(python):
        run_python(block, namespace, address)


@pytest.mark.parametrize("page", [p for p in PAGES if any(b.lang == "sql" for b in blocks(p))],
                         ids=_page_id)
def test_sql_examples_run_twice_in_a_row(page):
    session = engine.Database().session()
    for block in in_passes([b for b in blocks(page) if b.lang == "sql"]):
        run_sql(block, session, engine.EngineError)


def test_client_examples_name_the_documented_address():
    """A server block that names another address would not be pointed at the test's server."""
    server_blocks = [b for p in PAGES for b in blocks(p) if needs_server(b)]
    assert server_blocks
    assert all(DOCUMENTED_ADDRESS in b.text for b in server_blocks)


def test_every_example_has_a_known_kind():
    """A typo in a directive's language would silently turn a runnable block into text."""
    known = {"", "python", "sql", "shell", "console", "text", "json"}
    unknown = [(b.where(), b.lang) for p in PAGES for b in blocks(p) if b.lang not in known]
    assert not unknown


def test_twistd_command_lines_name_real_options():
    """In code blocks and in the text alike: a renamed option fails here."""
    known = {*_plugin_options(), "help", "version"}  # the last two: twisted's usage.Options
    wrong = [(_page_id(p), name) for p in PAGES
             for name in twistd_options(p.read_text(encoding="utf-8")) if name not in known]
    assert not wrong
    assert any(twistd_options(b.text) for p in PAGES for b in blocks(p))


def test_server_options_table_is_the_plugins():
    text = (ROOT / "docs" / "server-options.rst").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^``--(\w+)``\s+(\S+)", text, re.M))
    assert rows == _plugin_options()


def test_limits_table_is_the_engines():
    text = (ROOT / "docs" / "limits.rst").read_text(encoding="utf-8")
    rows = {name: int(value) for name, value in re.findall(r"^``(\w+)``\s+(\d+)\s", text, re.M)}
    assert rows == dataclasses.asdict(Limits())


def test_architecture_names_each_layer_as_its_package_does():
    """Each package's one-line docstring is the architecture page's sentence for it, in the
    layer order."""
    text = (ROOT / "docs" / "architecture.rst").read_text(encoding="utf-8")
    text = " ".join(text.split())
    order = ["core", "types", "runtime", "functions", "ir", "codegen", "catalog", "io", "bind",
             "plan", "exec", "storage", "statements"]
    positions = []
    for name in order:
        module = __import__(f"engine.{name}", fromlist=["_"])
        summary = " ".join(module.__doc__.split("\n\n")[0].split())
        assert summary in text, name
        positions.append(text.index(summary))
    assert positions == sorted(positions)


def test_readme_is_a_front_door():
    lines = (ROOT / "README.rst").read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 200
    opening = "\n".join(lines[:12])
    assert "make serve" in opening and "make test" in opening
    readme = "\n".join(lines)
    missing = [p.name for p in (ROOT / "docs").glob("*.rst") if f"docs/{p.name}" not in readme]
    assert not missing


# The runner itself: a broken example must fail the suite.

def _block(lang: str, text: str) -> Block:
    return Block(ROOT / "README.rst", lang, text, 1)


def test_a_wrong_sql_result_fails():
    session = engine.Database().session()
    run_sql(_block("sql", "SELECT 1 + 1;\n-- => [(2,)]\n"), session, engine.EngineError)
    with pytest.raises(AssertionError, match="expected"):
        run_sql(_block("sql", "SELECT 1 + 1;\n-- => [(3,)]\n"), session, engine.EngineError)
    with pytest.raises(AssertionError, match="1065"):
        run_sql(_block("sql", "SELECT nope;\n"), session, engine.EngineError)
    with pytest.raises(AssertionError, match="expected error 1006"):
        run_sql(_block("sql", "SELECT 1;\n-- => error 1006\n"), session, engine.EngineError)


def test_an_example_that_cannot_run_again_fails():
    session = engine.Database().session()
    once = [_block("sql", "CREATE TABLE made_once (a INT);\n")]
    with pytest.raises(AssertionError, match="2302"):  # table exists, on the second pass
        for block in in_passes(once):
            run_sql(block, session, engine.EngineError)
    again = [_block("sql", "CREATE OR REPLACE TABLE made_again (a INT);\n"
                           "INSERT INTO made_again VALUES (1);\nSELECT count(*) FROM made_again;\n"
                           "-- => [(1,)]\n")]
    for block in in_passes(again):
        run_sql(block, session, engine.EngineError)


def test_a_server_block_runs_against_the_address_given():
    block = Block(ROOT / "README.rst", "python", f"address = {DOCUMENTED_ADDRESS!r}\n", 1,
                  (":class: server",))
    namespace: dict = {}
    run_python(block, namespace, "127.0.0.1:1234")
    assert namespace["address"] == "127.0.0.1:1234"
    with pytest.raises(ValueError, match="no server given"):
        run_python(block, {})


def test_sql_blocks_split_into_statements():
    steps = sql_steps(_block("sql", "-- a comment\nSELECT 1,\n  2;\n-- => [(1, 2)]\nSELECT 3;\n")).steps
    assert [(s.sql, s.expected) for s in steps] == [("SELECT 1,\n  2", "[(1, 2)]"), ("SELECT 3", None)]


def test_a_wrong_doctest_fails():
    with pytest.raises(AssertionError, match="doctest failed"):
        run_python(_block("python", ">>> 1 + 1\n3\n"), {})
    with pytest.raises(ZeroDivisionError):
        run_python(_block("python", "x = 1 / 0\n"), {})


def test_twistd_options_are_found_across_continuation_lines():
    text = "twistd -n queryhttp --http_handler_port 8000 \\\n    --data_dir d\ncurl --data x\n"
    assert twistd_options(text) == ["http_handler_port", "data_dir"]


def test_links_between_pages_point_at_pages_and_sections():
    broken = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"<([\w./-]+\.rst)(?:#([\w-]+))?>`__?", text):
            linked = page.parent / target
            if not linked.exists():
                broken.append((_page_id(page), target))
            elif anchor:
                titles = re.findall(r"^(.+)\n[-=~]+$", linked.read_text(encoding="utf-8"), re.M)
                if anchor not in {"-".join(re.findall(r"[a-z0-9]+", t.lower())) for t in titles}:
                    broken.append((_page_id(page), f"{target}#{anchor}"))
    assert not broken
