"""Read-only system tables: databases, tables, columns, settings, one, functions."""

from __future__ import annotations

from engine import functions as F
from engine import settings as S
from engine import types as T
from engine.errors import UnknownTable

_S = T.STRING
_U64 = T.UINT64


def _databases(ctx):
    names = sorted(ctx.catalog.databases) + ["information_schema", "system"]
    return [("default", n) for n in sorted(set(names))]


def _tables(ctx):
    rows = []
    for db in sorted(ctx.catalog.databases):
        for name, table in sorted(ctx.catalog.databases[db].items()):
            rows.append((db, name, table.engine, len(table.rows)))
    for name in sorted(SYSTEM_TABLES):
        rows.append(("system", name, "SystemTable", None))
    return rows


def _columns(ctx):
    rows = []
    for db in sorted(ctx.catalog.databases):
        for name, table in sorted(ctx.catalog.databases[db].items()):
            for c in table.columns:
                rows.append((c.name, db, name, c.type.display(), c.default_sql or "",
                             "YES" if c.type.nullable else "NO"))
    return rows


def settings_rows(ctx):
    rows = []
    for name in sorted(S.SETTINGS):
        s = S.SETTINGS[name]
        if name in ctx.session_settings:
            value, level = ctx.session_settings[name], "SESSION"
        elif name in ctx.global_settings:
            value, level = ctx.global_settings[name], "GLOBAL"
        else:
            value, level = s.default, "DEFAULT"
        rows.append((name, value, s.default, level, s.description, s.type))
    return rows


def _one(ctx):
    return [(1,)]


def _functions(ctx):
    return [(name, name in F.AGGREGATES) for name in F.all_function_names()]


SYSTEM_TABLES = {
    "databases": ([("catalog", _S), ("name", _S)], _databases),
    "tables": ([("database", _S), ("name", _S), ("engine", _S), ("num_rows", _U64.as_nullable(True))], _tables),
    "columns": ([("name", _S), ("database", _S), ("table", _S), ("type", _S), ("default_expression", _S),
                 ("is_nullable", _S)], _columns),
    "settings": ([("name", _S), ("value", _S), ("default", _S), ("level", _S), ("description", _S),
                  ("type", _S)], settings_rows),
    "one": ([("dummy", T.UINT8)], _one),
    "functions": ([("name", _S), ("is_aggregate", T.BOOLEAN)], _functions),
}


def system_table(name: str, pos=None):
    entry = SYSTEM_TABLES.get(name.lower())
    if entry is None:
        raise UnknownTable(f"Unknown table `system`.`{name}` in catalog 'default'", position=pos)
    return entry
