"""Default-deny privileges: every statement type declares what it needs, and each one is refused
(1063) to a user without that privilege and runs for one who holds it, stages included (READ,
WRITE, ownership by the creator, GRANT / REVOKE / SHOW GRANTS ON STAGE), KILL and EXPLAIN."""

from __future__ import annotations

import pytest

import engine
from engine.catalog import privileges
from engine.catalog.stages import parse_location
from engine.statements.dispatch import _HANDLERS
from grammar import ast as A

DENIED = 1063
NOTE = ". Note: Please ensure that your current role have the appropriate permissions to create a new Object"


def rows(session, sql):
    return [tuple(r) for batch in session.execute(sql).batches() for r in batch]


def error(session, sql) -> engine.EngineError:
    with pytest.raises(engine.EngineError) as info:
        rows(session, sql)
    return info.value


@pytest.fixture
def db():
    """root's table t (two rows), database d, stage s holding data.csv, file format f; users
    `nobody` (no grants) and `holder` (given the grants each case names)."""
    db = engine.Database()
    db.presigner = lambda method, user, location, expire: ("{}", f"http://127.0.0.1/{location.text}")
    root = db.session()
    for sql in ("CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1), (2)", "CREATE DATABASE d",
                "CREATE STAGE s", "CREATE FILE FORMAT f TYPE = CSV",
                "CREATE USER nobody IDENTIFIED BY 'p'", "CREATE USER holder IDENTIFIED BY 'p'"):
        rows(root, sql)
    db.stages.put("root", parse_location("@s/data.csv"), b"1\n3\n")
    return db


# (statement, the grants `holder` gets, the object a refusal names)
CASES = [
    # stages
    ("LIST @s", ["READ ON STAGE s"], "READ is required on stage s"),
    ("SELECT $1 FROM @s", ["READ ON STAGE s"], "[Read] is required on STAGE s"),
    ("COPY INTO t FROM @s FILE_FORMAT = (TYPE = CSV)", ["READ ON STAGE s", "INSERT ON default.t"],
     "[Read] is required on STAGE s"),
    ("COPY INTO t FROM (SELECT $1 FROM @s)", ["READ ON STAGE s", "INSERT ON default.t"],
     "[Insert] is required"),  # the query's stage is checked as it is planned, after the table
    ("COPY INTO t FROM @s FILE_FORMAT = (TYPE = CSV) PURGE = TRUE",
     ["READ, WRITE ON STAGE s", "INSERT ON default.t"], "[Read] is required on STAGE s"),
    ("COPY INTO @s/out/ FROM t", ["WRITE ON STAGE s", "SELECT ON default.t"], "[Write] is required on STAGE s"),
    ("COPY INTO @s/out/ FROM (SELECT a FROM t)", ["WRITE ON STAGE s", "SELECT ON default.t"],
     "[Write] is required on STAGE s"),
    ("REMOVE @s", ["WRITE ON STAGE s"], "[Write] is required on STAGE s"),
    ("CREATE OR REPLACE STAGE s", ["SUPER ON *.*", "WRITE ON STAGE s"], "[Super] is required on *.*"),
    ("CREATE STAGE s2", ["SUPER ON *.*"], "[Super] is required on *.*"),
    ("DROP STAGE s", ["READ, WRITE ON STAGE s"], "[Read] is required on STAGE s"),
    ("PRESIGN @s/data.csv", ["READ ON STAGE s"], "[Read] is required on STAGE s"),
    ("PRESIGN UPLOAD @s/new.csv", ["WRITE ON STAGE s"], "[Write] is required on STAGE s"),
    ("DESC STAGE s", ["READ ON STAGE s"], "[Read] is required on STAGE s"),
    ("CREATE FILE FORMAT g TYPE = CSV", ["SUPER ON *.*"], "[Super] is required on *.*"),
    ("DROP FILE FORMAT f", ["SUPER ON *.*"], "[Super] is required on *.*"),
    ("SHOW FILE FORMATS", ["SUPER ON *.*"], "[Super] is required on *.*"),
    # tables, databases, users, settings
    ("SELECT * FROM t", ["SELECT ON default.t"], "[Select] is required on 'default'.'default'.'t'"),
    ("EXPLAIN SELECT * FROM t", ["SELECT ON default.t"], "[Select] is required"),
    ("EXPLAIN SELECT $1 FROM @s", ["READ ON STAGE s"], "[Read] is required on STAGE s"),
    ("INSERT INTO t VALUES (3)", ["INSERT ON default.t"], "[Insert] is required"),
    ("INSERT OVERWRITE t VALUES (3)", ["INSERT, DELETE ON default.t"], "[Insert] is required"),
    ("REPLACE INTO t ON (a) VALUES (3)", ["INSERT, DELETE ON default.t"], "[Insert] is required"),
    ("UPDATE t SET a = 5", ["UPDATE ON default.t"], "[Update] is required"),
    ("DELETE FROM t WHERE a = 1", ["DELETE ON default.t"], "[Delete] is required"),
    ("TRUNCATE TABLE t", ["DELETE ON default.t"], "[Delete] is required"),
    ("ALTER TABLE t ADD COLUMN b INT", ["ALTER ON default.t"], "[Alter] is required"),
    ("DROP TABLE t", ["DROP ON default.t"], "[Drop] is required"),
    ("DESCRIBE t", ["SELECT ON default.t"], "[Select] is required"),
    ("SHOW CREATE TABLE t", ["SELECT ON default.t"], "[Select] is required"),
    ("CREATE TABLE d.n (a INT)", ["CREATE ON d.*"], "[Create] is required on 'default'.'d'.*"),
    ("DROP DATABASE d", ["DROP ON d.*"], "[Drop] is required on 'default'.'d'.*"),
    ("CREATE DATABASE d2", ["CREATE ON *.*"], "[Create] is required on *.*"),
    ("ALTER DATABASE d RENAME TO d3", ["ALTER ON *.*"], "[Alter] is required on *.*"),
    ("SET GLOBAL max_threads = 4", ["SUPER ON *.*"], "[Super] is required on *.*"),
    ("CREATE USER w IDENTIFIED BY 'p'", ["GRANT ON *.*"], "[Grant] is required on *.*"),
    ("GRANT READ ON STAGE s TO nobody", ["GRANT ON *.*"], "[Grant] is required on *.*"),
    ("DESC USER root", ["SUPER ON *.*"], "[Super] is required on *.*"),
]


@pytest.mark.parametrize("sql, grants, refused_on", CASES, ids=[c[0] for c in CASES])
def test_each_statement_is_refused_without_its_privilege_and_runs_with_it(db, sql, grants, refused_on):
    e = error(db.session(user="nobody"), sql)
    assert e.code == DENIED and refused_on in e.message, e.message
    assert "'nobody'@'%'" in e.message
    root = db.session()
    for grant in grants:
        rows(root, f"GRANT {grant} TO holder")
    rows(db.session(user="holder"), sql)  # no error


@pytest.mark.parametrize("sql, grants", [(sql, grants) for sql, grants, _ in CASES if len(grants) > 1],
                         ids=[sql for sql, grants, _ in CASES if len(grants) > 1])
def test_every_privilege_a_statement_names_is_needed(db, sql, grants):
    root = db.session()
    for missing in grants:
        rows(root, "DROP USER IF EXISTS partial")
        rows(root, "CREATE USER partial IDENTIFIED BY 'p'")
        for grant in grants:
            if grant != missing:
                rows(root, f"GRANT {grant} TO partial")
        assert error(db.session(user="partial"), sql).code == DENIED, missing


def test_every_statement_handler_declares_a_check_or_why_it_needs_none():
    declared = set(privileges._CHECKS)
    exempt = set(privileges.NO_PRIVILEGE_NEEDED)
    assert not declared & exempt
    undeclared = sorted(t.__name__ for t in _HANDLERS if t not in declared | exempt)
    assert undeclared == []
    assert all(reason.strip() for reason in privileges.NO_PRIVILEGE_NEEDED.values())


def test_a_statement_without_a_declaration_is_refused(db, monkeypatch):
    monkeypatch.delitem(privileges._CHECKS, A.TruncateTable)
    rows(db.session(), "GRANT ALL ON default.* TO holder")
    e = error(db.session(user="holder"), "TRUNCATE TABLE t")
    assert e.code == DENIED and "TruncateTable declares no privilege check" in e.message
    rows(db.session(), "TRUNCATE TABLE t")  # administrators are not checked


def test_the_refusal_of_a_stage_privilege_is_databends(db):
    e = error(db.session(user="nobody"), "SELECT $1 FROM @s")
    assert e.message == ("Permission denied: privilege [Read] is required on STAGE s for user 'nobody'@'%' "
                         "with roles [public]" + NOTE)
    e = error(db.session(user="nobody"), "LIST @s")
    assert e.message == "Permission denied: privilege READ is required on stage s for user 'nobody'@'%'"


def test_stages_stay_intact_after_refusals(db):
    """The code review's N6 reproduction: a user without grants changes nothing."""
    nobody = db.session(user="nobody")
    for sql in ("REMOVE @s", "CREATE OR REPLACE STAGE s", "DROP STAGE s",
                "COPY INTO t FROM @s FILE_FORMAT = (TYPE = CSV) PURGE = TRUE"):
        assert error(nobody, sql).code == DENIED
    assert [r[0] for r in rows(db.session(), "LIST @s")] == ["data.csv"]
    assert rows(db.session(), "SELECT count(*) FROM t") == [(2,)]


def test_a_user_stage_needs_no_grant(db):
    nobody = db.session(user="nobody")
    db.stages.put("nobody", parse_location("@~/mine.csv"), b"7\n")
    assert rows(nobody, "SELECT $1 FROM @~") == [("7",)]
    rows(nobody, "PRESIGN UPLOAD @~/other.csv")
    rows(nobody, "REMOVE @~/mine.csv")
    assert rows(nobody, "LIST @~") == []


def test_a_global_grant_covers_every_stage(db):
    rows(db.session(), "GRANT READ ON *.* TO holder")
    assert rows(db.session(user="holder"), "SELECT $1 FROM @s") == [("1",), ("3",)]
    assert error(db.session(user="holder"), "REMOVE @s").code == DENIED


def test_a_stage_grant_through_a_role(db):
    root = db.session()
    rows(root, "CREATE ROLE loaders")
    rows(root, "GRANT READ ON STAGE s TO ROLE loaders")
    rows(root, "GRANT ROLE loaders TO holder")
    assert rows(db.session(user="holder"), "SELECT $1 FROM @s") == [("1",), ("3",)]
    rows(root, "REVOKE READ ON STAGE s FROM ROLE loaders")
    assert error(db.session(user="holder"), "SELECT $1 FROM @s").code == DENIED


def test_the_creator_owns_its_stage(db):
    root = db.session()
    rows(root, "GRANT SUPER ON *.* TO holder")
    holder = db.session(user="holder")
    rows(holder, "CREATE STAGE own")
    db.stages.put("holder", parse_location("@own/a.csv"), b"5\n")
    assert rows(holder, "SELECT $1 FROM @own") == [("5",)]
    assert [r[0] for r in rows(holder, "SHOW STAGES")] == ["own"]  # s is root's, not visible
    assert [r[0] for r in rows(root, "SHOW STAGES")] == ["own", "s"]
    rows(root, "CREATE USER other IDENTIFIED BY 'p'")
    assert error(db.session(user="other"), "LIST @own").code == DENIED
    rows(holder, "REMOVE @own")
    rows(holder, "DROP STAGE own")
    assert "own" not in db.stages.named


def test_grant_on_stage_checks_the_stage_and_the_privileges(db):
    root = db.session()
    e = error(root, "GRANT READ ON STAGE missing TO holder")
    assert (e.code, e.message) == (2501, "stage missing not exists")
    assert error(root, "GRANT SELECT ON STAGE s TO holder").code == 1061  # not a stage privilege
    assert error(root, "GRANT READ ON default.t TO holder").code == 1061  # not a table privilege


def test_show_grants_lists_stage_grants(db):
    root = db.session()
    rows(root, "GRANT READ ON STAGE s TO holder")
    rows(root, "GRANT SELECT ON default.t TO holder")
    assert rows(root, "SHOW GRANTS FOR holder") == [
        ("SELECT", "default.default.t", None, "USER", "holder", "GRANT SELECT ON 'default'.'default'.'t' TO 'holder'@'%'"),
        ("Read", "s", None, "USER", "holder", "GRANT Read ON STAGE s TO 'holder'@'%'"),
    ]
    rows(root, "GRANT WRITE ON STAGE s TO holder")
    assert rows(root, "SHOW GRANTS FOR holder")[-1] == (
        "ALL", "s", None, "USER", "holder", "GRANT ALL ON STAGE s TO 'holder'@'%'")
    rows(root, "REVOKE ALL ON STAGE s FROM holder")
    assert [r[1] for r in rows(root, "SHOW GRANTS FOR holder")] == ["default.default.t"]


def test_stage_grants_survive_snapshot_and_restore(db):
    root = db.session()
    rows(root, "CREATE ROLE r")
    rows(root, "GRANT WRITE ON STAGE s TO ROLE r")
    rows(root, "GRANT READ ON STAGE s TO holder")
    other = engine.Database()
    other.users.restore(db.users.snapshot())
    assert other.users.users["holder"]["stage_grants"] == {"s": db.users.users["holder"]["stage_grants"]["s"]}
    assert other.users.roles["r"]["stage_grants"] == db.users.roles["r"]["stage_grants"]


def test_all_on_everything_saved_before_stage_privileges_still_covers_stages(db):
    rows(db.session(), "GRANT ALL ON *.* TO holder")
    snapshot = db.users.snapshot()
    for record in snapshot["users"]:  # as an older server saved it: no READ / WRITE bits, no stage grants
        record.pop("stage_grants")
        record["grants"] = [[d, t, mask & ~((1 << 18) | (1 << 19))] for d, t, mask in record["grants"]]
    other = engine.Database()
    other.users.restore(snapshot)
    access = other.users.access("holder")
    assert access is not None and access.allows_stage(1 << 18, "s") and access.allows_stage(1 << 19, "s")


def test_kill_needs_super_for_another_users_statement(db):
    result = db.session(user="holder").execute("SELECT number FROM numbers(1000000)", query_id="victim")
    batches = result.batches()
    next(batches)
    e = error(db.session(user="nobody"), "KILL QUERY 'victim'")
    assert e.code == DENIED and "[Super] is required on *.*" in e.message
    assert "victim" in db.processes.running
    rows(db.session(), "GRANT SUPER ON *.* TO nobody")
    rows(db.session(user="nobody"), "KILL QUERY 'victim'")
    with pytest.raises(engine.EngineError) as killed:
        next(batches)
    assert killed.value.code == 1043


def test_kill_of_ones_own_statement_needs_no_grant(db):
    result = db.session(user="nobody").execute("SELECT number FROM numbers(1000000)", query_id="mine")
    batches = result.batches()
    next(batches)
    rows(db.session(user="nobody"), "KILL QUERY 'mine'")
    with pytest.raises(engine.EngineError) as killed:
        next(batches)
    assert killed.value.code == 1043


def test_others_statements_are_hidden_from_system_processes_and_the_query_log(db):
    result = db.session(user="holder").execute("SELECT number FROM numbers(1000000)", query_id="theirs")
    batches = result.batches()
    next(batches)
    assert ("theirs",) not in rows(db.session(user="nobody"), "SELECT id FROM system.processes")
    assert ("theirs",) in rows(db.session(), "SELECT id FROM system.processes")
    rows(db.session(user="holder"), "SELECT 1")
    assert error(db.session(user="nobody"), "SELECT sql_user FROM system.query_log").code == DENIED
    rows(db.session(), "GRANT SELECT ON system.query_log TO nobody")
    logged_for_nobody = rows(db.session(user="nobody"), "SELECT sql_user FROM system.query_log")
    assert logged_for_nobody and all(user == "nobody" for (user,) in logged_for_nobody)
    assert ("holder",) in rows(db.session(), "SELECT sql_user FROM system.query_log")
    del batches, result
