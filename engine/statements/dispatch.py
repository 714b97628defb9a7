"""Statement execution: queries, DDL, INSERT, UPDATE/DELETE (engine.statements.dml), SET/UNSET/USE, SHOW,
DESCRIBE and EXPLAIN."""

from __future__ import annotations

import functools

from engine.bind.names import default_text, quoted
from engine.bind.scope import Scope
from engine.catalog.catalog import Table, TableColumn
from engine.catalog.privileges import check_statement
from engine.catalog.system import (
    database_names,
    is_virtual_database,
    settings_rows,
    virtual_table,
    virtual_table_names,
)
from engine.catalog.temp_tables import creating_catalog
from engine.core import settings as S
from engine.core.errors import (
    UNIMPLEMENTED,
    BadArguments,
    EngineError,
    TableAlreadyExists,
    Unimplemented,
    UnknownCatalog,
    UnknownDatabase,
    UnknownTable,
)
from engine.exec.executor import Runtime, build
from engine.exec.result import ChangeSettings, Column, Progress, Result, UseDB
from engine.functions import function_rows
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
from engine.statements.insert_plan import converted_rows
from engine.statements.insert_plan import insert_plan as _insert_plan
from engine.statements.insert_statements import run_insert, run_replace
from engine.statements.introspection import INTROSPECTION_KINDS, run_show
from engine.statements.merge import run_merge, run_update_from
from engine.statements.procedure_statements import PROCEDURE_HANDLERS
from engine.statements.process_statements import kill
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
from engine.types.nested import unnamed
from grammar import ast as A

QUERY_TYPES = (A.Select, A.SetOperation, A.With, A.Values)


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
    schema = planned.columns
    if schema is None:
        schema = planned.columns = [Column(n, t.display()) for n, t in zip(names, plan.types, strict=False)]
        planned.geo = any(R.holds_geo(t) for t in plan.types)
    result = Result(schema, run(()), progress=progress, types=list(plan.types), timezone=ctx.timezone)
    if planned.geo:
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
        text = f"  {quote(c.name)} {T.explicit_null_sql_name(c.type)}"
        if c.default_sql is not None:
            text += f" DEFAULT {c.default_sql}"
        if c.comment:
            text += f" COMMENT {quoted(c.comment)}"
        lines.append(text)
    options = f"ENGINE={table.engine}" + (f" CLUSTER BY {table.cluster_by}" if table.cluster_by else "") \
        + ("".join(f" {key.upper()}={quoted(value)}" for key, value in sorted(table.options.items()))
           if session.setting("hide_options_in_show_create_table") == "0" else "") \
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
    A.Insert: run_insert,
    A.Update: lambda session, ctx, stmt: (run_update(ctx, stmt) if stmt.from_ is None
                                          else run_update_from(ctx, stmt)),
    A.Merge: lambda session, ctx, stmt: run_merge(ctx, stmt),
    A.InsertMulti: lambda session, ctx, stmt: run_insert_multi(
        ctx, stmt, _insert_plan, functools.partial(_column_plan, statement=True)),
    A.Replace: lambda session, ctx, stmt: run_replace(ctx, stmt),
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
