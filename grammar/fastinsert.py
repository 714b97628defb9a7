"""Fast path for `INSERT INTO t [(cols)] VALUES (...), ...` whose values are all literals.

Bulk inserts are large (10,000 rows is half a megabyte of SQL) and the general LALR parser
spends ~100 us per row on them. This module recognises the common shape with compiled regular
expressions and builds the same AST the grammar would (positions included). Anything it does
not fully understand (expressions, comments, odd spacing of signs...) returns None and the
caller falls back to the full parser, which also reports any syntax error.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right

from grammar import ast
from grammar.keywords import RESERVED_WORDS
from grammar.transform import unescape_string

_IDENT = r'[^\W\d][\w$]*(?![\w$])|"(?:[^"]|"")*"|`(?:[^`]|``)*`'
_HEADER_RE = re.compile(
    rf"""[ \t\r\n]*insert[ \t\r\n]+into[ \t\r\n]+
    (?P<table>(?:{_IDENT})(?:[ \t\r\n]*\.[ \t\r\n]*(?:{_IDENT}))*)[ \t\r\n]*
    (?:\((?P<columns>[^()]*)\)[ \t\r\n]*)?
    values\b""",
    re.I | re.X,
)
_IDENT_RE = re.compile(rf"[ \t\r\n]*({_IDENT})[ \t\r\n]*")

# One token of the VALUES list; the group number (lastindex) says which kind.
_OPEN, _CLOSE, _COMMA, _INT, _DECIMAL, _FLOAT, _STRING, _WORD, _MINUS, _SEMICOLON = range(1, 11)
_TOKEN_RE = re.compile(
    r"""[ \t\r\n]*(?:
    (\()
    |(\))
    |(,)
    |(\d+)(?![\w.$'"`])
    |(\d+\.\d*|\.\d+)(?![\w.$'"`])
    |((?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+)(?![\w.$'"`])
    |('(?:[^'\\]|''|\\.)*')
    |([A-Za-z_][A-Za-z0-9_$]*)(?![\w$'"`.(])
    |(-)(?![-])
    |(;)
    )""",
    re.X | re.S,
)
_WORD_LITERALS = {"null": (None, "null"), "true": (True, "bool"), "false": (False, "bool")}
_MAX_FLOAT = float("inf")


def _identifier(text: str) -> str | None:
    """The name an identifier token stands for, or None when the full parser must decide."""
    first = text[0]
    if first == '"':
        return text[1:-1].replace('""', '"')
    if first == "`":
        return text[1:-1].replace("``", "`")
    lowered = text.lower()
    if lowered in RESERVED_WORDS or lowered == "table":
        return None
    return lowered


def _split_identifiers(text: str, separator: str) -> tuple[list[str], list[int]] | None:
    """Split `a . b` or `a, b` into names (and their offsets in `text`)."""
    names, offsets = [], []
    position = 0
    while True:
        match = _IDENT_RE.match(text, position)
        if match is None:
            return None
        name = _identifier(match.group(1))
        if name is None:
            return None
        names.append(name)
        offsets.append(match.start(1))
        position = match.end()
        if position == len(text):
            return names, offsets
        if text[position] != separator:
            return None
        position += 1


def parse_fast_insert(sql: str) -> ast.Insert | None:
    """The Insert node for a literal-only INSERT ... VALUES, or None to use the full parser."""
    header = _HEADER_RE.match(sql)
    if header is None:
        return None
    table = _split_identifiers(header.group("table"), ".")
    if table is None:
        return None
    table_names, table_offsets = table
    columns = None
    if header.group("columns") is not None:
        split = _split_identifiers(header.group("columns"), ",")
        if split is None:
            return None
        columns = tuple(split[0])

    if "\n" in sql:
        line_starts = [0] + [m.end() for m in re.finditer("\n", sql)]

        def position(offset: int) -> tuple[int, int]:
            line = bisect_right(line_starts, offset)
            return (line, offset - line_starts[line - 1] + 1)
    else:

        def position(offset: int) -> tuple[int, int]:
            return (1, offset + 1)

    rows = _scan_rows_uncollected(sql, header.end(), position)
    if rows is None:
        return None
    return ast.Insert(
        tuple(table_names),
        columns,
        rows=rows,
        pos=position(header.start("table") + table_offsets[0]),
    )


def _scan_rows_uncollected(sql: str, start: int, position) -> tuple | None:
    """`_scan_rows` with cyclic garbage collection paused: the scan allocates a literal node and
    a position a value, none of which can be in a cycle, and the collector's passes over them
    (every 700 allocations, and the full pass every hundred of those walks them all) cost a
    10,000-row VALUES list a tenth of its parse. Resumed even when the scan fails."""
    if not gc.isenabled():
        return _scan_rows(sql, start, position)
    gc.disable()
    try:
        return _scan_rows(sql, start, position)
    finally:
        gc.enable()


def _scan_rows(sql: str, start: int, position) -> tuple | None:
    """The rows of the VALUES list starting at `start`, or None when it is not literal-only
    (or not well formed: the full parser will then say why)."""
    literal = ast.literal
    UnaryOp = ast.UnaryOp
    rows = []
    row: list | None = None
    expect_value = False  # after `(` or `,` inside a row
    after_row = False  # after `)`: `,`, `;` or the end
    expect_row = True  # after VALUES or a `,` between rows
    minus_at = -1
    finished = False
    cursor = start
    for match in _TOKEN_RE.finditer(sql, start):
        if match.start() != cursor or finished:
            return None
        cursor = match.end()
        kind = match.lastindex
        if row is not None:
            if kind >= _INT and kind <= _WORD:
                if not expect_value:
                    return None
                offset = match.start(kind)
                text = match.group(kind)
                if kind == _INT:
                    node = literal(int(text), "int", position(offset))
                elif kind == _STRING:
                    node = literal(unescape_string(text), "string", position(offset))
                elif kind == _DECIMAL:
                    node = literal(text, "decimal", position(offset))
                elif kind == _FLOAT:
                    value = float(text)
                    if value == _MAX_FLOAT:
                        return None
                    node = literal(value, "float", position(offset))
                else:
                    word = _WORD_LITERALS.get(text.lower())
                    if word is None:
                        return None
                    node = literal(word[0], word[1], position(offset))
                if minus_at >= 0:
                    if kind == _STRING or kind == _WORD:
                        return None
                    node = UnaryOp("-", node, pos=position(minus_at))
                    minus_at = -1
                row.append(node)
                expect_value = False
            elif kind == _MINUS:
                if not expect_value or minus_at >= 0:
                    return None
                minus_at = match.start(kind)
            elif kind == _COMMA:
                if expect_value or minus_at >= 0:
                    return None
                expect_value = True
            elif kind == _CLOSE:
                if minus_at >= 0 or (expect_value and row):
                    return None
                rows.append(tuple(row))
                row = None
                after_row = True
            else:
                return None
        elif kind == _OPEN:
            if not expect_row:
                return None
            row = []
            expect_value = True
            expect_row = False
        elif after_row and kind == _COMMA:
            after_row = False
            expect_row = True
        elif after_row and kind == _SEMICOLON:
            finished = True
        else:
            return None
    if not rows or row is not None or expect_row:
        return None
    if sql[cursor:].strip():
        return None
    return tuple(rows)
