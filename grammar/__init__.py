"""SQL text -> AST (grammar/sql.lark, parsed with Lark LALR)."""

from grammar.errors import SqlSyntaxError
from grammar.parser import parse

__all__ = ["SqlSyntaxError", "parse"]
