"""Column names for unaliased select items, printed from the AST the way Databend prints them."""

from __future__ import annotations

from grammar import ast as A


def display(node) -> str:
    fn = _PRINTERS.get(type(node))
    return fn(node) if fn else type(node).__name__.lower()


def _literal(n: A.Literal) -> str:
    if n.kind == "string":
        return "'" + str(n.value).replace("'", "\\'") + "'"
    if n.kind == "null":
        return "null"
    if n.kind == "bool":
        return "true" if n.value else "false"
    if n.kind == "float":
        return repr(n.value)
    return str(n.value)


def _type(t: A.TypeName) -> str:
    from engine.types import type_from_ast

    try:
        return type_from_ast(t).display().lower()
    except Exception:  # noqa: BLE001 - an unknown type is reported by the binder, not here
        return t.name.lower()


def _func(n: A.FunctionCall) -> str:
    if n.star:
        return f"{n.name}(*)"
    inner = ", ".join(display(a) for a in n.args)
    return f"{n.name}({'distinct ' if n.distinct else ''}{inner})"


def _case(n: A.Case) -> str:
    parts = ["case"]
    if n.operand is not None:
        parts.append(display(n.operand))
    for cond, res in n.whens:
        parts.append(f"when {display(cond)} then {display(res)}")
    if n.else_ is not None:
        parts.append(f"else {display(n.else_)}")
    parts.append("end")
    return " ".join(parts)


def _op(op: str) -> str:
    return op.lower() if op.isalpha() else op


def _not(negated: bool) -> str:
    return "not " if negated else ""


_PRINTERS = {
    A.Literal: _literal,
    A.ColumnRef: lambda n: n.parts[-1],
    A.Star: lambda n: "*",
    A.UnaryOp: lambda n: f"{_op(n.op)} {display(n.operand)}",
    A.BinaryOp: lambda n: f"({display(n.left)} {_op(n.op)} {display(n.right)})",
    A.IsNull: lambda n: f"{display(n.operand)} is {_not(n.negated)}null",
    A.Between: lambda n: f"{display(n.operand)} {_not(n.negated)}between {display(n.low)} and {display(n.high)}",
    A.InList: lambda n: f"{display(n.operand)} {_not(n.negated)}in({', '.join(display(i) for i in n.items)})",
    A.InSubquery: lambda n: f"{display(n.operand)} {_not(n.negated)}in(select ...)",
    A.Like: lambda n: f"{display(n.operand)} {_not(n.negated)}like {display(n.pattern)}",
    A.Exists: lambda n: f"{_not(n.negated)}exists (select ...)",
    A.ScalarSubquery: lambda n: "(select ...)",
    A.Case: _case,
    A.Cast: lambda n: f"{'try_cast' if n.try_ else 'cast'}({display(n.operand)} as {_type(n.type)})",
    A.FunctionCall: _func,
}
