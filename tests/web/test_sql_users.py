"""Users made with CREATE USER log in over HTTP Basic and meet their privileges."""

import base64

from twisted.internet.task import Clock

from tests.web.harness import DATABEND_HEADERS, Harness, run_now
from web.auth import Authenticator, hash_password


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_sql_user_logs_in_and_is_denied_a_table_without_a_grant():
    logins = Clock()
    h = Harness(authenticator=Authenticator(clock=logins, run_in_thread=run_now))
    for sql in ("CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1)",
                "CREATE USER 'u'@'%' IDENTIFIED BY 'pw'"):
        assert h.post(sql).json["state"] == "Succeeded", sql
    denied = h.post("SELECT * FROM t", auth=basic("u", "pw")).json
    assert denied["state"] == "Failed"
    assert (denied["error"]["code"], denied["error"]["message"]) == (
        1063, "Permission denied: privilege [Select] is required on 'default'.'default'.'t' for "
              "user 'u'@'%' with roles [public]")
    assert h.post("SELECT current_user(), current_role()", auth=basic("u", "pw")).json["data"] == [
        ["'u'@'%'", "public"]]
    wrong = h.post("SELECT 1", auth=basic("u", "nope"))
    assert wrong.status == 401
    logins.advance(60)  # past the failed login's back-off
    assert h.post("GRANT SELECT ON t TO u").json["state"] == "Succeeded"
    assert h.post("SELECT a FROM t", auth=basic("u", "pw")).json["data"] == [["1"]]


def test_changed_password_and_dropped_user_no_longer_log_in():
    logins = Clock()
    h = Harness(authenticator=Authenticator(clock=logins, run_in_thread=run_now))
    assert h.post("CREATE USER u IDENTIFIED BY 'pw'").json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("u", "pw")).json["state"] == "Succeeded"
    assert h.post("ALTER USER u IDENTIFIED BY 'new'").json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("u", "pw")).status == 401  # the remembered login is stale
    logins.advance(60)
    assert h.post("SELECT 1", auth=basic("u", "new")).json["state"] == "Succeeded"
    assert h.post("DROP USER u").json["state"] == "Succeeded"
    gone = h.post("SELECT 1", auth=basic("u", "new"))
    assert gone.status == 401 and b"unknown user or wrong password" in gone.body


def test_a_disabled_user_cannot_log_in():
    h = Harness(authenticator=Authenticator(run_in_thread=run_now))
    assert h.post("CREATE USER u IDENTIFIED BY 'pw'").json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("u", "pw")).json["state"] == "Succeeded"
    assert h.post("ALTER USER u WITH DISABLED = true").json["state"] == "Succeeded"
    refused = h.post("SELECT 1", auth=basic("u", "pw"))
    assert refused.status == 401 and b"user u is disabled. Not allowed to login" in refused.body
    assert h.post("ALTER USER u WITH DISABLED = false").json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("u", "pw")).json["state"] == "Succeeded"


def test_users_file_users_are_administrators_sql_cannot_drop():
    h = Harness(authenticator=Authenticator({"alice": hash_password("a")}, run_in_thread=run_now))
    alice = basic("alice", "a")
    assert h.post("CREATE TABLE t (a INT)", auth=alice).json["state"] == "Succeeded"
    assert h.post("SELECT current_role()", auth=alice).json["data"] == [["account_admin"]]
    dropped = h.post("DROP USER alice", auth=alice).json
    assert (dropped["error"]["code"], dropped["error"]["message"]) == (
        2202, "Built-in user `alice` cannot be dropped")
    assert h.post("CREATE USER bob IDENTIFIED BY 'b'", auth=alice).json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("bob", "b")).json["state"] == "Succeeded"
    assert h.post("SELECT 1", auth=basic("root", "")).status == 401  # not in the users file


def test_session_role_is_the_engine_sessions_and_a_request_may_set_it():
    h = Harness(authenticator=Authenticator(run_in_thread=run_now))
    for sql in ("CREATE USER u IDENTIFIED BY 'pw'", "CREATE ROLE w", "GRANT ROLE w TO u"):
        assert h.post(sql).json["state"] == "Succeeded", sql
    databend = DATABEND_HEADERS  # the format whose answers carry the session
    assert h.post("SELECT 1", headers=databend).json["session"]["role"] == "account_admin"
    user = basic("u", "pw")
    assert h.post("SELECT 1", auth=user, headers=databend).json["session"]["role"] == "public"
    chosen = h.post("SELECT current_role()", auth=user, headers=databend, session={"role": "w"}).json
    assert chosen["data"] == [["w"]] and chosen["session"]["role"] == "w"
    refused = h.post("SELECT 1", auth=user, headers=databend, session={"role": "account_admin"}).json
    assert refused["state"] == "Failed" and refused["error"]["code"] == 2206


def test_verify_answers_a_user_sql_made_with_its_own_roles():
    h = Harness(authenticator=Authenticator(clock=Clock(), run_in_thread=run_now))
    for sql in ("CREATE ROLE analyst",
                "CREATE USER ann IDENTIFIED BY 'pw' WITH DEFAULT_ROLE = 'analyst'",
                "GRANT ROLE analyst TO ann"):
        assert h.post(sql).json["state"] == "Succeeded", sql
    reply = h.request("POST", "/v1/verify", None, headers=DATABEND_HEADERS, auth=basic("ann", "pw"))
    assert reply.status == 200
    assert reply.json["user"] == "ann" and reply.json["default_role"] == "analyst"
    assert reply.json["roles"] == ["analyst", "public"]
    assert h.request("POST", "/v1/verify", None, auth=basic("ann", "wrong")).status == 401
