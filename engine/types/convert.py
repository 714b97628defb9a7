"""Values into table columns: the stored form of a computed value (NULL, range and type checks)
and the value a column takes when an INSERT does not name it."""

from __future__ import annotations

import decimal

from engine.core.errors import BadArguments
from engine.types import cast as casting
from engine.types import datetimes as D
from engine.types import nested as N
from engine.types import sqltype as T


def type_default(t: T.SqlType):
    """The value a column of type t takes when an INSERT does not name it (and has no DEFAULT)."""
    if t.nullable:
        return None
    if t.is_int:
        return 0
    if t.is_float:
        return 0.0
    if t.name == "Decimal":
        return decimal.Decimal(0).quantize(decimal.Decimal(1).scaleb(-t.scale))
    if t.name == "Boolean":
        return False
    if t.name == "Date":
        return casting.to_date(0)
    if t.name == "Timestamp":
        return casting.to_timestamp(0)
    if t.name == "Variant":
        return "null"  # JSON null
    if t.name == "Binary":
        return b""
    if t.name == "Bitmap":
        return frozenset()  # the empty bitmap
    if t.name == "Array":
        return N.ArrayValue(())
    if t.name == "Map":
        return N.MapValue(())
    if t.name == "Tuple":  # each field's own default (never '': a tuple column holds tuples)
        return N.TupleValue(type_default(a) for a in t.args)
    return ""


def value_converter(t: T.SqlType, column: str, statement: str = "INSERT", timezone: str = "UTC"):
    """A function turning a Python value into a stored value of type t (NULL checked here);
    `statement` names the writer in the NULL error (INSERT or UPDATE); text written into a Date
    or Timestamp column (or one inside an ARRAY / MAP / TUPLE) is read in the session `timezone`."""
    cast = casting.caster(t)
    if t.name in ("Date", "Timestamp"):
        tz = D.zone(timezone)
        of = D.timestamp_of if t.name == "Timestamp" else D.date_of

        def cast(v):
            return of(v, tz)
    elif t.args and timezone != "UTC" and N.holds_temporal(t):  # inside an ARRAY / MAP / TUPLE too
        cast = casting.nested_caster(t, D.zone(timezone))
    nullable = t.nullable
    exact = {
        "Int8": int, "Int16": int, "Int32": int, "Int64": int, "UInt8": int, "UInt16": int, "UInt32": int,
        "UInt64": int, "Float64": float, "String": str, "Boolean": bool,
    }.get(t.name)
    lo, hi = T.INT_RANGES.get(t.name, (None, None))
    if statement == "UPDATE":
        null_message = f"cannot set non-nullable column `{column}` of type {t.display()} to NULL"
    else:
        null_message = f"cannot insert NULL into non-nullable column `{column}` of type {t.display()}"

    def convert(v):
        if v is None:
            if nullable:
                return None
            raise BadArguments(null_message)
        if type(v) is exact:
            if lo is not None and not lo <= v <= hi:
                raise BadArguments(f"number {v} overflows {t.display()} in column `{column}`")
            return v
        return cast(v)

    return convert
