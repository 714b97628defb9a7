"""Databend's sqllogictest format: records, conditions, includes and the result comparison.

Databend runs its suite (tests/sqllogictests in databendlabs/databend) with the sqllogictest-rs
crate (0.28), so its rules are that crate's, written here from its parser and runner:

- a line starting with ``#`` is a comment; only a line that is exactly empty separates records;
- ``skipif <label>`` / ``onlyif <label>`` lines gather until the next statement or query, which
  they govern; the HTTP client's only label is ``http``;
- ``statement ok``, ``statement count <n>``, ``statement error [regex]`` and ``query error
  [regex]``: the regex is searched (not anchored) in the client's error text,
  ``Databend sqllogictests error: http query error: code: <code>, Text: <message>``; an empty
  one matches any error; a ``----`` below an error record holds an exact multi-line message;
- ``query <types> [nosort|rowsort|valuesort] [label]``: the SQL up to ``----``, then one
  expected row per line up to the first empty line. Column types are only warned about, never
  compared. ``rowsort`` sorts the actual rows only (as lists of cell strings), ``valuesort``
  every cell; each cell and each expected line is trimmed and its whitespace runs collapsed,
  a row's cells are joined by one space, then the lists must be equal; ``<slt:ignore>`` in an
  expected line skips the text it stands for;
- ``control sortmode <mode>`` sets the default sort mode; ``hash-threshold <n>`` hashes results
  of more than n values (0, the default, never); ``halt`` ends the file;
- ``include <glob>`` (relative to the including file) inserts another file's records.
"""

from __future__ import annotations

import dataclasses
import glob
import hashlib
import os
import re

RESULTS_DELIMITER = "----"
SORT_MODES = ("nosort", "rowsort", "valuesort")
IGNORE_MARKER = "<slt:ignore>"


@dataclasses.dataclass
class Record:
    """One statement or query of a file (kind 'statement' or 'query'), or a directive
    (kind 'control', 'hash-threshold', 'halt', 'include', 'bad')."""

    kind: str
    path: str
    line: int
    conditions: list = dataclasses.field(default_factory=list)   # [('onlyif'|'skipif', label)]
    sql: str = ""
    expect_error: bool = False
    error_regex: str | None = None      # None or '': any error; else a regex searched in it
    error_exact: str | None = None      # a multi-line expected message (exact, trimmed)
    count: int | None = None            # statement count <n>
    types: str = ""
    sortmode: str | None = None         # None: the file's default (control sortmode)
    label: str | None = None
    expected: list = dataclasses.field(default_factory=list)
    arg: str = ""                       # directive argument / why a line is bad


def should_skip(conditions, labels) -> bool:
    """sqllogictest-rs: a record is skipped when any of its conditions says so."""
    for kind, label in conditions:
        if kind == "onlyif" and label not in labels:
            return True
        if kind == "skipif" and label in labels:
            return True
    return False


def _take_lines(lines, i, delimiter):
    """parse_lines: the first line always, then lines up to an empty line or the delimiter.
    Returns (text, found delimiter, next index)."""
    if i >= len(lines):
        return "", False, i
    out = [lines[i]]
    i += 1
    found = False
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == "":
            break
        if delimiter is not None and line == delimiter:
            found = True
            break
        out.append(line)
    return "\n".join(out), found, i


def _take_multiline(lines, i):
    """The text under ``----`` of an error record: up to two consecutive empty lines."""
    out = []
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == "" and (i >= len(lines) or lines[i] == ""):
            i += 1
            break
        out.append(line)
    return "\n".join(out).strip(), i


def parse_text(text, path="<text>"):
    """The records of one file's text (includes not expanded: they stay 'include' records)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    records, conditions, i = [], [], 0
    while i < len(lines):
        line, lineno = lines[i], i + 1
        i += 1
        if line.startswith("#") or line == "":
            continue
        toks = line.split()
        if not toks:
            continue
        head = toks[0]
        if head in ("skipif", "onlyif") and len(toks) == 2:
            conditions.append((head, toks[1]))
        elif head in ("include", "halt", "hash-threshold", "control", "sleep", "subtest",
                      "connection"):
            records.append(Record(head, path, lineno, arg=" ".join(toks[1:])))
        elif head == "statement":
            rec = Record("statement", path, lineno, conditions)
            conditions = []
            i = _statement(rec, toks, lines, i)
            records.append(rec)
        elif head == "query":
            rec = Record("query", path, lineno, conditions)
            conditions = []
            i = _query(rec, toks, lines, i)
            records.append(rec)
        elif head in ("system", "let"):
            rec = Record("bad", path, lineno, conditions, arg=f"'{head}' records are not run")
            conditions = []
            _, _, i = _take_lines(lines, i, RESULTS_DELIMITER if head == "system" else None)
            records.append(rec)
        else:
            records.append(Record("bad", path, lineno, arg=f"invalid line: {line[:60]}"))
    return records


def _error_regex(rec, tokens):
    joined = " ".join(tokens)
    rec.expect_error = True
    rec.error_regex = joined or None


def _statement(rec, toks, lines, i):
    rest = toks[1:]
    if rest[:1] == ["ok"]:
        pass
    elif rest[:1] == ["error"]:
        _error_regex(rec, rest[1:])
    elif rest[:1] == ["count"] and len(rest) > 1 and rest[1].isdigit():
        rec.count = int(rest[1])
    else:
        rec.kind, rec.arg = "bad", f"invalid statement line: {' '.join(toks)}"
    rec.sql, has_results, i = _take_lines(lines, i, RESULTS_DELIMITER)
    if has_results:
        if rec.expect_error and rec.error_regex is None:
            rec.error_exact, i = _take_multiline(lines, i)
        else:
            rec.kind, rec.arg = "bad", "a statement with results"
    return i


def _query(rec, toks, lines, i):
    rest = toks[1:]
    if rest[:1] == ["error"]:
        _error_regex(rec, rest[1:])
    elif rest:
        rec.types = rest[0]
        rest = rest[1:]
        if rest and rest[0] in SORT_MODES:
            rec.sortmode = rest[0]
            rest = rest[1:]
        if rest and rest[0] != "retry":
            rec.label = rest[0]
    rec.sql, has_results, i = _take_lines(lines, i, RESULTS_DELIMITER)
    if has_results:
        if rec.expect_error:
            if rec.error_regex is None:
                rec.error_exact, i = _take_multiline(lines, i)
            else:
                rec.kind, rec.arg = "bad", "an error record with two messages"
        else:
            while i < len(lines):
                line = lines[i]
                i += 1
                if line == "":
                    break
                rec.expected.append(line)
    return i


def parse_file(path, _depth=0):
    """The records of a file with its includes expanded in place. An include that matches no
    file becomes a 'bad' record (Databend's runner refuses such a file)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        records = parse_text(fh.read(), str(path))
    out = []
    for rec in records:
        if rec.kind != "include":
            out.append(rec)
            continue
        pattern = os.path.join(os.path.dirname(str(path)), rec.arg)
        matches = sorted(glob.glob(pattern))
        if not matches or _depth > 8:
            out.append(dataclasses.replace(rec, kind="bad",
                                           arg=f"include {rec.arg}: no such file"))
            continue
        for included in matches:
            out.extend(parse_file(included, _depth + 1))
    return out


# --------------------------------------------------------------------------- comparing

def error_text(code, message):
    """The error text Databend's HTTP client gives the crate's matcher."""
    return f"Databend sqllogictests error: http query error: code: {code}, Text: {message}"


def error_matches(rec, text):
    if rec.error_exact is not None:
        return rec.error_exact.strip() == text.strip()
    if not rec.error_regex:
        return True
    try:
        return re.search(_python_regex(rec.error_regex), text) is not None
    except re.error:
        return rec.error_regex in text


def _python_regex(pattern):
    # Rust's regex crate spells a few things differently; the suite uses (?s) and plain text
    return pattern.replace("\\z", "\\Z")


def normalise(cell):
    """default_normalizer: trimmed, ASCII whitespace runs collapsed to one space."""
    return " ".join(cell.split())


def sort_rows(rows, sortmode):
    """The runner's sort of actual rows (lists of cell strings)."""
    if sortmode == "rowsort":
        return sorted(rows)
    if sortmode == "valuesort":
        return sorted([v] for row in rows for v in row)
    return rows


def hash_rows(rows, threshold, value_sort=False):
    """The rows, or the one 'N values hashing to MD5' row when they exceed the threshold."""
    if not rows:
        return rows
    width = 1 if value_sort else len(rows[0])
    if not threshold or len(rows) * width <= threshold:
        return rows
    md5 = hashlib.md5()
    for row in rows:
        for value in row:
            md5.update(value.encode("utf-8", "surrogateescape"))
            md5.update(b"\n")
    return [[f"{len(rows) * len(rows[0])} values hashing to {md5.hexdigest()}"]]


def results_match(actual_rows, expected_lines):
    """default_validator over rendered rows (lists of strings) and the record's lines."""
    if any(IGNORE_MARKER in line for line in expected_lines):
        snapshot = "\n".join(" ".join(row) for row in actual_rows)
        pos = 0
        for fragment in "\n".join(expected_lines).split(IGNORE_MARKER):
            if not fragment:
                continue
            idx = snapshot.find(fragment, pos)
            if idx < 0:
                return False
            pos = idx + len(fragment)
        return True
    got = [" ".join(normalise(c) for c in row) for row in actual_rows]
    return got == [normalise(line) for line in expected_lines]


def first_difference(actual_rows, expected_lines):
    """A short description of where the results differ, for the report."""
    got = [" ".join(normalise(c) for c in row) for row in actual_rows]
    want = [normalise(line) for line in expected_lines]
    if len(got) != len(want):
        return f"expected {len(want)} rows, got {len(got)}"
    for n, (g, w) in enumerate(zip(got, want, strict=True)):
        if g != w:
            return f"row {n}: expected [{w[:80]}] got [{g[:80]}]"
    return "results differ"
