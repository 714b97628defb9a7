"""ARRAY, MAP and TUPLE values: their Python form, types of literals, casts, wire text and JSON form.

An ARRAY is an `ArrayValue` (a tuple of its elements), a TUPLE a `TupleValue` (a tuple of its
fields), a MAP a `MapValue` (a tuple of (key, value) pairs, keys unique, in insertion order). All
three are tuples, so they hash (GROUP BY, DISTINCT) and compare element by element."""

from __future__ import annotations

import datetime
import functools

from engine import render as R
from engine import types as T
from engine import variant as V
from engine.errors import BadArguments


def _order_key(v) -> tuple:
    """Elements in Databend's order: NULL before every value (so [1, NULL] < [1, 2])."""
    return tuple((0, 0) if x is None else (1, x) for x in v)


class _Ordered(tuple):
    """A tuple ordered as Databend orders nested values (Python cannot compare None and 1)."""

    __slots__ = ()

    def __lt__(self, other):
        return _order_key(self) < _order_key(other)

    def __le__(self, other):
        return _order_key(self) <= _order_key(other)

    def __gt__(self, other):
        return _order_key(self) > _order_key(other)

    def __ge__(self, other):
        return _order_key(self) >= _order_key(other)

    __hash__ = tuple.__hash__


class ArrayValue(_Ordered):
    __slots__ = ()


class TupleValue(_Ordered):
    __slots__ = ()


class MapValue(_Ordered):
    """(key, value) pairs."""

    __slots__ = ()

    def get(self, key):
        for k, v in self:
            if k == key:
                return v
        return None

    def keys(self):
        return ArrayValue(k for k, _ in self)

    def values(self):
        return ArrayValue(v for _, v in self)


NESTED_VALUE_TYPES = (ArrayValue, TupleValue, MapValue)


@functools.cache
def nothing() -> T.SqlType:
    """The element type of `[]` and `{}` (built on first use: engine.types imports this module)."""
    return T.SqlType("Nothing")


def array_type(element: T.SqlType) -> T.SqlType:
    return T.SqlType("Array", args=(element,))


def map_type(key: T.SqlType, value: T.SqlType) -> T.SqlType:
    return T.SqlType("Map", args=(key, value))


def element_of(t: T.SqlType) -> T.SqlType:
    """The element type of an Array (Nothing for `[]`)."""
    return t.args[0] if t.name == "Array" and t.args else nothing()


def map_parts(t: T.SqlType) -> tuple[T.SqlType, T.SqlType]:
    """(key type, value type) of a Map; `{}` is Map(Nothing)."""
    if t.name == "Map" and len(t.args) == 2:
        return t.args
    return nothing(), nothing()


def unify(a: T.SqlType, b: T.SqlType) -> T.SqlType:
    """The common type of two nested types of the same kind (element types unified)."""
    if a.name != b.name or (a.name == "Tuple" and len(a.args) != len(b.args)):
        raise BadArguments(f"unable to unify `{a.display()}` with `{b.display()}`")
    if any(x.name == "Nothing" for x in a.args):
        return b
    if any(x.name == "Nothing" for x in b.args):
        return a
    if a.name == "Map":
        return T.SqlType("Map", args=tuple(T.common_type([x, y]) for x, y in zip(a.args, b.args, strict=True)))
    return T.SqlType(a.name, args=tuple(T.common_type([x, y]) for x, y in zip(a.args, b.args, strict=True)),
                     field_names=a.field_names)


def common_element_type(types) -> T.SqlType:
    """The element type of an array literal of values of `types` (Nothing when empty)."""
    types = list(types)
    if not types:
        return nothing()
    return T.common_type(types)


def typeof_name(t: T.SqlType) -> str:
    """TYPEOF's spelling of a nested type: ARRAY(UINT8 NULL), TUPLE(INT32 NULL, STRING) NULL
    (element nullability shown, tuple field names not: unlike DESCRIBE)."""
    if t.name in T.NESTED_NAMES:
        parts = [typeof_name(a) for a in t.args]
        base = f"{t.name.upper()}({', '.join(parts)})"
    elif t.name in ("Null", "Nothing"):
        return t.name.upper()
    else:
        base = t.as_nullable(False).display().upper()
    return base + " NULL" if t.nullable else base


def cast_type(tn) -> T.SqlType:
    """The type a CAST names (a `grammar.ast.TypeName`): unlike in DDL, the elements of a nested
    type are NOT NULL unless written NULL (CAST(x AS ARRAY(INT)) is Array(Int32), as Databend)."""
    written = T.type_from_ast(tn)  # (checks what is written)
    if not written.args or tn.name.upper() not in ("ARRAY", "MAP", "TUPLE"):
        return written
    args = tuple(cast_type(a) if a.name.upper() in ("ARRAY", "MAP", "TUPLE")
                 else T.type_from_ast(a, default_nullable=False) for a in tn.args)
    return T.SqlType(written.name, written.nullable, args=args, field_names=written.field_names)


# ---------------------------------------------------------------- casts


def caster(t: T.SqlType):
    """A function value (not None) -> value of the nested type t."""
    if t.name == "Array":
        element = element_of(t)
        cast = _element_caster(element)

        def to_array(v):
            if isinstance(v, str):
                v = parse_text(v, t)
            if not isinstance(v, (ArrayValue, list, tuple)) or isinstance(v, (MapValue, TupleValue)):
                _refuse(v, t)
            out = ArrayValue(None if x is None else cast(x) for x in v)
            if not element.can_be_null and element.name != "Nothing" and None in out:
                raise BadArguments(f"unable to cast NULL to type `{element.display()}`: the elements of "
                                   f"{t.as_nullable(False).display()} are NOT NULL")
            return out
        return to_array
    if t.name == "Map":
        key_type, value_type = map_parts(t)
        cast_key, cast_value = _element_caster(key_type), _element_caster(value_type)

        def to_map(v):
            if isinstance(v, str):
                v = parse_text(v, t)
            if isinstance(v, dict):
                v = tuple(v.items())
            if not isinstance(v, (MapValue, list, tuple)) or isinstance(v, (ArrayValue, TupleValue)):
                _refuse(v, t)
            out = {}
            for k, x in v:
                out.setdefault(cast_key(k), None if x is None else cast_value(x))
            return MapValue(out.items())
        return to_map
    casts = [_element_caster(a) for a in t.args]

    def to_tuple(v):
        if isinstance(v, str):
            v = parse_text(v, t)
        if not isinstance(v, (TupleValue, list, tuple)) or isinstance(v, (ArrayValue, MapValue)) \
                or len(v) != len(casts):
            _refuse(v, t)
        return TupleValue(None if x is None else c(x) for c, x in zip(casts, v, strict=True))
    return to_tuple


def _element_caster(t: T.SqlType):
    if t.name == "Nothing":
        return lambda v: v
    if t.name in T.NESTED_NAMES:
        return caster(t)
    return T.caster(t)


def _refuse(v, t: T.SqlType):
    raise BadArguments(f"unable to cast {render(v)} to type `{t.display()}`")


def to_variant(v) -> str:
    """CAST(x AS VARIANT) of any value: an ARRAY as a JSON array, a MAP as an object, a TUPLE as
    an object keyed "1", "2"... (as Databend converts them); other values as engine.variant does."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v))
    return V.to_variant(v)


def from_value(v) -> str:
    """to_variant(x) of any value: nested values as to_variant converts them, others as
    engine.variant.from_value does (text becomes a JSON string)."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v))
    return V.from_value(v)


def _plain(v):
    """A nested value as Python JSON values (lists, dicts, numbers, strings)."""
    cls = type(v)
    if cls is ArrayValue:
        return [_plain(x) for x in v]
    if cls is MapValue:
        return {T.to_string(k): _plain(x) for k, x in v}
    if cls is TupleValue:
        return {str(i): _plain(x) for i, x in enumerate(v, 1)}
    if v is None or isinstance(v, bool | int | float | str):
        return v
    return V.parse(V.from_value(v))


def caster_from_variant(t: T.SqlType):
    """CAST(variant AS ARRAY / MAP / TUPLE): JSON arrays and objects converted element by element."""
    cast = caster(t)

    def convert(text):
        value = V.parse(text)
        if t.name == "Map" and isinstance(value, dict):
            value = list(value.items())
        if not isinstance(value, list):
            raise BadArguments(f"unable to cast {text} to type `{t.display()}`")
        if t.name != "Map":
            value = [V.dumps(x) if isinstance(x, dict | list) else x for x in value]
        return cast(value)
    return convert


# ---------------------------------------------------------------- text


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


# ---------------------------------------------------------------- wire text


def _quote(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def render(v) -> str:
    """A value as Databend writes it inside a nested value: strings, dates and timestamps
    quoted, NULL as NULL, nested values in their brackets."""
    if v is None:
        return "NULL"
    cls = type(v)
    if cls is ArrayValue:
        return "[" + ",".join(map(render, v)) + "]"
    if cls is MapValue:
        return "{" + ",".join(render(k) + ":" + render(x) for k, x in v) + "}"
    if cls is TupleValue:
        return "(" + ",".join(map(render, v)) + ")"
    if cls is str:
        return _quote(v)
    if isinstance(v, datetime.date):
        return _quote(R.render_value(v))
    return R.render_value(v)


def renderer(t: T.SqlType):
    """A function value (not None) -> wire text of values of the nested type t."""
    if t.name == "Array":
        element = _element_renderer(element_of(t))
        return lambda v: "[" + ",".join([element(x) for x in v]) + "]"
    if t.name == "Map":
        kt, vt = map_parts(t)
        key, value = _element_renderer(kt), _element_renderer(vt)
        return lambda v: "{" + ",".join([key(k) + ":" + value(x) for k, x in v]) + "}"
    fields = [_element_renderer(a) for a in t.args]
    return lambda v: "(" + ",".join([f(x) for f, x in zip(fields, v, strict=True)]) + ")"


def _element_renderer(t: T.SqlType):
    if t.name in ("String", "Date", "Timestamp", "Variant", "Binary", "Bitmap"):
        inner = R.renderer_for(t)
        return lambda x: "NULL" if x is None else _quote(inner(x))
    if t.name in ("Nothing", "Null"):
        return render
    inner = renderer(t) if t.name in T.NESTED_NAMES else R.renderer_for(t)
    return lambda x: "NULL" if x is None else inner(x)
