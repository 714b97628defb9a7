"""What the listings show a user who is not an administrator: only the databases, tables and
views it holds a privilege on (through its grants or its roles), as current Databend's
visibility checker (GrantObjectVisibilityChecker) decides; system and information_schema always."""

import pytest

import engine

SYSTEM_DATABASES = ["information_schema", "system"]


def rows(session, sql):
    return [tuple(r) for batch in session.execute(sql).batches() for r in batch]


def names(session, sql):
    return [r[0] for r in rows(session, sql)]


@pytest.fixture
def db():
    db = engine.Database()
    root = db.session()
    for sql in ["CREATE TABLE t (a INT)", "CREATE VIEW v AS SELECT a FROM t",
                "CREATE DATABASE d", "CREATE TABLE d.x (b INT)", "CREATE TABLE d.y (c INT)",
                "CREATE VIEW d.vd AS SELECT b FROM d.x", "CREATE DATABASE e", "CREATE TABLE e.z (z INT)",
                "CREATE ROLE r", "GRANT INSERT ON e.* TO ROLE r", "GRANT SELECT ON default.v TO ROLE r"]:
        rows(root, sql)
    grants = {"u_table": ["GRANT SELECT ON d.x TO u_table"], "u_db": ["GRANT SELECT ON d.* TO u_db"],
              "u_all": ["GRANT SELECT ON *.* TO u_all"], "u_role": ["GRANT ROLE r TO u_role"],
              "u_super": ["GRANT SUPER ON *.* TO u_super"], "u_none": []}
    for user, statements in grants.items():
        rows(root, f"CREATE USER {user} IDENTIFIED BY 'p'")
        for sql in statements:
            rows(root, sql)
    return db


def stored_tables(session):
    return [(d, n) for d, n in rows(session, "SELECT database, name FROM system.tables ORDER BY database, name")
            if d not in SYSTEM_DATABASES]


@pytest.mark.parametrize(("user", "databases", "tables"), [
    # a grant on a table: the table and its database, not the database's other tables
    ("u_table", ["d"], [("d", "x")]),
    # a grant on a database: everything in it
    ("u_db", ["d"], [("d", "vd"), ("d", "x"), ("d", "y")]),
    # a grant on *.*: everything
    ("u_all", ["d", "default", "e"],
     [("d", "vd"), ("d", "x"), ("d", "y"), ("default", "t"), ("default", "v"), ("e", "z")]),
    # through a role: its database grant and its grant on a view
    ("u_role", ["default", "e"], [("default", "v"), ("e", "z")]),
    # SUPER on *.* is no privilege on databases or tables; no grant at all shows nothing
    ("u_super", [], []),
    ("u_none", [], []),
])
def test_listings_show_what_the_user_holds_privileges_on(db, user, databases, tables):
    s = db.session(user=user)
    assert names(s, "SHOW DATABASES") == sorted(databases + SYSTEM_DATABASES)
    assert names(s, "SELECT name FROM system.databases ORDER BY name") == sorted(databases + SYSTEM_DATABASES)
    assert names(s, "SELECT schema_name FROM information_schema.schemata ORDER BY 1") == sorted(
        databases + SYSTEM_DATABASES)
    assert stored_tables(s) == tables
    assert [r for r in rows(s, "SELECT table_schema, table_name FROM information_schema.tables ORDER BY 1, 2")
            if r[0] not in SYSTEM_DATABASES] == tables
    columns = {r for r in rows(s, "SELECT database, table FROM system.columns") if r[0] not in SYSTEM_DATABASES}
    assert columns == set(tables)
    assert {r for r in rows(s, "SELECT table_schema, table_name FROM information_schema.columns")
            if r[0] not in SYSTEM_DATABASES} == set(tables)
    views = [(d, n) for d, n in tables if n.startswith("v")]
    assert rows(s, "SELECT database, name FROM system.views ORDER BY database, name") == views
    assert rows(s, "SELECT table_schema, table_name FROM information_schema.views ORDER BY 1, 2") == views
    for database in ("default", "d", "e"):
        shown = [n for d, n in tables if d == database]
        assert names(s, f"SHOW TABLES FROM {database}") == shown  # an invisible database lists nothing
        assert names(s, f"SHOW FULL TABLES FROM {database}") == shown
        assert names(s, f"SHOW TABLE STATUS FROM {database}") == shown
        assert names(s, f"SHOW VIEWS FROM {database}") == [n for n in shown if n.startswith("v")]


def test_system_tables_always_show(db):
    s = db.session(user="u_none")
    assert "tables" in names(s, "SHOW TABLES FROM system")
    assert ("system", "one") in rows(s, "SELECT database, name FROM system.tables")
    assert ("system", "one", "dummy") in rows(s, "SELECT database, table, name FROM system.columns")


def test_a_grant_changes_the_listings_at_once(db):
    root, s = db.session(), db.session(user="u_none")
    assert names(s, "SHOW TABLES FROM d") == []
    rows(root, "GRANT SELECT ON d.y TO ROLE public")  # every user has public
    assert names(s, "SHOW TABLES FROM d") == ["y"]
    assert "d" in names(s, "SHOW DATABASES")
    rows(root, "REVOKE SELECT ON d.y FROM ROLE public")
    assert names(s, "SHOW TABLES FROM d") == []


def test_administrators_see_everything(db):
    for session in (db.session(), db.session(user="u_none")):
        if session.user == "u_none":
            rows(db.session(), "GRANT ROLE account_admin TO u_none")
        assert names(session, "SHOW DATABASES") == ["d", "default", "e", "information_schema", "system"]
        assert len(stored_tables(session)) == 6
