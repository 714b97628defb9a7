"""Which columns an INSERT (or a load) writes and how: positions, converters, and the filler
that gives the other columns their defaults."""

from __future__ import annotations

from array import array
from operator import itemgetter

from engine.catalog.catalog import Table
from engine.catalog.routines import SequenceDefault
from engine.catalog.table_storage import array_typecode
from engine.core.errors import BadArguments
from engine.core.memory import batch_bytes
from engine.types.convert import column_converter, type_default, value_converter
from engine.types.nested import TupleValue, holds_temporal
from engine.types.sqltype import INT_RANGES


def column_plan(table: Table, names, statement: bool = False):
    """Positions of the written columns in the table. For an INSERT or REPLACE `statement`, a
    NOT NULL column left out must have a DEFAULT (Databend: 1006, it would be NULL)."""
    if names is None:
        return list(range(len(table.columns)))
    positions = []
    for n in names:
        i = table.column_index(n)
        if i is None:
            # current Databend's words (insert.rs)
            raise BadArguments(f'Table "{table.database}.{table.name}" does not have a column with name "{n}"')
        if i in positions:
            raise BadArguments(f"column `{n}` specified twice")
        positions.append(i)
    if statement:
        for i, column in enumerate(table.columns):
            if i not in positions and column.default is None and not column.type.nullable:
                raise BadArguments(f"null value in column `{column.name}` of table `{table.name}` "
                                   f"violates not-null constraint")
    return positions


def _fill_row_factory(table: Table, positions):
    n = len(table.columns)
    if positions == list(range(n)):
        return None
    template = [c.default if c.default is not None else type_default(c.type) for c in table.columns]
    generated = [(i, d) for i, d in enumerate(template) if type(d) is SequenceDefault and i not in positions]
    if generated:  # DEFAULT nextval(s): a value per row
        def fill_generated(values):
            row = list(template)
            for i, default in generated:
                row[i] = default.next()
            for i, v in zip(positions, values, strict=False):
                row[i] = v
            return tuple(row)

        return fill_generated

    def fill(values):
        row = list(template)
        for i, v in zip(positions, values, strict=False):
            row[i] = v
        return tuple(row)

    return fill


def insert_plan(table: Table, positions, timezone: str = "UTC"):
    """Per-column converters and the row filler for these written columns (cached per table
    and session time zone: text written into a Date or Timestamp is read in it)."""
    key = (*positions, timezone)
    plan = table.insert_plans.get(key)
    if plan is None:
        converters = [value_converter(table.columns[i].type, table.columns[i].name, timezone=timezone)
                      for i in positions]
        plan = table.insert_plans[key] = (converters, _fill_row_factory(table, positions))
    return plan


_ZONED = frozenset({"Date", "Timestamp"})


def session_insert_plan(table: Table, positions, ctx):
    """insert_plan for a statement's session, reading its time zone only when a written column
    is a Date or Timestamp, or holds one (ARRAY(TIMESTAMP)...) (the single-row INSERT is a hot
    statement: most tables have none). Which column sets need the zone is cached too."""
    key = tuple(positions)
    plan = table.insert_plans.get(key)  # zone-free column sets are cached under the positions
    if plan is _NEEDS_ZONE:
        return insert_plan(table, positions, ctx.timezone)
    if plan is not None:
        return plan
    if any(table.columns[i].type.name in _ZONED or holds_temporal(table.columns[i].type) for i in positions):
        table.insert_plans[key] = _NEEDS_ZONE
        return insert_plan(table, positions, ctx.timezone)
    plan = table.insert_plans[key] = insert_plan(table, positions)
    return plan


# cached under a column set whose plan depends on the session zone (insert_plan caches it per
# zone, under the positions and the zone's name)
_NEEDS_ZONE = object()


def converted_rows(table: Table, batches, positions, memory, timezone: str = "UTC", source_types=None,
                   column_batches: bool = False):
    """Consume a query's batches in bounded steps (yielding []); returns (rows, known) with
    `known` as Table.append takes it. Each batch is converted column by column
    (engine.types.convert.column_converter: a column of values already stored as they come
    costs C-level passes only). For a table whose storage takes columns, `rows` is a version
    built for it (`table.data.empty_like()`, each batch's columns appended whole; its memory
    charged per column), which commit_append hands to Table.append_version; otherwise a list
    of row tuples, where a batch whose every column came through unchanged and fills the whole
    table row keeps its row tuples. With the query's `source_types`, a column whose values are
    stored as they come by type (unchecked_column) has no converter (None): not even read.
    With `column_batches` (only for a table whose storage takes columns), each batch is (one
    sequence of values per written column, the row count), as engine.exec.column_batches
    makes them: no row is built nor taken apart."""
    key = ("columns", *positions, timezone, *(source_types or ()))
    converters = table.insert_plans.get(key)
    if converters is None:
        converters = table.insert_plans[key] = [
            None if source_types is not None and unchecked_column(source, table.columns[i].type)
            else _quick_converter(source if source_types is not None else None, table.columns[i].type,
                                  column_converter(table.columns[i].type, table.columns[i].name, timezone=timezone))
            for i, source in zip(positions, source_types or positions, strict=True)]
    width = len(table.columns)
    whole = list(positions) == list(range(width))
    template = None if whole else [c.default if c.default is not None else type_default(c.type)
                                   for c in table.columns]
    has_null, has_negative = [False] * width, [False] * width
    buffer = table.data.empty_like() if table.data.columnar and width else None
    rows: list = []
    for batch in batches:
        if column_batches:
            written, count = batch
            if count:
                columns = _with_defaults(_converted_written(written, converters, positions, has_null, has_negative),
                                         count, positions, whole, template, has_null, has_negative)
                buffer.append_columns(columns, count)
                del columns, written
                memory.charge(buffer.estimated_bytes(count))
            yield []
            continue
        if not isinstance(batch, list):
            batch = list(batch)
        if batch:
            if buffer is not None:
                columns, _ = _converted_columns(batch, converters, positions, whole, template, has_null,
                                                has_negative)
                buffer.append_columns(columns, len(batch))
                del columns
                # the buffer's growth, as its storage holds it (per column: an array's item
                # size, or a list slot and a sampled value), until the append
                memory.charge(buffer.estimated_bytes(len(batch)))
            else:
                memory.charge(batch_bytes(batch))  # the rows buffered until the append
                rows += _converted_batch(batch, converters, positions, whole, template, has_null, has_negative)
        yield []
    return (rows if buffer is None else buffer), (has_null, has_negative)


def _converted_batch(batch: list, converters, positions, whole: bool, template, has_null, has_negative):
    """One batch's rows as table row tuples (see converted_rows); notes NULLs and negatives."""
    keep_rows = type(batch[0]) is tuple and len(batch[0]) == len(converters)
    columns, unchanged = _converted_columns(batch, converters, positions, whole, template, has_null,
                                            has_negative, keep_rows)
    if unchanged and keep_rows:
        return batch
    return zip(*columns, strict=True)


def _converted_columns(batch: list, converters, positions, whole: bool, template, has_null, has_negative,
                       keep_rows: bool = False):
    """(one list per table column, whether every written column came through unchanged) for
    one batch: the written columns converted, the others their defaults; notes NULLs and
    negatives. With `keep_rows`, when every column came through unchanged the unconverted
    ones (None) are left unread: the caller keeps the batch's rows."""
    columns: list = []
    unchanged = whole
    for j, (convert, i) in enumerate(zip(converters, positions, strict=True)):
        if convert is None:  # stored as it comes (no NULL, no negative): read only when needed
            columns.append(None)
            continue
        values = list(map(itemgetter(j), batch))
        converted, null, negative = convert(values)
        unchanged = unchanged and converted is values
        columns.append(converted)
        has_null[i] = has_null[i] or null
        has_negative[i] = has_negative[i] or negative
    if not (unchanged and keep_rows):
        columns = [list(map(itemgetter(j), batch)) if column is None else column
                   for j, column in enumerate(columns)]
    return _with_defaults(columns, len(batch), positions, whole, template, has_null, has_negative), unchanged


def _converted_written(written: list, converters, positions, has_null, has_negative) -> list:
    """The written columns of one column batch converted (an unchecked one, None, as it comes);
    notes NULLs and negatives."""
    columns = []
    for values, convert, i in zip(written, converters, positions, strict=True):
        if convert is not None:
            values, null, negative = convert(values)
            has_null[i] = has_null[i] or null
            has_negative[i] = has_negative[i] or negative
        columns.append(values)
    return columns


def _with_defaults(columns: list, count: int, positions, whole: bool, template, has_null, has_negative) -> list:
    """One list per table column: the written `columns` (at `positions`) and, unless they are
    `whole`, the others' defaults for `count` rows; notes the defaults' NULLs and negatives."""
    if whole:
        return columns
    full: list = [None] * len(template)
    for column, i in zip(columns, positions, strict=True):
        full[i] = column
    for i, v in enumerate(template):
        if full[i] is None:
            if type(v) is SequenceDefault:  # DEFAULT nextval(s): a new value per row
                full[i] = [v.next() for _ in range(count)]
                continue
            full[i] = [v] * count
            has_null[i] = has_null[i] or v is None
            has_negative[i] = has_negative[i] or (type(v) is int and v < 0)
    return full


# stored Python type of a column by type name, where a value of that type is stored as it is
_STORED_AS_IS = frozenset({"String", "Float64", "Date"})


def unchecked_column(source, target) -> bool:
    """Whether a query column of type `source` goes into a `target` column as it is, with no
    check: NOT NULL, and either the same plain type (whose values the engine makes as stored:
    str, float, date) or an integer type never negative whose values all fit the target's."""
    if source.nullable:
        return False
    if source.name == target.name and source.name in _STORED_AS_IS:
        return True
    if source.is_int and target.is_int:
        low, high = INT_RANGES[source.name]
        target_low, target_high = INT_RANGES[target.name]
        return 0 <= low and high <= target_high and target_low <= low
    return False


def _quick_converter(source, target, convert):
    """`convert` (a column_converter), with the checks the values' container or type makes
    needless skipped: an `array` of the target's own kind (a column scanned whole,
    engine.exec.column_batches) holds no NULL and only values of the type; a nullable query
    column that unchecked_column would take but for its NULLs (the same plain type: str,
    float, date as stored; integers never negative that fit) needs only its NULLs found (a NOT
    NULL target still refuses them through `convert`)."""
    typecode = array_typecode(target.name)
    if target.name == "Float32" and (source is None or source.name != "Float32"):
        typecode = None  # a double array's values need rounding to 32 bits
    # values as stored but for NULLs: a plain type's own, or integers that all fit, never negative
    plain = source is not None and source.nullable and unchecked_column(source.as_nullable(False), target)
    if typecode is None and not plain:
        return convert
    signed = typecode is not None and target.is_int and typecode.islower()
    nullable = target.nullable

    def quick_convert(values):
        if type(values) is array and values.typecode == typecode:
            return values, False, signed and len(values) > 0 and min(values) < 0
        if plain and (nullable or None not in values):
            return values, None in values, False
        return convert(values)

    return quick_convert


def single_field_tuples(table, positions, converters):
    """The converters, those of one-field TUPLE columns taking a value that is no tuple as the
    tuple's field: Databend reads VALUES (([NULL, NULL])) for a TUPLE(ARRAY(...)) column as the
    tuple holding that array (its VALUES parser reads the parentheses as the tuple)."""
    out = list(converters)
    for i, position in enumerate(positions):
        t = table.columns[position].type
        if t.name == "Tuple" and len(t.args) == 1:
            out[i] = (lambda conv: lambda v: conv(v if v is None or isinstance(v, TupleValue) else (v,)))(out[i])
    return out
