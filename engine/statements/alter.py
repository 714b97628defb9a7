"""ALTER TABLE: ADD / DROP / RENAME / MODIFY COLUMN and RENAME TO. A column change builds the
table's new version in bounded steps beside the old one and swaps it in at the end (atomic);
queries already running keep reading the old version's rows."""

from __future__ import annotations

from engine.bind.names import default_text
from engine.bind.scope import Scope
from engine.catalog.catalog import Table, TableColumn
from engine.catalog.routines import SequenceDefault
from engine.catalog.system import is_virtual_database, virtual_table
from engine.catalog.table_storage import table_data
from engine.core.errors import (
    ADD_COLUMN_EXISTS,
    ALTER_TABLE_ERROR,
    DROP_COLUMN_EMPTY,
    SYNTAX,
    TABLE_ENGINE_NOT_SUPPORTED,
    BadArguments,
    EngineError,
    SemanticError,
    TableVersionMismatched,
    Unimplemented,
    UnknownColumn,
    UnknownTable,
)
from engine.core.memory import batch_bytes
from engine.exec.result import Progress, Result
from engine.ir.expr import Const
from engine.plan.planner import Planner
from engine.statements.cluster_keys import check_not_clustered, renamed_cluster_by
from engine.statements.constraints import check_schema, declared_constraints
from engine.statements.ddl import (
    check_column_name,
    copy_table,
    empty_result,
    rename_table,
    swap_tables,
)
from engine.statements.routine_statements import sequence_column
from engine.statements.table_options import (
    check_modified_type,
    check_set_options,
    check_unset_options,
    options_after_column_change,
)
from engine.statements.writers import commit_version
from engine.types import cast as casting
from engine.types import nested as N
from engine.types import sqltype as T
from engine.types.convert import type_default, value_converter
from grammar import ast as A


def alter_table(session, ctx, stmt: A.AlterTable) -> Result:
    action = stmt.action
    if isinstance(action, A.RenameTableTo):
        if len(action.new_name) > 1:  # Databend's grammar takes a bare name here (RENAME TABLE a qualified one)
            raise EngineError("unexpected `.`, expecting `FORMAT` or `;`", code=SYNTAX,
                              position=getattr(action, "pos", None) or stmt.pos)
        return rename_table(ctx, stmt.name, action.new_name, stmt.if_exists, stmt.pos)
    database, name = ctx.resolve_table_name(stmt.name)
    if is_virtual_database(database):
        virtual_table(database, name, stmt.pos)  # 1025 for a name that is not there
        raise Unimplemented(f"The operation is not available for the table `{database}`.`{name}`: "
                            f"the {database.lower()} tables are read-only", position=stmt.pos)
    if ctx.catalog.view(database, name) is not None:
        raise EngineError(f"{database}.{name} engine is VIEW that doesn't support alter",
                          code=TABLE_ENGINE_NOT_SUPPORTED, position=stmt.pos)
    try:
        table = ctx.catalog.table(database, name, stmt.pos)
    except UnknownTable:
        if stmt.if_exists:
            return empty_result()
        raise UnknownTable(f"Unknown table '{name}'", position=stmt.pos) from None
    if isinstance(action, A.RenameColumn):
        return _rename_column(ctx, table, action)
    if isinstance(action, A.AddColumn):
        return _add_column(ctx, table, action)
    if isinstance(action, A.DropColumn):
        return _drop_column(ctx, table, action)
    if isinstance(action, A.ModifyColumn):
        return _modify_columns(ctx, table, [action])
    if isinstance(action, A.ModifyColumns):
        return _modify_columns(ctx, table, action.columns)
    if isinstance(action, A.SetComment):
        return _set_comment(ctx, table, action)
    if isinstance(action, A.SwapTables):
        return swap_tables(ctx, table, action)
    if isinstance(action, A.RefreshCache):  # no external table's metadata to refresh
        return empty_result()
    if isinstance(action, A.CheckConstraint | A.DropConstraint):
        return _alter_constraints(ctx, table, action)
    if isinstance(action, A.SetTableOptions):  # checked, then kept (for SHOW CREATE) without effect
        options = dict(table.options)
        if action.unset:
            check_unset_options(action.options, stmt.pos)
            for key, _ in action.options:
                options.pop(key, None)
        else:
            check_set_options(action.options, table.columns, stmt.pos)
            options.update(action.options)
        commit_version(ctx, table, copy_table(table, options=options), table.data)
        return empty_result()
    raise EngineError(f"unsupported ALTER TABLE {type(action).__name__}", position=stmt.pos)


def _position(table: Table, name: str, pos) -> int:
    i = table.column_index(name)
    if i is None:
        valid = ", ".join(f'"{c.name}"' for c in table.columns)
        raise BadArguments(f'Unable to get field named "{name}". Valid fields: [{valid}]', position=pos)
    return i


def table_column(ctx, cd: A.ColumnDef) -> TableColumn:
    """A column definition (type, constant DEFAULT, COMMENT) as the catalog keeps it."""
    t = T.type_from_ast(cd.type, default_nullable=True)
    generated = sequence_column(ctx, cd, t)
    if generated is not None:
        return generated
    default = default_sql = None
    if cd.default is not None:
        e = Planner(ctx).bind(cd.default, Scope([]))
        if not isinstance(e, Const):
            raise BadArguments("DEFAULT must be a constant expression", position=cd.default.pos)
        default = None if e.value is None else casting.caster(t)(e.value)
        default_sql = default_text(default, cd.default, t.name == "Float32")
    return TableColumn(cd.name, t, default, default_sql, cd.comment or "")


# ---------------------------------------------------------------- metadata only


def _rename_column(ctx, table: Table, action: A.RenameColumn) -> Result:
    i = table.column_index(action.old)
    if i is None:
        raise SemanticError("rename column not existed", position=action.pos)
    if table.column_index(action.new) is not None:
        raise SemanticError("new column name existed", position=action.pos)
    check_column_name(action.new, action.pos)
    old = table.columns[i]
    columns = list(table.columns)
    columns[i] = TableColumn(action.new, old.type, old.default, old.default_sql, old.comment)
    check_schema(ctx, table, columns, action.pos)
    new = copy_table(table, columns=columns, cluster_by=renamed_cluster_by(table, old.name, action.new),
                     options=options_after_column_change(table.options, old.name, action.new))
    commit_version(ctx, table, new, table.data)
    return empty_result()


def _alter_constraints(ctx, table: Table, action) -> Result:
    """ADD CONSTRAINT name CHECK (expr) (the rows already stored are not verified, as Databend)
    or DROP CONSTRAINT name: a new version with the new constraints, its rows unchanged."""
    if isinstance(action, A.CheckConstraint):
        constraints = declared_constraints(ctx, table.name, table.columns, [action], table.constraints)
    elif action.name not in table.constraints:
        raise EngineError(f"constraint {action.name} not exists", code=ALTER_TABLE_ERROR, position=action.pos)
    else:
        constraints = {k: v for k, v in table.constraints.items() if k != action.name}
    commit_version(ctx, table, copy_table(table, constraints=constraints), table.data)
    return empty_result()


# ---------------------------------------------------------------- row rewrites


def _add_column(ctx, table: Table, action: A.AddColumn) -> Result:
    cd = action.column
    exists = table.column_index(cd.name) is not None
    if exists and not action.if_not_exists:
        raise EngineError(f"add column {cd.name} already exist", code=ADD_COLUMN_EXISTS, position=action.pos)
    if action.after is not None:
        _position(table, action.after, action.pos)  # 1006 for an unknown column, IF NOT EXISTS or not
    if exists:  # IF NOT EXISTS: the column is there, nothing to do
        return empty_result()
    check_column_name(cd.name, action.pos)
    column = table_column(ctx, cd)
    if type(column.default) is SequenceDefault and len(table.data):
        raise EngineError(f"cannot add column {cd.name} with DEFAULT nextval(...) to table {table.name}, "
                          f"which holds rows", code=ALTER_TABLE_ERROR, position=action.pos)
    if action.first:
        at = 0
    elif action.after is not None:
        at = _position(table, action.after, action.pos) + 1
    else:
        at = len(table.columns)
    value = column.default if column.default is not None else type_default(column.type)
    columns = table.columns[:at] + [column] + table.columns[at:]

    def rewrite(rows):
        return [r[:at] + (value,) + r[at:] for r in rows]

    has_null = table.has_null[:at] + [value is None] + table.has_null[at:]
    negative = isinstance(value, int) and not isinstance(value, bool) and value < 0
    has_negative = table.has_negative[:at] + [negative] + table.has_negative[at:]
    return _rewrite(ctx, table, columns, rewrite, has_null, has_negative)


def _drop_column(ctx, table: Table, action: A.DropColumn) -> Result:
    i = _position(table, action.name, action.pos)
    if len(table.columns) == 1:
        raise EngineError("cannot drop table column to empty", code=DROP_COLUMN_EMPTY, position=action.pos)
    columns = table.columns[:i] + table.columns[i + 1:]
    check_schema(ctx, table, columns, action.pos)
    check_not_clustered(table, table.columns[i].name, "drop", action.pos)

    def rewrite(rows):
        return [r[:i] + r[i + 1:] for r in rows]

    return _rewrite(ctx, table, columns, rewrite, table.has_null[:i] + table.has_null[i + 1:],
                    table.has_negative[:i] + table.has_negative[i + 1:],
                    options_after_column_change(table.options, table.columns[i].name, None))


def _modify_columns(ctx, table: Table, actions) -> Result:
    """MODIFY [COLUMN] c type [...], ...: the columns' new definitions, the rows converted in
    one rewrite (a value that does not convert fails the statement: nothing changes)."""
    columns = list(table.columns)
    has_null = list(table.has_null)
    has_negative = list(table.has_negative)
    changes = []  # (position, column, converter)
    for action in actions:
        cd = action.column
        i = table.column_index(cd.name)
        if i is None:
            raise UnknownColumn(f"Cannot find column {cd.name}", position=action.pos)
        check_not_clustered(table, table.columns[i].name, "modify", action.pos)
        column = table_column(ctx, cd)
        column.name = table.columns[i].name
        if column.type != table.columns[i].type:
            check_modified_type(table.options, column.name, column.type, action.pos)
        if not cd.comment:
            column.comment = table.columns[i].comment
        columns[i] = column
        has_null[i] = has_negative[i] = False
        changes.append((i, column, _column_converter(table.columns[i].type, column)))
    check_schema(ctx, table, columns, actions[0].pos)

    def rewrite(rows):
        out = []
        for r in rows:
            r = list(r)
            for i, column, convert in changes:
                v = r[i] = convert(r[i])
                if v is None:
                    has_null[i] = True
                elif column.type.is_int and v < 0:
                    has_negative[i] = True
            out.append(tuple(r))
        return out

    return _rewrite(ctx, table, columns, rewrite, has_null, has_negative)


def _column_converter(old: T.SqlType, column: TableColumn):
    """The stored value of the old type -> the new column's: a tuple (or an array's tuples)
    reshaped by field name first when the new type's fields differ, as Databend's modify column
    does (a field the old tuple lacks takes its type's default: NULL when nullable)."""
    convert = value_converter(column.type, column.name, "UPDATE")
    reshape = _tuple_reshaper(old, column.type)
    if reshape is None:
        return convert
    return lambda v: convert(reshape(v))


def _tuple_reshaper(old: T.SqlType, new: T.SqlType):
    """A function moving a value's tuple fields to the new tuple type's (by name: `1`, `2`... for
    unnamed fields), through arrays; None when the fields line up (the cast does the rest)."""
    if old.name == new.name == "Array":
        inner = _tuple_reshaper(old.args[0], new.args[0])
        if inner is None:
            return None
        return lambda v: v if v is None else N.ArrayValue(inner(x) for x in v)
    if not old.name == new.name == "Tuple":
        return None
    old_names = list(old.field_names or (str(k) for k in range(1, len(old.args) + 1)))
    new_names = list(new.field_names or (str(k) for k in range(1, len(new.args) + 1)))
    # per new field: (the old field's position, its own reshaper) or (None, the type's default)
    picks = []
    for name, t in zip(new_names, new.args, strict=True):
        if name in old_names:
            at = old_names.index(name)
            picks.append((at, _tuple_reshaper(old.args[at], t)))
        else:
            picks.append((None, type_default(t)))
    if old_names == new_names and all(f is None for _, f in picks):
        return None

    def field(v, at, extra):
        if at is None:
            return extra  # the default of a field the old tuple lacks
        return v[at] if extra is None else extra(v[at])

    def reshape(v):
        return v if v is None else N.TupleValue(field(v, at, extra) for at, extra in picks)
    return reshape


def _set_comment(ctx, table: Table, action: A.SetComment) -> Result:
    """The table's COMMENT, or a column's (metadata only: the rows stay)."""
    if action.column is None:
        new = copy_table(table, comment=action.comment)
    else:
        i = table.column_index(action.column)
        if i is None:
            raise UnknownColumn(f"Cannot find column {action.column}", position=action.pos)
        old = table.columns[i]
        columns = list(table.columns)
        columns[i] = TableColumn(old.name, old.type, old.default, old.default_sql, action.comment)
        new = copy_table(table, columns=columns)
    commit_version(ctx, table, new, table.data)
    return empty_result()


def _rewrite(ctx, table: Table, columns, rewrite, has_null, has_negative, options=None) -> Result:
    """The table's new version: its rows rewritten a step budget at a time, swapped in at the end
    if no other statement replaced the table or its rows meanwhile (`options`: its new options)."""
    return Result([], _rewrite_steps(ctx, table, columns, rewrite, has_null, has_negative,
                                     table.options if options is None else options),
                  progress=Progress(), types=[])


def _rewrite_steps(ctx, table: Table, columns, rewrite, has_null, has_negative, options):
    data, count = table.data, len(table.data)
    step = max(1, ctx.limits.step_rows)
    new_rows: list = []
    for start in range(0, count, step):
        # bounded by the snapshot's count: rows appended meanwhile sit after it in the same
        # version, and are rewritten once, below (an unbounded last slice took them twice)
        batch = rewrite(data.rows(start, min(start + step, count)))
        ctx.memory.charge(batch_bytes(batch))  # the new version, held until the swap
        new_rows += batch
        yield []
    if table.data is not data:
        raise TableVersionMismatched(f"table `{table.database}`.`{table.name}` was changed by another "
                                     f"statement while this one ran; nothing was changed")
    new_rows += rewrite(data.rows(count))  # rows another statement appended meanwhile
    new = copy_table(table, columns=columns, data=table_data([c.type for c in columns], new_rows), has_null=has_null,
                     has_negative=has_negative, options=options)
    commit_version(ctx, table, new, data)
    ctx.memory.release()  # the rows are the table's now
