"""Which databases, tables and views the listings show a user, by Databend's visibility checker
(GrantObjectVisibilityChecker): SHOW DATABASES / TABLES / VIEWS / TABLE STATUS, system.databases,
.tables, .columns, .views and information_schema.* list for a user who is not an administrator
only the objects it holds some privilege on, through its own grants or its roles'.

- a grant on `*.*` of any database or table privilege shows everything;
- a grant on `db.*` (other than USAGE alone) shows the database and every table and view in it;
- a grant on `db.t` shows that table or view, and its database (not the database's other tables);
- `system` and `information_schema` always show.
An administrator (`ctx.access` None) sees everything; nothing is computed for it."""

from __future__ import annotations

from engine.catalog.users import DATABASE_PRIVILEGES, GLOBAL, USAGE

_ALWAYS_VISIBLE = frozenset({"system", "information_schema"})


class Visibility:
    """The objects one user's grants (merged over its roles) make visible."""

    __slots__ = ("everything", "databases", "tables", "table_databases")

    def __init__(self, grants: dict):
        self.everything = bool(grants.get(GLOBAL, 0) & DATABASE_PRIVILEGES)
        # USAGE alone on a database lets a user USE it, not see into it (as Databend)
        self.databases = {db for (db, table), mask in grants.items()
                          if db is not None and table is None and mask & ~USAGE}
        self.tables = {(db, table) for (db, table), mask in grants.items() if table is not None and mask}
        self.table_databases = {db for db, _ in self.tables}

    def database(self, name: str) -> bool:
        return (self.everything or name.lower() in _ALWAYS_VISIBLE or name in self.databases
                or name in self.table_databases)

    def table(self, database: str, name: str) -> bool:
        return (self.everything or database.lower() in _ALWAYS_VISIBLE or database in self.databases
                or (database, name) in self.tables)


def visibility(ctx) -> Visibility | None:
    """What the session's user sees in the listings; None: everything (an administrator)."""
    access = ctx.access
    return None if access is None else Visibility(access.grants)


def visible_database(seen: Visibility | None, name: str) -> bool:
    return seen is None or seen.database(name)


def visible_table(seen: Visibility | None, database: str, name: str) -> bool:
    return seen is None or seen.table(database, name)
