"""A small Wadler-style pretty-printing document: text, line breaks, nesting and groups.

A group is laid out on one line when it fits in the width (counting the text that follows it up
to the next line break), otherwise each of its line breaks starts a new, indented line. This is
the layout model Databend's EXPLAIN SYNTAX uses (its documents are rendered 10 columns wide)."""

from __future__ import annotations

from dataclasses import dataclass

_FLAT, _BREAK = 0, 1


@dataclass(frozen=True, slots=True)
class Doc:
    kind: str  # 'text', 'line', 'nest', 'group', 'cat'
    text: str = ""  # text; for 'line' the text it is laid out as when flat
    indent: int = 0
    parts: tuple[Doc, ...] = ()

    def __add__(self, other: Doc) -> Doc:
        return cat(self, other)

    def nest(self, indent: int) -> Doc:
        return Doc("nest", indent=indent, parts=(self,))

    def group(self) -> Doc:
        return Doc("group", parts=(self,))


NIL = Doc("cat")
SPACE = Doc("text", " ")
LINE = Doc("line", " ")  # a space, or a line break
LINE_ = Doc("line", "")  # nothing, or a line break


def text(value: str) -> Doc:
    return Doc("text", value)


def cat(*docs: Doc) -> Doc:
    return Doc("cat", parts=tuple(d for d in docs if d is not NIL))


def intersperse(docs, separator: Doc) -> Doc:
    out: list[Doc] = []
    for i, d in enumerate(docs):
        if i:
            out.append(separator)
        out.append(d)
    return cat(*out)


def render(doc: Doc, width: int) -> str:
    """Lay `doc` out in `width` columns (an iterative renderer: deep documents do not recurse)."""
    out: list[str] = []
    column = 0
    stack: list[tuple[int, int, Doc]] = [(0, _BREAK, doc)]
    while stack:
        indent, mode, d = stack.pop()
        kind = d.kind
        if kind == "text":
            out.append(d.text)
            column += len(d.text)
        elif kind == "cat":
            stack.extend((indent, mode, p) for p in reversed(d.parts))
        elif kind == "nest":
            stack.append((indent + d.indent, mode, d.parts[0]))
        elif kind == "line":
            if mode == _FLAT:
                out.append(d.text)
                column += len(d.text)
            else:
                out.append("\n" + " " * indent)
                column = indent
        elif mode == _FLAT or _fits(width - column, d.parts[0], stack):
            stack.append((indent, _FLAT, d.parts[0]))
        else:
            stack.append((indent, _BREAK, d.parts[0]))
    return "".join(out)


def _fits(remaining: int, doc: Doc, rest: list[tuple[int, int, Doc]]) -> bool:
    """Whether `doc` laid flat, then what follows up to its next line break, fits."""
    pending = [doc]
    rest_index = len(rest)
    flat = True
    while remaining >= 0:
        if not pending:
            if rest_index == 0:
                return True
            rest_index -= 1
            pending.append(rest[rest_index][2])
            flat = False  # what follows the group is laid out in break mode
        d = pending.pop()
        if d.kind == "text":
            remaining -= len(d.text)
        elif d.kind == "line":
            if not flat:
                return True
            remaining -= len(d.text)
        elif d.kind == "cat":
            pending.extend(reversed(d.parts))
        else:
            pending.append(d.parts[0])
    return False
