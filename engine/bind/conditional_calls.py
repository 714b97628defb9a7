"""Conditional calls the binder rewrites into a searched CASE: the multi-branch
if(c1, v1, c2, v2, ..., else) and Oracle's decode(x, v1, r1, v2, r2, ..., [default]) (where a
NULL x matches a NULL v, as Databend's decode); and Hive's substr, whose position 0 is 1."""

from __future__ import annotations

from engine.core.errors import SemanticError
from grammar import ast as A

__all__ = ["multi_if", "decode", "hive_substring", "SUBSTRING_NAMES"]

SUBSTRING_NAMES = frozenset({"substr", "substring", "mid"})


def multi_if(n: A.FunctionCall) -> A.Case:
    """if(c1, v1, c2, v2, ..., else): an odd number of arguments, at least three."""
    args = n.args
    if len(args) < 3 or len(args) % 2 == 0:
        raise SemanticError(f"no overload satisfies `if` with {len(args)} arguments: it takes conditions and "
                            "results in pairs, then the result of the ELSE", position=n.pos)
    return A.Case(None, tuple(zip(args[0:-1:2], args[1:-1:2], strict=True)), args[-1], pos=n.pos)


def decode(n: A.FunctionCall) -> A.Case:
    """decode(x, v1, r1, ..., [default]): x compared with each v as IS NOT DISTINCT FROM."""
    args = n.args
    if len(args) < 3:
        raise SemanticError(f"decode takes at least 3 arguments, got {len(args)}", position=n.pos)
    operand, rest = args[0], args[1:]
    default = rest[-1] if len(rest) % 2 else None
    pairs = rest[:-1] if len(rest) % 2 else rest
    whens = tuple((A.IsDistinctFrom(operand, value, True, pos=n.pos), result)
                  for value, result in zip(pairs[0::2], pairs[1::2], strict=True))
    return A.Case(None, whens, default, pos=n.pos)


def hive_substring(n: A.FunctionCall) -> A.FunctionCall:
    """substr(s, pos[, len]) under sql_dialect 'hive': a position 0 counts as 1 (Hive's rule;
    Databend's 02_0005_function_substring: SUBSTR('12345', 0, 1) is '1' there, '' otherwise)."""
    if len(n.args) < 2:
        return n
    pos = n.args[1]
    if isinstance(pos, A.Literal):
        start = A.Literal(1, "int", pos=pos.pos) if pos.value == 0 and pos.kind == "int" else pos
    else:
        start = A.FunctionCall("if", (A.BinaryOp("=", pos, A.Literal(0, "int", pos=pos.pos), pos=pos.pos),
                                      A.Literal(1, "int", pos=pos.pos), pos), pos=pos.pos)
    return A.FunctionCall(n.name, (n.args[0], start, *n.args[2:]), pos=n.pos)
