"""Callbacks of the experimental dialect's expression forms (Databend's `sql_dialect =
'experimental'`, accepted in every dialect here): method calls `x.f(args)` as `f(x, args)`
(`(3).add(4)`, `'a'.upper()`, `s.split(',').array_filter(...)`), the key of a map literal
`{'k': 1}.k`, and list comprehensions
`[expr FOR x IN arr IF cond]` as array_transform(array_filter(arr, x -> cond), x -> expr)."""

from __future__ import annotations

from lark import Transformer, v_args

from grammar import ast


def _lambda(name: str, body, pos):
    """`name -> body`, as the parser writes a lambda (engine.bind.lambdas takes it apart)."""
    return ast.FunctionCall("get", (ast.ColumnRef((name,), pos=pos), body), pos=pos, operator="->")


@v_args(inline=True)
class ExperimentalRules(Transformer):
    def method_call(self, operand, _dot, name, args=None):
        return ast.FunctionCall(name.value, (operand, *(args or ())), pos=operand.pos)

    def map_literal_field(self, *items):
        """{'k': 1}.k: the value of key `k` of a map literal."""
        *entries, name = items
        operand = self.map_literal(*entries)
        key = ast.Literal(name.value, "string", pos=(name.line, name.column))
        return ast.FunctionCall("json_subscript", (operand, key), pos=operand.pos, operator=".")

    def list_comprehension(self, body, _for, variable, array, _if=None, condition=None):
        pos = body.pos
        if condition is not None:
            array = ast.FunctionCall("array_filter", (array, _lambda(variable.value, condition, pos)), pos=pos)
        return ast.FunctionCall("array_transform", (array, _lambda(variable.value, body, pos)), pos=pos)
