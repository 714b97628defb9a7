"""Nested values written as text, as Databend reads them in a CAST or an INSERT: [1,2],
{'a':1}, (1,'x') and JSON arrays, to the Python form with the elements still text (the casters
of engine.types.cast convert them)."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.types import sqltype as T
from engine.types.nested import ArrayValue, MapValue, TupleValue, element_of, map_parts


def parse_text(text: str, t: T.SqlType):
    """A nested value written as text ([1,2], {'a':1}, (1,'x'), JSON arrays too) -> the Python
    form, elements still text (the caster converts them); refuses malformed text."""
    reader = _TextReader(text, t)
    value = reader.value(t)
    reader.skip_space()
    if reader.pos != len(text):
        reader.fail()
    return value


class _TextReader:
    def __init__(self, text: str, t: T.SqlType):
        self.text, self.pos, self.type = text, 0, t

    def fail(self):
        raise BadArguments(f"fail to decode {self.type.display()} from '{self.text}'")

    def skip_space(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def expect(self, ch: str):
        self.skip_space()
        if not self.text.startswith(ch, self.pos):
            self.fail()
        self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def items(self, close: str, read):
        out = []
        if self.peek() == close:
            self.pos += 1
            return out
        while True:
            out.append(read())
            ch = self.peek()
            self.pos += 1
            if ch == close:
                return out
            if ch != ",":
                self.fail()

    def value(self, t: T.SqlType):
        if t.name == "Array":
            self.expect("[")
            element = element_of(t)
            return ArrayValue(self.items("]", lambda: self.value(element)))
        if t.name == "Map":
            key_type, value_type = map_parts(t)
            self.expect("{")

            def entry():
                k = self.value(key_type)
                self.expect(":")
                return k, self.value(value_type)
            return MapValue(self.items("}", entry))
        if t.name == "Tuple":
            self.expect("(")
            fields = iter(t.args)
            return TupleValue(self.items(")", lambda: self.value(next(fields, T.STRING))))
        return self.scalar()

    def scalar(self):
        ch = self.peek()
        if ch in ("'", '"'):
            return self.quoted(ch)
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in ",]}):":
            self.pos += 1
        word = self.text[start:self.pos].strip()
        if not word:
            self.fail()
        return None if word.upper() == "NULL" else word

    def quoted(self, quote: str) -> str:
        self.pos += 1
        out = []
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < len(text):
                out.append(_UNESCAPES.get(text[self.pos + 1], text[self.pos + 1]))
                self.pos += 2
                continue
            if ch == quote:
                if text.startswith(quote, self.pos + 1):  # a doubled quote
                    out.append(quote)
                    self.pos += 2
                    continue
                self.pos += 1
                return "".join(out)
            out.append(ch)
            self.pos += 1
        self.fail()


_UNESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
