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
        return "NULL"
    if n.kind == "bool":
        return "true" if n.value else "false"
    if n.kind == "float":
        return repr(n.value)
    return str(n.value)


def _type(t: A.TypeName) -> str:
    from engine.types import type_from_ast

    try:
        return type_from_ast(t).display().upper()
    except Exception:
        return t.name.upper()


def _func(n: A.FunctionCall) -> str:
    if n.star:
        return f"{n.name}(*)"
    inner = ", ".join(display(a) for a in n.args)
    return f"{n.name}({'DISTINCT ' if n.distinct else ''}{inner})"


def _case(n: A.Case) -> str:
    parts = ["CASE"]
    if n.operand is not None:
        parts.append(display(n.operand))
    for cond, res in n.whens:
        parts.append(f"WHEN {display(cond)} THEN {display(res)}")
    if n.else_ is not None:
        parts.append(f"ELSE {display(n.else_)}")
    parts.append("END")
    return " ".join(parts)


_PRINTERS = {
    A.Literal: _literal,
    A.ColumnRef: lambda n: n.parts[-1],
    A.Star: lambda n: "*",
    A.UnaryOp: lambda n: f"{n.op} {display(n.operand)}" if n.op != "NOT" else f"NOT {display(n.operand)}",
    A.BinaryOp: lambda n: f"({display(n.left)} {n.op if n.op != 'DIV' else 'div'} {display(n.right)})",
    A.IsNull: lambda n: f"{display(n.operand)} IS {'NOT ' if n.negated else ''}NULL",
    A.Between: lambda n: f"{display(n.operand)} {'NOT ' if n.negated else ''}BETWEEN {display(n.low)} AND "
    f"{display(n.high)}",
    A.InList: lambda n: f"{display(n.operand)} {'NOT ' if n.negated else ''}IN({', '.join(display(i) for i in n.items)})",
    A.InSubquery: lambda n: f"{display(n.operand)} {'NOT ' if n.negated else ''}IN (SELECT ...)",
    A.Like: lambda n: f"{display(n.operand)} {'NOT ' if n.negated else ''}LIKE {display(n.pattern)}",
    A.Exists: lambda n: f"{'NOT ' if n.negated else ''}EXISTS (SELECT ...)",
    A.ScalarSubquery: lambda n: "(SELECT ...)",
    A.Case: _case,
    A.Cast: lambda n: f"{'TRY_CAST' if n.try_ else 'CAST'}({display(n.operand)} AS {_type(n.type)})",
    A.FunctionCall: _func,
}
