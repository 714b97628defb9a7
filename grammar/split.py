"""A script cut into its statements by the SQL grammar's own parser (the console runs scripts).

A `;` ends a statement only where the grammar says it does: the parser reads the script token
by token (so a `;` inside a string, a quoted name or a comment is no end), and a statement ends
at the first `;` it accepts, which is the one after a complete statement (`start: statement
";"?`). A statement the grammar cannot read ends the split: the rest of the script, from that
statement on, is one last span marked incomplete, so a caller running the statements in order
stops there with the parser's own error (position and expected tokens) for it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lark.exceptions import LarkError
from lark.lexer import LexerState, LineCounter
from lark.utils import TextSlice

from grammar.parser import get_parser
from grammar.rule_helpers import SemanticSyntaxError

SEMICOLON = "SEMICOLON"
NAMED_PLACEHOLDER = "NAMED_PLACEHOLDER"  # `:name`, bound from a request's params
# what the grammar ignores between tokens (%ignore), plus the `;` of empty statements
_IGNORED_TERMINALS = ("WS", "COMMENT", "BLOCK_COMMENT")


@dataclass(frozen=True)
class StatementSpan:
    """Where one statement is in the script: `start` (its first token) and `end` (after its
    last token, the `;` left out), in characters (code points) of the script. `complete` is
    False for the last span when the grammar could not read it. `params` are the names of its
    `:name` placeholders, in order of first use (those read before an error, if incomplete)."""

    start: int
    end: int
    complete: bool = True
    params: tuple[str, ...] = ()

    def text(self, script: str) -> str:
        return script[self.start:self.end]


class TooManyStatements(ValueError):
    """More statements than the caller accepts in one script."""


def split_statements(script: str, max_statements: int = 10_000) -> list[StatementSpan]:
    """The statements of `script` in order; empty statements (`;;`, comments only) are
    skipped. Raises TooManyStatements past `max_statements`."""
    spans: list[StatementSpan] = []
    position = _skip_ignored(script, 0)
    while position < len(script):
        if len(spans) == max_statements:
            raise TooManyStatements(f"the script has more than {max_statements} statements")
        span, position = _next_statement(script, position)
        spans.append(span)
        if not span.complete:
            break
        position = _skip_ignored(script, position)
    return spans


def _next_statement(script: str, position: int) -> tuple[StatementSpan, int]:
    """The statement starting at `position` (a token) and where the text after it starts:
    read up to the `;` the parser accepts after it, or to the end of the script."""
    interactive = get_parser().parse_interactive(None)
    interactive.lexer_thread.state = _lexer_state(script, position)
    last = position
    params: dict[str, None] = {}  # ordered, without repeats
    try:
        for token in interactive.lexer_thread.lex(interactive.parser_state):
            interactive.feed_token(token)
            if token.type == SEMICOLON:
                return StatementSpan(position, last, True, tuple(params)), token.end_pos
            if token.type == NAMED_PLACEHOLDER:
                params[token.value[1:]] = None
            last = token.end_pos
        interactive.feed_eof(None)
    except (LarkError, SemanticSyntaxError, RecursionError):
        # where the grammar cannot go on (a bad token, or a literal the tree builder refuses);
        # the statement's own run reports why, with its position
        return StatementSpan(position, len(script), False, tuple(params)), len(script)
    return StatementSpan(position, last, True, tuple(params)), len(script)


def _lexer_state(script: str, position: int) -> LexerState:
    """Lark's lexer state at `position` of `script`, without counting the lines before it (a
    TextSlice alone counts them each time, which made splitting quadratic in the script's
    length; the spans need positions, not lines)."""
    counter = LineCounter("\n")
    counter.char_pos = counter.line_start_pos = position
    return LexerState(TextSlice(script, position, len(script)), counter)


@functools.cache
def _ignored() -> re.Pattern:
    """White space, comments (the grammar's own %ignore terminals) and `;`, repeated."""
    patterns = {terminal.name: terminal.pattern.to_regexp()
                for terminal in get_parser().terminals}
    parts = [patterns[name] for name in _IGNORED_TERMINALS] + [";"]
    return re.compile("(?:" + "|".join(f"(?:{part})" for part in parts) + ")*")


def _skip_ignored(script: str, position: int) -> int:
    """The first position at or after `position` where a token starts (or the end)."""
    return _ignored().match(script, position).end()
