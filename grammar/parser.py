"""One lazily built Lark LALR parser per process: parse(sql) -> one AST statement."""

from __future__ import annotations

import functools
import threading
from dataclasses import fields
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from grammar import ast
from grammar.errors import SqlSyntaxError, syntax_error
from grammar.fastinsert import parse_fast_insert
from grammar.hints import with_hints
from grammar.keywords import RESERVED_WORDS
from grammar.transform import AstBuilder, SemanticSyntaxError

GRAMMAR_PATH = Path(__file__).with_name("sql.lark")

# How expected terminals are shown in error messages.
_TERMINAL_DISPLAY = {
    "NAME": "<Ident>",
    "QUOTED_NAME": "<QuotedIdent>",
    "BACKQUOTED_NAME": "<QuotedIdent>",
    "STRING": "<LiteralString>",
    "HEX_STRING": "<LiteralString>",
    "NUMBER": "<LiteralNumber>",
    "COMP_OP": "<comparison>",
    "ADD_OP": "`+`, `-`",
    "MUL_OP": "`/`, `//`, `%`",
    "CONCAT_OP": "`||`",
    "NULL_KW": "`NULL`",
    "INTEGER_KW": "`INTEGER`",
    "WITHIN_GROUP": "`WITHIN`",
    "$END": "end of input",
}
_MAX_EXPECTED_SHOWN = 12
# Deeper ASTs are refused: the planner and compiler walk the tree recursively. This is the default
# of parse(); the engine passes its own limit (Limits.expr_depth).
MAX_NESTING_DEPTH = 64
_CACHED_SQL_LENGTH = 2048
_QUOTE_NAMES = {"'": "string literal", '"': "quoted identifier", "`": "quoted identifier"}

_lock = threading.Lock()
_parser: Lark | None = None


def _retype_reserved(token: Token) -> Token:
    lowered = token.value.lower()
    if lowered in RESERVED_WORDS:
        token.type = lowered.upper()
    return token


def build_parser(**options) -> Lark:
    """A new parser for the grammar (`options` are extra Lark options, e.g. strict=True).

    No `cache=`: Lark's cache file lives at a predictable path in the shared temp directory and
    is read back with pickle, so another local user could plant code in it. Building takes
    under a second (0.7-0.8 s measured under load), once per process (the service warms it at
    start-up)."""
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        transformer=AstBuilder(),
        maybe_placeholders=True,
        lexer_callbacks={"NAME": _retype_reserved},
        **options,
    )


def get_parser() -> Lark:
    """The process-wide parser, built on first use."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                _parser = build_parser()
    return _parser


def parse(sql: str, max_depth: int = MAX_NESTING_DEPTH) -> ast.Node:
    """Parse exactly one statement (an optional trailing `;`). Raises SqlSyntaxError, also for a
    statement whose syntax tree is nested more than `max_depth` levels deep.

    The AST is immutable, so short statements sent again (clients repeat their queries) are
    answered from a small cache."""
    if len(sql) <= _CACHED_SQL_LENGTH:
        return _parse_cached(sql, max_depth)
    return _parse(sql, max_depth)


@functools.lru_cache(maxsize=512)
def _parse_cached(sql: str, max_depth: int) -> ast.Node:
    return _parse(sql, max_depth)


def _parse(sql: str, max_depth: int = MAX_NESTING_DEPTH) -> ast.Node:
    parser = None
    try:
        fast = parse_fast_insert(sql)  # inside: a bad escape in it is a SemanticSyntaxError
        if fast is not None:
            return fast
        parser = get_parser()
        statement = parser.parse(sql)
    except SemanticSyntaxError as exc:
        line, column = exc.pos
        raise syntax_error(sql, line, column, exc.reason, exc.width, exc.code) from None
    except UnexpectedInput as exc:
        raise _from_lark_error(sql, exc, parser) from None
    except VisitError as exc:
        original = exc.orig_exc
        if isinstance(original, SemanticSyntaxError):
            line, column = original.pos
            raise syntax_error(sql, line, column, original.reason, original.width, original.code) from None
        raise syntax_error(sql, 1, 1, f"cannot parse: {original}") from None
    except LarkError as exc:
        raise syntax_error(sql, 1, 1, f"cannot parse: {exc}") from None
    except RecursionError:
        raise syntax_error(sql, 1, 1, "statement is nested too deeply") from None
    # Each nesting level takes at least two characters, so short statements are shallow.
    if len(sql) > 2 * max_depth:
        too_deep = _first_node_deeper_than(statement, max_depth)
        if too_deep is not None:
            line, column = too_deep.pos or (1, 1)
            raise syntax_error(
                sql, line, column, f"nested more than {max_depth} levels deep (limit expr_depth)"
            )
    if "/*+" in sql:
        statement = with_hints(sql, statement)
    return statement


# AND / OR chains (`a OR b OR c ...`, as ORMs write them) are one n-ary operation once bound and
# compile to one flat test chain, so a chain costs one level per CHAIN_TERMS_PER_LEVEL operands
# rather than one per operand; what still grows with a chain is the recursion of the passes
# that walk the tree, which this keeps well inside Python's recursion limit.
_CHAIN_OPS = frozenset({"AND", "OR"})
CHAIN_TERMS_PER_LEVEL = 4


def _first_node_deeper_than(root: ast.Node, limit: int) -> ast.Node | None:
    """A node below `limit` levels of nesting (so later recursive passes cannot overflow)."""
    unit = CHAIN_TERMS_PER_LEVEL
    limit *= unit  # depths are counted in 1/unit levels
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return node
        chain_op = node.op if type(node) is ast.BinaryOp and node.op in _CHAIN_OPS else None
        for name in _child_fields(type(node)):
            value = getattr(node, name)
            if isinstance(value, ast.Node):
                same_chain = chain_op is not None and type(value) is ast.BinaryOp and value.op == chain_op
                stack.append((value, depth + (1 if same_chain else unit)))
            elif isinstance(value, tuple):
                _push_children(stack, value, depth + unit)
    return None


def _push_children(stack, values: tuple, depth: int) -> None:
    for value in values:
        if isinstance(value, ast.Node):
            stack.append((value, depth))
        elif isinstance(value, tuple):
            _push_children(stack, value, depth)


_child_field_cache: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    names = _child_field_cache.get(node_type)
    if names is None:
        names = tuple(f.name for f in fields(node_type) if f.name != "pos")
        _child_field_cache[node_type] = names
    return names


def _describe_expected(expected, parser: Lark) -> str:
    shown = []
    for name in expected:
        display = _TERMINAL_DISPLAY.get(name)
        if display is None:
            display = _terminal_text(name, parser)
        if display not in shown:
            shown.append(display)
    shown.sort(key=lambda text: (not text.startswith("`"), text))
    if len(shown) > _MAX_EXPECTED_SHOWN:
        rest = len(shown) - _MAX_EXPECTED_SHOWN
        shown = shown[:_MAX_EXPECTED_SHOWN] + [f"or {rest} more ..."]
    return ", ".join(shown)


def _terminal_text(name: str, parser: Lark) -> str:
    terminal = _terminals(parser).get(name)
    if terminal is not None and terminal.pattern.type == "str":
        return f"`{terminal.pattern.value.upper()}`"
    return f"`{name}`"


_terminal_cache: dict[str, object] = {}


def _terminals(parser: Lark) -> dict:
    if not _terminal_cache:
        _terminal_cache.update({t.name: t for t in parser.terminals})
    return _terminal_cache


def _from_lark_error(sql: str, exc: UnexpectedInput, parser: Lark) -> SqlSyntaxError:
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        expected = _describe_expected(exc.accepts or exc.expected, parser)
        if token.type == "$END":
            line, column = _end_position(sql)
            return syntax_error(sql, line, column, f"unexpected end of input, expecting {expected}")
        width = len(token.value) if token.value else 1
        return syntax_error(
            sql,
            token.line,
            token.column,
            f"unexpected `{token.value}`, expecting {expected}",
            width,
        )
    if isinstance(exc, UnexpectedCharacters):
        char = sql[exc.pos_in_stream] if exc.pos_in_stream < len(sql) else ""
        if char in _QUOTE_NAMES:
            reason = f"unclosed {_QUOTE_NAMES[char]}"
        else:
            reason = f"unrecognized character `{char}`"
        return syntax_error(sql, exc.line, exc.column, reason)
    if isinstance(exc, UnexpectedEOF):
        line, column = _end_position(sql)
        expected = _describe_expected(exc.expected, parser)
        return syntax_error(sql, line, column, f"unexpected end of input, expecting {expected}")
    return syntax_error(
        sql, getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1, "syntax error"
    )


def _end_position(sql: str) -> tuple[int, int]:
    """(line, column) just after the last non-blank character (1, 1 for blank input)."""
    stripped = sql.rstrip()
    line = stripped.count("\n") + 1
    line_start = stripped.rfind("\n") + 1
    return line, len(stripped) - line_start + 1
