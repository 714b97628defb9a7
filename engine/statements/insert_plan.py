"""Which columns an INSERT (or a load) writes and how: positions, converters, and the filler
that gives the other columns their defaults."""

from __future__ import annotations

from engine.catalog.catalog import Table
from engine.catalog.routines import SequenceDefault
from engine.core.errors import BadArguments
from engine.types.convert import type_default, value_converter
from engine.types.nested import holds_temporal


def column_plan(table: Table, names):
    """Positions of the written columns in the table, and fillers for the others."""
    if names is None:
        return list(range(len(table.columns)))
    positions = []
    for n in names:
        i = table.column_index(n)
        if i is None:
            valid = ", ".join(f'"{c.name}"' for c in table.columns)
            raise BadArguments(f'Unable to get field named "{n}". Valid fields: [{valid}]')
        if i in positions:
            raise BadArguments(f"column `{n}` specified twice")
        positions.append(i)
    return positions


def _fill_row_factory(table: Table, positions):
    n = len(table.columns)
    if positions == list(range(n)):
        return None
    template = [c.default if c.default is not None else type_default(c.type) for c in table.columns]
    generated = [(i, d) for i, d in enumerate(template) if type(d) is SequenceDefault and i not in positions]
    if generated:  # DEFAULT nextval(s): a value per row
        def fill_generated(values):
            row = list(template)
            for i, default in generated:
                row[i] = default.next()
            for i, v in zip(positions, values, strict=False):
                row[i] = v
            return tuple(row)

        return fill_generated

    def fill(values):
        row = list(template)
        for i, v in zip(positions, values, strict=False):
            row[i] = v
        return tuple(row)

    return fill


def insert_plan(table: Table, positions, timezone: str = "UTC"):
    """Per-column converters and the row filler for these written columns (cached per table
    and session time zone: text written into a Date or Timestamp is read in it)."""
    key = (*positions, timezone)
    plan = table.insert_plans.get(key)
    if plan is None:
        converters = [value_converter(table.columns[i].type, table.columns[i].name, timezone=timezone)
                      for i in positions]
        plan = table.insert_plans[key] = (converters, _fill_row_factory(table, positions))
    return plan


_ZONED = frozenset({"Date", "Timestamp"})


def session_insert_plan(table: Table, positions, ctx):
    """insert_plan for a statement's session, reading its time zone only when a written column
    is a Date or Timestamp, or holds one (ARRAY(TIMESTAMP)...) (the single-row INSERT is a hot
    statement: most tables have none). Which column sets need the zone is cached too."""
    key = tuple(positions)
    plan = table.insert_plans.get(key)  # zone-free column sets are cached under the positions
    if plan is _NEEDS_ZONE:
        return insert_plan(table, positions, ctx.timezone)
    if plan is not None:
        return plan
    if any(table.columns[i].type.name in _ZONED or holds_temporal(table.columns[i].type) for i in positions):
        table.insert_plans[key] = _NEEDS_ZONE
        return insert_plan(table, positions, ctx.timezone)
    plan = table.insert_plans[key] = insert_plan(table, positions)
    return plan


# cached under a column set whose plan depends on the session zone (insert_plan caches it per
# zone, under the positions and the zone's name)
_NEEDS_ZONE = object()
