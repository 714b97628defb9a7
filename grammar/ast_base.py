"""The base of every syntax tree node: its source position."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

# (line, column), both 1-based, of the first token of the node; None for synthesized nodes.
Pos = tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Node:
    pos: Pos = field(default=None, compare=False, repr=False, kw_only=True)


def map_children(value, rewrite):
    """`value` (a node or a tuple of them) with `rewrite` applied to each child: a node's fields
    (not its position) or a tuple's items. Unchanged parts are shared, and `value` itself comes
    back when nothing changed, so a rewrite that finds nothing to do copies nothing."""
    if isinstance(value, Node):
        changes = {}
        for f in fields(value):
            if f.name == "pos":
                continue
            old = getattr(value, f.name)
            new = rewrite(old)
            if new is not old:
                changes[f.name] = new
        return replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(rewrite(x) for x in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value
