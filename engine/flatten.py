"""FLATTEN and the set-returning table functions over a column (LATERAL json_each(t.v)).

`FLATTEN(input => v [, path => 'a.b', outer => bool, recursive => bool, mode => 'object' |
'array' | 'both'])` gives one row per field or element of a VARIANT: seq, key, path, index,
value, this, as Databend does. In FROM, a table function is rewritten into a query whose SELECT
list spreads a set-returning call (engine.unnest) and takes its tuple apart:

    LATERAL FLATTEN(input => t.v) f
    -> LATERAL (SELECT r.1 AS seq, ..., r.6 AS this FROM (SELECT _flatten_rows(t.v, ...) AS r)) f

so a LATERAL one runs once per row of the FROM items before it, as any LATERAL subquery.
"""

from __future__ import annotations

import itertools

from engine import nested as N
from engine import types as T
from engine import variant as V
from engine.errors import BadArguments
from engine.functions.registry import register
from grammar import ast as A

FLATTEN_ROWS = "_flatten_rows"  # the set-returning function behind FLATTEN (not listed)
_STRING = T.STRING.as_nullable(True)
_UINT64 = T.UINT64.as_nullable(True)
_VARIANT = T.SqlType("Variant", True)
FLATTEN_COLUMNS = (("seq", _UINT64), ("key", _STRING), ("path", _STRING), ("index", _UINT64),
                   ("value", _VARIANT), ("this", _VARIANT))
_ROW_TYPE = T.SqlType("Tuple", args=tuple(t for _, t in FLATTEN_COLUMNS))
_ARGUMENTS = ("input", "path", "outer", "recursive", "mode")
_MODES = ("both", "object", "array")


def _walk(value, path: str, recursive: bool, mode: str, out: list) -> None:
    this = V.dumps(value)
    if isinstance(value, dict) and mode != "array":
        items = [(key, f"{path}.{key}" if path else key, None, x) for key, x in value.items()]
    elif isinstance(value, list) and mode != "object":
        items = [(None, f"{path}[{i}]", i, x) for i, x in enumerate(value)]
    else:
        return
    for key, where, index, x in items:
        out.append((key, where, index, V.dumps(x), this))
        if recursive:
            _walk(x, where, recursive, mode, out)


def _flatten_impl(_types):
    """One counter per call site (specialized when a statement binds): seq numbers the inputs."""
    sequence = itertools.count(1)

    def flatten_rows(v, path=None, outer=None, recursive=None, mode=None):
        seq = next(sequence)
        mode_name = (mode or "both").lower()
        if mode_name not in _MODES:
            raise BadArguments(f"Invalid mode '{mode}', expected OBJECT, ARRAY or BOTH")
        rows: list = []
        if v is not None:
            start = V.get_path(v, path) if path else v
            if start is not None:
                _walk(V.load(start), path or "", bool(recursive), mode_name, rows)
        if not rows and outer:
            return N.ArrayValue([N.TupleValue((seq, None, None, None, None, None))])
        return N.ArrayValue(N.TupleValue((seq, *row)) for row in rows)

    return flatten_rows


register(FLATTEN_ROWS, _flatten_impl(()), lambda types: _ROW_TYPE, 1, 5, strict=False, volatile=True,
         specialize=_flatten_impl)

# table functions that become a query spreading a set-returning call: name -> output columns
# (None: one column, the call's value)
_SPREADING = {"flatten": FLATTEN_COLUMNS, "json_each": (("key", None), ("value", None)),
              "json_array_elements": None, "unnest": None}


def spreads(name: str) -> bool:
    return name in _SPREADING


def _flatten_arguments(function: A.TableFunction) -> tuple:
    given: dict = {}
    for arg in function.args:
        if not isinstance(arg, A.NamedArg):
            raise BadArguments("FLATTEN takes its arguments by name: FLATTEN(input => ...)", position=function.pos)
        if arg.name not in _ARGUMENTS:
            raise BadArguments(f"FLATTEN has no argument `{arg.name}` (input, path, outer, recursive, mode)",
                               position=arg.pos)
        given[arg.name] = arg.value
    if "input" not in given:
        raise BadArguments("FLATTEN needs `input => ...`", position=function.pos)
    null = A.Literal(None, "null", pos=function.pos)
    return tuple(given.get(name, null) for name in _ARGUMENTS)


def _field(row: str, i: int, pos) -> A.Node:
    return A.FunctionCall("json_subscript", (A.ColumnRef((row,), pos=pos), A.Literal(i, "int", pos=pos)),
                          operator=".", pos=pos)


def as_query(function: A.TableFunction) -> A.Select:
    """The query a spreading table function in FROM stands for."""
    pos = function.pos
    name = function.name
    if any(isinstance(a, A.NamedArg) for a in function.args) and name != "flatten":
        raise BadArguments(f"{name} takes no arguments by name", position=pos)
    args = _flatten_arguments(function) if name == "flatten" else function.args
    call = A.FunctionCall(FLATTEN_ROWS if name == "flatten" else name, tuple(args), pos=pos)
    columns = _SPREADING[name]
    if columns is None:
        return A.Select((A.SelectItem(call, "value", pos=pos),), pos=pos)
    inner = A.Select((A.SelectItem(call, "_row", pos=pos),), pos=pos)
    items = tuple(A.SelectItem(_field("_row", i + 1, pos), column, pos=pos) for i, (column, _) in enumerate(columns))
    return A.Select(items, from_=A.SubqueryRef(inner, f"_{name}", None, pos=pos), pos=pos)


def lateral_ref(node: A.LateralFunction) -> A.LateralRef:
    function = node.function
    if not spreads(function.name):
        raise BadArguments(f"LATERAL {function.name}(...) is not supported; LATERAL takes FLATTEN, "
                           f"JSON_EACH, JSON_ARRAY_ELEMENTS, UNNEST or a subquery", position=node.pos)
    return A.LateralRef(as_query(function), function.alias or function.name, function.column_aliases,
                        pos=node.pos)
