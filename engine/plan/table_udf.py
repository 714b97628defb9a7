"""SQL table functions (user functions `RETURNS TABLE (c type, ...) AS $$ query $$`) read in FROM:
the query planned as a derived table, its parameters replaced by the call's arguments and its
columns cast to the declared names and types, as Databend's UDTFs."""

from __future__ import annotations

import grammar
from engine.core.errors import NUMBER_ARGUMENTS_NOT_MATCH, EngineError
from grammar import ast as A
from grammar.ast_base import map_children


def table_udf(routines, name: str):
    """The SQL user function `name` that returns a table, or None."""
    udf = routines.function(name)
    definition = getattr(udf, "definition", None)
    if definition is None or not getattr(definition, "returns_table", None):
        return None
    return udf


def table_udf_query(udf, node: A.TableFunction) -> A.Node:
    """The query a call `f(args)` of the table function reads: SELECT CAST(c AS t) AS name, ...
    FROM (its body, parameters replaced by the arguments)."""
    definition = udf.definition
    params = definition.params
    if len(node.args) != len(params):
        raise EngineError(f"table function {udf.name} expects {len(params)} argument(s), got {len(node.args)}",
                          code=NUMBER_ARGUMENTS_NOT_MATCH, position=node.pos)
    values = {p.name.lower(): A.Cast(arg, p.type, pos=node.pos) for p, arg in zip(params, node.args, strict=True)}

    def substituted(value):
        if isinstance(value, A.ColumnRef) and len(value.parts) == 1 and value.parts[0].lower() in values:
            return values[value.parts[0].lower()]
        return map_children(value, substituted)

    body = substituted(grammar.parse(definition.body_text))
    inner = tuple(f"_c{i}" for i in range(len(definition.returns_table)))
    items = tuple(A.SelectItem(A.Cast(A.ColumnRef((column,), pos=node.pos), type_name, pos=node.pos), name,
                               pos=node.pos)
                  for column, (name, type_name) in zip(inner, definition.returns_table, strict=True))
    return A.Select(items, from_=A.SubqueryRef(body, "_udtf", inner, pos=node.pos), pos=node.pos)
