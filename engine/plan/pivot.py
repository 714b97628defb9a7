"""PIVOT and UNPIVOT in FROM, rewritten as Databend's binder rewrites them into plain queries
over the planned source (so every limit and the step budget apply as to any query):

- `src PIVOT (agg(x) FOR k IN (v1, v2))` is the derived table
  `(SELECT * EXCLUDE (x, k), agg_if(x, k = v1) AS v1, ... FROM src GROUP BY ALL)`, named as
  the source; agg_if(x, c) is computed here as `agg(x) FILTER (WHERE c)`, which is the same
  aggregate over the rows where c holds;
- `src UNPIVOT (v FOR n IN (c1, c2))` is `SELECT *, unnest(['c1', 'c2']) AS n, unnest([c1, c2])
  AS v FROM src`: one row per listed column of each source row, NULL values kept. As in
  Databend, a SELECT whose whole FROM is the UNPIVOT gets the two columns appended to its
  select list, and its `*` leaves out the listed columns (`unpivot_columns`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine import functions as F
from engine.bind.names import display
from engine.bind.scope import Rel, Scope, StarColumn, and_all
from engine.bind.window_calls import window_calls
from engine.core.errors import (
    BadArguments,
    SemanticError,
    SqlSyntaxError,
    Unimplemented,
    UnknownColumn,
    UnknownFunction,
)
from engine.ir.plan import Filter
from engine.plan.clauses import star_columns
from engine.types import sqltype as T
from grammar import ast as A


@dataclass(frozen=True, eq=False)
class PlannedRel(A.Node):
    """A FROM item already planned (the source of a PIVOT or UNPIVOT): the planner's
    `_relation` gives back its Rel as it is."""

    rel: Any = None


def source_alias(source: A.Node) -> str | None:
    """The name the pivoted rows go by: the source's alias, else the table's name."""
    if source.alias is not None:
        return source.alias
    return source.name[-1] if isinstance(source, A.TableRef) else None


# ---------------------------------------------------------------- PIVOT


def _aggregate_call(node: A.Node) -> A.FunctionCall:
    """PIVOT's aggregate as Databend accepts it: a call (an OVER clause ignored, as Databend
    ignores it) whose arguments are all column names."""
    if isinstance(node, A.WindowCall):
        node = node.func
    if not isinstance(node, A.FunctionCall) or node.star or node.operator is not None:
        raise SqlSyntaxError("Aggregate function is required", position=getattr(node, "pos", None))
    if node.filter is not None:
        raise Unimplemented("PIVOT aggregate FILTER is not supported yet", position=node.pos)
    if not all(isinstance(a, A.ColumnRef) for a in node.args):
        raise SqlSyntaxError("Aggregate column not found", position=node.pos)
    return node


def _value_label(value: A.Node) -> str:
    """The output column of one IN value: the string's text, or the literal as written, read
    as an unquoted name (lower case), as Databend names it."""
    if not isinstance(value, A.Literal):
        raise SqlSyntaxError("Pivot value should be literal", position=value.pos)
    text = value.value if value.kind == "string" else display(value)
    return text.lower()


def pivot_relation(planner, node: A.Pivot, parent, ctes) -> Rel:
    call = _aggregate_call(node.aggregate)
    limit = planner.ctx.limits.in_list_items
    if len(node.values) > limit:
        raise BadArguments(f"PIVOT IN list of {len(node.values)} items exceeds the limit in_list_items = {limit}",
                           position=node.pos)
    labels = [_value_label(v) for v in node.values]
    source = planner._relation(node.source, parent, ctes)
    pos = node.pos
    # the grouping columns: every source column but the aggregated ones and the key (an unknown
    # name is the EXCLUDE list's error, as in Databend)
    exclude = tuple(a.parts[-1] for a in call.args) + (node.key,)
    star_columns(planner, A.Star(exclude=exclude, pos=pos), source.columns)
    if call.name not in F.AGGREGATES:  # Databend looks up `<name>_if`
        known = call.name in F.all_function_names()
        shown = f"'{call.name}_if', do you mean '{call.name}'?" if known else f"{call.name}_if"
        raise UnknownFunction(f"no function matches the given name: {shown}", position=call.pos)
    items = [A.SelectItem(A.Star(exclude=exclude, pos=pos), pos=pos)]
    for value, label in zip(node.values, labels, strict=True):
        if value.kind == "null":  # `key = NULL` is no condition
            raise BadArguments(f"The type of the last argument for IfCombinator({call.name}) must be boolean "
                               "type, but got Null", position=value.pos)
        condition = A.BinaryOp("=", A.ColumnRef((node.key,), pos=value.pos), value, pos=value.pos)
        # Databend's agg_if call keeps the name and arguments only (no DISTINCT)
        items.append(A.SelectItem(replace(call, distinct=False, filter=condition, within_group=()), label, pos=value.pos))
    select = A.Select(tuple(items), from_=PlannedRel(source, pos=pos), group_by=(A.GroupByAll(pos=pos),), pos=pos)
    return planner._derived(select, source_alias(node.source), None, parent, ctes, pos)


# ---------------------------------------------------------------- UNPIVOT


def _signature_name(t: T.SqlType) -> str:
    """A type as Databend's overload errors show it: `Int32 NULL`."""
    return t.as_nullable(False).display() + (" NULL" if t.nullable else "")


def _common_pair(a: T.SqlType, b: T.SqlType) -> T.SqlType | None:
    """The common super type of two array elements as Databend finds it (None: there is none).
    Strings convert to the other side's numbers (integers as Int64), dates or timestamps, a
    conversion that fails at run time on text that is not one."""
    nullable = a.nullable or b.nullable
    x, y = a.as_nullable(False), b.as_nullable(False)
    if x.name == "Null" or y.name == "Null" or x == y:
        return T.common_type([a, b])
    if x.is_numeric and y.is_numeric or {x.name, y.name} == {"Date", "Timestamp"}:
        return T.common_type([a, b])
    if x.is_string or y.is_string:
        other = y if x.is_string else x
        if other.is_string:
            return T.STRING.as_nullable(nullable)
        if other.is_int:
            return T.common_type([T.INT64, other]).as_nullable(nullable)
        if other.is_float:
            return T.FLOAT64.as_nullable(nullable)
        if other.name in ("Decimal", "Date", "Timestamp"):
            return other.as_nullable(nullable)
    return None


def unpivot_value_type(types: list, pos=None) -> T.SqlType:
    """The type of UNPIVOT's value column: the listed columns' common type, folded left to right
    as Databend types the array it unnests; none is Databend's 1065 for that array."""
    common = types[0]
    for t in types[1:]:
        found = _common_pair(common, t)
        if found is None:
            shown = ", ".join(_signature_name(x) for x in types)
            slots = ", ".join("T0" for _ in types)
            raise SemanticError(f"no overload satisfies `array({shown})`\n\nhas tried possible overloads:\n"
                                f"  array({slots}) :: Array(T0)  : unable to find a common super type for "
                                f"`{_signature_name(common)}` and `{_signature_name(t)}`", position=pos)
        common = found
    return common


_CAST_NAMES = {"Int64": "BIGINT", "UInt64": "BIGINT UNSIGNED", "Float64": "DOUBLE", "Date": "DATE",
               "Timestamp": "TIMESTAMP"}


def _converted(ref: A.ColumnRef, have: T.SqlType, want: T.SqlType) -> A.Node:
    """A string column cast to the value type when that is not a string (Databend's automatic
    conversion: text that is no number fails the query, as there)."""
    if not have.is_string or want.is_string:
        return ref
    if want.name == "Decimal":
        type_name = A.TypeName("DECIMAL", (want.precision, want.scale), pos=ref.pos)
    else:
        type_name = A.TypeName(_CAST_NAMES.get(want.name, want.name.upper()), pos=ref.pos)
    return A.Cast(ref, type_name, pos=ref.pos)


def _unnest(items: list, pos) -> A.FunctionCall:
    array = A.FunctionCall("array_literal", tuple(items), pos=pos, operator="[...]")
    return A.FunctionCall("unnest", (array,), pos=pos)


def _filtered(rel: Rel, conditions: list) -> Rel:
    """`rel` with only the rows where every bound condition holds."""
    plan = Filter(rel.plan.layout, rel.plan.types, child=rel.plan, predicate=and_all(conditions))
    return Rel(plan, rel.columns)


def unpivot_relation(planner, node, parent, ctes) -> Rel:
    where = None
    if isinstance(node, UnpivotQuery):
        node, where = node.unpivot, node.where
    source = planner._relation(node.source, parent, ctes)
    early, late = [], []
    for condition in _conjuncts(where) if where is not None else ():
        try:  # a condition naming only source (or outer) columns filters the source rows
            early.append(planner.bind_where(condition, Scope(source.columns, parent, ctes=ctes)))
        except UnknownColumn:
            late.append(condition)
    if early:
        source = _filtered(source, early)
    pos = node.pos
    scope = Scope(source.columns, parent, ctes=ctes)
    refs = [A.ColumnRef((c.name,), pos=c.pos) for c in node.columns]
    types = [planner.bind(ref, scope).type for ref in refs]  # an unknown column is an error here
    value_type = unpivot_value_type(types, pos)
    values = [_converted(ref, t, value_type) for ref, t in zip(refs, types, strict=True)]
    labels = [A.Literal(c.label if c.label is not None else c.written, "string", pos=c.pos) for c in node.columns]
    items = (A.SelectItem(A.Star(pos=pos), pos=pos),
             A.SelectItem(_unnest(labels, pos), node.name_column, pos=pos),
             A.SelectItem(_unnest(values, pos), node.value_column, pos=pos))
    select = A.Select(items, from_=PlannedRel(source, pos=pos), pos=pos)
    rel = planner._derived(select, source_alias(node.source), None, parent, ctes, pos)
    # the listed columns stay readable by name (WHERE, as in Databend) but no `*` shows them
    listed = {c.name.lower() for c in node.columns}
    planner.star_excluded.update(cid for _, name, cid, _ in rel.columns[:len(source.columns)]
                                 if name.lower() in listed)
    if late:  # the others read the new columns, a source column of the same name first (Databend)
        kept = rel.columns[:len(source.columns)]
        names = {c[1].lower() for c in kept}
        visible = Scope(kept + [c for c in rel.columns[len(source.columns):] if c[1].lower() not in names],
                        parent, ctes=ctes)
        rel = _filtered(rel, [planner.bind_where(c, visible) for c in late])
    return rel


def unpivot_columns(planner, from_, rels: list) -> list:
    """The select items Databend appends to a SELECT whose whole FROM is one UNPIVOT: its name
    and value columns, which its `*` leaves out (none for any other FROM)."""
    if not isinstance(from_, UnpivotQuery):
        return []
    generated = rels[0].columns[-2:]
    planner.star_excluded.update(cid for _, _, cid, _ in generated)
    return [A.SelectItem(StarColumn((alias, name) if alias else (name,), cid, t, pos=from_.pos), None)
            for alias, name, cid, t in generated]


def _conjuncts(node) -> list:
    if isinstance(node, A.BinaryOp) and node.op.upper() == "AND":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


@dataclass(frozen=True)
class UnpivotQuery(A.Node):
    """A SELECT's whole FROM when it is one UNPIVOT, with that SELECT's WHERE: Databend filters
    the source rows by the conditions on source columns before it builds their arrays (a row
    dropped is never converted), the rest after."""

    unpivot: A.Unpivot = None
    where: A.Node | None = None


def unpivot_select(q: A.Select) -> A.Select:
    """A SELECT whose FROM is one UNPIVOT, its WHERE handed to the UNPIVOT (the select list is
    completed while planning: `unpivot_columns`)."""
    if q.where is not None and window_calls(q.where, []):
        return q  # the SELECT refuses it
    return replace(q, from_=UnpivotQuery(q.from_, q.where, pos=q.from_.pos), where=None)
