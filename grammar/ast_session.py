"""Syntax tree nodes of session state: SET VARIABLE, UNSET VARIABLE and the SETTINGS (...) prefix (re-exported by grammar.ast)."""

from __future__ import annotations

from dataclasses import dataclass

from grammar.ast_base import Node

__all__ = ["SetSessionVariables", "StatementSettings", "UnsetSessionVariables"]


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


@dataclass(frozen=True, slots=True)
class StatementSettings(Node):
    """SETTINGS (name = value, ...) statement: `statement` runs with those settings, which apply
    to it only; names lower-cased, values expressions (constants, as SET takes). `from_hint`:
    given by `/*+ SET_VAR(name = value) */` hints, whose unknown names are ignored."""

    names: tuple[str, ...]
    values: tuple[Node, ...]
    statement: Node
    from_hint: bool = False
