"""The base of every syntax tree node: its source position."""

from __future__ import annotations

from dataclasses import dataclass, field

# (line, column), both 1-based, of the first token of the node; None for synthesized nodes.
Pos = tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Node:
    pos: Pos = field(default=None, compare=False, repr=False, kw_only=True)
