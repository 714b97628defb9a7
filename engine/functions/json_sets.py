"""Set-returning JSON functions, as Databend has them: json_path_query(v, path) (one row per
match), json_array_elements(v) (one per element) and json_each(v) (one (key, value) per field).

In a SELECT list each call's value here is the list of what it returns, and the planner spreads
it over rows as it spreads unnest (engine.exec.unnest): a NULL or empty list gives no row. In FROM
(`SELECT * FROM json_each(...)`) a constant argument gives a table (engine.plan.clauses).
"""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.functions.json import VARIANT_OR_NULL, _checked
from engine.functions.registry import fixed, register
from engine.types import json_path
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import variant as V

STRING_OR_NULL = T.STRING.as_nullable(True)
EACH_TYPE = T.SqlType("Tuple", args=(STRING_OR_NULL, VARIANT_OR_NULL))  # Tuple(key, value)


def _path_query(v, path):
    if v is None or path is None:
        return None
    try:
        found = json_path.query(V.load(v), json_path.compile_path(path))
    except BadArguments as e:
        raise BadArguments(f"{e} while evaluating function `json_path_query({V.sql_literal(v)}, "
                           f"{V.sql_literal(path)})`") from None
    return N.ArrayValue(V.dumps(x) for x in found)


def array_elements(v):
    """The elements of a VARIANT array (JSON text each); nothing for other values."""
    if v is None:
        return None
    value = V.load(v)
    return N.ArrayValue(V.dumps(x) for x in value) if isinstance(value, list) else N.ArrayValue(())


def each_field(v):
    """(key, value) of each field of a VARIANT object; nothing for other values."""
    if v is None:
        return None
    value = V.load(v)
    if not isinstance(value, dict):
        return N.ArrayValue(())
    return N.ArrayValue(N.TupleValue((key, V.dumps(x))) for key, x in value.items())


# never folded into constants (volatile): the planner must see each call to spread it
register("json_path_query", _path_query, _checked("json_path_query", ("variant", "string"), fixed(VARIANT_OR_NULL)),
         2, strict=False, volatile=True)
register("json_array_elements", array_elements,
         _checked("json_array_elements", ("variant",), fixed(VARIANT_OR_NULL)), 1, strict=False, volatile=True)
register("json_each", each_field, _checked("json_each", ("variant",), lambda ts: EACH_TYPE), 1, strict=False,
         volatile=True)

SET_RETURNING = frozenset({"unnest", "json_path_query", "json_array_elements", "json_each", "jq",
                           "_flatten_rows", "_flatten_each_row"})  # the last two: FLATTEN (engine.plan.flatten)
