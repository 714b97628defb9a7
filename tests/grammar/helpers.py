"""Short constructors for expected ASTs in the grammar tests."""

from __future__ import annotations

from grammar import ast as A
from grammar import parse


def col(*parts):
    return A.ColumnRef(tuple(parts))


def num(value):
    """An int literal, a decimal given as text, or a float."""
    if isinstance(value, int):
        return A.Literal(value, "int")
    if isinstance(value, float):
        return A.Literal(value, "float")
    return A.Literal(value, "decimal")


def s(value):
    return A.Literal(value, "string")


NULL = A.Literal(None, "null")
TRUE = A.Literal(True, "bool")
FALSE = A.Literal(False, "bool")


def bop(op, left, right):
    return A.BinaryOp(op, left, right)


def neg(operand):
    return A.UnaryOp("-", operand)


def fn(name, *args, distinct=False, star=False):
    return A.FunctionCall(name, tuple(args), distinct=distinct, star=star)


def typ(name, *params, nullable=None, args=()):
    return A.TypeName(name, tuple(params), tuple(args), nullable)


def item(expr, alias=None):
    return A.SelectItem(expr, alias)


def select(*items, **fields):
    return A.Select(
        items=tuple(i if isinstance(i, A.SelectItem) else A.SelectItem(i) for i in items),
        **fields,
    )


def table(*name, alias=None):
    return A.TableRef(tuple(name), alias)


def expr(sql):
    """The AST of one expression (parsed as `SELECT <sql>`)."""
    statement = parse("SELECT " + sql)
    assert len(statement.items) == 1
    return statement.items[0].expr
