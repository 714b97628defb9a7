"""Server-side sessions (keep_server_session_secs, reuse, expiry) and client-side sessions
(affect + the session echo)."""

from tests.web.harness import DATABEND_HEADERS, Harness
from web.config import ServiceConfig


def keep(h, secs=10, **extra):
    return h.post("SELECT 1", session={"keep_server_session_secs": secs, **extra}).json


def test_kept_session_is_reused_by_session_id_and_by_session_id_key(h):
    first = keep(h, database="default")
    sid = first["session_id"]
    assert sid and first["session"]["keep_server_session_secs"] == 10
    again = h.post("SELECT 1", session_id=sid).json
    assert again["state"] == "Succeeded" and again["session_id"] == sid
    again = h.post("SELECT 1", session={"id": sid}).json
    assert again["state"] == "Succeeded" and again["session_id"] == sid


def test_reusing_a_session_with_a_new_keep_time_answers_the_new_one(h):
    sid = keep(h, secs=10)["session_id"]
    again = h.post("SELECT 1", session_id=sid, session={"keep_server_session_secs": 20}).json
    assert again["session_id"] == sid and again["session"]["keep_server_session_secs"] == 20
    h.clock.advance(15)  # past the old keep time, within the new one
    h.app.sweep()
    assert h.post("SELECT 1", session_id=sid).json["state"] == "Succeeded"


def test_kept_session_keeps_its_settings(h):
    first = h.post("SELECT 1", session={"keep_server_session_secs": 10,
                                        "settings": {"format_null_as_str": "0"}}).json
    h.db.script("n", [("x", "Nullable(Int32)")], [[(None,)]])
    assert h.post("n", session_id=first["session_id"]).json["data"] == [[None]]


def test_unknown_session_id_is_a_failed_answer_1053(h):
    for fmt in ({}, DATABEND_HEADERS):
        a = h.post("SELECT 1", session_id="nope", headers=fmt)
        assert a.status == 200
        assert a.json["state"] == "Failed"
        assert a.json["error"]["code"] == 1053 and "nope" in a.json["error"]["message"]
        assert a.json["id"] == "" and a.json["next_uri"] is None


def test_kept_session_expires_keep_secs_after_its_last_query(h):
    sid = keep(h, secs=5)["session_id"]
    h.clock.advance(4)
    assert h.post("SELECT 1", session_id=sid).json["state"] == "Succeeded"
    h.clock.advance(4)  # 4 s after the last query: still kept
    assert h.post("SELECT 1", session_id=sid).json["state"] == "Succeeded"
    h.clock.advance(5.5)
    h.app.sweep()
    a = h.post("SELECT 1", session_id=sid).json
    assert a["state"] == "Failed" and a["error"]["code"] == 1053
    assert "expired" in a["error"]["message"]


def test_a_session_runs_one_query_at_a_time():
    h = Harness(inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 20)
    first = h.post("slow", session={"keep_server_session_secs": 10},
                   pagination={"wait_time_secs": 0}).json
    busy = h.post("SELECT 1", session_id=first["session_id"]).json
    assert busy["state"] == "Failed" and busy["error"]["code"] == 1006
    h.pump(30)
    assert h.post("SELECT 1", session_id=first["session_id"]).json["state"] == "Succeeded"


def test_one_off_sessions_are_not_kept(h):
    a = h.post("SELECT 1").json
    assert a["session_id"] == "" and len(h.app.sessions) == 0


def test_sessions_are_limited():
    h = Harness(ServiceConfig(max_sessions=2))
    keep(h)
    keep(h)
    a = keep(h)
    assert a["state"] == "Failed" and a["error"]["code"] == 1067
    assert "max_sessions" in a["error"]["message"]


def test_running_queries_are_limited():
    h = Harness(ServiceConfig(max_running_queries=1), inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[]] * 20)
    h.post("slow", pagination={"wait_time_secs": 0})
    a = h.post("SELECT 1", pagination={"wait_time_secs": 0}).json
    assert a["state"] == "Running" and h.app.queries.queued == 1  # waits for the slot
    h.pump(30)
    assert h.app.queries.queued == 0
    assert h.get(a["next_uri"]).json["state"] == "Succeeded"


def test_keep_secs_is_capped():
    h = Harness(ServiceConfig(max_keep_session_secs=3))
    sid = keep(h, secs=1000)["session_id"]
    h.clock.advance(3.5)
    assert h.post("SELECT 1", session_id=sid).json["error"]["code"] == 1053


# -- client-side sessions: these need the engine's SET and USE ----------------------------------

def test_set_gives_change_setting_affect_and_the_new_session(h):
    a = h.post("SET max_threads = 3", session={"settings": {"timezone": "UTC"}}).json
    assert a["state"] == "Succeeded"
    assert a["affect"] == {"type": "ChangeSetting", "key": "max_threads", "value": "3",
                           "is_global": False}
    assert a["session"]["settings"] == {"timezone": "UTC", "max_threads": "3"}
    d = h.post("SET max_threads = 3", headers=DATABEND_HEADERS).json
    assert d["affect"] == {"type": "ChangeSettings", "keys": ["max_threads"], "values": ["3"],
                           "is_globals": [False]}
    assert d["session"]["settings"] == {"max_threads": "3"}


def test_use_gives_use_db_affect_and_the_new_database(h):
    h.post("CREATE DATABASE db2")
    a = h.post("USE db2").json
    assert a["affect"] == {"type": "UseDB", "name": "db2"}
    assert a["session"]["database"] == "db2"
    d = h.post("USE db2", headers=DATABEND_HEADERS).json
    assert d["affect"] == {"type": "UseDB", "name": "db2"}
    assert d["session"]["database"] == "db2"


def test_client_side_session_round_trip(h):
    h.post("CREATE DATABASE db3")
    h.post("CREATE TABLE db3.t (x INT)")
    session = h.post("USE db3", headers=DATABEND_HEADERS).json["session"]
    a = h.post("INSERT INTO t VALUES (1), (2)", session=session, headers=DATABEND_HEADERS).json
    assert a["state"] == "Succeeded"
    assert a["schema"] == [{"name": "number of rows inserted", "type": "UInt64"}]
    assert a["data"] == [["2"]] and a["stats"]["write_progress"]["rows"] == 2
    b = h.post("SELECT x FROM t ORDER BY x", session=a["session"], headers=DATABEND_HEADERS).json
    assert b["data"] == [["1"], ["2"]]


def test_set_in_a_kept_session_persists(h):
    sid = keep(h)["session_id"]
    h.post("SET max_threads = 5", session_id=sid)
    a = h.post("SELECT 1", session_id=sid).json
    assert a["session"]["settings"]["max_threads"] == "5"


def test_bad_setting_value_in_the_request_session_fails_the_query(h):
    a = h.post("SELECT 1", session={"settings": {"max_threads": "lots"}}).json
    assert a["state"] == "Failed" and a["error"]["code"] == 1006
