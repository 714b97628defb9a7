"""Users, roles and privileges: the statements, SHOW and system tables, the checks when a
statement binds, and the store's snapshot / restore."""

from __future__ import annotations

import json

import pytest

import engine
from engine.catalog.passwords import verify_password

DENIED = 1063


def rows(session, sql):
    return [tuple(r) for batch in session.execute(sql).batches() for r in batch]


def columns(session, sql):
    return [(c.name, c.type) for c in session.execute(sql).schema]


def error(session, sql) -> engine.EngineError:
    with pytest.raises(engine.EngineError) as info:
        rows(session, sql)
    return info.value


@pytest.fixture
def db():
    db = engine.Database()
    root = db.session()
    rows(root, "CREATE TABLE t (a INT)")
    rows(root, "INSERT INTO t VALUES (1), (2)")
    rows(root, "CREATE DATABASE d")
    rows(root, "CREATE TABLE d.x (b INT)")
    rows(root, "CREATE USER u IDENTIFIED BY 'secret'")
    return db


# ---------------------------------------------------------------- users


def test_create_user_stores_only_a_hash(db):
    record = db.users.users["u"]
    assert "secret" not in json.dumps(db.users.snapshot())
    assert verify_password("secret", record["password"]) and record["auth_type"] == "double_sha1_password"


def test_create_user_forms_and_errors(db):
    root = db.session()
    rows(root, "CREATE USER 'a'@'%' IDENTIFIED WITH sha256_password BY 'p' WITH DEFAULT_ROLE = 'r'")
    assert db.users.users["a"]["auth_type"] == "sha256_password"
    assert db.users.users["a"]["default_role"] == "r"
    e = error(root, "CREATE USER 'a' IDENTIFIED BY 'p'")
    assert (e.code, e.message) == (2202, "User 'a'@'%' already exists.")
    rows(root, "CREATE USER IF NOT EXISTS a IDENTIFIED BY 'p'")
    rows(root, "CREATE OR REPLACE USER a IDENTIFIED BY 'q'")
    assert verify_password("q", db.users.users["a"]["password"])
    assert error(root, "CREATE USER 'b'@'127.0.0.1' IDENTIFIED BY 'p'").code == 1005
    assert error(root, "CREATE OR REPLACE USER IF NOT EXISTS b IDENTIFIED BY 'p'").code == 1005
    e = error(root, "CREATE USER `a'a` IDENTIFIED BY 'p'")
    assert e.code == 2218 and e.message.startswith("Illegal Username: Illegal user name [a'a]")


def test_alter_and_drop_user(db):
    root = db.session()
    before = db.users.users["u"]["password"]
    rows(root, "ALTER USER 'u'@'%' IDENTIFIED BY 'other'")
    assert db.users.users["u"]["password"] != before
    assert verify_password("other", db.users.users["u"]["password"])
    rows(root, "ALTER USER u WITH DEFAULT_ROLE = 'public'")
    assert db.users.users["u"]["default_role"] == "public"
    assert error(root, "ALTER USER nobody IDENTIFIED BY 'p'").code == 2201
    e = error(root, "DROP USER nobody")
    assert (e.code, e.message) == (2201, "User 'nobody'@'%' does not exist.")
    rows(root, "DROP USER IF EXISTS nobody")
    rows(root, "DROP USER 'u'@'%'")
    assert "u" not in db.users.users


def test_bootstrap_users_are_protected(db):
    root = db.session()
    db.users.add_bootstrap_users({"admin": None})
    assert error(root, "CREATE USER root IDENTIFIED BY 'p'").message == "Same name with configured user `root`"
    e = error(root, "DROP USER admin")
    assert (e.code, e.message) == (2202, "Built-in user `admin` cannot be dropped")
    assert error(root, "ALTER USER root IDENTIFIED BY 'p'").message == "Built-in user `root` cannot be updated"
    e = error(root, "GRANT SELECT ON *.* TO root")
    assert (e.code, e.message) == (2202, "Cannot grant privileges to built-in user `root`")
    assert error(root, "GRANT ROLE public TO admin").message == "Cannot grant role to built-in user `admin`"


def test_show_users_and_system_users(db):
    root = db.session()
    assert columns(root, "SHOW USERS") == [
        ("name", "String"), ("hostname", "String"), ("auth_type", "String"), ("is_configured", "String"),
        ("default_role", "String"), ("roles", "String"), ("disabled", "Boolean"),
        ("network_policy", "Nullable(String)"), ("password_policy", "Nullable(String)"),
        ("must_change_password", "Nullable(Boolean)")]
    rows(root, "CREATE ROLE r2")
    rows(root, "CREATE ROLE r1")
    rows(root, "GRANT ROLE r2 TO u")
    rows(root, "GRANT ROLE r1 TO u")
    rows(root, "ALTER USER u WITH DEFAULT_ROLE = r2")
    assert rows(root, "SHOW USERS") == [
        ("root", "%", "no_password", "YES", "account_admin", "account_admin", False, None, None, None),
        ("u", "%", "double_sha1_password", "NO", "r2", "r1, r2", False, None, None, None)]
    assert [name for name, _ in columns(root, "SELECT * FROM system.users")] == [
        "name", "hostname", "auth_type", "default_role", "is_configured", "disabled", "roles", "network_policy",
        "password_policy", "must_change_password", "created_on", "update_on"]
    [(same,)] = rows(root, "SELECT created_on = update_on FROM system.users WHERE name = 'u'")
    assert same is False  # the grants changed it


def test_disabled_users(db):
    root = db.session()
    rows(root, "CREATE USER IF NOT EXISTS 'off' IDENTIFIED BY 'p' WITH DISABLED = true, DEFAULT_ROLE = 'r'")
    assert db.users.is_disabled("off") and db.users.users["off"]["default_role"] == "r"
    assert rows(root, "SELECT name, disabled FROM system.users WHERE name IN ('off', 'u') ORDER BY name") == [
        ("off", True), ("u", False)]
    rows(root, "ALTER USER off WITH DISABLED = false")
    assert not db.users.is_disabled("off")


def test_describe_user(db):
    # the columns of current Databend's DESC USER (Databend 1.2.453 has no DESC USER)
    root = db.session()
    rows(root, "CREATE ROLE r2")
    rows(root, "CREATE ROLE r1")
    rows(root, "GRANT ROLE r2 TO u")
    rows(root, "GRANT ROLE r1 TO u")
    rows(root, "ALTER USER u WITH DEFAULT_ROLE = 'r2', DISABLED = true")
    assert columns(root, "DESC USER u") == [
        ("name", "String"), ("hostname", "String"), ("auth_type", "String"), ("default_role", "String"),
        ("default_warehouse", "String"), ("roles", "String"), ("disabled", "Boolean"),
        ("network_policy", "Nullable(String)"), ("password_policy", "Nullable(String)"),
        ("must_change_password", "Nullable(Boolean)"), ("workload_group", "Nullable(String)"),
        ("public_keys", "Nullable(UInt64)")]
    assert rows(root, "DESCRIBE USER 'u'@'%'") == [
        ("u", "%", "double_sha1_password", "r2", "", "r1, r2", True, None, None, None, None, None)]
    assert rows(root, "DESC USER root") == [
        ("root", "%", "no_password", "account_admin", "", "account_admin", False, None, None, None, None, None)]
    e = error(root, "DESC USER nobody")
    assert (e.code, e.message) == (2201, "User 'nobody'@'%' does not exist.")


def test_describe_user_takes_super_even_for_oneself(db):
    # current Databend checks SUPER on *.* for DESC USER, whoever is described
    root, user = db.session(), db.session(user="u")
    rows(root, "CREATE USER v IDENTIFIED BY 'p'")
    for sql in ("DESC USER u", "DESC USER v", "DESC USER nobody"):  # the privilege is checked first
        e = error(user, sql)
        assert (e.code, e.message) == (DENIED, "Permission denied: privilege [Super] is required on *.* for user "
                                               "'u'@'%' with roles [public]. Note: Please ensure that your current "
                                               "role have the appropriate permissions to create a new "
                                               "Warehouse|Database|Table|UDF|Stage."), sql
    rows(root, "CREATE ROLE admins")
    rows(root, "GRANT SUPER ON *.* TO ROLE admins")
    rows(root, "GRANT ROLE admins TO u")  # through any of its roles
    assert [r[0] for r in rows(user, "DESC USER u")] == ["u"]
    assert [r[0] for r in rows(user, "DESC USER v")] == ["v"]
    assert error(user, "DESC USER nobody").code == 2201


def test_desc_of_a_table_named_user_describes_the_table(db):
    root = db.session()
    rows(root, "CREATE TABLE user (a INT)")
    rows(root, "CREATE DATABASE user")
    rows(root, "CREATE TABLE user.t (b VARCHAR)")
    for sql in ("DESC user", "DESCRIBE user", 'DESC "user"'):
        assert rows(root, sql) == [("a", "INT", "YES", "NULL", "")], sql
    assert rows(root, "DESC user.t") == [("b", "VARCHAR", "YES", "NULL", "")]
    assert error(root, "DESC USER user").code == 2201


# ---------------------------------------------------------------- roles


def test_roles_and_system_roles(db):
    root = db.session()
    assert error(root, "DROP ROLE r").code == 2204
    rows(root, "DROP ROLE IF EXISTS r")
    rows(root, "CREATE ROLE role1")
    rows(root, "CREATE ROLE role2")
    rows(root, "CREATE ROLE `test`")
    e = error(root, "CREATE ROLE role1")
    assert (e.code, e.message) == (2216, "Role 'role1' already exists")
    rows(root, "CREATE ROLE IF NOT EXISTS role1")
    for sql in ("CREATE ROLE 'Public'", "CREATE ROLE account_admin", "DROP ROLE 'public'"):
        assert error(root, sql).code == 2217
    rows(root, "GRANT ROLE role1 TO ROLE role2")
    rows(root, "GRANT ROLE test TO ROLE role2")
    e = error(root, "GRANT ROLE role2 TO ROLE role1")
    assert (e.code, e.message) == (2206, "role2 contains role1, can not be grant to role1")
    assert rows(root, "SELECT name, inherited_roles, inherited_roles_name FROM system.roles") == [
        ("account_admin", 0, ""), ("public", 0, ""), ("role1", 0, ""), ("role2", 2, "role1, test"),
        ("test", 0, "")]
    assert rows(root, "SHOW ROLES") == [
        ("account_admin", 0, "", True, True, ""), ("public", 0, "", False, False, ""),
        ("role1", 0, "", False, False, ""), ("role2", 2, "role1, test", False, False, ""),
        ("test", 0, "", False, False, "")]
    rows(root, "REVOKE ROLE role1 FROM ROLE role2")
    assert rows(root, "SELECT inherited_roles_name FROM system.roles WHERE name = 'role2'") == [("test",)]
    rows(root, "DROP ROLE role1")
    assert error(root, "GRANT ROLE role1 TO u").message == "Role 'role1' does not exist."


def test_user_and_role_names_and_default_warehouse(db):
    # base/05_ddl/05_0004_ddl_create_user.test, 05_0014_ddl_create_role.test, 05_0005_ddl_alter_user.test
    root = db.session()
    assert error(root, "CREATE ROLE 'a\\b'").code == 2217  # \b and \f: control characters
    assert error(root, "CREATE ROLE 'a\\f'").code == 2217
    assert error(root, "CREATE USER 'a\\b' IDENTIFIED BY '123'").code == 2218
    rows(root, "CREATE USER 'test-wh' IDENTIFIED BY '123' WITH DEFAULT_WAREHOUSE = 'my_warehouse'")
    assert rows(root, "DESC USER 'test-wh'")[0][3:5] == ("", "my_warehouse")
    rows(root, "ALTER USER 'test-wh' WITH DEFAULT_WAREHOUSE = 'w2'")
    assert rows(root, "DESC USER 'test-wh'")[0][4] == "w2"
    kept = {u["name"]: u for u in db.users.snapshot()["users"]}  # what a data directory keeps
    assert kept["test-wh"]["default_warehouse"] == "w2"


def test_role_comments_and_show_roles_function(db):
    # base/05_ddl/05_0015_ddl_alter_role.test
    root = db.session()
    rows(root, "CREATE ROLE role1")
    rows(root, "CREATE ROLE IF NOT EXISTS role1 COMMENT = 'test'")  # exists: unchanged
    rows(root, "CREATE ROLE IF NOT EXISTS role2 COMMENT = 'test'")
    rows(root, "GRANT ROLE role1 TO ROLE role2")
    sql = ("SELECT name, comment, inherited_roles_name FROM show_roles() WHERE name IN ('role1', 'role2', "
           "'role3') ORDER BY name")
    assert rows(root, sql) == [("role1", "", ""), ("role2", "test", "role1")]
    rows(root, "ALTER ROLE role2 UNSET COMMENT")
    rows(root, "ALTER ROLE role1 SET COMMENT = 'xxx'")
    assert rows(root, sql) == [("role1", "xxx", ""), ("role2", "", "role1")]
    rows(root, "ALTER ROLE IF EXISTS role3 SET COMMENT = 'c'")
    rows(root, "ALTER ROLE IF EXISTS role3 UNSET COMMENT")
    assert error(root, "ALTER ROLE role3 SET COMMENT = 'c'").code == 2204
    assert error(root, "ALTER ROLE role3 UNSET COMMENT").code == 2204
    assert error(db.session(user="u"), "ALTER ROLE role1 SET COMMENT = 'y'").code == 1063
    assert rows(root, "SHOW ROLES LIKE 'role1'") == [("role1", 0, "", False, False, "xxx")]


def test_grants_on_udf_warehouse_connection_and_sequence(db):
    # base/05_ddl/05_0017_ddl_grant_role.test
    root = db.session()
    for sql in ("CREATE FUNCTION isnotempty AS (p) -> not(is_null(p))", "CREATE ROLE role2", "CREATE ROLE role3",
                "CREATE STAGE s1", "GRANT READ ON STAGE s1 TO ROLE role2", "CREATE SEQUENCE seq",
                "GRANT USAGE ON UDF isnotempty TO u", "GRANT USAGE ON UDF isnotempty TO ROLE role2",
                "GRANT USAGE ON UDF isnotempty TO ROLE role3", "GRANT USAGE ON WAREHOUSE a TO ROLE role2",
                "GRANT ACCESS SEQUENCE ON SEQUENCE seq TO ROLE role3"):
        rows(root, sql)
    assert rows(root, "SHOW GRANTS ON UDF isnotempty") == [
        ("USAGE", "isnotempty", None, "ROLE", "role2", ""), ("USAGE", "isnotempty", None, "ROLE", "role3", ""),
        ("OWNERSHIP", "isnotempty", None, "ROLE", "account_admin", "")]
    assert rows(root, "SHOW GRANTS ON STAGE s1") == [("Read", "s1", None, "ROLE", "role2", ""),
                                                     ("OWNERSHIP", "s1", None, "ROLE", "account_admin", "")]
    assert [r[5] for r in rows(root, "SHOW GRANTS FOR ROLE role2")][-2:] == [
        "GRANT USAGE ON UDF isnotempty TO ROLE `role2`", "GRANT USAGE ON WAREHOUSE a TO ROLE `role2`"]
    assert error(root, "GRANT USAGE ON WAREHOUSE a TO u").code == 2218  # to roles only
    assert error(root, "GRANT ACCESS SEQUENCE ON SEQUENCE seq TO u").code == 2218
    assert error(root, "GRANT OWNERSHIP ON WAREHOUSE w1 TO ROLE role2").code == 1061
    assert error(root, "GRANT USAGE ON UDF nope TO ROLE role2").code == 2602
    assert error(db.session(user="u"), "SHOW GRANTS ON UDF isnotempty").code == 1063
    rows(root, "REVOKE USAGE ON UDF isnotempty FROM ROLE role3")
    assert [r[4] for r in rows(root, "SHOW GRANTS ON UDF isnotempty")] == ["role2", "account_admin"]
    kept = {r["name"]: r for r in db.users.snapshot()["roles"]}  # what a data directory keeps
    assert kept["role2"]["object_grants"] == [["UDF", "isnotempty", ["USAGE"]], ["WAREHOUSE", "a", ["USAGE"]]]
    db.users.restore(db.users.snapshot())
    assert [r[4] for r in rows(root, "SHOW GRANTS ON WAREHOUSE a")] == ["role2", "account_admin"]


def test_show_grants_of_role(db):
    # base/05_ddl/05_0017_ddl_grant_role.test
    root = db.session()
    for sql in ("CREATE ROLE u1_a", "CREATE ROLE u1_b", "GRANT ROLE u1_b TO ROLE u1_a"):
        rows(root, sql)
    assert rows(root, "SHOW GRANTS OF ROLE u1_b") == [("u1_b", "ROLE", "u1_a")]
    rows(root, "GRANT ROLE u1_b TO u")
    result = root.execute("SHOW GRANTS OF ROLE u1_b")
    assert [c.name for c in result.schema] == ["role", "granted_to", "grantee_name"]
    assert list(result) == [("u1_b", "USER", "u"), ("u1_b", "ROLE", "u1_a")]
    assert error(root, "SHOW GRANTS OF ROLE nope").code == 2204
    assert error(db.session(user="u"), "SHOW GRANTS OF ROLE u1_b").code == 1063


def test_set_role_and_current_role(db):
    root, user = db.session(), db.session(user="u")
    assert rows(root, "SELECT current_role()") == [("account_admin",)]
    assert rows(user, "SELECT current_role()") == [("public",)]
    rows(root, "CREATE ROLE `test-b`")
    e = error(user, "SET ROLE `test-b`")
    assert (e.code, e.message) == (2206, "Invalid role test-b for current session, available: public")
    rows(root, "GRANT ROLE `test-b` TO u")
    rows(user, "SET ROLE `test-b`")
    assert rows(user, "SELECT current_role()") == [("test-b",)]
    assert rows(user, "SHOW ROLES") == [("public", 0, "", False, False, ""), ("test-b", 0, "", True, False, "")]
    rows(root, "DROP ROLE `test-b`")
    assert rows(user, "SELECT current_role()") == [("public",)]


# ---------------------------------------------------------------- grants


def test_grant_revoke_and_show_grants(db):
    root = db.session()
    rows(root, "GRANT SELECT, INSERT ON default.t TO u")
    rows(root, "GRANT ALL PRIVILEGES ON d.* TO USER u")
    rows(root, "CREATE ROLE writer")
    rows(root, "GRANT UPDATE, DELETE ON *.* TO ROLE writer")
    rows(root, "GRANT ROLE writer TO u")
    assert columns(root, "SHOW GRANTS FOR u") == [
        ("privileges", "String"), ("object_name", "String"), ("object_id", "Nullable(UInt64)"),
        ("grant_to", "String"), ("name", "String"), ("grants", "Nullable(String)")]
    assert rows(root, "SHOW GRANTS FOR u") == [
        ("UPDATE,DELETE", "*.*", None, "USER", "u", "GRANT UPDATE,DELETE ON *.* TO 'u'@'%'"),
        ("ALL", "default.d.*", None, "USER", "u", "GRANT ALL ON 'default'.'d'.* TO 'u'@'%'"),
        ("SELECT,INSERT", "default.default.t", None, "USER", "u",
         "GRANT SELECT,INSERT ON 'default'.'default'.'t' TO 'u'@'%'")]
    assert rows(root, "SHOW GRANTS FOR ROLE writer") == [
        ("UPDATE,DELETE", "*.*", None, "ROLE", "writer", "GRANT UPDATE,DELETE ON *.* TO ROLE `writer`")]
    rows(root, "REVOKE INSERT ON t FROM u")
    rows(root, "REVOKE ALL ON d.* FROM u")
    rows(root, "REVOKE ROLE writer FROM u")
    assert rows(root, "SHOW GRANTS FOR u") == [
        ("SELECT", "default.default.t", None, "USER", "u", "GRANT SELECT ON 'default'.'default'.'t' TO 'u'@'%'")]
    assert rows(root, "SHOW GRANTS") == [("ALL", "*.*", None, "USER", "root", "GRANT ALL ON *.* TO 'root'@'%'")]


def test_grant_errors(db):
    root = db.session()
    e = error(root, "GRANT SUPER ON d.* TO u")
    assert e.code == 1061 and e.message.startswith("Illegal GRANT/REVOKE command")
    assert error(root, "GRANT SELECT ON nope TO u").code == 1025
    assert error(root, "GRANT SELECT ON nodb.* TO u").code == 1003
    assert error(root, "GRANT SELECT ON *.* TO nobody").code == 2201
    assert error(root, "GRANT SELECT ON *.* TO ROLE nobody").code == 2204
    assert error(root, "REVOKE ALL ON *.* FROM ROLE account_admin").code == 1061


# ---------------------------------------------------------------- enforcement


def test_denied_until_granted(db):
    root, user = db.session(), db.session(user="u")
    e = error(user, "SELECT * FROM t")
    assert (e.code, e.message) == (DENIED, "Permission denied: privilege [Select] is required on "
                                           "'default'.'default'.'t' for user 'u'@'%' with roles [public]")
    rows(root, "GRANT SELECT ON t TO u")
    assert rows(user, "SELECT a FROM t ORDER BY a") == [(1,), (2,)]
    assert error(user, "SELECT * FROM d.x").code == DENIED
    assert error(user, "SELECT * FROM t JOIN d.x ON a = b").code == DENIED
    assert error(user, "SELECT (SELECT max(b) FROM d.x) FROM t").code == DENIED
    # the tables anyone reads, as Databend's allow list
    assert rows(user, "SELECT count(*) > 0 FROM system.tables") == [(True,)]
    assert error(user, "SELECT * FROM system.settings").code == DENIED


def test_writes_and_ddl_need_their_privileges(db):
    root, user = db.session(), db.session(user="u")
    checks = [
        ("INSERT INTO t VALUES (3)", "Insert"), ("UPDATE t SET a = 0", "Update"),
        ("DELETE FROM t WHERE a = 1", "Delete"), ("TRUNCATE TABLE t", "Delete"),
        ("DROP TABLE t", "Drop"), ("ALTER TABLE t ADD COLUMN c INT", "Alter"),
    ]
    for sql, privilege in checks:
        e = error(user, sql)
        assert e.code == DENIED and f"privilege [{privilege}]" in e.message, sql
    e = error(user, "CREATE TABLE d.y (a INT)")
    assert e.message == ("Permission denied: privilege [Create] is required on 'default'.'d'.* for user "
                         "'u'@'%' with roles [public]. Note: Please ensure that your current role have the "
                         "appropriate permissions to create a new Warehouse|Database|Table|UDF|Stage.")
    assert "on *.* for user" in error(user, "CREATE DATABASE e").message
    assert error(user, "DROP DATABASE d").code == DENIED
    assert error(user, "SET GLOBAL max_threads = 4").code == DENIED
    assert error(user, "CREATE USER v IDENTIFIED BY 'p'").message.startswith(
        "Permission denied: privilege [Grant] is required on *.*")
    assert error(user, "INSERT INTO missing VALUES (1)").code == 1025  # unknown first, as Databend
    rows(root, "CREATE ROLE w")
    rows(root, "GRANT INSERT, UPDATE, DELETE, SELECT ON default.* TO ROLE w")
    rows(root, "GRANT CREATE ON d.* TO ROLE w")
    rows(root, "GRANT ROLE w TO u")
    rows(user, "INSERT INTO t VALUES (3)")
    rows(user, "UPDATE t SET a = a + 10 WHERE a = 3")
    rows(user, "DELETE FROM t WHERE a = 1")
    rows(user, "INSERT INTO t SELECT a FROM t")
    rows(user, "CREATE TABLE d.y (a INT)")
    assert rows(root, "SELECT a FROM t ORDER BY a") == [(2,), (2,), (13,), (13,)]
    e = error(user, "INSERT INTO t SELECT b FROM d.x")  # the source is read: SELECT on it
    assert "'default'.'d'.'x' for user 'u'@'%' with roles [public,w]" in e.message


def test_views_need_select_on_the_view_only(db):
    root, user = db.session(), db.session(user="u")
    rows(root, "CREATE VIEW v AS SELECT a FROM t")
    assert error(user, "SELECT * FROM v").code == DENIED
    rows(root, "GRANT SELECT ON v TO u")
    assert rows(user, "SELECT a FROM v ORDER BY a") == [(1,), (2,)]


def test_grant_privilege_lets_a_user_manage_users(db):
    root, user = db.session(), db.session(user="u")
    e = error(user, "SHOW GRANTS FOR root")
    assert e.message == "Permission denied: privilege [Grant] is required on *.* for user 'u'@'%' with roles []"
    assert rows(user, "SHOW GRANTS") == []
    rows(root, "GRANT GRANT ON *.* TO u")
    rows(user, "CREATE USER v IDENTIFIED BY 'p'")
    rows(user, "GRANT SELECT ON t TO v")
    assert rows(db.session(user="v"), "SELECT count(*) FROM t") == [(2,)]


def test_account_admin_role_and_dropped_users(db):
    root, user = db.session(), db.session(user="u")
    rows(root, "GRANT ROLE account_admin TO u")
    assert rows(user, "SELECT count(*) FROM d.x") == [(0,)]
    rows(root, "DROP USER u")
    assert error(user, "SELECT * FROM t").code == DENIED  # a live session of a dropped user


# ---------------------------------------------------------------- snapshot / restore


def test_snapshot_restore_round_trip(db):
    root = db.session()
    rows(root, "CREATE ROLE r")
    rows(root, "GRANT SELECT ON d.x TO ROLE r")
    rows(root, "GRANT ROLE r TO u")
    rows(root, "GRANT ALL ON *.* TO ROLE public")
    rows(root, "REVOKE ALL ON *.* FROM ROLE public")
    rows(root, "GRANT INSERT ON default.* TO u")
    rows(root, "ALTER USER u WITH DEFAULT_ROLE = 'r'")
    snapshot = db.users.snapshot()
    text = json.dumps(snapshot, sort_keys=True)
    assert json.loads(text) == snapshot
    assert db.users.snapshot() == snapshot  # deterministic

    other = engine.Database()
    other.session().execute("CREATE USER stale IDENTIFIED BY 'p'")
    other.users.restore(json.loads(text))
    assert json.dumps(other.users.snapshot(), sort_keys=True) == text
    assert "stale" not in other.users.users
    rows(other.session(), "CREATE DATABASE d")
    rows(other.session(), "CREATE TABLE d.x (b INT)")
    user = other.session(user="u")
    assert rows(user, "SELECT current_role()") == [("r",)]
    assert rows(user, "SELECT count(*) FROM d.x") == [(0,)]
    assert error(user, "SELECT * FROM system.settings").code == DENIED
    assert verify_password("secret", other.users.password_hash("u"))


def test_root_checks_cost_one_lookup(db):
    assert db.users.access("root") is None
    assert db.session().execute("SELECT 1") is not None
    assert db.users.access("u") is not None


# ---------------------------------------------------------------- processes


def test_administrators_and_super_see_and_kill_every_statement(db):
    db.users.add_bootstrap_users({"admin": None})
    rows(db.session(), "CREATE USER v IDENTIFIED BY 'p'")
    for victim, killer in (("q1", "admin"), ("q2", "v")):
        result = db.session(user="u").execute("SELECT number FROM numbers(1000000)", query_id=victim)
        batches = result.batches()
        next(batches)
        assert (victim,) in rows(db.session(user="admin"), "SELECT id FROM system.processes")
        assert (victim,) not in rows(db.session(user="v"), "SELECT id FROM system.processes")
        if killer == "v":
            assert error(db.session(user="v"), f"KILL QUERY '{victim}'").code == DENIED
            rows(db.session(), "GRANT SUPER ON *.* TO v")
        rows(db.session(user=killer), f"KILL QUERY '{victim}'")
        with pytest.raises(engine.EngineError) as killed:
            next(batches)
        assert killed.value.code == 1043


def test_a_table_named_in_another_case_is_checked_by_its_own_name(db):
    root, user = db.session(), db.session(user="u")
    rows(root, 'CREATE TABLE "Mixed" (a INT)')
    rows(root, "GRANT SELECT, INSERT ON default.Mixed TO u")  # a plain name reads as lower case
    assert db.users.users["u"]["grants"] == {("default", "Mixed"): (1 << 2) | (1 << 3)}
    rows(user, "INSERT INTO mixed VALUES (1)")
    assert rows(user, "SELECT a FROM MIXED") == [(1,)]
    assert "'default'.'default'.'Mixed'" in error(user, "DELETE FROM mixed").message


def test_create_database_is_checked_against_the_current_role(db):
    root, user = db.session(), db.session(user="u")
    rows(root, "CREATE ROLE creator")
    rows(root, "GRANT CREATE ON *.* TO ROLE creator")
    rows(root, "GRANT ROLE creator TO u")
    e = error(user, "CREATE DATABASE e")  # the current role is public
    assert e.message.startswith("Permission denied: privilege [Create] is required on *.* for user 'u'@'%' "
                                "with roles [public]. Note:")
    rows(user, "SET ROLE creator")
    rows(user, "CREATE DATABASE e")
    assert "e" in db.catalog.databases


def test_version_counts_changes_only(db):
    before = db.users.version
    rows(db.session(), "SELECT 1")
    rows(db.session(), "SHOW GRANTS FOR u")
    assert db.users.version == before
    rows(db.session(), "CREATE ROLE r")
    assert db.users.version > before


def test_a_mutation_needs_its_privilege_on_the_target_and_select_on_what_it_reads(db):
    root, user = db.session(), db.session(user="u")
    rows(root, "GRANT UPDATE, DELETE, INSERT ON t TO u")  # no SELECT on t: Databend asks none
    assert rows(user, "DELETE FROM t WHERE a = 1") == [(1,)]
    assert rows(user, "UPDATE t SET a = 20 WHERE a = 2") == [(1,)]
    rows(root, "INSERT INTO d.x VALUES (20)")
    for sql in ("DELETE FROM t WHERE a IN (SELECT b FROM d.x)", "UPDATE t SET a = 0 FROM d.x WHERE a = b",
                "MERGE INTO t USING d.x ON a = b WHEN MATCHED THEN DELETE"):
        assert "'default'.'d'.'x'" in error(user, sql).message, sql
    rows(root, "GRANT SELECT ON d.* TO u")
    assert rows(user, "MERGE INTO t USING d.x ON a = b WHEN MATCHED THEN DELETE") == [(1,)]
    assert rows(root, "SELECT count(*) FROM t") == [(0,)]


def test_passwords_stay_out_of_the_process_list_and_the_query_log(db):
    root = db.session()
    rows(root, "CREATE USER IF NOT EXISTS w IDENTIFIED WITH sha256_password BY 'hunter2'")
    rows(root, "ALTER USER w IDENTIFIED BY 'hunter3'")
    texts = [text for (text,) in rows(root, "SELECT query_text FROM system.query_log")]
    assert "CREATE USER IF NOT EXISTS w IDENTIFIED WITH sha256_password BY '******'" in texts
    assert "ALTER USER w IDENTIFIED BY '******'" in texts
    assert not any("hunter" in text for text in texts)


def test_an_unknown_database_is_reported_before_a_missing_privilege(db):
    user = db.session(user="u")
    assert error(user, "CREATE TABLE nodb.t (a INT)").code == 1003
    rows(user, "DROP DATABASE IF EXISTS nodb")
    assert error(user, "DROP DATABASE d").code == DENIED
