"""Binding a request's `params` to the statement's placeholders (`?` and `:name`), as values.

databend-driver >= 0.34 sends `{"sql": "SELECT ?, ?", "params": [1, "a"]}` (an array binds each
`?` in the order written) or `{"sql": "... :name ...", "params": {"name": ...}}` (an object binds
each `:name`). As Databend does (its substitute_params), each placeholder of the syntax tree is
replaced by a constant node before the statement binds; the SQL text is never touched, so a
string holding `'); DROP TABLE t; --` is one String value. JSON null is NULL, a bool a Boolean,
an integer the integer literal of that value (UInt8 ... UInt64, a negative one the negation of
its magnitude, so `-1` is Int16 as the literal `-1` is), one outside -2^63..2^64-1 and any other
number a Float64, a string a String, an array or an object `parse_json('<its JSON>')` (Variant).

Without params, a placeholder is a syntax error, except `INSERT|REPLACE INTO t VALUES (?, ...)`
whose rows come from a stage attachment (the placeholders only say the row's width).
"""

from __future__ import annotations

import json
from dataclasses import fields, replace

from engine.core.errors import BadArguments, SqlSyntaxError
from grammar import ast
from grammar.errors import format_syntax_error

__all__ = ["bind_params"]


def bind_params(stmt, params, sql: str = ""):
    """`stmt` with its placeholders replaced by the values of `params` (a list, a dict, or None
    when the request sent none); BadArguments (1006) with Databend's words when they do not fit."""
    if sql and "?" not in sql and ":" not in sql:  # no placeholder can be in the tree
        return stmt
    found: list[ast.Placeholder] = []
    _collect(stmt, found)
    if not found:
        return stmt
    if params is None:
        return _without_params(stmt, found, sql)
    values = _values_by_position(found, params)
    return _replace(stmt, values)


def _without_params(stmt, found, sql):
    if isinstance(stmt, (ast.Insert, ast.Replace)) and stmt.rows is not None and len(stmt.rows) == 1 \
            and stmt.rows[0] and all(_is_positional(item) for item in stmt.rows[0]):
        return replace(stmt, rows=None)  # `VALUES (?, ?)`: the rows of a stage attachment
    first = min(found, key=_position)
    line, column = first.pos or (1, 1)
    text = "?" if first.name is None else f":{first.name}"
    reason = f"unexpected `{text}`: a placeholder needs a value from the request's params"
    message = format_syntax_error(sql, line, column, len(text), reason) if sql else reason
    raise SqlSyntaxError(message, position=(line, column))


def _values_by_position(found, params) -> dict:
    """{id of a placeholder: the node of its value}; positional ones numbered in text order."""
    values = {}
    index = 0
    for placeholder in sorted(found, key=_position):
        if placeholder.name is None:
            if not isinstance(params, list):
                raise BadArguments("params must be a JSON array for positional placeholders (?)",
                                   position=placeholder.pos)
            index += 1
            if index > len(params):
                raise BadArguments(f"not enough parameters: placeholder index {index} but only "
                                   f"{len(params)} params provided", position=placeholder.pos)
            value = params[index - 1]
        else:
            if not isinstance(params, dict):
                raise BadArguments("params must be a JSON object for named placeholders (:name)",
                                   position=placeholder.pos)
            if placeholder.name not in params:
                raise BadArguments(f"missing named parameter: :{placeholder.name}",
                                   position=placeholder.pos)
            value = params[placeholder.name]
        values[id(placeholder)] = value_node(value, placeholder.pos)
    return values


def value_node(value, pos=None) -> ast.Node:
    """The constant a JSON value binds as (see the module docstring)."""
    if value is None:
        return ast.Literal(None, "null", pos=pos)
    if isinstance(value, bool):
        return ast.Literal(value, "bool", pos=pos)
    if isinstance(value, int):
        if 0 <= value < 2 ** 64:
            return ast.Literal(value, "int", pos=pos)
        if -(2 ** 63) <= value < 0:
            return ast.UnaryOp("-", ast.Literal(-value, "int", pos=pos), pos=pos)
        try:
            return ast.Literal(float(value), "float64", pos=pos)
        except OverflowError:
            raise BadArguments(f"parameter {value} is out of range", position=pos) from None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise BadArguments(f"parameter {value} is not a finite number", position=pos)
        return ast.Literal(value, "float64", pos=pos)
    if isinstance(value, str):
        return ast.Literal(value, "string", pos=pos)
    if isinstance(value, (list, dict)):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return ast.FunctionCall("parse_json", (ast.Literal(text, "string", pos=pos),), pos=pos)
    raise BadArguments(f"parameter of type {type(value).__name__} is not a JSON value", position=pos)


def _is_positional(node) -> bool:
    return isinstance(node, ast.Placeholder) and node.name is None


def _position(node) -> tuple:
    return node.pos or (0, 0)


def _children(node):
    """The field values of a node worth walking (the `?` of a FROM @stage's VALUES row name the
    file's columns, not params: not walked)."""
    if isinstance(node, ast.StageSource):
        return
    for f in fields(node):
        yield f.name, getattr(node, f.name)


def _collect(value, found: list) -> None:
    if isinstance(value, ast.Placeholder):
        found.append(value)
    elif isinstance(value, ast.Node):
        for _, child in _children(value):
            _collect(child, found)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _collect(item, found)


def _replace(value, values: dict):
    """`value` with each placeholder replaced by its node in `values` (unchanged parts shared)."""
    if isinstance(value, ast.Placeholder):
        return values[id(value)]
    if isinstance(value, ast.Node):
        changes = {}
        for name, child in _children(value):
            new = _replace(child, values)
            if new is not child:
                changes[name] = new
        return replace(value, **changes) if changes else value
    if isinstance(value, (tuple, list)):
        items = [_replace(item, values) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    return value
