"""Logical functions beyond AND / OR / NOT: `a XOR b` (the xor function: NULL when either side
is NULL), and_filters(c1, c2, ...) and or_filters(c1, c2, ...), the functions Databend's planner
folds conjunctions into, where a NULL condition counts as false (the answer is never NULL)."""

from __future__ import annotations

from engine.core.errors import SemanticError
from engine.functions.registry import fixed, register
from engine.types import sqltype as T


def _booleans(name):
    def rule(types):
        for t in types:
            if not (t.name in ("Boolean", "Null") or t.is_numeric):
                raise SemanticError(f"no overload satisfies `{name}({', '.join(x.display() for x in types)})`")
        return T.BOOLEAN
    return rule


register("xor", lambda a, b: bool(a) != bool(b), _booleans("xor"), 2)
register("and_filters", lambda *conditions: all(c is not None and bool(c) for c in conditions),
         _booleans("and_filters"), 1, 1 << 16, strict=False)
register("or_filters", lambda *conditions: any(c is not None and bool(c) for c in conditions),
         _booleans("or_filters"), 1, 1 << 16, strict=False)


def _equal_null(a, b):
    """equal_null(a, b): a = b where NULL equals NULL (never NULL itself)."""
    if a is None or b is None:
        return a is None and b is None
    return a == b


register("equal_null", _equal_null, fixed(T.BOOLEAN), 2, strict=False)

# ignore(...): FALSE whatever its arguments (they are still evaluated, as Databend's)
register("ignore", lambda *_args: False, fixed(T.BOOLEAN), 0, 1 << 16, strict=False)
