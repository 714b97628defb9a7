"""CHECK constraints: declared by CREATE TABLE (of a column or of the table) and by ALTER TABLE
... ADD CONSTRAINT (engine.statements.alter), listed by system.constraints
(engine.catalog.constraint_rows), and verified on every row a write commits
(engine.statements.writers calls `check_rows`), as Databend does.

A table keeps each constraint as its expression's SQL text (Table.constraints: name -> text),
which the catalog image stores; the text is parsed and bound against the table's columns when
used. A row passes only when the expression is TRUE (NULL fails, as Databend's verifier)."""

from __future__ import annotations

import grammar
from engine.bind.scope import Scope
from engine.codegen.compile import Codegen
from engine.core.errors import EngineError
from engine.ir.expr import column_ids
from engine.plan.planner import Planner
from engine.statements.view_text import ViewTextPrinter
from grammar import ast as A

CONSTRAINT_ERROR = 1133  # Databend's ConstraintError: a row fails a CHECK
ILLEGAL_REFERENCE = 2747  # Databend's IllegalReference: a constraint no longer binds
ALTER_TABLE_ERROR = 1132

_COMPILED: dict = {}  # (column names and types, text) -> the row filter (a bounded cache)
_COMPILED_KEPT = 256


def _bound(ctx, columns, expr: A.Node):
    """`expr` bound against `columns` (TableColumn); its column ids are the column positions."""
    planner = Planner(ctx)
    scope = Scope([(None, c.name, i, c.type) for i, c in enumerate(columns)])
    planner.next_cid = max(planner.next_cid, len(columns))
    return planner.bind(expr, scope)


def _parsed(text: str) -> A.Node:
    return grammar.parse(f"SELECT {text}").items[0].expr


def constraint_text(expr: A.Node) -> str:
    """The expression as Databend writes it back (`c1 <> 11`), quoting names that need it."""
    return ViewTextPrinter().text(expr)


def declared_constraints(ctx, table_name: str, columns, defs, existing=None) -> dict:
    """name -> text of the CHECK constraints `defs` (A.CheckConstraint, in order) of a table with
    `columns`, after the `existing` ones; each must bind (Databend's binder errors otherwise).
    An unnamed one is named as Databend names it: table_col1_col2_check, then ...check1, ..."""
    constraints = dict(existing or {})
    for definition in defs:
        bound = _bound(ctx, columns, definition.expr)
        name = definition.name
        if name is None:
            used = sorted(column_ids(bound, set()))
            base = table_name + "_" + "".join(columns[i].name + "_" for i in used) + "check"
            name, index = base, 0
            while name in constraints:
                index += 1
                name = f"{base}{index}"
        elif name in constraints:
            raise EngineError(f"Constraint '{name}' already exists", code=ALTER_TABLE_ERROR,
                              position=definition.pos)
        constraints[name] = constraint_text(definition.expr)
    return dict(sorted(constraints.items()))  # kept by name, as Databend's BTreeMap


def check_schema(ctx, table, columns, pos=None) -> None:
    """Before ALTER TABLE changes the columns: every constraint must still bind against the
    new `columns` (2747 names the first that does not, as Databend)."""
    for name, text in table.constraints.items():
        try:
            bound = _bound(ctx, columns, _parsed(text))
            if bound.type is not None and bound.type.name not in ("Boolean", "Null"):
                raise EngineError("not a predicate")
        except EngineError:
            raise EngineError(f"Constraint '{name}' is incompatible with the target schema. Please DROP "
                              f"the constraint before proceeding.", code=ILLEGAL_REFERENCE, position=pos) from None


def _row_filter(ctx, table, text: str):
    """A function returning the first row of a batch the constraint does not accept (None: all pass)."""
    key = (tuple((c.name, c.type) for c in table.columns), text)
    found = _COMPILED.get(key)
    if found is None:
        bound = _bound(ctx, table.columns, _parsed(text))
        codegen = Codegen()
        source = codegen.expr(bound, {i: f"r[{i}]" for i in range(len(table.columns))})
        found = codegen.build(["b"], ["for r in b:", f"    if ({source}) is not True:", "        return r",
                                      "return None"])
        if len(_COMPILED) >= _COMPILED_KEPT:
            _COMPILED.clear()
        _COMPILED[key] = found
    return found


def check_rows(ctx, table, rows) -> None:
    """ConstraintError (1133) when a row of `rows` (about to be committed to `table`) fails one
    of the table's CHECK constraints; nothing is written then."""
    for name, text in table.constraints.items():
        if rows and _row_filter(ctx, table, text)(rows) is not None:
            raise EngineError(f"CHECK constraint failed on table {table.name} with constraint {name} "
                              f"expression {text}", code=CONSTRAINT_ERROR)
