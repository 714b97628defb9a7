"""Syntax errors: Databend code 1005 with line, column and a caret under the offending text."""

from __future__ import annotations

SYNTAX_ERROR_CODE = 1005
SEMANTIC_ERROR_CODE = 1065  # Databend's SemanticError
# Lines longer than this are quoted only around the error.
_MAX_QUOTED_LINE = 160
_QUOTED_CONTEXT = 60


class SqlSyntaxError(Exception):
    """A statement that does not parse. `line` and `column` are 1-based; `message` is the full
    Databend-style text (position header, the offending line, a caret and the reason)."""

    code = SYNTAX_ERROR_CODE

    def __init__(self, message: str, line: int = 1, column: int = 1, code: int = SYNTAX_ERROR_CODE,
                 reason: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        # a few statements parse but break a rule Databend reports as another code (1065:
        # TOP n with LIMIT); `reason` is then the plain text it answers with
        self.code = code
        self.reason = reason

    @property
    def position(self) -> tuple[int, int]:
        return (self.line, self.column)

    def __str__(self) -> str:
        return self.message


def format_syntax_error(sql: str, line: int, column: int, width: int, reason: str) -> str:
    """Render `reason` Databend style, quoting line `line` of `sql` with `width` carets
    starting at `column`."""
    lines = sql.split("\n")
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    text = text.rstrip("\r")
    offset = max(column - 1, 0)
    if len(text) > _MAX_QUOTED_LINE:
        text, offset = _window(text, offset)
    gutter = " " * len(str(line))
    caret_pad = " " * offset
    carets = "^" * max(width, 1)
    return (
        f"error: \n"
        f"  --> SQL:{line}:{column}\n"
        f"{gutter} |\n"
        f"{line} | {text}\n"
        f"{gutter} | {caret_pad}{carets} {reason}\n"
    )


def _window(text: str, offset: int) -> tuple[str, int]:
    """Cut a long line down to the part around `offset` (the caret's new offset)."""
    start = max(offset - _QUOTED_CONTEXT, 0)
    end = offset + _QUOTED_CONTEXT
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(text) else ""
    return prefix + text[start:end] + suffix, len(prefix) + offset - start


def syntax_error(sql: str, line: int, column: int, reason: str, width: int = 1,
                 code: int = SYNTAX_ERROR_CODE) -> SqlSyntaxError:
    """Build a SqlSyntaxError at (line, column) with the caret context."""
    return SqlSyntaxError(format_syntax_error(sql, line, column, width, reason), line, column, code, reason)
