"""Parse callbacks for queries: SELECT, set operations, FROM items and joins, ORDER BY, LIMIT."""

from __future__ import annotations

from dataclasses import replace

from lark import Transformer, v_args

from grammar import ast
from grammar.errors import SEMANTIC_ERROR_CODE
from grammar.keywords import IMPLICIT_ALIAS_FORBIDDEN_WORDS, NEVER_ALIAS_WORDS
from grammar.rule_helpers import (
    RecursiveCtes,
    SemanticSyntaxError,
    alias_text,
    attach_tail,
    checked_alias,
    ident_name,
    ident_names,
    pos_of,
    table_alias_name,
    unescape_string,
)

# table functions that take column aliases: generate_series(1, 3) AS t(g), unnest(t.a) AS u(x)
_COLUMN_NAMING_FUNCTIONS = frozenset({"generate_series", "range", "unnest", "flatten", "json_each",
                                      "json_array_elements", "numbers", "numbers_mt", "numbers_local"})


@v_args(inline=True)
class QueryRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform); v_args applies per class (Lark wraps only a
    class\'s own methods)."""

    # ------------------------------------------------------------ queries

    def start(self, statement):
        return statement

    def query(self, with_clause, body, order_by, limit_clause):
        limit, offset = limit_clause or (None, None)
        if isinstance(body, ast.Select) and body.top:  # TOP n is the LIMIT of the whole query
            if limit is not None:
                raise SemanticSyntaxError("Duplicate LIMIT: TopN and Limit cannot be used together.",
                                          limit.pos, 5, code=SEMANTIC_ERROR_CODE)
            body, limit = replace(body, limit=None, top=False), body.limit
        body = attach_tail(body, order_by or (), limit, offset)
        if with_clause is not None:
            return ast.With(with_clause, body, recursive=isinstance(with_clause, RecursiveCtes),
                            pos=with_clause[0].pos)
        return body

    def with_clause(self, recursive, *ctes):
        return RecursiveCtes(ctes) if recursive is not None else ctes

    def cte(self, name, columns, query):
        return ast.CommonTableExpr(ident_name(name), query, columns, pos=(name.line, name.column))

    def parenthesized_query(self, query):
        return query

    def set_operation(self, left, op, quantifier, right):
        return ast.SetOperation(
            op.value.upper(), left, right, all_=quantifier == "ALL", pos=left.pos
        )

    def set_quantifier(self, token):
        return token.value.upper()

    def select_quantifier(self, token):
        return token.value.upper()

    def select_core(self, quantifier, items, from_, where, group_by, having, windows=None, qualify=None):
        top = quantifier if isinstance(quantifier, ast.Literal) else None  # SELECT TOP n
        if isinstance(quantifier, tuple):  # SELECT DISTINCT TOP n
            quantifier, top = quantifier
        return ast.Select(
            limit=top,
            top=top is not None,
            items=items,
            from_=from_,
            where=where,
            group_by=group_by or (),
            having=having,
            distinct=quantifier == "DISTINCT",
            windows=windows or (),
            qualify=qualify,
            pos=items[0].pos,
        )

    def select_list(self, *items):
        return items

    def star(self, token, exclude=None):
        pos = (token.line, token.column)
        return ast.SelectItem(ast.Star(exclude=exclude or (), pos=pos), pos=pos)

    def qualified_star(self, path, exclude=None):
        pos = pos_of(path[0])
        return ast.SelectItem(ast.Star(ident_names(path), exclude=exclude or (), pos=pos), pos=pos)

    def select_item(self, expr, alias):
        return ast.SelectItem(expr, alias_text(alias), pos=expr.pos)

    def explicit_alias(self, name):
        return checked_alias(name, NEVER_ALIAS_WORDS)

    def implicit_alias(self, name):
        return checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS)

    def string_alias(self, token):
        return unescape_string(token.value)

    def from_clause(self, *refs):
        result = refs[0]
        for right in refs[1:]:
            result = ast.Join("CROSS", result, right, comma=True, pos=result.pos)
        return result

    def where_clause(self, expr):
        return expr

    def having(self, expr):
        return expr

    def order_by(self, *items):
        return items

    def order_item(self, expr, direction, nulls_first):
        desc = direction is not None and direction.value.upper() == "DESC"
        asc = direction is not None and not desc
        return ast.OrderItem(expr, desc, nulls_first, asc=asc, pos=expr.pos)

    def nulls_order(self, token):
        return token.value.upper() == "FIRST"

    def limit_only(self, limit):
        return (limit, None)

    def limit_offset(self, limit, offset):
        return (limit, offset)

    def limit_comma(self, offset, limit):
        return (limit, offset)

    def offset_only(self, offset):
        return (None, offset)

    def explicit_table_alias(self, name, columns):
        return (checked_alias(name, NEVER_ALIAS_WORDS), columns)

    def implicit_table_alias(self, name, columns):
        return (checked_alias(name, IMPLICIT_ALIAS_FORBIDDEN_WORDS), columns)

    def table_ref(self, path, alias):
        alias_name = table_alias_name(alias)
        return ast.TableRef(ident_names(path), alias_name, pos=pos_of(path[0]))

    def table_function(self, name, args, alias):
        columns = None
        if alias is not None and ident_name(name).lower() in _COLUMN_NAMING_FUNCTIONS:
            columns, alias = alias[1], (alias[0], None)  # these name their columns too
        alias_name = table_alias_name(alias)
        return ast.TableFunction(
            ident_name(name).lower(), args or (), alias_name, columns, pos=(name.line, name.column)
        )

    def named_args(self, *args):
        return args

    def named_arg(self, name, value):
        return ast.NamedArg(name.value.lower(), value, pos=(name.line, name.column))

    def lateral_function(self, keyword, name, args, alias):
        function = self.table_function(name, args, alias)
        return ast.LateralFunction(function, pos=(keyword.line, keyword.column))

    def subquery_ref(self, query, alias):
        alias_name, columns = (ident_name(alias[0]), alias[1]) if alias else (None, None)
        return ast.SubqueryRef(query, alias_name, columns, pos=query.pos)

    def join(self, left, kind, right, condition):
        on, using = None, None
        if condition is not None:
            if condition[0] == "on":
                on = condition[1]
            else:
                using = condition[1]
        return ast.Join(kind, left, right, on=on, using=using, pos=left.pos)

    def natural_join(self, left, _natural, kind, right):
        return ast.Join(kind, left, right, natural=True, pos=left.pos)

    def cross_join(self, left, _cross, right):
        return ast.Join("CROSS", left, right, pos=left.pos)

    def join_kind(self, *tokens):
        for token in tokens:
            if token is not None and token.value.upper() in ("LEFT", "RIGHT", "FULL"):
                return token.value.upper()
        return "INNER"

    def join_on(self, expr):
        return ("on", expr)

    def join_using(self, idents):
        return ("using", ident_names(idents))
