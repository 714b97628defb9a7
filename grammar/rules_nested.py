"""Parse callbacks of the nested-value literals: [a, b] (ARRAY), {k: v} (MAP) and (a, b) (TUPLE),
each a call of the function that builds the value, marked with the literal form it was written as."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast
from grammar.rule_helpers import SemanticSyntaxError, ident_names, pos_of


def _position(meta_items, default=None):
    for item in meta_items:
        pos = getattr(item, "pos", None)
        if pos is not None:
            return pos
    return default


@v_args(inline=True)
class NestedRules(Transformer):
    def array_literal(self, items=None):
        items = tuple(items or ())
        return ast.FunctionCall("array_literal", items, pos=_position(items), operator="[...]")

    def map_literal(self, *entries):
        entries = [e for e in entries if e is not None]
        args = tuple(part for entry in entries for part in entry)
        return ast.FunctionCall("map_literal", args, pos=_position(args), operator="{...}")

    def map_entry(self, key, value):
        return (key, value)

    def tuple_literal(self, first, rest):
        items = (first, *rest)
        return ast.FunctionCall("tuple_literal", items, pos=_position(items), operator="(...)")

    def single_tuple_literal(self, first):
        """`(x,)`: a tuple of one field."""
        return self.tuple_literal(first, ())

    def tuple_literal_field(self, first, rest, number):
        return _field(self.tuple_literal(first, rest), number)

    def dot_number_field(self, operand, number):
        """`t.1`, `r.1.2`, `(x).2`: the lexer read `.1` as one number after an expression (`t 1`
        is no field access)."""
        if not (number.value.startswith(".") and number.value[1:].isdigit()) or isinstance(operand, ast.Literal):
            raise SemanticSyntaxError(f"unexpected `{number.value}`", pos_of(number))  # (`1.2.3` too)
        return _field(operand, number.update(value=number.value[1:]))

    def column_tuple_field(self, path, number):
        return _field(ast.ColumnRef(ident_names(path), pos=pos_of(path[0])), number)


def _field(operand, number):
    """`t.1`: the tuple's first field (a call of the [] access, written with a dot)."""
    key = ast.Literal(int(number.value), "int", pos=(number.line, number.column))
    return ast.FunctionCall("json_subscript", (operand, key), pos=operand.pos, operator=".")
