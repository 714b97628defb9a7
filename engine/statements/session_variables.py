"""Session variables as Databend keeps them: SET VARIABLE, UNSET VARIABLE, SHOW VARIABLES, and
their exported form, which an HTTP client session carries between requests.

A variable holds one typed value (the constant its expression folds to, or a field of the one row
its query gives): `$x` and `getvariable('x')` read it back as a constant of that type (bound into
generated code as a value, never as source text), NULL when unset. Names are lower-cased. A
session's variables are bounded by Limits.session_variables_bytes, counted in their exported JSON
form (what travels in every answer of an HTTP session)."""

from __future__ import annotations

import binascii
import datetime
import decimal
import json

from engine.bind.names import quoted
from engine.bind.scope import Scope
from engine.core.errors import BAD_BYTES, SEMANTIC, BadArguments, EngineError
from engine.exec.executor import Runtime, build
from engine.exec.result import Column, Progress, Result
from engine.ir.expr import Const
from engine.plan.planner import Planner
from engine.storage.row_codec import decode_value, encode_value, type_from_json, type_to_json
from engine.types import render as R
from engine.types import sqltype as T
from engine.types.nested import element_of, map_parts
from engine.types.sqltype import INT_RANGES, NESTED_NAMES, SqlType
from grammar import ast as A


class Variable:
    """One variable: its type, its value and its exported JSON text (kept: the size counts)."""

    __slots__ = ("type", "value", "text")

    def __init__(self, sql_type: SqlType, value, text: str | None = None):
        self.type = sql_type
        self.value = value
        self.text = text if text is not None else encode_variable(sql_type, value)


def value_type(t: SqlType, value) -> SqlType:
    """The type a variable keeps, as Databend's Scalar carries it: NULL for a NULL, the value's
    own (not nullable) type otherwise."""
    return T.NULL if value is None else t.as_nullable(False)


# ---------------------------------------------------------------- SET / UNSET / SHOW


def set_variables(session, ctx, stmt) -> Result:
    """SET VARIABLE: constants are assigned at once; a query runs in steps and assigns its one
    row's fields at its end (no row: every name NULL, as Databend)."""
    planner = Planner(ctx)
    if stmt.query is None:
        values = []
        for node in stmt.values:
            e = planner.bind(node, Scope([]))
            if not isinstance(e, Const):
                raise EngineError("value must be constant value", code=SEMANTIC, position=getattr(node, "pos", None))
            values.append(Variable(value_type(e.type, e.value), e.value))
        assign(session, ctx.limits, stmt.names, values, stmt.pos)
        return Result([], iter([]))
    plan, names = planner.plan_query(stmt.query)
    if len(names) != len(stmt.names):
        raise BadArguments(f"Expect {len(stmt.names)} column in set query result, but got {len(names)} columns",
                           position=stmt.pos)
    progress = Progress()
    run = build(plan, Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan))
    return Result([], _query_steps(session, ctx, stmt, run(()), plan.types), progress=progress)


def _query_steps(session, ctx, stmt, batches, types):
    rows = []
    for batch in batches:
        rows.extend(batch[:2])
        if len(rows) > 1:
            raise BadArguments("Expect scalar result in set query result, but got more than 1 rows",
                               position=stmt.pos)
        yield []
    row = rows[0] if rows else (None,) * len(types)
    assign(session, ctx.limits, stmt.names, [Variable(value_type(t, v), v) for t, v in zip(types, row, strict=True)],
           stmt.pos)


def assign(session, limits, names, values: list[Variable], pos=None) -> None:
    """Set `names` to `values`, or nothing when that takes the session past
    Limits.session_variables_bytes (1006)."""
    variables = dict(session.variables)
    variables.update(zip(names, values, strict=True))
    size = variables_bytes(variables)
    if size > limits.session_variables_bytes:
        raise BadArguments(f"session variables would take {size} bytes, over the limit "
                           f"session_variables_bytes = {limits.session_variables_bytes}", position=pos)
    session.variables = variables


def variables_bytes(variables: dict) -> int:
    return sum(len(name) + len(v.text) for name, v in variables.items())


def unset_variables(session, ctx, stmt) -> Result:
    """UNSET VARIABLE: the names are forgotten (an unset one is no error, as Databend)."""
    variables = dict(session.variables)
    for name in stmt.names:
        variables.pop(name, None)
    session.variables = variables
    return Result([], iter([]))


SHOW_VARIABLES_COLUMNS = (("name", T.STRING), ("value", T.STRING), ("type", T.STRING))


def show_variables(session, match) -> Result:
    """SHOW VARIABLES [LIKE ...]: name, value (as Databend writes a scalar) and type, by name."""
    rows = [(name, scalar_text(v.type, v.value), v.type.display())
            for name, v in sorted(session.variables.items()) if match(name)]
    types = [t for _, t in SHOW_VARIABLES_COLUMNS]
    return Result([Column(n, t.display()) for n, t in SHOW_VARIABLES_COLUMNS], iter([rows]), types=types)


def scalar_text(t: SqlType, v) -> str:
    """A value as Databend's Display of a Scalar writes it: strings, dates and timestamps quoted,
    binary as upper-case hex, nested values with their elements so written."""
    if v is None:
        return "NULL"
    name = t.name
    if name == "Boolean":
        return "true" if v else "false"
    if name in ("String", "Variant"):
        return quoted(v)
    if name == "Date":
        return f"'{v.isoformat()}'"
    if name == "Timestamp":
        return f"'{v.strftime('%Y-%m-%d %H:%M:%S.%f')}'"
    if name == "Bitmap":
        return "'" + ",".join(str(n) for n in sorted(v)) + "'"
    if name == "Array":
        element = element_of(t)
        return "[" + ", ".join(scalar_text(element, x) for x in v) + "]"
    if name == "Map":
        kt, vt = map_parts(t)
        return "{" + ", ".join(f"{scalar_text(kt, k)}:{scalar_text(vt, x)}" for k, x in v) + "}"
    if name == "Tuple":
        fields = [scalar_text(a, x) for a, x in zip(t.args, v, strict=True)]
        return "(" + ", ".join(fields) + ("," if len(fields) < 2 else "") + ")"
    return R.render_value(v)


# ---------------------------------------------------------------- the exported form


def encode_variable(t: SqlType, value) -> str:
    """A variable as JSON text: {"t": its type, "v": its value} in the data directory's JSON
    forms (engine.storage.row_codec), which hold every type exactly."""
    return json.dumps({"t": type_to_json(t), "v": encode_value(t, value)}, separators=(",", ":"),
                      ensure_ascii=False)


def decode_variable(name, text) -> Variable:
    """The Variable an `encode_variable` text gives; BadBytes (1046) for anything else (the text
    comes back from a client: its type and value are checked, not trusted)."""
    try:
        if not isinstance(name, str) or not isinstance(text, str) or not name:
            raise ValueError("a variable is a pair of strings")
        data = json.loads(text)
        if not isinstance(data, dict) or set(data) != {"t", "v"}:
            raise ValueError("not a variable's JSON object")
        t = _checked_type(type_from_json(data["t"]))
        value = decode_value(t, data["v"])
        _check_value(t, value)
    except (ValueError, TypeError, KeyError, AttributeError, binascii.Error, decimal.InvalidOperation,
            RecursionError) as exc:
        raise EngineError(f"fail decode scalar from string '{text}', error: {exc}", code=BAD_BYTES) from None
    return Variable(t, value, encode_variable(t, value))


_SCALAR_NAMES = frozenset({"Null", "Boolean", "Float32", "Float64", "Decimal", "String", "Date", "Timestamp",
                           "Binary", "Variant", "Bitmap"}) | frozenset(INT_RANGES)


def _checked_type(t: SqlType) -> SqlType:
    if t.name not in _SCALAR_NAMES and t.name not in NESTED_NAMES:
        raise ValueError(f"unknown type {t.name!r}")
    if t.name == "Decimal" and not (1 <= t.precision <= 76 and 0 <= t.scale <= t.precision):
        raise ValueError("bad decimal precision or scale")
    for a in t.args:
        _checked_type(a)
    return t


_PYTHON_TYPES = {"Boolean": bool, "String": str, "Variant": str, "Binary": bytes,
                 "Date": datetime.date, "Timestamp": datetime.datetime}


def _check_value(t: SqlType, v) -> None:
    """ValueError unless `v` is a value of type `t` as the engine holds it."""
    if v is None:
        if not t.can_be_null and t.name != "Null":
            raise ValueError(f"NULL for a {t.display()}")
        return
    name = t.name
    if name in INT_RANGES:
        low, high = INT_RANGES[name]
        if type(v) is not int or not low <= v <= high:
            raise ValueError(f"not a {name}")
    elif name in ("Float32", "Float64"):
        if type(v) is not float:
            raise ValueError(f"not a {name}")
    elif name == "Decimal":
        if type(v) is not int and type(v) is not decimal.Decimal:
            raise ValueError("not a Decimal")
    elif name in _PYTHON_TYPES:
        expected = _PYTHON_TYPES[name]
        if type(v) is not expected:
            raise ValueError(f"not a {name}")
    elif name == "Bitmap":
        if any(type(n) is not int or n < 0 for n in v):
            raise ValueError("not a Bitmap")
    elif name == "Array":
        for x in v:
            _check_value(element_of(t), x)
    elif name == "Map":
        kt, vt = map_parts(t)
        for k, x in v:
            _check_value(kt, k)
            _check_value(vt, x)
    elif name == "Tuple":
        if len(v) != len(t.args):
            raise ValueError("a Tuple of another width")
        for a, x in zip(t.args, v, strict=True):
            _check_value(a, x)
    else:
        raise ValueError(f"no value of type {name}")


SESSION_HANDLERS = {
    A.SetSessionVariables: lambda session, ctx, stmt: set_variables(session, ctx, stmt),
    A.UnsetSessionVariables: lambda session, ctx, stmt: unset_variables(session, ctx, stmt),
}
