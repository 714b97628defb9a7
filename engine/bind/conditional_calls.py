"""Conditional calls the binder rewrites into a searched CASE: the multi-branch
if(c1, v1, c2, v2, ..., else) and Oracle's decode(x, v1, r1, v2, r2, ..., [default]) (where a
NULL x matches a NULL v, as Databend's decode)."""

from __future__ import annotations

from engine.core.errors import SemanticError
from grammar import ast as A

__all__ = ["multi_if", "decode"]


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
