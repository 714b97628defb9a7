"""The extended JSON syntax current Databend's parse_json accepts besides standard JSON (the
jsonb crate's lenient parser): case-insensitive null / true / false, NaN and Infinity, numbers
with a leading '+', leading zeros, '1.' or '.2', hexadecimal numbers (0x1F, 0XA.8), strings in
single quotes, unquoted object keys, empty array elements (null) and an empty text (null).

`parse_lenient` is tried only after the standard parser refused a text, so standard JSON keeps
the fast path; it answers None when the text is not even extended JSON."""

from __future__ import annotations

import json
import re

_SPACE = " \t\n\r\f\v"
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_HEX = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]+)(?:\.([0-9a-fA-F]+))?")
# NaN and Infinity are read, and written as JSON null (what Databend shows for them)
_WORDS = (("null", None), ("true", True), ("false", False), ("nan", None), ("infinity", None), ("inf", None))
_U64_MAX = 2**64 - 1
_I64_MIN = -(2**63)


class _Refused(Exception):
    pass


class _Parser:
    def __init__(self, text: str):
        self.text, self.i = text, 0

    def space(self):
        while self.i < len(self.text) and self.text[self.i] in _SPACE:
            self.i += 1

    def peek(self):
        return self.text[self.i] if self.i < len(self.text) else ""

    def value(self, depth=0):
        if depth > 512:
            raise _Refused
        self.space()
        c = self.peek()
        if c == "":
            return None  # an empty text is null
        if c == "[":
            return self.array(depth)
        if c == "{":
            return self.object(depth)
        if c in "\"'":
            return self.string(c)
        if c in "+-.0123456789":
            return self.number()
        return self.word()

    def word(self):
        lowered = self.text[self.i:self.i + 8].lower()
        for word, value in _WORDS:
            if lowered.startswith(word):
                self.i += len(word)
                return value
        raise _Refused

    def number(self):
        hexadecimal = _HEX.match(self.text, self.i)
        if hexadecimal:
            self.i = hexadecimal.end()
            sign, whole, fraction = hexadecimal.groups()
            value = int(whole, 16)
            if fraction:
                value += int(fraction, 16) / 16.0 ** len(fraction)
            return -value if sign == "-" else value
        m = _NUMBER.match(self.text, self.i)
        if m is None:
            if self.peek() in "+-":
                self.i += 1
            return self.word()  # +Infinity, -inf, NaN
        self.i = m.end()
        text = m.group().lstrip("+")
        if re.fullmatch(r"-?\d+\.?", text):  # '1.' is the integer 1
            text = text.rstrip(".")
            value = int(text)
            return value if _I64_MIN <= value <= _U64_MAX else float(value)
        return float(text)

    def string(self, quote):
        j = self.i + 1
        while j < len(self.text) and self.text[j] != quote:
            j += 2 if self.text[j] == "\\" else 1
        if j >= len(self.text):
            raise _Refused
        body = self.text[self.i + 1:j]
        self.i = j + 1
        if quote == "'":
            body = body.replace("\\'", "'").replace('"', '\\"')
        try:
            return json.loads('"' + body + '"', strict=False)
        except ValueError:
            raise _Refused from None

    def array(self, depth):
        self.i += 1
        values, first = [], True
        while True:
            self.space()
            c = self.peek()
            if c == "]":
                self.i += 1
                return values
            if not first:
                if c != ",":
                    raise _Refused
                self.i += 1
                self.space()
            first = False
            values.append(None if self.peek() in ",]" else self.value(depth + 1))

    def key(self):
        c = self.peek()
        if c in "\"'":
            return self.string(c)
        m = re.compile(r"[^\W\d][\w$]*|\$[\w$]*").match(self.text, self.i)
        if m is None:
            raise _Refused
        self.i = m.end()
        return m.group()

    def object(self, depth):
        self.i += 1
        fields, first = {}, True
        while True:
            self.space()
            c = self.peek()
            if c == "}":
                self.i += 1
                return dict(sorted(fields.items()))
            if not first:
                if c != ",":
                    raise _Refused
                self.i += 1
                self.space()
            first = False
            key = self.key()
            self.space()
            if self.peek() != ":":
                raise _Refused
            self.i += 1
            fields[key] = self.value(depth + 1)


def parse_lenient(text: str):
    """(True, value) for a text in Databend's extended JSON syntax, else (False, None)."""
    parser = _Parser(text)
    try:
        value = parser.value()
        parser.space()
    except (_Refused, RecursionError):
        return False, None
    return parser.i == len(text), value
