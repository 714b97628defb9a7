"""Finds the code examples of README.rst and docs/*.rst and says how each one is checked.

The conventions (docs/index.rst states them for writers):

- ``.. code-block:: python`` with ``>>>`` lines is a doctest; without them the block is run.
  A page's Python blocks share one namespace, in order, in a fresh working directory.
- ``.. code-block:: sql`` is run against ``engine.Database()`` (one per page, one session):
  statements end with ``;`` at the end of a line; a comment line ``-- => [rows]`` after a
  statement is its expected ``list(result)`` (a Python literal; ``Decimal``, ``date`` and
  ``datetime`` may appear), ``-- => error N`` its expected Databend error code.
- A Python block with the option ``:class: server`` is a client of a running server: it runs
  against one the test starts (``twistd -n queryhttp --data_dir ...``, shared by every page),
  with ``127.0.0.1:8000`` in its text replaced by that server's address.
- A block with the option ``:class: not-run`` is only compiled.
- A page's examples run twice in a row, in order (the same namespace, working directory,
  session and server): an example a reader runs again must work again.
- Every other literal block (``::``, ``.. code-block:: shell``, ``text``...) is not run, but each
  ``twistd ... queryhttp --option`` it names must be an option of the plugin.
"""

from __future__ import annotations

import ast
import doctest
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\. code-block::\s*(?P<lang>\S+)\s*$")
_OPTION = re.compile(r"^\s*:[\w-]+:.*$")
_EXPECT = re.compile(r"^--\s*=>\s*(?P<expected>.+?)\s*$")


@dataclass
class Block:
    """One literal block of a page: its language ('' for a plain ``::`` block), its
    dedented text and the line of the page where its text starts."""

    page: Path
    lang: str
    text: str
    line: int
    options: tuple[str, ...] = ()

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class SqlStep:
    """One statement of a SQL block and what it must give (None: only that it succeeds)."""

    sql: str
    line: int
    expected: str | None = None


@dataclass
class SqlBlock:
    block: Block
    steps: list[SqlStep] = field(default_factory=list)


def pages() -> list[Path]:
    return [ROOT / "README.rst", *sorted((ROOT / "docs").glob("*.rst"))]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _body(lines: list[str], start: int, parent_indent: int) -> tuple[str, int, int]:
    """The block of lines after `start` indented deeper than `parent_indent`: its dedented
    text, the index of its first line and the index after it."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    first = i
    end = i
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > parent_indent):
        if lines[i].strip():
            end = i + 1
        i += 1
    body = lines[first:end]
    depth = min((_indent(x) for x in body if x.strip()), default=0)
    return "\n".join(x[depth:] for x in body) + "\n", first, end


def blocks(page: Path) -> list[Block]:
    """Every ``.. code-block::`` and ``::`` literal block of a page, in order."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = _DIRECTIVE.match(line)
        if directive:
            j = i + 1
            while j < len(lines) and _OPTION.match(lines[j]):
                j += 1
            options = tuple(x.strip() for x in lines[i + 1:j])
            text, first, end = _body(lines, j, len(directive["indent"]))
            found.append(Block(page, directive["lang"], text, first + 1, options))
            i = end
            continue
        if line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            text, first, end = _body(lines, i + 1, _indent(line))
            if text.strip():
                found.append(Block(page, "", text, first + 1))
            i = max(end, i + 1)
            continue
        i += 1
    return found


def sql_steps(block: Block) -> SqlBlock:
    """The statements of a SQL block with their expectations."""
    parsed = SqlBlock(block)
    pending: list[str] = []
    start = None
    for offset, raw in enumerate(block.text.split("\n")):
        line = raw.rstrip()
        expect = _EXPECT.match(line.strip())
        if expect and not pending:
            if not parsed.steps or parsed.steps[-1].expected is not None:
                raise ValueError(f"{block.where()}: '-- =>' without a statement before it")
            parsed.steps[-1].expected = expect["expected"]
            continue
        if not line.strip() or (line.strip().startswith("--") and not pending):
            continue
        if start is None:
            start = block.line + offset
        pending.append(line)
        if line.endswith(";"):
            parsed.steps.append(SqlStep("\n".join(pending).rstrip(";"), start))
            pending, start = [], None
    if pending:
        raise ValueError(f"{block.where()}: a statement without its closing ';'")
    return parsed


_TWISTD = re.compile(r"twistd\b[^\n]*?\bqueryhttp\b(?P<rest>[^\n]*)")


def twistd_options(text: str) -> list[str]:
    """The ``--option`` names of each ``twistd ... queryhttp ...`` command line in `text`
    (continuation lines ending in a backslash included)."""
    names = []
    for command in _TWISTD.finditer(text.replace("\\\n", " ")):
        names += re.findall(r"(?<![\w-])--([A-Za-z][\w-]*)", command["rest"])
    return names


PASSES = 2  # each page's examples run this many times in a row
DOCUMENTED_ADDRESS = "127.0.0.1:8000"  # where the examples' server listens (make serve's)


def in_passes(page_blocks: list[Block]):
    """The blocks of a page in order, PASSES times over: how the tests run them."""
    for _ in range(PASSES):
        yield from page_blocks


def runs(block: Block) -> bool:
    return ":class: not-run" not in block.options


def needs_server(block: Block) -> bool:
    return ":class: server" in block.options


def run_python(block: Block, namespace: dict, server_address: str | None = None) -> None:
    """Runs a Python block (a doctest when it has `>>>` lines) in `namespace`; a failing
    example raises AssertionError naming the page and line. A server block runs against
    `server_address` (host:port) instead of the documented one."""
    text = block.text
    if needs_server(block):
        if server_address is None:
            raise ValueError(f"{block.where()}: a server block, and no server given")
        text = text.replace(DOCUMENTED_ADDRESS, server_address)
    if not runs(block):
        compile(text, block.where(), "exec")
        return
    if ">>>" not in text:
        exec(compile("\n" * (block.line - 1) + text, str(block.page), "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(text, namespace, block.where(),
                                               str(block.page), block.line - 1)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)  # DocTest runs in a copy; later blocks see what this one made
    if runner.failures:
        raise AssertionError(f"{block.where()}: doctest failed\n" + "".join(report))


def _expected_rows(text: str):
    return eval(compile(ast.parse(text, mode="eval"), "<expected>", "eval"),
                {"__builtins__": {}, "Decimal": Decimal, "date": date, "datetime": datetime})


def run_sql(block: Block, session, engine_error: type) -> None:
    """Runs each statement of a SQL block in `session` and checks its `-- =>` expectation;
    a mismatch or an unexpected error raises AssertionError naming the page and line."""
    for step in sql_steps(block).steps:
        where = f"{block.page.relative_to(ROOT)}:{step.line}"
        error = re.fullmatch(r"error (\d+)", step.expected or "")
        try:
            rows = list(session.execute(step.sql))
        except engine_error as e:
            if error and int(error[1]) == e.code:
                continue
            raise AssertionError(f"{where}: {step.sql!r} failed with {e.code}: {e.message}") from e
        if error:
            raise AssertionError(f"{where}: {step.sql!r} gave {rows!r}, expected error {error[1]}")
        if step.expected is not None and rows != _expected_rows(step.expected):
            raise AssertionError(f"{where}: {step.sql!r} gave {rows!r}, expected {step.expected}")
