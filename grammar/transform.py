"""Lark parse callbacks -> AST nodes (grammar/ast.py), applied inline while parsing: AstBuilder
combines the rule mixins of rules_expressions, rules_queries, rules_statements,
rules_windows, rules_pivot, rules_routines, rules_session and the others."""

from __future__ import annotations

from lark import v_args

from grammar import ast
from grammar.rule_helpers import (
    SemanticSyntaxError,
    ident_names,
    number_literal,
    pos_of,
    unescape_string,
)
from grammar.rules_ddl import DdlRules
from grammar.rules_ddl_more import MoreDdlRules
from grammar.rules_dml import DmlRules
from grammar.rules_experimental import ExperimentalRules
from grammar.rules_expressions import ExpressionRules
from grammar.rules_json import JsonRules
from grammar.rules_nested import NestedRules
from grammar.rules_pivot import PivotRules
from grammar.rules_queries import QueryRules
from grammar.rules_routines import RoutineRules
from grammar.rules_session import SessionRules
from grammar.rules_stages import StageRules
from grammar.rules_statements import StatementRules
from grammar.rules_users import UserRules
from grammar.rules_windows import WindowRules

__all__ = ["AstBuilder", "SemanticSyntaxError", "number_literal", "unescape_string"]


@v_args(inline=True)
class AstBuilder(ExperimentalRules, SessionRules, RoutineRules, PivotRules, NestedRules, UserRules, JsonRules, WindowRules, StageRules, DmlRules, StatementRules, MoreDdlRules, DdlRules, QueryRules, ExpressionRules):
    """One callback per grammar rule (or alias); tokens arrive with their positions."""

    # ------------------------------------------------------------ names

    def plain_ident(self, token):
        return token.update(value=token.value.lower())

    def quoted_ident(self, token):
        return token.update(value=token.value[1:-1].replace('""', '"'))

    def backquoted_ident(self, token):
        return token.update(value=token.value[1:-1].replace("``", "`"))

    def ident_path(self, *parts):
        if len(parts) == 1:
            return parts
        return (*parts[0], parts[1])

    def table_name(self, path):
        return path

    def ident_list(self, *idents):
        return idents

    def column_list(self, idents):
        return ident_names(idents)

    # ------------------------------------------------------------ literals

    def number(self, token):
        return number_literal(token.value, (token.line, token.column))

    def string(self, token):
        return ast.Literal(unescape_string(token.value), "string", pos=(token.line, token.column))

    def dollar_string(self, token):
        """$$text$$: a string literal taken as written (no escapes), as Databend reads it."""
        return ast.Literal(token.value[2:-2], "string", pos=(token.line, token.column))

    def hex_string(self, token):
        digits = token.value[2:-1]
        if len(digits) % 2:
            raise SemanticSyntaxError(
                "hex literal needs an even number of digits",
                (token.line, token.column),
                len(token.value),
            )
        # X'ABCD' is a Binary value (its bytes), as current Databend reads it
        return ast.Literal(bytes.fromhex(digits), "binary", pos=(token.line, token.column))

    def null(self, *tokens):
        return ast.Literal(None, "null", pos=pos_of(tokens[0]) if tokens else None)

    def true(self, token):
        return ast.Literal(True, "bool", pos=(token.line, token.column))

    def false(self, token):
        return ast.Literal(False, "bool", pos=(token.line, token.column))
