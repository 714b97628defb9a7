"""Finding window function calls in expression ASTs (outside subqueries)."""

from __future__ import annotations

from grammar import ast as A


def window_calls(node, out: list) -> list:
    """The window calls in an expression AST (not those of subqueries), in order, each once."""
    if isinstance(node, A.WindowCall):
        if node not in out:
            out.append(node)
        return out
    if isinstance(node, (A.ScalarSubquery, A.Exists)) or not isinstance(node, A.Node):
        return out
    if isinstance(node, A.InSubquery):
        return window_calls(node.operand, out)
    for name in node.__dataclass_fields__:
        if name == "pos":
            continue
        v = getattr(node, name)
        if isinstance(v, A.Node):
            window_calls(v, out)
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, A.Node):
                    window_calls(x, out)
                elif isinstance(x, tuple):
                    for y in x:
                        window_calls(y, out)
    return out
