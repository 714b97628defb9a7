"""Statement execution: queries, DDL, INSERT, UPDATE/DELETE (engine.statements.dml), SET/UNSET/USE, SHOW,
DESCRIBE and EXPLAIN."""

from __future__ import annotations

import decimal
import functools

from engine.bind.names import default_text, quoted, quoted_name_hint
from engine.bind.scope import Scope
from engine.catalog.catalog import Table, TableColumn
from engine.catalog.privileges import check_statement
from engine.catalog.routines import SequenceDefault
from engine.catalog.system import (
    database_names,
    is_virtual_database,
    settings_rows,
    virtual_table,
    virtual_table_names,
)
from engine.catalog.temp_tables import creating_catalog
from engine.codegen.compile import evaluate_constant
from engine.core import settings as S
from engine.core.errors import (
    TABLE_SCHEMA_MISMATCH,
    UNIMPLEMENTED,
    BadArguments,
    ColumnNotFound,
    EngineError,
    TableAlreadyExists,
    Unimplemented,
    UnknownCatalog,
    UnknownDatabase,
    UnknownTable,
)
from engine.core.memory import batch_bytes
from engine.exec.executor import BATCH, Runtime, build
from engine.exec.result import ChangeSettings, Column, Progress, Result, UseDB
from engine.functions import binary_input_reader, function_rows
from engine.io.formats import stage_source_file
from engine.io.stage_load import attachment_row_batches, insert_from_attachment
from engine.ir import plan as P
from engine.ir.expr import Const
from engine.plan.plan_cache import CachedPlan
from engine.plan.planner import Planner
from engine.runtime.helpers import check_like_pattern, like_predicate
from engine.statements.alter import alter_table
from engine.statements.constraints import declared_constraints
from engine.statements.database_statements import DATABASE_HANDLERS
from engine.statements.ddl import (
    check_column_name,
    create_database,
    create_table_like,
    drop_database,
    ident_quoter,
    run_rename_table,
    table_options,
    undrop_table,
)
from engine.statements.dml import run_delete, run_update
from engine.statements.explain import run_explain
from engine.statements.insert_multi import run_insert_multi
from engine.statements.insert_plan import column_plan as _column_plan
from engine.statements.insert_plan import converted_rows, session_insert_plan, single_field_tuples
from engine.statements.insert_plan import insert_plan as _insert_plan
from engine.statements.introspection import INTROSPECTION_KINDS, run_show
from engine.statements.merge import run_merge, run_update_from
from engine.statements.procedure_statements import PROCEDURE_HANDLERS
from engine.statements.process_statements import kill
from engine.statements.replace import replace_steps
from engine.statements.routine_statements import ROUTINE_HANDLERS, sequence_column
from engine.statements.session_variables import SESSION_HANDLERS
from engine.statements.stage_objects import (
    create_file_format,
    create_stage,
    drop_stage_object,
    show_stage_objects,
)
from engine.statements.stage_statements import copy_into_table, list_stage, presign
from engine.statements.table_options import check_create_options, check_engine
from engine.statements.transaction_statements import run_transaction_statement
from engine.statements.unload import copy_into_stage
from engine.statements.user_statements import USER_HANDLERS
from engine.statements.view_statements import create_view, describe_view, drop_view
from engine.statements.writers import append_converted, commit_append
from engine.types import cast as casting
from engine.types import render as R
from engine.types import sqltype as T
from engine.types.convert import type_default
from engine.types.nested import unnamed
from grammar import ast as A

QUERY_TYPES = (A.Select, A.SetOperation, A.With, A.Values)
INSERTED = "number of rows inserted"


def run_statement(session, ctx, stmt) -> Result:
    if isinstance(stmt, QUERY_TYPES):
        return _query(session, ctx, stmt)
    handler = _HANDLERS.get(type(stmt))
    if handler is None:
        raise EngineError(f"unsupported statement {type(stmt).__name__}", code=UNIMPLEMENTED,
                          position=getattr(stmt, "pos", None))
    if ctx.access is not None:
        check_statement(ctx, stmt)
    return handler(session, ctx, stmt)


def _result(schema=(), rows=(), types=(), affect=None, progress=None) -> Result:
    return Result(list(schema), iter(rows), affect=affect, progress=progress or Progress(), types=list(types))


def _rows_result(names_types, rows) -> Result:
    schema = [Column(n, t.display()) for n, t in names_types]
    types = [t for _, t in names_types]
    batches = [rows[i:i + 2048] for i in range(0, len(rows), 2048)] or [[]]
    return _result(schema, batches, types)


def _query(session, ctx, stmt) -> Result:
    planner = Planner(ctx)
    plan, names = planner.plan_query(stmt)
    planned = CachedPlan(stmt, plan, names, frozenset(planner.nonnull), frozenset(planner.nonneg),
                         frozenset(planner.nonnan), ctx.plan_record)
    if ctx.plan_record is not None:  # a query the plan cache may keep (engine.plan.plan_cache)
        session.db.plan_cache.store(ctx.plan_cache_key, planned)
    return run_planned_query(session, ctx, planned)


def run_planned_query(session, ctx, planned: CachedPlan) -> Result:
    """The Result of a planned query (just planned, or from the plan cache)."""
    stmt, plan, names = planned.stmt, planned.plan, planned.names
    progress = Progress()
    run = build(plan, Runtime(ctx, progress, planned.nonnull, planned.nonneg, planned.nonnan))
    schema = [Column(n, t.display()) for n, t in zip(names, plan.types, strict=False)]
    result = Result(schema, run(()), progress=progress, types=list(plan.types), timezone=ctx.timezone)
    if any(R.holds_geo(t) for t in plan.types):
        result.geometry_format = session.setting("geometry_output_format")
    if session.explicit_setting("binary_output_format") is not None:  # (set: rare, off the hot path)
        result.binary_format = session.setting("binary_output_format")
    if isinstance(plan, P.Project) and isinstance(plan.child, P.OneRow):
        result.pause_gc = False  # SELECT without FROM: one row, nothing to gain
    if not _has_limit(stmt):
        result.max_rows = int(session.setting("max_result_rows"))
    return result


def _has_limit(stmt) -> bool:
    return getattr(stmt, "limit", None) is not None


# ---------------------------------------------------------------- DDL


def _use(session, ctx, stmt: A.UseDatabase):
    if not ctx.catalog.has_database(stmt.name):
        raise UnknownDatabase(f"Unknown database '{stmt.name}'", position=stmt.pos)
    session.database = stmt.name
    return _result(affect=UseDB(stmt.name))


def _create_table(session, ctx, stmt: A.CreateTable):
    database, name = ctx.resolve_table_name(stmt.name)
    catalog = creating_catalog(ctx, stmt) if stmt.temporary else ctx.catalog
    if is_virtual_database(database):  # as every other write to them (not 'unknown database')
        raise Unimplemented(f"The operation is not available for the table `{database}`.`{name}`: "
                            f"the {database.lower()} tables are read-only", position=stmt.pos)
    catalog.database(database)
    check_engine(stmt.engine, stmt.pos)
    if stmt.like is not None:
        return create_table_like(ctx, stmt, database, name, catalog)
    planner = Planner(ctx)
    declared = _declared_columns(planner, stmt.columns)
    if declared or stmt.as_query is None:  # options are checked first, as Databend binds them
        check_create_options(stmt.engine, stmt.options, declared, stmt.pos, stmt.cluster_by)
    if not stmt.or_replace and (name in catalog.databases[database] or catalog.view(database, name) is not None):
        if stmt.if_not_exists:
            return _result()
        raise TableAlreadyExists(f"Table '{name}' already exists", position=stmt.pos)
    if stmt.as_query is not None:
        plan, names = planner.plan_query(stmt.as_query)
        if declared:  # the declared columns, filled by position from the query (as Databend)
            if len(declared) != len(names):
                raise BadArguments("Number of columns does not match.", position=stmt.pos)
            columns = declared
        else:
            # (a query's tuples keep no field names: a named tuple column's become "1", "2", as Databend's)
            columns = [TableColumn(n, unnamed(t) if t.name != "Null" else T.STRING.as_nullable(True))
                       for n, t in zip(names, plan.types, strict=False)]
            check_create_options(stmt.engine, stmt.options, columns, stmt.pos, stmt.cluster_by)
            seen = set()
            for column in columns:
                if column.name in seen:
                    raise BadArguments(f"Duplicated column name: {column.name}", position=stmt.pos)
                seen.add(column.name)
        table = Table(database, name, columns, comment=stmt.comment or "", **table_options(stmt))
        progress = Progress()
        run = build(plan, Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan))
        return _result([], _create_table_as(catalog, table, run(()), progress, stmt, ctx.memory), progress=progress)
    constraints = declared_constraints(ctx, name, declared, stmt.constraints) if stmt.constraints else {}
    catalog.add_table(Table(database, name, declared, comment=stmt.comment or "", constraints=constraints,
                            **table_options(stmt)),
                      stmt.if_not_exists, stmt.pos, replace=stmt.or_replace)
    return _result()


def _declared_columns(planner, column_defs) -> list:
    """The columns a CREATE TABLE declares: types, constant DEFAULTs, comments."""
    columns = []
    seen = set()
    for cd in column_defs or ():
        if cd.name.lower() in seen:
            raise BadArguments(f"Duplicated column name: {cd.name}", position=cd.pos)
        seen.add(cd.name.lower())
        check_column_name(cd.name, cd.pos)
        t = T.type_from_ast(cd.type, default_nullable=True)
        generated = sequence_column(planner.ctx, cd, t)
        if generated is not None:
            columns.append(generated)
            continue
        default = None
        default_sql = None
        if cd.default is not None:
            e = planner.bind(cd.default, Scope([]))
            if not isinstance(e, Const):
                raise BadArguments("DEFAULT must be a constant expression", position=cd.default.pos)
            default = None if e.value is None else casting.caster(t)(e.value)
            default_sql = default_text(default, cd.default, t.name == "Float32")
        columns.append(TableColumn(cd.name, t, default, default_sql, cd.comment or ""))
    return columns


def _create_table_as(catalog, table: Table, batches, progress: Progress, stmt: A.CreateTable, memory):
    """CREATE TABLE ... AS SELECT: the table is filled while detached and enters the catalog only
    once its query has run to the end, so a failing or abandoned query leaves no table behind
    (as a failing INSERT leaves no rows), and OR REPLACE keeps the old table until then."""
    rows, known = yield from converted_rows(table, batches, list(range(len(table.columns))), memory)
    append_converted(table, rows, known)  # detached: no recorder; the rows are logged as it enters
    memory.release()
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    catalog.add_table(table, stmt.if_not_exists, stmt.pos, replace=stmt.or_replace)


def _drop_table(session, ctx, stmt: A.DropTable):
    try:
        database, name = ctx.resolve_table_name(stmt.name)
        if is_virtual_database(database):  # an unknown one is 1025 (a known one: read-only, 1002)
            virtual_table(database, name, stmt.pos)
    except (UnknownCatalog, UnknownTable):
        if stmt.if_exists:
            return _result()
        raise
    ctx.catalog.drop_table(database, name, stmt.if_exists, stmt.pos, purge=stmt.purge)
    return _result()


def _truncate(session, ctx, stmt: A.TruncateTable):
    database, name = ctx.resolve_table_name(stmt.name)
    commit_append(ctx, database, ctx.catalog.table(database, name, stmt.pos), [], overwrite=True)
    return _result()


# ---------------------------------------------------------------- INSERT


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


def _insert(session, ctx, stmt: A.Insert):
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
        return _result([Column(INSERTED, "UInt64")], steps, [T.UINT64], progress=progress)
    if stmt.query is not None:
        run = _source_query(ctx, stmt, positions, progress)
        steps = _insert_steps(ctx, database, table, run(()), progress, positions, stmt.overwrite)
        return _result([Column(INSERTED, "UInt64")], steps, [T.UINT64], progress=progress)
    values = stmt.rows
    count = len(values)
    # one step's worth (_values_step_rows, inlined: the single-row INSERT is a hot statement)
    if count == 1 or (count <= BATCH and count <= ctx.limits.step_rows):
        rows = _values_rows(ctx, stmt, table, positions, values)
        commit_append(ctx, database, table, rows, overwrite=stmt.overwrite)
        if ctx.memory.held:
            ctx.memory.release()  # the rows are the table's now; the caller may never read the result
        progress.write_rows = len(rows)
        progress.write_bytes = len(rows) * 8 * len(table.columns)
        return _result([Column(INSERTED, "UInt64")], [[(len(rows),)]], [T.UINT64], progress=progress)
    # more rows than one step may convert: in steps, appended together at the end (atomic)
    return _result([Column(INSERTED, "UInt64")], _values_steps(ctx, stmt, database, table, positions, progress),
                   [T.UINT64], progress=progress)


def _values_steps(ctx, stmt, database, table, positions, progress):
    """INSERT ... VALUES converted a step budget of rows per step; nothing is appended unless
    every row converts."""
    values, step_rows = stmt.rows, _values_step_rows(ctx)
    rows = []
    for start in range(0, len(values), step_rows):
        rows += _values_rows(ctx, stmt, table, positions, values[start:start + step_rows])
        yield []
    commit_append(ctx, database, table, rows, overwrite=stmt.overwrite)
    ctx.memory.release()  # the rows are the table's now
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    yield [(len(rows),)]


def _values_step_rows(ctx) -> int:
    """VALUES rows converted per step: a batch, as INSERT ... SELECT converts (a VALUES row
    costs some microseconds, far more than a scanned row)."""
    return max(1, min(BATCH, ctx.limits.step_rows))


def _values_rows(ctx, stmt, table, positions, values_rows):
    """VALUES rows converted to the table's row tuples (strings and floats compacted)."""
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
        rows = _compact(rows, table)
    return rows


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


def _insert_steps(ctx, database: str, table: Table, batches, progress: Progress, positions, overwrite):
    """INSERT ... SELECT: the query consumed in bounded steps, then everything committed at
    once (atomic); with `overwrite` the rows replace the table's (INSERT OVERWRITE)."""
    rows, known = yield from converted_rows(table, batches, positions, ctx.memory, ctx.timezone)
    commit_append(ctx, database, table, rows, known, overwrite=overwrite)
    ctx.memory.release()  # the rows are the table's now
    progress.write_rows = len(rows)
    progress.write_bytes = len(rows) * 8 * len(table.columns)
    yield [(len(rows),)]


def _source_query(ctx, stmt, positions, progress):
    """The run function of an INSERT's or REPLACE's SELECT, which must give one column per
    written column (1006 otherwise, as Databend)."""
    planner = Planner(ctx)
    plan, _ = planner.plan_query(stmt.query)
    if len(plan.layout) != len(positions):
        raise BadArguments(f"Fields in select statement is not equal with expected, select fields: "
                           f"{len(plan.layout)}, insert fields: {len(positions)}", position=stmt.pos)
    return build(plan, Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan))


def _replace(ctx, stmt: A.Replace):
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
        run = _source_query(ctx, stmt, positions, progress)
        batches = _converted(table, positions, run(()))
    elif stmt.rows is None:  # `REPLACE INTO t ON (k) VALUES` + a stage attachment (databend-py)
        converters, fill = _insert_plan(table, positions, ctx.timezone)  # or FROM @stage
        source = stage_source_file(ctx, stmt.stage) if stmt.stage is not None else None
        batches = attachment_row_batches(ctx, stmt, table, positions, converters, fill, source)
    else:
        step_rows = _values_step_rows(ctx)
        batches = (_values_rows(ctx, stmt, table, positions, stmt.rows[start:start + step_rows])
                   for start in range(0, len(stmt.rows), step_rows))
    return _result([], replace_steps(ctx, table, database, keys, batches, progress), progress=progress)


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


def setting_text(node, planner) -> str:
    if isinstance(node, A.ColumnRef):
        return ".".join(node.parts)
    e = planner.bind(node, Scope([]))
    if not isinstance(e, Const):
        raise BadArguments("SET takes a constant value", position=getattr(node, "pos", None))
    v = e.value
    if isinstance(v, bool):
        return "1" if v else "0"
    return R.render_value(v) if not isinstance(v, str) else v


def _set(session, ctx, stmt: A.SetVariable):
    name = stmt.name.lower()
    try:
        value = S.validate(name, setting_text(stmt.value, Planner(ctx)))
    except EngineError as exc:
        exc.position = exc.position or stmt.pos
        raise
    if stmt.is_global:
        session.db.global_settings[name] = value
        session.settings.pop(name, None)
    else:
        session.settings[name] = value
    return _result(affect=ChangeSettings((name,), (value,), (stmt.is_global,)))


def _unset(session, ctx, stmt):
    """UNSET [SESSION] names: the session's values dropped; UNSET GLOBAL names: the global ones
    too (kept in the catalog image). A name that is no setting is skipped, as Databend (which
    only warns)."""
    keys, values = [], []
    for raw in stmt.names:
        name = raw.lower()
        if name not in S.SETTINGS:
            continue
        if isinstance(stmt, A.UnsetGlobal):
            session.db.global_settings.pop(name, None)
        session.settings.pop(name, None)
        keys.append(name)
        values.append(session.setting(name))
    return _result(affect=ChangeSettings(tuple(keys), tuple(values), tuple(False for _ in keys)))


# ---------------------------------------------------------------- SHOW / DESCRIBE / EXPLAIN


def _like_filter(pattern, limits):
    """SHOW ... LIKE: the same (case-sensitive) matching and pattern limit as the LIKE operator."""
    if pattern is None:
        return lambda s: True
    check_like_pattern(pattern, limits.like_pattern_chars)
    return like_predicate(pattern)


def _show(session, ctx, stmt: A.Show):
    kind = stmt.kind
    if kind in INTROSPECTION_KINDS:
        return run_show(session, ctx, stmt)
    match = _like_filter(stmt.like, ctx.limits)
    if kind == "DATABASES":
        return _rows_result([("databases_in_default", T.STRING)], [(n,) for n in database_names(ctx) if match(n)])
    if kind == "TABLES":
        db = stmt.database or ctx.database
        names = virtual_table_names(db) if is_virtual_database(db) else sorted(ctx.catalog.database(db))
        return _rows_result([(f"Tables_in_{db}", T.STRING)], [(n,) for n in names if match(n)])
    if kind == "SETTINGS":  # current Databend: LOWER(name) LIKE lower(pattern)
        match = _like_filter(stmt.like.lower() if stmt.like is not None else None, ctx.limits)
        rows = [r for r in settings_rows(ctx) if match(r[0].lower())]
        return _rows_result([(n, T.STRING) for n in ("name", "value", "default", "range", "level", "description",
                                                         "type")],
                            rows)
    if kind == "CREATE_TABLE":
        database, name = ctx.resolve_table_name(stmt.table)
        if ctx.catalog.view(database, name) is not None:
            return run_show(session, ctx, stmt)
        table = ctx.catalog.table(database, name, stmt.pos)
        return _rows_result([("Table", T.STRING), ("Create Table", T.STRING)], [(table.name, show_create(table, session))])
    if kind == "FUNCTIONS":
        rows = [row[:3] for row in function_rows() if match(row[0])]
        return _rows_result([("name", T.STRING), ("is_aggregate", T.BOOLEAN), ("description", T.STRING)], rows)
    raise EngineError(f"unsupported SHOW {kind}", code=UNIMPLEMENTED, position=stmt.pos)


def show_create(table: Table, session) -> str:
    quote = ident_quoter(session)
    lines = []
    for c in table.columns:
        base = c.type.sql_name()
        text = f"  {quote(c.name)} {base}" + ("" if c.type.nullable else " NOT") + " NULL"
        if c.default_sql is not None:
            text += f" DEFAULT {c.default_sql}"
        if c.comment:
            text += f" COMMENT {quoted(c.comment)}"
        lines.append(text)
    options = f"ENGINE={table.engine}" + (f" CLUSTER BY {table.cluster_by}" if table.cluster_by else "") \
        + (f" COMMENT = {quoted(table.comment)}" if table.comment else "")
    kind = "TEMP TABLE" if table.temporary else "TRANSIENT TABLE" if table.transient else "TABLE"
    return f"CREATE {kind} {quote(table.name)} (\n" + ",\n".join(lines) + f"\n) {options}"


def _describe(session, ctx, stmt: A.Describe):
    database, name = ctx.resolve_table_name(stmt.table)
    view = None if is_virtual_database(database) else ctx.catalog.view(database, name)
    if view is not None:
        return describe_view(ctx, view, stmt.pos)
    if is_virtual_database(database):
        columns = [TableColumn(n, t) for n, t in virtual_table(database, name, stmt.pos).columns]
    else:
        columns = ctx.catalog.table(database, name, stmt.pos).columns
    rows = []
    for c in columns:
        # no DEFAULT: NULL, as current Databend shows it whatever the type (1.2.453 showed the
        # type's zero for a NOT NULL column)
        default = c.default_sql if c.default_sql is not None else "NULL"
        rows.append((c.name, c.type.sql_name(), "YES" if c.type.nullable else "NO",
                     default, ""))
    return _rows_result([(n, T.STRING) for n in ("Field", "Type", "Null", "Default", "Extra")], rows)


def _explain(session, ctx, stmt: A.Explain):
    return run_explain(ctx, stmt, QUERY_TYPES)


_HANDLERS = {
    A.CreateDatabase: create_database,
    A.DropDatabase: drop_database,
    A.UseDatabase: _use,
    A.CreateTable: _create_table,
    A.DropTable: _drop_table,
    A.TruncateTable: _truncate,
    A.Insert: _insert,
    A.Update: lambda session, ctx, stmt: (run_update(ctx, stmt) if stmt.from_ is None
                                          else run_update_from(ctx, stmt)),
    A.Merge: lambda session, ctx, stmt: run_merge(ctx, stmt),
    A.InsertMulti: lambda session, ctx, stmt: run_insert_multi(
        ctx, stmt, _insert_plan, functools.partial(_column_plan, statement=True)),
    A.Replace: lambda session, ctx, stmt: _replace(ctx, stmt),
    A.Delete: lambda session, ctx, stmt: run_delete(ctx, stmt),
    A.SetVariable: _set,
    A.UnsetVariable: _unset,
    A.UnsetGlobal: _unset,
    A.Show: _show,
    A.Describe: _describe,
    A.Explain: _explain,
    A.Kill: kill,
    A.ListStage: list_stage,
    A.Presign: presign,
    A.CopyIntoTable: copy_into_table,
    A.CopyIntoStage: copy_into_stage,
    A.CreateStage: create_stage,
    A.CreateFileFormat: create_file_format,
    A.DropStageObject: drop_stage_object,
    A.ShowStageObjects: show_stage_objects,
    A.CreateView: create_view,
    A.DropView: drop_view,
    A.AlterTable: alter_table,
    A.RenameTable: run_rename_table,
    A.UndropTable: undrop_table,
    A.TransactionStatement: run_transaction_statement,
}
_HANDLERS.update(USER_HANDLERS)
_HANDLERS.update(DATABASE_HANDLERS)
_HANDLERS.update(ROUTINE_HANDLERS)
_HANDLERS.update(PROCEDURE_HANDLERS)
_HANDLERS.update(SESSION_HANDLERS)
