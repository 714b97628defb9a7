"""CLUSTER BY keys as CREATE TABLE and ALTER TABLE treat them (the keys are kept for SHOW CREATE
TABLE and system.tables only: nothing is clustered here): a key must be deterministic (1081), a
column a key uses cannot be dropped or modified (1132), and renaming it rewrites the key."""

from __future__ import annotations

import dataclasses

import grammar
from engine.core.errors import EngineError
from engine.statements.view_text import ViewTextPrinter
from grammar import ast as A

INVALID_CLUSTER_KEYS = 1081
ALTER_TABLE_ERROR = 1132
# functions whose value changes from call to call: no cluster key may use them (Databend's
# non-deterministic functions)
_NOT_DETERMINISTIC = frozenset({"rand", "random", "uuid", "gen_random_uuid", "uuid_v4", "nextval"})


def _walk(node):
    """Every node of an expression's tree."""
    yield node
    if isinstance(node, A.Node):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            for item in value if isinstance(value, tuple | list) else (value,):
                if isinstance(item, A.Node | tuple | list):
                    yield from _walk(item)


def check_deterministic(keys, pos=None) -> None:
    """1081 when a CLUSTER BY key calls a function whose value is not determined by its arguments."""
    for key in keys:
        for node in _walk(key):
            if isinstance(node, A.FunctionCall) and node.name.lower() in _NOT_DETERMINISTIC:
                raise EngineError(f"Cluster by expression `{ViewTextPrinter().text(key)}` is not deterministic",
                                  code=INVALID_CLUSTER_KEYS, position=pos)


def _keys(cluster_by: str) -> tuple:
    """The key expressions of a kept CLUSTER BY text '(a, f(b))'."""
    return grammar.parse(f"SELECT {cluster_by[1:-1]}").items


def check_not_clustered(table, name: str, what: str, pos=None) -> None:
    """1132 when a CLUSTER BY key of `table` uses column `name` (DROP / MODIFY COLUMN of it)."""
    if not table.cluster_by:
        return
    lowered = name.lower()
    for item in _keys(table.cluster_by):
        if any(isinstance(n, A.ColumnRef) and n.parts[-1].lower() == lowered for n in _walk(item.expr)):
            raise EngineError(f"cannot {what} column {name}: the cluster key {table.cluster_by} uses it",
                              code=ALTER_TABLE_ERROR, position=pos)


def renamed_cluster_by(table, old: str, new: str) -> str:
    """The table's CLUSTER BY text with column `old` renamed `new` (names quoted where needed)."""
    if not table.cluster_by:
        return table.cluster_by
    lowered = old.lower()

    def rename(node):
        if isinstance(node, A.ColumnRef) and node.parts[-1].lower() == lowered:
            return dataclasses.replace(node, parts=(*node.parts[:-1], new))
        if isinstance(node, A.Node):
            changes = {}
            for f in dataclasses.fields(node):
                value = getattr(node, f.name)
                if isinstance(value, A.Node):
                    changes[f.name] = rename(value)
                elif isinstance(value, tuple) and any(isinstance(v, A.Node) for v in value):
                    changes[f.name] = tuple(rename(v) if isinstance(v, A.Node) else v for v in value)
            return dataclasses.replace(node, **changes) if changes else node
        return node

    printer = ViewTextPrinter()
    return "(" + ", ".join(printer.text(rename(item.expr)) for item in _keys(table.cluster_by)) + ")"
