"""Syntax tree nodes of session state: SET VARIABLE and UNSET VARIABLE (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node

__all__ = ["SetSessionVariables", "UnsetSessionVariables"]


@dataclass(frozen=True, slots=True)
class SetSessionVariables(Node):
    """SET VARIABLE name = expr / (a, b) = (expr, expr) / (a, b) = (SELECT ...): names
    lower-cased; either `values` (one expression per name) or `query` (one row, one column per
    name) is set."""

    names: tuple[str, ...]
    values: tuple[Node, ...] = ()
    query: Node | None = None


@dataclass(frozen=True, slots=True)
class UnsetSessionVariables(Node):
    """UNSET VARIABLE name / (a, b): names lower-cased."""

    names: tuple[str, ...]
