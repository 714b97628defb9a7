"""ARRAY, MAP and TUPLE values: their Python form, types of literals, casts, wire text and JSON form.

An ARRAY is an `ArrayValue` (a tuple of its elements), a TUPLE a `TupleValue` (a tuple of its
fields), a MAP a `MapValue` (a tuple of (key, value) pairs, keys unique, in insertion order). All
three are tuples, so they hash (GROUP BY, DISTINCT) and compare element by element."""

from __future__ import annotations

import datetime
import functools

from engine.core.errors import BadArguments
from engine.types import datetimes as D
from engine.types import render as R
from engine.types import sqltype as T
from engine.types import variant as V


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
    """The element type of `[]` and `{}` (built on first use: engine.types.sqltype imports this module)."""
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


def field_names(t: T.SqlType) -> tuple:
    """The names of a tuple type's fields: as written in a table's DDL (TUPLE(a INT, b STRING)),
    else "1", "2"... (Databend names the fields of every other tuple so)."""
    return t.field_names or tuple(str(i) for i in range(1, len(t.args) + 1))


def unnamed(t: T.SqlType) -> T.SqlType:
    """t without tuple field names at any depth: a value computed from named tuples (a CAST, a
    CREATE TABLE AS column) has none, as Databend keeps names only on table columns."""
    if not t.args:
        return t
    return T.SqlType(t.name, t.nullable, args=tuple(unnamed(a) for a in t.args))


def common_element_type(types) -> T.SqlType:
    """The element type of an array literal of values of `types` (Nothing when empty)."""
    types = list(types)
    if not types:
        return nothing()
    return T.common_type(types)


def typeof_name(t: T.SqlType, with_names: bool = False) -> str:
    """TYPEOF's spelling of a nested type: ARRAY(UINT8 NULL), TUPLE(INT32 NULL, STRING) NULL
    (element nullability shown, tuple field names not: unlike DESCRIBE); `with_names` spells a
    named tuple TUPLE(a INT32, b STRING), as a column named after a CAST shows it."""
    if t.name in T.NESTED_NAMES:
        parts = [typeof_name(a, with_names) for a in t.args]
        if with_names and t.field_names:
            parts = [f"{name} {part}" for name, part in zip(t.field_names, parts, strict=True)]
        base = f"{t.name.upper()}({', '.join(parts)})"
    elif t.name in ("Null", "Nothing"):
        return t.name.upper()
    else:
        base = t.as_nullable(False).display().upper()
    return base + " NULL" if t.nullable else base


def cast_type(tn, keep_names: bool = False) -> T.SqlType:
    """The type a CAST names (a `grammar.ast.TypeName`): unlike in DDL, the elements of a nested
    type are NOT NULL unless written NULL (CAST(x AS ARRAY(INT)) is Array(Int32), as Databend).
    Tuple field names are dropped (a table column's only) unless `keep_names`."""
    written = T.type_from_ast(tn)  # (checks what is written)
    if not written.args or tn.name.upper() not in ("ARRAY", "MAP", "TUPLE"):
        return written
    args = tuple(cast_type(a, keep_names) if a.name.upper() in ("ARRAY", "MAP", "TUPLE")
                 else T.type_from_ast(a, default_nullable=False) for a in tn.args)
    return T.SqlType(written.name, written.nullable, args=args,
                     field_names=written.field_names if keep_names else ())


# ---------------------------------------------------------------- casts


def caster(t: T.SqlType, tz=D.UTC):
    """A function value (not None) -> value of the nested type t; text and Dates become
    Timestamps (and Timestamps text or Dates) in the zone `tz`, as plain values do."""
    if t.name == "Array":
        element = element_of(t)
        cast = _element_caster(element, tz)

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
        cast_key, cast_value = _element_caster(key_type, tz), _element_caster(value_type, tz)

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
    casts = [_element_caster(a, tz) for a in t.args]

    def to_tuple(v):
        if isinstance(v, str):
            v = parse_text(v, t)
        if not isinstance(v, (TupleValue, list, tuple)) or isinstance(v, (ArrayValue, MapValue)) \
                or len(v) != len(casts):
            _refuse(v, t)
        return TupleValue(None if x is None else c(x) for c, x in zip(casts, v, strict=True))
    return to_tuple


def _element_caster(t: T.SqlType, tz):
    if t.name == "Nothing":
        return lambda v: v
    if t.name in T.NESTED_NAMES:
        return caster(t, tz)
    zoned = _ZONED_CASTS.get(t.name) if tz is not D.UTC else None
    return zoned(tz) if zoned is not None else T.caster(t)


def _zoned_timestamp(tz):
    def cast(v):
        if type(v) is str:
            return D.parse_timestamp(v, tz)
        if type(v) is datetime.date:
            return D.date_to_timestamp(v, tz)
        return T.to_timestamp(v)
    return cast


def _zoned_date(tz):
    return lambda v: D.timestamp_to_date(v, tz) if type(v) is datetime.datetime else T.to_date(v)


def _zoned_text(tz):
    def cast(v):
        if type(v) is datetime.datetime:
            return D.render_timestamp(D.to_local(v, tz))
        if isinstance(v, NESTED_VALUE_TYPES):
            return render(v, tz)
        return T.to_string(v)
    return cast


# element casts the session zone decides (as engine.functions.dates.temporal_cast for plain values)
_ZONED_CASTS = {"Timestamp": _zoned_timestamp, "Date": _zoned_date, "String": _zoned_text,
                "Variant": lambda tz: lambda v: to_variant(v, None, tz)}


def _has(t: T.SqlType, name: str) -> bool:
    """Whether a type holds `name` (Timestamp...) at any depth."""
    return t.name == name or any(_has(a, name) for a in t.args)


def session_cast(source: T.SqlType, target: T.SqlType, timezone: str):
    """The conversion of a CAST that involves nested values and depends on the session (None when
    the plain caster serves): Timestamps inside read and shown in the session `timezone`, a
    table column's named tuple made an object keyed by its field names (as Databend's VARIANT)."""
    zoned = timezone != "UTC" and (_has(source, "Timestamp") or _has(target, "Timestamp"))
    tz = D.zone(timezone)
    if target.name in T.NESTED_NAMES and zoned:
        return caster_from_variant(target, tz) if source.name == "Variant" else caster(target, tz)
    if source.name not in T.NESTED_NAMES:
        return None
    if target.name == "String" and zoned:
        return lambda v: render(v, tz)
    if target.name == "Variant" and (zoned or (source.name == "Tuple" and source.field_names)):
        return lambda v: to_variant(v, source, tz)
    return None


def _refuse(v, t: T.SqlType):
    raise BadArguments(f"unable to cast {render(v)} to type `{t.display()}`")


def to_variant(v, t: T.SqlType | None = None, tz=D.UTC) -> str:
    """CAST(x AS VARIANT) of any value: an ARRAY as a JSON array, a MAP as an object, a TUPLE as
    an object keyed by its field names when `t` is a named tuple (a table column's, and the tuples
    directly inside it), else "1", "2"... (as Databend converts them); Timestamps as text in the
    zone `tz`; other values as engine.types.variant does."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v, t, tz))
    return V.to_variant(v)


def from_value(v, t: T.SqlType | None = None) -> str:
    """to_variant(x) of any value: nested values as to_variant converts them, others as
    engine.types.variant.from_value does (text becomes a JSON string)."""
    if isinstance(v, NESTED_VALUE_TYPES):
        return V.to_variant(_plain(v, t, D.UTC))
    return V.from_value(v)


def variant_maker(types):
    """to_variant(x) for values of types[0] (its tuple field names known)."""
    t = types[0] if types else None
    return lambda v: from_value(v, t)


def _plain(v, t: T.SqlType | None, tz):
    """A nested value as Python JSON values (lists, dicts, numbers, strings)."""
    cls = type(v)
    if cls is ArrayValue:
        return [_plain(x, None, tz) for x in v]
    if cls is MapValue:
        return {_zoned_text(tz)(k): _plain(x, None, tz) for k, x in v}
    if cls is TupleValue:
        named = t is not None and t.name == "Tuple" and len(t.args) == len(v)
        names = field_names(t) if named else [str(i) for i in range(1, len(v) + 1)]
        fields = t.args if named else [None] * len(v)
        return {n: _plain(x, f, tz) for n, x, f in zip(names, v, fields, strict=True)}
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if cls is datetime.datetime:
        return D.render_timestamp(D.to_local(v, tz))
    return V.parse(V.from_value(v))


def caster_from_variant(t: T.SqlType, tz=D.UTC):
    """CAST(variant AS ARRAY / MAP / TUPLE): JSON arrays and objects converted element by element."""
    cast = caster(t, tz)

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


def render(v, tz=D.UTC) -> str:
    """A value as Databend writes it inside a nested value: strings, dates and timestamps
    (in the zone `tz`) quoted, NULL as NULL, nested values in their brackets."""
    if v is None:
        return "NULL"
    cls = type(v)
    if cls is ArrayValue:
        return "[" + ",".join([render(x, tz) for x in v]) + "]"
    if cls is MapValue:
        return "{" + ",".join([render(k, tz) + ":" + render(x, tz) for k, x in v]) + "}"
    if cls is TupleValue:
        return "(" + ",".join([render(x, tz) for x in v]) + ")"
    if cls is str:
        return _quote(v)
    if cls is datetime.datetime:
        return _quote(D.render_timestamp(D.to_local(v, tz)))
    if isinstance(v, datetime.date):
        return _quote(R.render_value(v))
    return R.render_value(v)


def renderer(t: T.SqlType, tz=D.UTC):
    """A function value (not None) -> wire text of values of the nested type t (Timestamps
    inside shown in the zone `tz`)."""
    if t.name == "Array":
        element = _element_renderer(element_of(t), tz)
        return lambda v: "[" + ",".join([element(x) for x in v]) + "]"
    if t.name == "Map":
        kt, vt = map_parts(t)
        key, value = _element_renderer(kt, tz), _element_renderer(vt, tz)
        return lambda v: "{" + ",".join([key(k) + ":" + value(x) for k, x in v]) + "}"
    fields = [_element_renderer(a, tz) for a in t.args]
    return lambda v: "(" + ",".join([f(x) for f, x in zip(fields, v, strict=True)]) + ")"


def shows_timestamps(t: T.SqlType) -> bool:
    """Whether values of the nested type t hold Timestamps (shown in the session zone)."""
    return _has(t, "Timestamp")


def holds_temporal(t: T.SqlType) -> bool:
    """Whether values written into the nested type t are read in the session zone (it holds
    Timestamps or Dates)."""
    return _has(t, "Timestamp") or _has(t, "Date")


def _element_renderer(t: T.SqlType, tz):
    if t.name in ("String", "Date", "Timestamp", "Variant", "Binary", "Bitmap"):
        inner = D.timestamp_renderer(tz) if t.name == "Timestamp" else R.renderer_for(t)
        return lambda x: "NULL" if x is None else _quote(inner(x))
    if t.name in ("Nothing", "Null"):
        return lambda x: render(x, tz)
    inner = renderer(t, tz) if t.name in T.NESTED_NAMES else R.renderer_for(t)
    return lambda x: "NULL" if x is None else inner(x)
