"""What the parse callbacks share: type names, string unescaping, number literals, alias checks
and the syntax error a callback raises."""

from __future__ import annotations

import decimal
import re
from dataclasses import dataclass, replace

from lark import Token

from grammar import ast
from grammar.errors import SYNTAX_ERROR_CODE

# Types a column or a CAST may name (Databend names and the usual aliases), upper-cased.
KNOWN_TYPES = frozenset(
    """
    BOOL BOOLEAN
    INT INTEGER BIGINT SMALLINT TINYINT MEDIUMINT SIGNED UNSIGNED
    INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 UINT64
    FLOAT REAL DOUBLE FLOAT32 FLOAT64 VECTOR
    DECIMAL NUMERIC
    VARCHAR CHAR CHARACTER TEXT STRING
    DATE TIMESTAMP DATETIME TIMESTAMP_TZ
    VARIANT JSON BINARY VARBINARY BLOB TINYBLOB MEDIUMBLOB LONGBLOB BITMAP INTERVAL
    GEOMETRY GEOGRAPHY
    """.split()
)
NESTED_TYPES = frozenset({"NULLABLE", "ARRAY", "MAP", "TUPLE"})
# how many element types a nested type takes (TUPLE: any number)
NESTED_ARITY = {"NULLABLE": 1, "ARRAY": 1, "MAP": 2}
# integer types that take UNSIGNED after them (TINYINT UNSIGNED)
UNSIGNED_TYPES = {"TINYINT": "UINT8", "SMALLINT": "UINT16", "INT": "UINT32", "INTEGER": "UINT32",
                  "MEDIUMINT": "UINT32", "BIGINT": "UINT64", "INT8": "UINT8", "INT16": "UINT16", "INT32": "UINT32",
                  "INT64": "UINT64"}
TYPED_LITERAL_TYPES = frozenset({"DATE", "TIMESTAMP", "DATETIME", "TIMESTAMP_TZ"})

BINARY_OP_NAMES = {"!=": "<>", "==": "=", "MOD": "%"}

# Backslash escapes inside '...' strings (checked against Databend); \\, \' and \" stand for
# the character, \% and \_ keep their backslash (LIKE escapes) as does any escape not listed.
# \a, \v and \Z are read as the clients (databend-py, databend-sqlalchemy) write those characters.
_BACKSLASH_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "Z": "\x1a",
    "%": "\\%",
    "_": "\\_",
}
# \xH[H], \uH[HHH] and octal \O[OO] as Databend reads them (fewer digits are fine; `\x` or `\u`
# with none is NUL), then any one character
_STRING_ESCAPE_RE = re.compile(r"\\(x[0-9a-fA-F]{0,2}|u[0-9a-fA-F]{0,4}|[0-7]{1,3}|.)|''", re.S)
_KEPT_AS_WRITTEN = frozenset("\\'\"")  # \\ \' \" stand for the character itself


def _replace_escape(match: re.Match) -> str:
    escaped = match.group(1)
    if escaped is None:
        return "'"
    first = escaped[0]
    if len(escaped) > 1 or first in "xu" or first in "01234567":
        if first in "xu":
            code = int(escaped[1:] or "0", 16)
            if 0xD800 <= code <= 0xDFFF:
                raise SemanticSyntaxError(f"invalid escape \\{escaped}: a lone UTF-16 surrogate", (1, 1))
            return chr(code)
        return chr(int(escaped, 8))
    known = _BACKSLASH_ESCAPES.get(first)
    if known is not None:
        return known
    # Databend keeps the backslash of an escape it does not know (\q is two characters)
    return first if first in _KEPT_AS_WRITTEN else "\\" + first


def unescape_string(quoted: str) -> str:
    """The value of a '...' string literal as written in SQL (quotes included)."""
    body = quoted[1:-1]
    if "\\" not in body and "''" not in body:
        return body
    return _STRING_ESCAPE_RE.sub(_replace_escape, body)


def _exact_digits(text: str) -> int:
    """The digits a number written with an exponent takes as an exact decimal (1234.5e-10 is
    0.00000012345: 11 digits; 1.5e3 is 1500: 4)."""
    t = decimal.Decimal(text).as_tuple()  # exact (normalize() would round to 28 digits)
    significant = "".join(map(str, t.digits)).rstrip("0")
    digits, exponent = len(significant), t.exponent + len(t.digits) - len(significant)
    return digits + exponent if exponent >= 0 else max(digits, -exponent)


def number_literal(text: str, pos: ast.Pos) -> ast.Literal:
    """Classify a numeric token: 'int', 'decimal' (value kept as text) or 'float' (exponent)."""
    text = text.replace("_", "")  # 12_000_111_222 (digit groups)
    if "e" in text or "E" in text:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise SemanticSyntaxError(f"number `{text}` is out of range", pos, len(text))
        if _exact_digits(text) > 76:  # as Databend reads it exactly: beyond Decimal(76), a Float64
            return ast.Literal(value, "float64", pos=pos)
        return ast.Literal(value, "float", pos=pos)
    if "." in text:
        return ast.Literal(text, "decimal", pos=pos)
    digits = len(text.lstrip("0"))
    if digits > 309:  # beyond any Float64 (Python's int() also refuses over 4300 digits)
        raise SemanticSyntaxError(f"number of {digits} digits is out of range", pos, len(text))
    return ast.Literal(int(text), "int", pos=pos)


class SemanticSyntaxError(Exception):
    """A problem found while building the AST (unknown type, bad literal); parser.py turns it
    into a SqlSyntaxError with the caret context."""

    def __init__(self, reason: str, pos: ast.Pos, width: int = 1, code: int = SYNTAX_ERROR_CODE):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos or (1, 1)
        self.width = width
        self.code = code  # Databend's code when it is not a syntax error (1005)


def pos_of(item) -> ast.Pos:
    if isinstance(item, Token):
        return (item.line, item.column)
    if isinstance(item, ast.Node):
        return item.pos
    if isinstance(item, tuple) and item:
        return pos_of(item[0])
    return None


def ident_name(token: Token) -> str:
    return str(token.value)


def ident_names(tokens) -> tuple[str, ...]:
    return tuple(str(t.value) for t in tokens)


def _can_take_tail(query: ast.Node) -> bool:
    """Whether `query` is a Select or SetOperation with no ORDER BY / LIMIT / OFFSET yet."""
    if isinstance(query, ast.Select | ast.SetOperation | ast.Values):
        return not query.order_by and query.limit is None and query.offset is None
    return False


def attach_tail(query: ast.Node, order_by, limit, offset) -> ast.Node:
    """Give `query` an ORDER BY / LIMIT / OFFSET, wrapping it in SELECT * FROM (query) when it
    already has its own (e.g. a parenthesised query with a LIMIT)."""
    if not order_by and limit is None and offset is None:
        return query
    if _can_take_tail(query):
        return replace(query, order_by=order_by, limit=limit, offset=offset)
    pos = query.pos
    return ast.Select(
        items=(ast.SelectItem(ast.Star(pos=pos), pos=pos),),
        from_=ast.SubqueryRef(query, pos=pos),
        order_by=order_by,
        limit=limit,
        offset=offset,
        pos=pos,
    )


@dataclass(frozen=True, slots=True)
class CommentOption:
    """A COMMENT option, told apart from a DEFAULT expression among a column's options."""

    text: str


@dataclass(frozen=True, slots=True)
class NamedOption:
    """name = value among a table's options (name lower-case, value as text)."""

    name: str
    value: str


def option_text(token) -> str:
    """A table option's value as text: a string unquoted, a number or a word as written."""
    if token.type == "STRING":
        return unescape_string(token.value)
    return str(token.value)


def checked_alias(name: Token, reserved: frozenset[str]) -> Token:
    """`name` unless it is an unquoted reserved word (quote it to use it as an alias)."""
    if name.type == "NAME" and name.value.lower() in reserved:
        raise SemanticSyntaxError(
            f"unexpected `{name.value}`: a reserved keyword cannot be an alias unless quoted",
            (name.line, name.column),
            len(name.value),
        )
    return name


def table_alias_name(alias) -> str | None:
    """The alias of a table or table function; column aliases are for subqueries only."""
    if alias is None:
        return None
    name, columns = alias
    if columns is not None:
        raise SemanticSyntaxError(
            "column aliases are only supported for subqueries",
            (name.line, name.column),
            len(name.value),
        )
    return ident_name(name)


def alias_text(alias) -> str | None:
    if alias is None:
        return None
    if isinstance(alias, Token):
        return str(alias.value)
    return alias


class RecursiveCtes(tuple):
    """The CTEs of WITH RECURSIVE (a plain tuple for WITH)."""

    __slots__ = ()


def check_assignments(assignments, table: tuple, alias: str | None) -> None:
    """UPDATE / MERGE `SET t.c = v`: the qualifier must name the target table (its alias, its
    name, or database.name), as Databend; else a syntax error at the qualifier."""
    allowed = {table[-1].lower(), ".".join(table).lower()}
    if alias is not None:
        allowed = {alias.lower()}
    for a in assignments:
        if a.qualifier is not None and a.qualifier.lower() not in allowed:
            raise SemanticSyntaxError(f"`{a.qualifier}.{a.column}` does not name a column of the table being "
                                      f"updated", a.pos, len(a.qualifier))
