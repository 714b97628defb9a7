"""Optimizer hints: `SELECT /*+ SET_VAR(name = value) ... */ ...` gives the statement settings
for itself, as a SETTINGS (...) prefix does (Databend's docs: sql-reference/sql-hint)."""

from __future__ import annotations

import re

from grammar import ast

# the hint sits right after the statement's first keyword
_HINT = re.compile(r"\s*(?:SELECT|INSERT|REPLACE|UPDATE|DELETE|MERGE|COPY)\s*/\*\+(.*?)\*/", re.I | re.S)
_SET_VAR = re.compile(r"SET_VAR\s*\(\s*(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\"[^\"]*\"|[^)\s]+)\s*\)", re.I)


def with_hints(sql: str, statement: ast.Node) -> ast.Node:
    """`statement` under the SET_VAR hints its text carries (unchanged without any). Databend
    ignores a hint naming an unknown setting, so these ones are marked to be skipped when unknown."""
    match = _HINT.match(sql)
    if match is None:
        return statement
    names, values = [], []
    for name, text in _SET_VAR.findall(match.group(1)):
        names.append(name.lower())
        if text[0] in "'\"":
            values.append(ast.Literal(text[1:-1].replace("\\'", "'"), "string"))
        else:
            values.append(ast.Literal(text, "string"))
    if not names:
        return statement
    return ast.StatementSettings(tuple(names), tuple(values), statement, from_hint=True)
