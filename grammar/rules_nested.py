"""Parse callbacks of the nested-value literals: [a, b] (ARRAY), {k: v} (MAP) and (a, b) (TUPLE),
each a call of the function that builds the value, marked with the literal form it was written as."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast


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
