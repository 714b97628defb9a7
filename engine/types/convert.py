"""Values into table columns: the stored form of a computed value (NULL, range and type checks)
and the value a column takes when an INSERT does not name it."""

from __future__ import annotations

import datetime
import decimal

from engine.core.errors import BadArguments
from engine.types import cast as casting
from engine.types import datetimes as D
from engine.types import geo_values
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types import timestamp_tz as TZ


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
    if t.name == "TimestampTz":
        return TZ.timestamp_tz_of(0, D.UTC)
    if t.name == "Variant":
        return "null"  # JSON null
    if t.name == "Binary":
        return b""
    if t.name == "Bitmap":
        return frozenset()  # the empty bitmap
    if t.name in ("Geometry", "Geography"):  # Databend's default: no bytes (shown as empty text)
        return (geo_values.GeometryValue if t.name == "Geometry" else geo_values.GeographyValue)(b"")
    if t.name == "Interval":
        return casting.to_interval("0")
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
    if t.name in ("Date", "Timestamp", "TimestampTz"):
        tz = D.zone(timezone)
        of = {"Timestamp": D.timestamp_of, "Date": D.date_of, "TimestampTz": TZ.timestamp_tz_of}[t.name]

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


# The Python type each column type's values are stored as, and the range they must lie in
# (None: any value of the type fits): a whole column of such values is taken as it is
_STORED_AS = {"Float64": (float, None), "String": (str, None), "Boolean": (bool, None),
              "Date": (datetime.date, (D.MIN_DATE, D.MAX_DATE)),
              "Timestamp": (datetime.datetime, (D.MIN_TIMESTAMP, D.MAX_TIMESTAMP)),
              **{name: (int, bounds) for name, bounds in T.INT_RANGES.items()}}
_NONE_TYPE = type(None)


def column_converter(t: T.SqlType, column: str, statement: str = "INSERT", timezone: str = "UTC"):
    """value_converter for a whole column: a function list of values -> (stored values, whether
    they hold a NULL, whether they hold a negative number). A column whose values are all of
    the stored Python type already (NULLs aside, where the column takes them) and in range is
    taken as it is, found by C-level passes (the set of the value types, min and max) with no
    Python call per value; any other column is converted value by value, which raises the
    error the first bad value deserves."""
    convert = value_converter(t, column, statement, timezone)
    exact, bounds = _STORED_AS.get(t.name, (None, None))
    allowed = {exact, _NONE_TYPE} if t.nullable else {exact}
    is_int = t.is_int

    def convert_column(values):
        kinds = set(map(type, values))
        if not kinds <= allowed:
            values = [convert(v) for v in values]
            kinds = set(map(type, values))
        has_null = _NONE_TYPE in kinds
        if bounds is None:
            return values, has_null, False
        # NULLs dropped (zeros too: every integer range holds 0, and dates are never falsy)
        low = min(filter(None, values) if has_null else values, default=None)
        if low is not None and (low < bounds[0] or max(filter(None, values) if has_null else values) > bounds[1]):
            values = [convert(v) for v in values]  # raises the out-of-range error
        return values, has_null, is_int and low is not None and low < 0

    return convert_column
