"""INSERT ... VALUES / SELECT / FROM an attachment and REPLACE INTO: the rows converted to the
table's columns (defaults, sequences, casts) in bounded steps, committed by engine.statements.writers."""

from __future__ import annotations

import decimal

from engine.bind.names import quoted_name_hint
from engine.bind.scope import Scope
from engine.catalog.catalog import Table
from engine.catalog.routines import SequenceDefault
from engine.codegen.compile import evaluate_constant
from engine.core.errors import (
    TABLE_SCHEMA_MISMATCH,
    BadArguments,
    ColumnNotFound,
    EngineError,
)
from engine.core.memory import batch_bytes
from engine.exec.column_batches import column_batches
from engine.exec.executor import BATCH, Runtime, build
from engine.exec.result import Column, Progress, Result
from engine.functions import binary_input_reader
from engine.io.formats import stage_source_file
from engine.io.stage_load import attachment_row_batches, insert_from_attachment
from engine.ir.expr import Const
from engine.plan.planner import Planner
from engine.statements.insert_plan import column_plan as _column_plan
from engine.statements.insert_plan import converted_rows, session_insert_plan, single_field_tuples
from engine.statements.insert_plan import insert_plan as _insert_plan
from engine.statements.replace import replace_steps
from engine.statements.values_columns import ValuesColumns, takes_columns
from engine.statements.writers import commit_append
from engine.types import sqltype as T
from engine.types.convert import type_default
from grammar import ast as A

INSERTED = "number of rows inserted"  # the one column of an INSERT's answer


def _inserted(batches, progress: Progress) -> Result:
    """An INSERT's answer: the count of rows it inserted, once its steps have run."""
    return Result([Column(INSERTED, "UInt64")], iter(batches), progress=progress, types=[T.UINT64])


_PLAIN_LITERALS = frozenset({"int", "string", "bool", "null"})


def _literal_value(node, ctx):
    """The Python value of a VALUES item that is not a plain literal."""
    if type(node) is A.Literal:
        kind = node.kind
        if kind == "int" or kind == "string" or kind == "bool" or kind == "null" or kind == "binary":
            return node.value
        if kind == "float" or kind == "float64":
            return float(node.value)
        return decimal.Decimal(str(node.value))
    if type(node) is A.UnaryOp and node.op == "-" and type(node.operand) is A.Literal \
            and node.operand.kind in ("int", "float", "float64", "decimal"):
        return -_literal_value(node.operand, ctx)
    if type(node) is A.Default:
        raise _DefaultItem  # the row is converted again knowing each item's column
    try:
        e = Planner(ctx).bind(node, Scope([]))
    except ColumnNotFound as exc:
        if isinstance(node, A.ColumnRef):  # a name where a value belongs, as Databend words it
            raise ColumnNotFound(f"invalid identifier {node.parts[-1]}"
                                 f"{quoted_name_hint(ctx.sql, node.pos, node.parts[-1])}",
                                 position=node.pos) from None
        raise exc
    if not isinstance(e, Const):
        if ctx.uses_sequences:  # nextval(s) in a VALUES row: evaluated once for the row
            return evaluate_constant(e)
        raise BadArguments("VALUES takes constant expressions", position=getattr(node, "pos", None))
    return e.value


class _DefaultItem(Exception):  # noqa: N818 - a signal, not an error
    """A VALUES row holds DEFAULT: `_values_rows` converts it column by column."""


def _row_with_defaults(ctx, table, positions, converters, values):
    """A VALUES row with DEFAULT items: each is the column's default (NULL or the type's zero
    value when it has none)."""
    row = []
    for i, conv, v in zip(positions, converters, values, strict=False):
        if type(v) is A.Default:
            column = table.columns[i]
            default = column.default if column.default is not None else type_default(column.type)
            row.append(default.next() if type(default) is SequenceDefault else default)
        else:
            row.append(conv(_literal_value(v, ctx)))
    return tuple(row)


def run_insert(session, ctx, stmt: A.Insert):
    database, name = ctx.resolve_table_name(stmt.table)
    table = ctx.catalog.table(database, name, stmt.pos)
    positions = _column_plan(table, stmt.columns, statement=True)
    progress = Progress()
    if stmt.rows is None and stmt.query is None:  # `INSERT INTO t VALUES` + a stage attachment
        converters, fill = _insert_plan(table, positions, ctx.timezone)
        def commit(rows, known, purge):
            commit_append(ctx, database, table, rows, known, overwrite=stmt.overwrite, purge=purge)

        source = stage_source_file(ctx, stmt.stage) if stmt.stage is not None else None
        steps = insert_from_attachment(ctx, stmt, table, positions, converters, fill, progress, True, commit,
                                       source)
        return _inserted(steps, progress)
    if stmt.query is not None:
        run, types = _source_query(ctx, stmt, positions, progress, columns=table.data.columnar)
        by_columns = getattr(run, "column_batches", False)
        steps = _insert_steps(ctx, database, table, run(()), progress, positions, stmt.overwrite, types,
                              by_columns)
        return _inserted(steps, progress)
    values = stmt.rows
    count = len(values)
    # one step's worth (_values_step_rows, inlined: the single-row INSERT is a hot statement)
    if count == 1 or (count <= BATCH and count <= ctx.limits.step_rows):
        by_columns = count > 1 and takes_columns(table)
        rows = _values_rows(ctx, stmt, table, positions, values, compact=not by_columns)
        if by_columns:  # one version of whole columns (engine.statements.values_columns)
            buffer = ValuesColumns(table)
            buffer.add(rows)
            commit_append(ctx, database, table, buffer.version, buffer.known(), overwrite=stmt.overwrite)
        else:
            commit_append(ctx, database, table, rows, overwrite=stmt.overwrite)
        if ctx.memory.held:
            ctx.memory.release()  # the rows are the table's now; the caller may never read the result
        progress.write_rows = len(rows)
        progress.write_bytes = len(rows) * 8 * len(table.columns)
        return _inserted([[(len(rows),)]], progress)
    # more rows than one step may convert: in steps, appended together at the end (atomic)
    return _inserted(_values_steps(ctx, stmt, database, table, positions, progress), progress)


def _values_steps(ctx, stmt, database, table, positions, progress):
    """INSERT ... VALUES converted a step budget of rows per step; nothing is appended unless
    every row converts."""
    values, step_rows = stmt.rows, _values_step_rows(ctx)
    # a table kept in columns: each step's rows appended to a version of whole columns
    buffer = ValuesColumns(table) if takes_columns(table) else None
    rows = []
    for start in range(0, len(values), step_rows):
        converted = _values_rows(ctx, stmt, table, positions, values[start:start + step_rows],
                                 compact=buffer is None)
        if buffer is None:
            rows += converted
        else:
            buffer.add(converted)
        del converted
        yield []
    if buffer is None:
        commit_append(ctx, database, table, rows, overwrite=stmt.overwrite)
    else:
        commit_append(ctx, database, table, buffer.version, buffer.known(), overwrite=stmt.overwrite)
    ctx.memory.release()  # the rows are the table's now
    count = len(rows) if buffer is None else len(buffer.version)
    progress.write_rows = count
    progress.write_bytes = count * 8 * len(table.columns)
    yield [(count,)]


def _values_step_rows(ctx) -> int:
    """VALUES rows converted per step: a batch, as INSERT ... SELECT converts (a VALUES row
    costs some microseconds, far more than a scanned row)."""
    return max(1, min(BATCH, ctx.limits.step_rows))


def _binary_input_converters(ctx, table, positions, converters):
    """The converters with text for a Binary column read in binary_input_format ('hex',
    'base64'), as Databend reads a string written into a BINARY column."""
    read = binary_input_reader(ctx.session.setting("binary_input_format"))
    if read is None:
        return converters

    def reading(conv):
        return lambda v: conv(read(v) if isinstance(v, str) else v)
    return [reading(conv) if table.columns[i].type.name == "Binary" else conv
            for i, conv in zip(positions, converters, strict=True)]


def _values_rows(ctx, stmt, table, positions, values_rows, compact: bool = True):
    """VALUES rows converted to the table's row tuples (strings and floats compacted, unless
    not `compact`: engine.statements.values_columns copies what columns keep boxed)."""
    converters, fill = session_insert_plan(table, positions, ctx)
    converters = single_field_tuples(table, positions, converters)
    if ctx.session.explicit_setting("binary_input_format") is not None:  # (set: rare, off the hot path)
        converters = _binary_input_converters(ctx, table, positions, converters)
    width = len(positions)
    rows = []
    literal = _literal_value
    plain = _PLAIN_LITERALS
    literal_type = A.Literal
    for values in values_rows:
        if len(values) != width:
            raise EngineError(f"Table columns count is not match, expect {width}, input: {len(values)}",
                              code=TABLE_SCHEMA_MISMATCH,
                              position=getattr(values[0], "pos", None) if values else stmt.pos)
        try:
            row = tuple([conv(v.value if type(v) is literal_type and v.kind in plain else literal(v, ctx))
                         for conv, v in zip(converters, values, strict=False)])
        except _DefaultItem:
            row = _row_with_defaults(ctx, table, positions, converters, values)
        rows.append(fill(row) if fill is not None else row)
    if len(rows) >= 64:
        # the VALUES buffer, held until the append (a few rows are not worth the estimate);
        # the caller releases it once the rows are in the table
        ctx.memory.charge(batch_bytes(rows))
        if compact:
            rows = _compact(rows, table)
    return rows


_NO_CHANGE: dict = {}


def _compact(rows, table):
    """Fresh copies of strings and floats, allocated row after row: values parsed out of SQL text
    lie scattered among the parser's garbage, and scans then miss the CPU cache far more often."""
    copy = []
    for c in table.columns:
        name = c.type.name
        copy.append("s" if name == "String" else "f" if name in ("Float64", "Float32") else
                    "i" if name in T.INT_NAMES else "")
    if not any(copy):
        return rows
    kinds = tuple(copy)
    out = []
    for row in rows:
        out.append(tuple([v if v is None or not k else v.translate(_NO_CHANGE) if k == "s"
                          else v * 1.0 if k == "f" else v + 0 for k, v in zip(kinds, row, strict=False)]))
    return out


def _insert_steps(ctx, database: str, table: Table, batches, progress: Progress, positions, overwrite,
                  source_types=None, by_columns: bool = False):
    """INSERT ... SELECT: the query consumed in bounded steps, then everything committed at
    once (atomic); with `overwrite` the rows replace the table's (INSERT OVERWRITE).
    `source_types`: the query's column types (converted_rows leaves unchecked what needs no check);
    `by_columns`: the batches are columns (engine.exec.column_batches)."""
    rows, known = yield from converted_rows(table, batches, positions, ctx.memory, ctx.timezone, source_types,
                                            by_columns)
    commit_append(ctx, database, table, rows, known, overwrite=overwrite)
    ctx.memory.release()  # the rows are the table's now
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    yield [(len(rows),)]


def _source_query(ctx, stmt, positions, progress, columns: bool = False):
    """(the run function of an INSERT's or REPLACE's SELECT, its column types); the SELECT must
    give one column per written column (1006 otherwise, as Databend). With `columns` (a table
    kept in columns), a SELECT that can give its output column by column does: its run is
    marked `column_batches` (engine.exec.column_batches)."""
    planner = Planner(ctx)
    plan, _ = planner.plan_query(stmt.query)
    if len(plan.layout) != len(positions):
        raise BadArguments(f"Fields in select statement is not equal with expected, select fields: "
                           f"{len(plan.layout)}, insert fields: {len(positions)}", position=stmt.pos)
    rt = Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan)
    if columns:
        run = column_batches(plan, rt)
        if run is not None:
            return run, [known or t for known, t in zip(run.known_types, plan.types, strict=True)]
    return build(plan, rt), list(plan.types)


def run_replace(ctx, stmt: A.Replace):
    """REPLACE INTO t [(cols)] ON (keys) VALUES ... | SELECT ... (engine.statements.replace); answers no columns."""
    database, name = ctx.resolve_table_name(stmt.table)
    table = ctx.catalog.table(database, name, stmt.pos)
    positions = _column_plan(table, stmt.columns, statement=True)
    keys = []
    for key in stmt.keys:
        i = table.column_index(key)
        if i is None:
            valid = ", ".join(f'"{c.name}"' for c in table.columns)
            raise BadArguments(f'Unable to get field named "{key}". Valid fields: [{valid}]', position=stmt.pos)
        keys.append(i)
    progress = Progress()
    if stmt.query is not None:
        run, _ = _source_query(ctx, stmt, positions, progress)
        batches = _converted(table, positions, run(()))
    elif stmt.rows is None:  # `REPLACE INTO t ON (k) VALUES` + a stage attachment (databend-py)
        converters, fill = _insert_plan(table, positions, ctx.timezone)  # or FROM @stage
        source = stage_source_file(ctx, stmt.stage) if stmt.stage is not None else None
        batches = attachment_row_batches(ctx, stmt, table, positions, converters, fill, source)
    else:
        step_rows = _values_step_rows(ctx)
        batches = (_values_rows(ctx, stmt, table, positions, stmt.rows[start:start + step_rows])
                   for start in range(0, len(stmt.rows), step_rows))
    return Result([], iter(replace_steps(ctx, table, database, keys, batches, progress)), progress=progress, types=[])


def _converted(table, positions, batches):
    """Query batches as the table's rows (converted, missing columns filled)."""
    converters, fill = _insert_plan(table, positions)
    for batch in batches:
        rows = []
        for r in batch:
            row = tuple([conv(v) for conv, v in zip(converters, r, strict=False)])
            rows.append(fill(row) if fill is not None else row)
        yield rows


# ---------------------------------------------------------------- settings
