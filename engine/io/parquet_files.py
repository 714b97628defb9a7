"""Parquet files of stages, through pyarrow (the optional extra `queryhttp[parquet]`).

Loading reads a file's record batches (step_rows rows at a time) and matches its columns to the
table's by name, case-insensitively, as Databend's COPY INTO does for Parquet; values convert as
an INSERT's would. Unloading writes one Parquet file per MAX_FILE_SIZE of rows with column
types from the query's (Int8..UInt64, Float32/64, Decimal, String, Boolean, Date, Timestamp as
microseconds without a zone, like the engine's UTC instants).
Without pyarrow, asking for Parquet is error 1002 with the command that installs it.
"""

from __future__ import annotations

import datetime
import io

from engine.core.errors import Unimplemented, UnreadableFile
from engine.types import sqltype as T
from engine.types.variant import to_variant

try:
    import pyarrow
    import pyarrow.parquet as parquet
except ImportError:  # the optional extra is not installed
    pyarrow = parquet = None

BAD_PARQUET = "Bad PARQUET file (not a Parquet file, or a damaged one)"
_MISSING = ("Parquet needs pyarrow, the optional extra: pip install 'queryhttp[parquet]' "
            "(CSV, TSV and NDJSON need nothing more)")


def require_parquet() -> None:
    if pyarrow is None:
        raise Unimplemented(_MISSING)


def record_batches(data: bytes, names: list[str], size: int):
    """(number of the first row, list of row dicts keyed by the lower-cased `names`) of at most
    `size` rows; a name the file lacks gives None."""
    require_parquet()
    try:
        reader = parquet.ParquetFile(io.BytesIO(data))
    except (pyarrow.ArrowException, OSError):
        raise UnreadableFile(BAD_PARQUET) from None
    by_name = {field.name.lower(): field.name for field in reader.schema_arrow}
    wanted = [by_name.get(n.lower()) for n in names]
    columns = sorted({w for w in wanted if w is not None})
    number = 1
    try:
        for batch in reader.iter_batches(batch_size=size, columns=columns):
            values = {name: batch.column(name).to_pylist() for name in columns}
            none = [None] * batch.num_rows
            per_name = [values[w] if w is not None else none for w in wanted]
            keys = [n.lower() for n in names]
            yield number, [dict(zip(keys, row, strict=True)) for row in zip(*per_name, strict=True)]
            number += batch.num_rows
    except (pyarrow.ArrowException, OSError):
        raise UnreadableFile(BAD_PARQUET, number - 1) from None


def _arrow_type(t):
    name = t.name
    simple = {"Int8": pyarrow.int8(), "Int16": pyarrow.int16(), "Int32": pyarrow.int32(),
              "Int64": pyarrow.int64(), "UInt8": pyarrow.uint8(), "UInt16": pyarrow.uint16(),
              "UInt32": pyarrow.uint32(), "UInt64": pyarrow.uint64(),
              "Float32": pyarrow.float32(), "Float64": pyarrow.float64(),
              "Boolean": pyarrow.bool_(), "Date": pyarrow.date32(),
              "Timestamp": pyarrow.timestamp("us")}
    if name in simple:
        return simple[name]
    if name == "Decimal":
        return (pyarrow.decimal128 if t.precision <= 38 else pyarrow.decimal256)(t.precision, t.scale)
    if name in ("Geometry", "Geography"):
        return pyarrow.binary()  # their EWKB, as Databend writes them
    return pyarrow.string()


def write_parquet(names: list[str], types: list, rows: list[tuple]) -> bytes:
    """One Parquet file of `rows` with the query's column names and types."""
    require_parquet()
    schema = pyarrow.schema([pyarrow.field(n, _arrow_type(t), nullable=True)
                             for n, t in zip(names, types, strict=True)])
    columns = list(zip(*rows, strict=True)) if rows else [[] for _ in names]
    arrays = []
    for column, field, t in zip(columns, schema, types, strict=True):
        if pyarrow.types.is_string(field.type) and t.name != "String":
            column = [None if v is None else str(v) for v in column]
        elif t.name in ("Geometry", "Geography"):
            column = [None if v is None else v.ewkb for v in column]
        arrays.append(pyarrow.array(column, type=field.type))
    out = io.BytesIO()
    parquet.write_table(pyarrow.Table.from_arrays(arrays, schema=schema), out)
    return out.getvalue()


def _engine_type(arrow_type, nullable: bool):
    """The engine type a Parquet column reads as (SELECT ... FROM @stage): integers, floats,
    strings, booleans, dates, timestamps and decimals as such, anything else as a VARIANT."""
    types = pyarrow.types
    name = None
    if types.is_integer(arrow_type):
        name = ("UInt" if types.is_unsigned_integer(arrow_type) else "Int") + str(arrow_type.bit_width)
    elif types.is_float32(arrow_type):
        name = "Float32"
    elif types.is_floating(arrow_type):
        name = "Float64"
    elif types.is_string(arrow_type) or types.is_large_string(arrow_type):
        name = "String"
    elif types.is_boolean(arrow_type):
        name = "Boolean"
    elif types.is_date(arrow_type):
        name = "Date"
    elif types.is_timestamp(arrow_type):
        name = "Timestamp"
    elif types.is_decimal(arrow_type):
        return T.SqlType("Decimal", nullable, arrow_type.precision, arrow_type.scale)
    elif types.is_binary(arrow_type) or types.is_large_binary(arrow_type):
        name = "Binary"
    return T.SqlType(name or "Variant", nullable)


def _open(data: bytes):
    require_parquet()
    try:
        return parquet.ParquetFile(io.BytesIO(data))
    except (pyarrow.ArrowException, OSError):
        raise UnreadableFile(BAD_PARQUET) from None


def scan_schema(data: bytes) -> list[tuple[str, T.SqlType]]:
    """(name, engine type) of each column of a Parquet file, in the file's order."""
    return [(f.name, _engine_type(f.type, f.nullable)) for f in _open(data).schema_arrow]


def _scan_value(t: T.SqlType):
    """A function: a value pyarrow gives for a column of type t -> the engine's value."""
    if t.name == "Timestamp":
        def naive_utc(v):
            if v is None or v.tzinfo is None:
                return v
            return v.astimezone(datetime.UTC).replace(tzinfo=None)
        return naive_utc
    if t.name == "Variant":
        return lambda v: None if v is None else to_variant(v)
    return None


def scan_batches(data: bytes, types: list, size: int):
    """The rows of a Parquet file as tuples (its columns in order, values as `types` of
    scan_schema say), at most `size` rows a batch."""
    reader = _open(data)
    fixes = [_scan_value(t) for t in types]
    line = 0
    try:
        for batch in reader.iter_batches(batch_size=size):
            columns = []
            for i, column in enumerate(batch.columns):
                if pyarrow.types.is_timestamp(column.type) and column.type.unit == "ns":
                    column = column.cast(pyarrow.timestamp("us", column.type.tz), safe=False)
                values = column.to_pylist()
                if fixes[i] is not None:
                    values = [fixes[i](v) for v in values]
                columns.append(values)
            line += batch.num_rows
            yield list(zip(*columns, strict=True)) if columns else []
    except (pyarrow.ArrowException, OSError):
        raise UnreadableFile(BAD_PARQUET, line) from None
