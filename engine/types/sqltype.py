"""SQL types: Databend type names, parsing of written types and coercion rules; no value code.

Casts of values are engine.types.cast, their wire text engine.types.render."""

from __future__ import annotations

import decimal
from dataclasses import dataclass, replace

from engine.core.errors import BadArguments, SqlSyntaxError
from engine.types import geo_values

INT_RANGES = {
    "UInt8": (0, 2**8 - 1), "UInt16": (0, 2**16 - 1), "UInt32": (0, 2**32 - 1), "UInt64": (0, 2**64 - 1),
    "Int8": (-(2**7), 2**7 - 1), "Int16": (-(2**15), 2**15 - 1), "Int32": (-(2**31), 2**31 - 1),
    "Int64": (-(2**63), 2**63 - 1),
}
INT_NAMES = frozenset(INT_RANGES)
DECIMAL_SIZE_OVERFLOW = 1049  # Databend's ErrorCode::Overflow, for a Decimal(p, s) out of range
NUMERIC_NAMES = INT_NAMES | {"Float32", "Float64", "Decimal"}


@dataclass(frozen=True, slots=True)
class SqlType:
    """A Databend type: base name, nullability and, for Decimal, precision and scale."""

    name: str
    nullable: bool = False
    precision: int = 0
    scale: int = 0
    # Array(T), Map(K, V), Tuple(T...): the element types; a named Tuple also its field names
    args: tuple = ()
    field_names: tuple = ()
    # an aggregate's state (sum_state(x)...): a Tuple of the state's fields that also names its
    # aggregate, as (function, parameters, argument types); () for every other type
    state: tuple = ()

    def display(self) -> str:
        if self.name == "Null":
            return "NULL"
        if self.args:
            base = f"{self.name}({', '.join(a.display() for a in self.args)})"
        else:
            base = f"Decimal({self.precision}, {self.scale})" if self.name == "Decimal" else self.name
        return f"Nullable({base})" if self.nullable else base

    def sql_name(self, with_null: bool = False) -> str:
        """The SQL spelling Databend uses in DESCRIBE, SHOW CREATE TABLE and TYPEOF ('INT', 'BIGINT
        UNSIGNED', 'DECIMAL(10, 2)'...), with ' NULL' appended for nullable types when asked."""
        if self.name == "Null":
            return "NULL"
        if self.name == "Decimal":
            base = f"DECIMAL({self.precision}, {self.scale})"
        elif self.args:
            base = _nested_sql_name(self)
        else:
            base = _SQL_NAMES[self.name]
        return base + " NULL" if with_null and self.nullable else base

    def as_nullable(self, nullable: bool = True) -> SqlType:
        if self.name == "Null" or self.nullable == nullable:
            return self
        return replace(self, nullable=nullable)

    @property
    def is_int(self) -> bool:
        return self.name in INT_NAMES

    @property
    def is_numeric(self) -> bool:
        return self.name in NUMERIC_NAMES

    @property
    def is_float(self) -> bool:
        return self.name in ("Float32", "Float64")

    @property
    def is_string(self) -> bool:
        return self.name == "String"

    @property
    def can_be_null(self) -> bool:
        return self.nullable or self.name == "Null"


_SQL_NAMES = {
    "Boolean": "BOOLEAN", "Int8": "TINYINT", "Int16": "SMALLINT", "Int32": "INT", "Int64": "BIGINT",
    "UInt8": "TINYINT UNSIGNED", "UInt16": "SMALLINT UNSIGNED", "UInt32": "INT UNSIGNED",
    "UInt64": "BIGINT UNSIGNED", "Float32": "FLOAT", "Float64": "DOUBLE", "String": "VARCHAR",
    "Date": "DATE", "Timestamp": "TIMESTAMP", "TimestampTz": "TIMESTAMP_TZ", "Binary": "BINARY",
    "Variant": "VARIANT", "Bitmap": "BITMAP", "Geometry": "GEOMETRY", "Geography": "GEOGRAPHY",
    "Interval": "INTERVAL",
}

NESTED_NAMES = frozenset({"Array", "Map", "Tuple"})


def _nested_sql_name(t: SqlType) -> str:
    """As Databend spells a nested type in DESCRIBE: ARRAY(INT32), MAP(STRING, INT32),
    TUPLE(1 INT32, 2 STRING) or TUPLE(A INT32, B STRING); elements by their type names."""
    parts = [_element_sql_name(a) for a in t.args]
    if t.name == "Tuple":
        names = t.field_names or [str(i) for i in range(1, len(parts) + 1)]
        parts = [f"{n.upper()} {p}" for n, p in zip(names, parts, strict=False)]
    return f"{t.name.upper()}({', '.join(parts)})"


def explicit_null_sql_name(t: SqlType) -> str:
    """As SHOW CREATE TABLE spells a column's type (Databend's sql_name_explicit_null): every
    level says NULL or NOT NULL: ARRAY(VARCHAR NULL) NULL, MAP(VARCHAR NOT NULL, INT NULL) NULL."""
    if t.name == "Null":
        return "NULL"
    if t.name == "Tuple":
        names = t.field_names or [str(i) for i in range(1, len(t.args) + 1)]
        base = "TUPLE(" + ", ".join(f"{n} {explicit_null_sql_name(a)}" for n, a in zip(names, t.args,
                                                                                        strict=False)) + ")"
    elif t.name == "Array":
        base = f"ARRAY({explicit_null_sql_name(t.args[0])})"
    elif t.name == "Map":
        base = f"MAP({explicit_null_sql_name(t.args[0])}, {explicit_null_sql_name(t.args[1])})"
    else:
        base = t.sql_name()
    return base + (" NULL" if t.nullable else " NOT NULL")


def _element_sql_name(t: SqlType) -> str:
    if t.args:
        return _nested_sql_name(t)
    return t.as_nullable(False).display().upper()

NULL = SqlType("Null", True)
BOOLEAN = SqlType("Boolean")
UINT8 = SqlType("UInt8")
UINT64 = SqlType("UInt64")
UINT32 = SqlType("UInt32")
INT32 = SqlType("Int32")
INT64 = SqlType("Int64")
FLOAT64 = SqlType("Float64")
FLOAT32 = SqlType("Float32")
STRING = SqlType("String")
DATE = SqlType("Date")
TIMESTAMP = SqlType("Timestamp")
BINARY = SqlType("Binary")
BITMAP = SqlType("Bitmap")
GEOMETRY = SqlType("Geometry")
GEOGRAPHY = SqlType("Geography")
INTERVAL = SqlType("Interval")

_ALIASES = {
    "BOOLEAN": "Boolean", "BOOL": "Boolean",
    "TINYINT": "Int8", "INT8": "Int8", "SMALLINT": "Int16", "INT16": "Int16",
    "INT": "Int32", "INTEGER": "Int32", "INT32": "Int32", "MEDIUMINT": "Int32",
    "BIGINT": "Int64", "INT64": "Int64", "SIGNED": "Int64",
    "UINT8": "UInt8", "UINT16": "UInt16", "UINT32": "UInt32", "UINT64": "UInt64", "UNSIGNED": "UInt64",
    "FLOAT": "Float32", "FLOAT32": "Float32", "REAL": "Float64",
    "DOUBLE": "Float64", "FLOAT64": "Float64", "DOUBLE PRECISION": "Float64",
    "VARCHAR": "String", "TEXT": "String", "CHAR": "String", "STRING": "String", "CHARACTER": "String",
    "DATE": "Date", "TIMESTAMP": "Timestamp", "DATETIME": "Timestamp", "TIMESTAMP_TZ": "TimestampTz",
    "DECIMAL": "Decimal", "NUMERIC": "Decimal",
    "BINARY": "Binary", "VARBINARY": "Binary", "BLOB": "Binary", "TINYBLOB": "Binary", "MEDIUMBLOB": "Binary",
    "LONGBLOB": "Binary", "JSON": "Variant", "VARIANT": "Variant", "BITMAP": "Bitmap",
    "GEOMETRY": "Geometry", "GEOGRAPHY": "Geography",
    "INTERVAL": "Interval",
}


# what a MAP's key may be (Databend: booleans, text, numbers, decimals, timestamps and dates)
MAP_KEY_NAMES = INT_NAMES | {"Float32", "Float64", "Decimal", "Boolean", "String", "Timestamp", "Date"}


def type_from_ast(tn, default_nullable: bool = False) -> SqlType:
    """A `grammar.ast.TypeName` -> SqlType; nullable when written so, else `default_nullable`."""
    name = tn.name.upper()
    if name == "NULLABLE" and tn.args:
        return type_from_ast(tn.args[0]).as_nullable(True)
    nullable = default_nullable if tn.nullable is None else tn.nullable
    if name in ("ARRAY", "MAP", "TUPLE") and tn.args:
        # elements are nullable unless written NOT NULL; a map's key never is
        args = tuple(type_from_ast(a, default_nullable=not (name == "MAP" and i == 0)) for i, a in enumerate(tn.args))
        if name == "MAP" and args[0].name not in MAP_KEY_NAMES:  # Databend's resolve_type_name
            raise BadArguments(f"Invalid Map key type '{args[0].display()}'", position=tn.pos)
        return SqlType(name.capitalize(), nullable, args=args, field_names=tuple(tn.field_names))
    if name == "VECTOR":  # VECTOR(n): held as an array of Float32 (engine.functions.vectors)
        return SqlType("Array", nullable, args=(SqlType("Float32"),))
    base = _ALIASES.get(name)
    if base is None:
        raise SqlSyntaxError(f"Unknown type {tn.name!r}", position=tn.pos)
    if base == "Decimal":
        # a bare NUMERIC is Decimal(18, 3), as Databend's parser reads it (its ty_numeric)
        p = tn.params[0] if tn.params else 18 if name == "NUMERIC" else 10
        s = tn.params[1] if len(tn.params) > 1 else 3 if name == "NUMERIC" and not tn.params else 0
        if p > 255 or s > 255:  # beyond Databend's u8 parameters: its parser refuses them
            raise SqlSyntaxError(f"Decimal({p}, {s}): precision and scale are at most 255", position=tn.pos)
        if not 1 <= p <= 76 or s > p:  # Databend's DecimalSize::new: an Overflow error (1049)
            raise BadArguments(f"Invalid Decimal({p}, {s})", code=DECIMAL_SIZE_OVERFLOW, position=tn.pos)
        return SqlType("Decimal", nullable, p, s)
    if base in ("Geometry", "Geography"):
        geo_values.library()  # without the geo extra: the error naming it
    return SqlType(base, nullable)


def decimal_literal_type(text: str) -> SqlType:
    digits = text.lstrip("+-")
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0")
    precision = max(len(whole) + len(frac), 1)
    return SqlType("Decimal", False, max(precision, len(frac)), len(frac))


MAX_DECIMAL_PRECISION = 76
_MAX_DECIMAL_INT = 10 ** MAX_DECIMAL_PRECISION - 1


def fits_decimal(v: int) -> bool:
    """Whether an integer fits Decimal(76, 0) (compared, not printed: str() of a huge int is slow)."""
    return -_MAX_DECIMAL_INT <= v <= _MAX_DECIMAL_INT


def exponent_literal(v: float):
    """(value, type) of a number written with an exponent, as Databend reads it: the exact number
    (1e3 is the UInt16 1000, 1.5e-3 a Decimal(4, 4)), a Float64 when beyond Decimal(76)."""
    d = decimal.Decimal(repr(v))
    if d == d.to_integral_value():
        n = int(d)
        t = int_literal_type(n)
        return (float(n) if t.is_float else n), t
    text = format(d, "f")
    t = decimal_literal_type(text)
    if t.precision > MAX_DECIMAL_PRECISION:
        return v, FLOAT64
    return decimal.Decimal(text), t


def int_literal_type(v: int) -> SqlType:
    """As Databend types an integer: the smallest integer type holding it, beyond 64 bits
    Decimal(digits, 0) (the value stays an exact Python int), beyond 76 digits Float64."""
    for lo, hi, t in _UNSIGNED_LITERAL_TYPES if v >= 0 else _SIGNED_LITERAL_TYPES:
        if lo <= v <= hi:
            return t
    if not fits_decimal(v):
        return FLOAT64
    return SqlType("Decimal", False, len(str(abs(v))), 0)


# (low, high, type) of integer literals, narrowest first: one shared (frozen) type each
_UNSIGNED_LITERAL_TYPES = tuple((*INT_RANGES[n], SqlType(n)) for n in ("UInt8", "UInt16", "UInt32", "UInt64"))
_SIGNED_LITERAL_TYPES = tuple((*INT_RANGES[n], SqlType(n)) for n in ("Int8", "Int16", "Int32", "Int64"))


_WIDTH = {"8": 8, "16": 16, "32": 32, "64": 64}


def _int_parts(t: SqlType) -> tuple[bool, int]:
    signed = not t.name.startswith("U")
    return signed, _WIDTH[t.name.lstrip("UInt")]


def _int_type(signed: bool, width: int) -> SqlType:
    return SqlType(("Int" if signed else "UInt") + str(min(width, 64)))


def arithmetic_type(op: str, a: SqlType, b: SqlType) -> SqlType:
    """Result type of a binary arithmetic operator (non-null part; the caller adds nullability)."""
    if a.name == "Null" or b.name == "Null":
        return NULL
    if op == "/":
        if (a.name == "Decimal" or b.name == "Decimal") and not (a.is_float or b.is_float
                                                                or a.is_string or b.is_string):
            # current Databend (Snowflake's rule): the dividend's scale + 6, at most 12 unless
            # the dividend has more; its whole digits + the divisor's scale before the point
            # (DECIMAL(10, 2) / DECIMAL(5, 3) is Decimal(19, 8))
            pa, sa = _decimal_parts(a)
            pb, sb = _decimal_parts(b)
            scale = max(sa, min(sa + 6, 12))
            return SqlType("Decimal", False, min(pa - sa + sb + scale, _decimal_limit(pa, pb)), scale)
        return FLOAT64
    if a.is_float or b.is_float or a.is_string or b.is_string:
        if op != "DIV":
            return FLOAT64
        # Databend: the wider operand's width (Float32 is 32 bits; text and decimals are read
        # as Float64), so Float32 DIV Int16 is Int32
        return INT32 if max(_float_div_width(a), _float_div_width(b)) <= 32 else INT64
    if a.name == "Decimal" or b.name == "Decimal":
        if op == "DIV":
            return INT64
        if op == "%":  # Databend 1.2.453 answers a Decimal modulo as Float64
            return FLOAT64
        pa, sa = _decimal_parts(a)
        pb, sb = _decimal_parts(b)
        limit = _decimal_limit(pa, pb)
        if op == "*":
            # current Databend (Snowflake's rule): the scales added, at most the larger one or
            # 12 (the product rounded to it); the whole digits added
            scale = min(sa + sb, max(sa, sb, 12))
            return SqlType("Decimal", False, min(pa - sa + pb - sb + scale, limit), scale)
        scale = max(sa, sb)
        precision = max(pa - sa, pb - sb) + scale + 1
        return SqlType("Decimal", False, min(precision, limit), scale)
    if not (a.is_int or a.name == "Boolean") or not (b.is_int or b.name == "Boolean"):
        raise BadArguments(f"no function matches signature `{op}`({a.display()}, {b.display()})")
    sa, wa = _int_parts(a) if a.is_int else (False, 8)
    sb, wb = _int_parts(b) if b.is_int else (False, 8)
    signed = sa or sb
    width = max(wa, wb)
    if op in ("+", "*"):
        return _int_type(signed, width * 2)
    if op == "-":
        return _int_type(True, width * 2)
    if op == "DIV":
        return _int_type(signed, width)
    if op == "%":
        # Databend: the divisor's width (doubled when the dividend is signed), the dividend's sign
        return _int_type(sa, wb * 2 if sa else wb)
    raise AssertionError(op)


def _decimal_parts(t: SqlType) -> tuple[int, int]:
    """(precision, scale) of a decimal operand; an integer's as Databend counts its digits."""
    return (t.precision, t.scale) if t.name == "Decimal" else (_int_digits(t), 0)


def _decimal_limit(pa: int, pb: int) -> int:
    """Databend keeps a Decimal128 operation Decimal128: at most 38 digits unless an operand
    already has more (DECIMAL(38, 10) * 2 is Decimal(38, 10)), then at most 76."""
    return 38 if max(pa, pb) <= 38 else 76


def _float_div_width(t: SqlType) -> int:
    if t.is_int:
        return _int_parts(t)[1]
    return 32 if t.name in ("Float32", "Boolean") else 64


def negation_type(t: SqlType) -> SqlType:
    """Result type of unary minus: integers widen to the next signed type (Int64 at most)."""
    if t.is_int:
        return _int_type(True, _int_parts(t)[1] * 2)
    return t


def _int_digits(t: SqlType) -> int:
    """Decimal digits an integer type needs (Databend's precision for integers in decimal math)."""
    return {"Int8": 3, "UInt8": 3, "Int16": 5, "UInt16": 5, "Int32": 10, "UInt32": 10}.get(t.name, 19 if t.name == "Int64"
                                                                                           else 20)


def common_type(types) -> SqlType:
    """The type several values unify to (UNION, CASE, COALESCE, IN lists)."""
    result = None
    nullable = False
    for t in types:
        nullable = nullable or t.can_be_null
        if t.name == "Null":
            continue
        if result is None:
            result = t.as_nullable(False)
        elif result.name != t.name or result.name == "Decimal":
            result = _unify(result, t.as_nullable(False))
        elif result.args and result != t.as_nullable(False):
            result = _unify_nested(result, t.as_nullable(False))
    if result is None:
        return NULL
    return result.as_nullable(nullable)


def _unify(a: SqlType, b: SqlType) -> SqlType:
    if a.is_int and b.is_int:
        sa, wa = _int_parts(a)
        sb, wb = _int_parts(b)
        if sa == sb:
            return _int_type(sa, max(wa, wb))
        return _int_type(True, max(wa if sa else wa * 2, wb if sb else wb * 2))
    if a.is_numeric and b.is_numeric:
        if a.is_float or b.is_float:
            # Float32 stays Float32 beside a Decimal or an integer of at most 16 bits (Databend
            # 1.2.453); beside Float64 or a wider integer it is Float64
            other = b if a.name == "Float32" else a if b.name == "Float32" else None
            if other is not None and (other.name in ("Float32", "Decimal")
                                      or (other.is_int and _int_parts(other)[1] <= 16)):
                return FLOAT32
            return FLOAT64
        pa, sa = (a.precision, a.scale) if a.name == "Decimal" else (_int_digits(a), 0)
        pb, sb = (b.precision, b.scale) if b.name == "Decimal" else (_int_digits(b), 0)
        scale = max(sa, sb)
        return SqlType("Decimal", False, min(max(pa - sa, pb - sb) + scale, 76), scale)
    if {a.name, b.name} == {"Date", "Timestamp"}:
        return TIMESTAMP
    if "TimestampTz" in (a.name, b.name) and {a.name, b.name} <= {"Date", "Timestamp", "TimestampTz"}:
        return SqlType("TimestampTz")  # instants: a date or timestamp is one in UTC
    if a.name == "Boolean" and b.is_numeric:
        return b
    if b.name == "Boolean" and a.is_numeric:
        return a
    return STRING


def _unify_nested(a: SqlType, b: SqlType) -> SqlType:
    """The common type of two nested types of the same kind (element types unified)."""
    if a.name != b.name or (a.name == "Tuple" and len(a.args) != len(b.args)):
        raise BadArguments(f"unable to unify `{a.display()}` with `{b.display()}`")
    if any(x.name == "Nothing" for x in a.args):
        return b
    if any(x.name == "Nothing" for x in b.args):
        return a
    if a.name == "Map":
        return SqlType("Map", args=tuple(common_type([x, y]) for x, y in zip(a.args, b.args, strict=True)))
    return SqlType(a.name, args=tuple(common_type([x, y]) for x, y in zip(a.args, b.args, strict=True)),
                     field_names=a.field_names)
