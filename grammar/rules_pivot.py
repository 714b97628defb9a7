"""Parse callbacks for PIVOT and UNPIVOT after a table or a subquery in FROM."""

from __future__ import annotations

from dataclasses import replace

from lark import Transformer, v_args

from grammar import ast
from grammar.keywords import NEVER_ALIAS_WORDS
from grammar.rule_helpers import (
    SemanticSyntaxError,
    checked_alias,
    ident_name,
    ident_names,
    pos_of,
    table_alias_name,
    unescape_string,
)


def _one_alias(before, after):
    """The alias of a pivoted source: written before PIVOT (as Databend reads it) or after it
    (as Databend's EXPLAIN SYNTAX prints it), not both."""
    if before is not None and after is not None:
        name = after[0]
        raise SemanticSyntaxError(f"unexpected `{name.value}`: the source of PIVOT / UNPIVOT already has an alias",
                                  (name.line, name.column), len(name.value))
    return before if before is not None else after


@v_args(inline=True)
class PivotRules(Transformer):
    """Callbacks of AstBuilder (grammar.transform) for the pivot_operator rules of sql.lark."""

    def pivot_operator(self, keyword, aggregate, key, values):
        return ast.Pivot(None, aggregate, ident_name(key), tuple(values), pos=pos_of(keyword))

    def unpivot_operator(self, keyword, value_column, name_column, *columns):
        return ast.Unpivot(None, ident_name(value_column), ident_name(name_column), columns, pos=pos_of(keyword))

    def unpivot_column(self, token, label=None):
        if token.type == "NAME":
            checked_alias(token, NEVER_ALIAS_WORDS)  # a reserved word names no column
            written, name = token.value, token.value.lower()
        else:  # "quoted" or `quoted`: the name as it is
            quote = token.value[0]
            written = name = token.value[1:-1].replace(quote * 2, quote)
        text = unescape_string(label.value) if label is not None else None
        return ast.UnpivotColumn(name, written, text, pos=pos_of(token))

    def pivoted_table(self, path, alias, operator, alias_after):
        source = ast.TableRef(ident_names(path), table_alias_name(_one_alias(alias, alias_after)),
                              pos=pos_of(path[0]))
        return _with_source(operator, source)

    def pivoted_subquery(self, query, alias, operator, alias_after):
        alias = _one_alias(alias, alias_after)
        name, columns = (ident_name(alias[0]), alias[1]) if alias else (None, None)
        return _with_source(operator, ast.SubqueryRef(query, name, columns, pos=query.pos))


def _with_source(operator, source):
    return replace(operator, source=source, pos=source.pos)
