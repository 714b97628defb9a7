"""Transactions over HTTP: txn_state / need_sticky / internal in the databend session object,
a client-side session's transaction resumed by its next POST, and server-side sessions."""

import json

from engine.core.limits import Limits
from tests.web.harness import DATABEND_HEADERS, Harness, run_now
from tests.web.test_auth import basic
from web.auth import Authenticator, hash_password
from web.config import ServiceConfig


def post(h, sql, session=None, **fields):
    body = {"session": session} if session is not None else {}
    return h.post(sql, headers=DATABEND_HEADERS, **body, **fields).json


def setup_table(h):
    assert post(h, "CREATE TABLE t (a INT)")["state"] == "Succeeded"


def count(h):
    return post(h, "SELECT count(*) FROM t")["data"]


def test_begin_insert_commit_across_three_posts_of_one_client_session(h):
    setup_table(h)
    begun = post(h, "BEGIN", {"database": "default"})
    assert begun["state"] == "Succeeded"
    session = begun["session"]
    assert session["txn_state"] == "Active"
    assert session["need_sticky"] is True and session["need_keep_alive"] is True
    internal = json.loads(session["internal"])
    assert internal["last_query_ids"] == [begun["id"]] and internal["last_node_id"]

    inserted = post(h, "INSERT INTO t VALUES (1), (2)", session)
    assert inserted["state"] == "Succeeded" and inserted["session"]["txn_state"] == "Active"
    assert json.loads(inserted["session"]["internal"])["last_query_ids"] == [inserted["id"]]
    assert count(h) == [["0"]]  # another session sees nothing yet
    seen = post(h, "SELECT count(*) FROM t", inserted["session"])
    assert seen["data"] == [["2"]]  # its own writes
    assert post(h, "COMMIT", inserted["session"])["error"]["code"] == 4003  # resumed already

    committed = post(h, "COMMIT", seen["session"])
    assert committed["state"] == "Succeeded"
    assert committed["session"]["txn_state"] == "AutoCommit"
    assert committed["session"]["need_sticky"] is False
    assert count(h) == [["2"]]


def test_the_clients_internal_keys_are_kept_beside_the_servers():
    h = Harness()
    begun = post(h, "BEGIN", {"internal": json.dumps({"future_key": [["x", "1"]]})})
    internal = json.loads(begun["session"]["internal"])
    assert internal["future_key"] == [["x", "1"]] and internal["last_query_ids"] == [begun["id"]]


def test_rollback_over_http_discards_the_inserts(h):
    setup_table(h)
    session = post(h, "BEGIN")["session"]
    session = post(h, "INSERT INTO t VALUES (1)", session)["session"]
    rolled = post(h, "ROLLBACK", session)
    assert rolled["session"]["txn_state"] == "AutoCommit"
    assert count(h) == [["0"]]


def test_a_failed_statement_answers_txn_state_fail_and_later_ones_4002(h):
    setup_table(h)
    session = post(h, "BEGIN")["session"]
    session = post(h, "INSERT INTO t VALUES (1)", session)["session"]
    failed = post(h, "SELECT nope FROM t", session)
    assert failed["state"] == "Failed" and failed["error"]["code"] == 1065
    assert failed["session"]["txn_state"] == "Fail"
    assert failed["session"]["need_sticky"] is False
    refused = post(h, "SELECT 1", failed["session"])
    assert refused["error"] == {
        "code": 4002,
        "message": "Current transaction is aborted, commands ignored until end of transaction block"}
    assert refused["session"]["txn_state"] == "Fail"
    ended = post(h, "COMMIT", refused["session"])
    assert ended["state"] == "Succeeded" and ended["session"]["txn_state"] == "AutoCommit"
    assert count(h) == [["0"]]


def test_a_transaction_not_on_this_server_fails_to_resume(h):
    session = post(h, "BEGIN")["session"]
    internal = json.loads(session["internal"])
    gone = dict(session, internal=json.dumps({**internal, "last_query_ids": ["unknown"]}))
    a = post(h, "SELECT 1", gone)
    assert a["state"] == "Failed" and a["error"]["code"] == 4003
    assert a["error"]["message"] == "Transaction timeout: last_query_id unknown not found on this server"
    assert a["session"]["txn_state"] == "Fail"  # the client's transaction is lost
    other_server = dict(session, internal=json.dumps({**internal, "last_node_id": "elsewhere"}))
    assert post(h, "SELECT 1", other_server)["error"]["code"] == 5111
    no_internal = {k: v for k, v in session.items() if k != "internal"}
    assert post(h, "SELECT 1", no_internal)["error"]["code"] == 5112
    no_ids = dict(session, internal=json.dumps({"last_node_id": internal["last_node_id"]}))
    assert post(h, "SELECT 1", no_ids)["error"]["code"] == 5112
    # the kept transaction is still there for the right session
    assert post(h, "SELECT 1", session)["session"]["txn_state"] == "Active"


def test_a_transaction_resumes_once_and_only_for_its_user():
    h = Harness(authenticator=Authenticator({"alice": hash_password("a"), "bob": hash_password("b")},
                                            run_in_thread=run_now))
    alice, bob = basic("alice", "a"), basic("bob", "b")
    session = h.post("BEGIN", headers=DATABEND_HEADERS, auth=alice).json["session"]
    stranger = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bob, session=session).json
    assert stranger["error"]["code"] == 4003
    mine = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=alice, session=session).json
    assert mine["state"] == "Succeeded"
    again = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=alice, session=session).json
    assert again["error"]["code"] == 4003  # that session resumed already (its next one goes on)


def test_a_kept_transaction_expires_with_the_session_limit():
    h = Harness(ServiceConfig(max_keep_session_secs=30))
    session = post(h, "BEGIN")["session"]
    h.clock.advance(29)
    session = post(h, "SELECT 1", session)["session"]
    assert session["txn_state"] == "Active"
    h.clock.advance(31)
    h.app.sweep()
    assert len(h.app.transactions) == 0
    assert post(h, "SELECT 1", session)["error"]["code"] == 4003


def test_a_session_sent_with_txn_state_fail_refuses_statements(h):
    a = post(h, "SELECT 1", {"txn_state": "Fail"})
    assert a["error"]["code"] == 4002 and a["session"]["txn_state"] == "Fail"
    ended = post(h, "ROLLBACK", {"txn_state": "Fail"})
    assert ended["state"] == "Succeeded" and ended["session"]["txn_state"] == "AutoCommit"


def test_an_unknown_txn_state_is_a_bad_request(h):
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS, session={"txn_state": "Open"})
    assert reply.status == 400
    assert "`session.txn_state` must be AutoCommit, Active or Fail" in reply.json["error"]["message"]


def test_a_server_side_session_holds_its_transaction_and_is_kept_while_it_is_open(h):
    setup_table(h)
    first = h.post("BEGIN", session={"keep_server_session_secs": 1}).json
    sid = first["session_id"]
    assert h.post("INSERT INTO t VALUES (5)", session_id=sid).json["state"] == "Succeeded"
    h.clock.advance(10)  # past keep_server_session_secs: the open transaction keeps it
    h.app.sweep()
    assert count(h) == [["0"]]
    assert h.post("COMMIT", session_id=sid).json["state"] == "Succeeded"
    assert count(h) == [["1"]]
    h.clock.advance(2)  # no transaction any more: kept its own keep time only
    h.app.sweep()
    assert h.post("SELECT 1", session_id=sid).json["error"]["code"] == 1053


def test_a_killed_statement_fails_the_transaction():
    h = Harness(inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 20)
    session = post(h, "BEGIN")["session"]
    running = post(h, "slow", session, pagination={"wait_time_secs": 0})
    assert running["state"] == "Running" and running["session"]["txn_state"] == "Active"
    h.get(running["kill_uri"], headers=DATABEND_HEADERS)
    stats = h.get(running["stats_uri"], headers=DATABEND_HEADERS).json
    assert stats["state"] == "Failed" and stats["session"]["txn_state"] == "Fail"
    assert len(h.app.transactions) == 0  # nothing kept: the client's next request says Fail


def test_the_spec_format_runs_transactions_in_server_side_sessions_only(h):
    one_off = h.post("BEGIN").json  # its session ends with the request: nothing to keep
    assert one_off["state"] == "Succeeded"
    assert one_off["session"] == {"database": "default", "keep_server_session_secs": 0, "settings": {}}
    assert len(h.app.transactions) == 0


def test_two_updates_of_one_table_from_two_requests_interleave_and_both_apply():
    h = Harness(inline_steps=1)
    h.db.real.limits = Limits(step_rows=10)  # UPDATEs of 100 rows take many steps
    setup = ["CREATE TABLE w (k INT, v INT)", "INSERT INTO w SELECT number, 0 FROM numbers(100)"]
    for sql in setup:
        assert post(h, sql)["state"] == "Succeeded"
    low = post(h, "UPDATE w SET v = 1 WHERE k < 50", pagination={"wait_time_secs": 0})
    high = post(h, "UPDATE w SET v = 2 WHERE k >= 50", pagination={"wait_time_secs": 0})
    assert low["state"] == high["state"] == "Running"  # both under way at once
    h.pump(200)
    for started in (low, high):
        page = h.get(started["next_uri"], headers=DATABEND_HEADERS).json
        assert page["state"] == "Succeeded" and page["data"] == [["50"]]
    assert post(h, "SELECT v, count(*) FROM w GROUP BY v ORDER BY v")["data"] == [["1", "50"], ["2", "50"]]
