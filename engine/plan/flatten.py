"""FLATTEN and the set-returning table functions over a column (LATERAL json_each(t.v)).

`FLATTEN(input => v [, path => 'a.b', outer => bool, recursive => bool, mode => 'object' |
'array' | 'both'])` gives one row per field or element of a VARIANT: seq, key, path, index,
value, this, as Databend does. In FROM, a table function is rewritten into a query whose SELECT
list spreads a set-returning call (engine.exec.unnest) and takes its tuple apart:

    LATERAL FLATTEN(input => t.v) f
    -> LATERAL (SELECT r.1 AS seq, ..., r.6 AS this FROM (SELECT _flatten_rows(t.v, ...) AS r)) f

so a LATERAL one runs once per row of the FROM items before it, as any LATERAL subquery. So does
one without the keyword whose arguments name columns (`FROM t, FLATTEN(t.v) f`, as Databend
allows); its `seq` is 1 for every row, as Databend 1.2.453 numbers it there (after LATERAL, seq
counts the input rows).
"""

from __future__ import annotations

import itertools

from engine.core.errors import BadArguments, SemanticError
from engine.functions.registry import register
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import variant as V
from grammar import ast as A

FLATTEN_ROWS = "_flatten_rows"  # the set-returning function behind FLATTEN (not listed)
FLATTEN_EACH_ROW = "_flatten_each_row"  # the same, seq always 1 (FLATTEN without LATERAL)
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


def _flatten_impl(_types, counting: bool = True):
    """One counter per call site (specialized when a statement binds): seq numbers the inputs
    (always 1 unless `counting`)."""
    sequence = itertools.count(1) if counting else itertools.repeat(1)

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
register(FLATTEN_EACH_ROW, _flatten_impl((), False), lambda types: _ROW_TYPE, 1, 5, strict=False, volatile=True,
         specialize=lambda types: _flatten_impl(types, False))

# table functions that become a query spreading a set-returning call: name -> output columns
# (None: one column, the call's value, named `value`, or as _SINGLE_COLUMN says)
_SPREADING = {"flatten": FLATTEN_COLUMNS, "json_each": (("key", None), ("value", None)),
              "json_array_elements": None, "unnest": None, "jq": None}
_SINGLE_COLUMN = {"jq": "jq"}  # Databend names jq's column after the function


def spreads(name: str) -> bool:
    return name in _SPREADING


def _flatten_arguments(function: A.TableFunction) -> tuple:
    """FLATTEN's arguments in order: by name, or (as Databend also takes them) by position
    (input, path, outer, recursive, mode)."""
    given: dict = {}
    named = [arg for arg in function.args if isinstance(arg, A.NamedArg)]  # (the grammar takes no mix)
    if not named:
        if len(function.args) > len(_ARGUMENTS):
            raise BadArguments(f"FLATTEN takes at most {len(_ARGUMENTS)} arguments", position=function.pos)
        given = dict(zip(_ARGUMENTS, function.args, strict=False))
    for arg in named:
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


def as_query(function: A.TableFunction, each_row: bool = False) -> A.Select:
    """The query a spreading table function in FROM stands for (`each_row`: run once per row of
    the FROM items before it without the LATERAL keyword)."""
    pos = function.pos
    name = function.name
    if any(isinstance(a, A.NamedArg) for a in function.args) and name != "flatten":
        raise BadArguments(f"{name} takes no arguments by name", position=pos)
    args = _flatten_arguments(function) if name == "flatten" else function.args
    flatten_rows = FLATTEN_EACH_ROW if each_row else FLATTEN_ROWS
    call = A.FunctionCall(flatten_rows if name == "flatten" else name, tuple(args), pos=pos)
    columns = _SPREADING[name]
    if columns is None:
        return A.Select((A.SelectItem(call, _SINGLE_COLUMN.get(name, "value"), pos=pos),), pos=pos)
    inner = A.Select((A.SelectItem(call, "_row", pos=pos),), pos=pos)
    items = tuple(A.SelectItem(_field("_row", i + 1, pos), column, pos=pos) for i, (column, _) in enumerate(columns))
    return A.Select(items, from_=A.SubqueryRef(inner, f"_{name}", None, pos=pos), pos=pos)


def column_names(function: A.TableFunction) -> tuple | None:
    """The output columns' names of a spreading table function given column aliases (`AS u(x)`):
    the first ones renamed, as Databend does (more aliases than columns: 1065); None without."""
    aliases = function.column_aliases
    if not aliases:
        return None
    columns = _SPREADING[function.name]
    names = [n for n, _ in columns] if columns is not None else [_SINGLE_COLUMN.get(function.name, "value")]
    if len(aliases) > len(names):
        raise SemanticError(f"table has {len(names)} columns available but {len(aliases)} columns specified",
                            position=function.pos)
    return tuple(aliases) + tuple(names[len(aliases):])


def reads_columns(function: A.TableFunction) -> bool:
    """Whether a spreading table function's arguments name a column (`FLATTEN(t.v)`): after
    other FROM items, it then runs once per row of them, as after LATERAL."""
    return spreads(function.name) and any(_names_a_column(a) for a in function.args)


def _names_a_column(node) -> bool:
    if isinstance(node, A.ColumnRef):
        return True
    if isinstance(node, tuple):
        return any(_names_a_column(x) for x in node)
    if not isinstance(node, A.Node):
        return False
    return any(_names_a_column(getattr(node, name)) for name in node.__dataclass_fields__)


def each_row_ref(function: A.TableFunction) -> A.LateralRef:
    """`FROM t, FLATTEN(t.v) f` as `FROM t, LATERAL (...) f` (reads_columns said so)."""
    return A.LateralRef(as_query(function, each_row=True), function.alias or function.name, column_names(function),
                        pos=function.pos)


def series_query(function: A.TableFunction) -> A.Select:
    """LATERAL generate_series(a, b[, step]) / range(a, b[, step]) of integers: unnest of the
    range array (generate_series includes b), in a column named as the function."""
    pos = function.pos
    if not 2 <= len(function.args) <= 3:
        raise SemanticError(f"Function `{function.name}` expect to have [2, 3] arguments, but got "
                            f"{len(function.args)}", position=pos)
    start, stop, *rest = function.args
    if function.name == "generate_series":
        one = A.Literal(1, "int", pos=pos)
        toward = one if not rest else A.Case(None, ((A.BinaryOp("<", rest[0], A.Literal(0, "int", pos=pos),
                                                                  pos=pos), A.UnaryOp("-", one, pos=pos)),), one,
                                                   pos=pos)
        stop = A.BinaryOp("+", stop, toward, pos=pos)
    spread = A.FunctionCall("unnest", (A.FunctionCall("range", (start, stop, *rest), pos=pos),), pos=pos)
    return A.Select((A.SelectItem(spread, function.name, pos=pos),), pos=pos)


def lateral_ref(node: A.LateralFunction) -> A.LateralRef:
    function = node.function
    if function.name in ("generate_series", "range"):
        names = tuple(function.column_aliases or ()) or None
        return A.LateralRef(series_query(function), function.alias or function.name, names, pos=node.pos)
    if not spreads(function.name):
        raise BadArguments(f"LATERAL {function.name}(...) is not supported; LATERAL takes FLATTEN, "
                           f"JSON_EACH, JSON_ARRAY_ELEMENTS, UNNEST or a subquery", position=node.pos)
    return A.LateralRef(as_query(function), function.alias or function.name, column_names(function),
                        pos=node.pos)
