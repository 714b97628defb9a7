"""system.constraints: the CHECK constraints of the stored tables (Table.constraints, name ->
the expression's SQL text, kept by engine.statements.constraints)."""

from __future__ import annotations

import dataclasses

import grammar
from grammar import ast as A

CONSTRAINTS_COLUMNS_NAMES = ("name", "type", "expression", "constraint_column_indexes", "constraint_column_names",
                             "database", "table")


def _column_names(node, out: set) -> set:
    """The (last parts of the) column names an expression's tree mentions."""
    if isinstance(node, A.ColumnRef):
        out.add(node.parts[-1].lower())
    elif isinstance(node, A.Node):
        for f in dataclasses.fields(node):
            _column_names(getattr(node, f.name), out)
    elif isinstance(node, tuple | list):
        for item in node:
            _column_names(item, out)
    return out


def constraints_rows(ctx) -> list[tuple]:
    """A row per constraint, by database, table and constraint name: the positions and names of
    the columns its expression uses (by column order)."""
    rows = []
    catalog = ctx.catalog
    for database in sorted(catalog.databases):
        for name, table in sorted(catalog.databases[database].items()):
            for constraint, text in table.constraints.items():
                used = _column_names(grammar.parse(f"SELECT {text}").items[0].expr, set())
                positions = [i for i, c in enumerate(table.columns) if c.name.lower() in used]
                rows.append((constraint, "check", text, ", ".join(str(i) for i in positions),
                             ", ".join(table.columns[i].name for i in positions), database, name))
    return rows
