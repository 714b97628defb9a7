"""Every field of a QueryResponse in both wire formats, the format rule, headers and paths."""

import json

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness
from web.config import ServiceConfig


def test_spec_format_select_1_has_every_field(h):
    reply = h.post("SELECT 1")
    assert reply.status == 200
    assert reply.header("content-type") == b"application/json"
    a = reply.json
    qid = a["id"]
    assert qid and reply.header("x-databend-query-id") == qid.encode()
    assert a["state"] == "Succeeded"
    assert a["error"] is None
    assert a["data"] == [["1"]]
    assert a["schema"] == {"fields": [{"name": "1", "data_type": {"type": "UInt8"},
                                      "nullable": False, "default_expr": None}],
                           "metadata": {}}
    assert a["affect"] is None
    assert a["session"] == {"database": "default", "keep_server_session_secs": 0, "settings": {}}
    assert a["session_id"] == ""
    stats = a["stats"]
    assert set(stats) == {"running_time_ms", "scan_progress", "write_progress", "result_progress"}
    assert stats["result_progress"]["rows"] == 1
    assert set(stats["write_progress"]) == {"rows", "bytes"}
    assert a["stats_uri"] == f"/v1/query/{qid}"
    assert a["kill_uri"] == f"/v1/query/{qid}/kill"
    assert a["final_uri"] == f"/v1/query/{qid}/final"
    assert a["next_uri"] is None  # the spec format ends paging with null
    assert reply.header("x-databend-version") == b"1.2.934"


def test_databend_format_select_1_has_every_field_and_a_final_hop(h):
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS)
    a = reply.json
    qid = a["id"]
    assert a["schema"] == [{"name": "1", "type": "UInt8"}]
    assert a["data"] == [["1"]]
    assert a["state"] == "Succeeded"
    assert a["error"] is None and a["warnings"] == [] and a["has_result_set"] is True
    internal = json.loads(a["session"].pop("internal"))
    # as Databend: this server's id and the query's (the next request's last_query_id())
    assert internal == {"last_node_id": a["node_id"], "last_query_ids": [qid]}
    assert a["node_id"]
    assert a["session"] == {"catalog": "default", "database": "default",
                            "role": "account_admin", "settings": {},
                            "txn_state": "AutoCommit", "need_sticky": False,
                            "need_keep_alive": False}
    assert a["result_timeout_secs"] == 60
    assert a["settings"] == {"timezone": "UTC", "geometry_output_format": "GeoJSON",
                             "binary_output_format": "hex", "http_json_result_mode": "display"}
    assert list(a)[list(a).index("result_timeout_secs") + 1] == "settings"  # Databend's order
    assert set(a["stats"]) == {"scan_progress", "write_progress", "result_progress",
                               "total_scan", "spill_progress", "running_time_ms"}
    assert a["next_uri"] == f"/v1/query/{qid}/final"
    final = h.get(a["next_uri"], headers=DATABEND_HEADERS)
    assert final.status == 200
    f = final.json
    assert f["next_uri"] is None and f["data"] == [] and f["session"] is None
    assert f["schema"] == a["schema"] and f["state"] == "Succeeded"
    assert h.get(a["next_uri"], headers=DATABEND_HEADERS).json["next_uri"] is None  # repeatable


def test_databend_answers_name_the_zone_their_timestamps_are_written_in(h):
    """Drivers read Timestamp text in the answer's settings.timezone (UTC when absent): every
    answer, pages and /final included, names the session zone the rows were rendered in."""
    zone = {"settings": {"timezone": "America/New_York"}}
    a = h.post("SELECT to_timestamp(0)", headers=DATABEND_HEADERS, session=zone).json
    assert a["data"] == [["1969-12-31 19:00:00.000000"]]
    assert a["settings"]["timezone"] == "America/New_York"
    final = h.get(a["next_uri"], headers=DATABEND_HEADERS).json
    assert final["settings"]["timezone"] == "America/New_York"
    # SET in the session: the next statement's answer names the new zone
    s = h.post("SET timezone = 'Asia/Shanghai'", headers=DATABEND_HEADERS).json["session"]
    b = h.post("SELECT to_timestamp(0)", headers=DATABEND_HEADERS, session=s).json
    assert b["settings"]["timezone"] == "Asia/Shanghai"
    assert b["data"] == [["1970-01-01 08:00:00.000000"]]
    # a statement that fails before it starts names UTC (it carries no rows)
    bad = h.post("SELEC 1", headers=DATABEND_HEADERS, session=zone).json
    assert bad["state"] == "Failed" and bad["settings"]["timezone"] in ("UTC", "America/New_York")


def test_any_x_databend_header_selects_the_databend_format(h):
    assert isinstance(h.post("SELECT 1", headers={"x-databend-query-id": "abc"}).json["schema"],
                      list)
    assert isinstance(h.post("SELECT 1", headers={"X-Other": "1"}).json["schema"], dict)


@pytest.mark.parametrize("option, headers, expect", [
    ("spec", DATABEND_HEADERS, dict),
    ("databend", {}, list),
    ("auto", {}, dict),
])
def test_wire_format_option_overrides_the_rule(option, headers, expect):
    h = Harness(ServiceConfig(wire_format=option))
    assert isinstance(h.post("SELECT 1", headers=headers).json["schema"], expect)


@pytest.mark.parametrize("path", ["/v1/query", "/v1/query/", "//v1/query", "/v1//query//"])
def test_post_paths_with_trailing_and_repeated_slashes(h, path):
    reply = h.post("SELECT 1", path=path)
    assert reply.status == 200 and reply.json["data"] == [["1"]]


def test_page_uris_with_repeated_slashes(h):
    a = h.post("SELECT 1").json
    assert h.get("/" + a["stats_uri"]).status == 200


def test_client_query_id_is_adopted(h):
    reply = h.post("SELECT 1", headers={"X-DATABEND-QUERY-ID": "my-query.1"})
    assert reply.json["id"] == "my-query.1"
    assert reply.json["stats_uri"] == "/v1/query/my-query.1"


def test_unusable_client_query_id_is_replaced(h):
    reply = h.post("SELECT 1", headers={"X-DATABEND-QUERY-ID": "a/b c"})
    assert reply.json["id"] != "a/b c" and "/" not in reply.json["id"]


def test_post_reusing_a_live_query_id_answers_that_querys_page_0(h):
    headers = {"X-DATABEND-QUERY-ID": "q1"}
    first = h.post("SELECT 1", headers=headers).json
    again = h.post("SELECT 2", headers=headers).json
    assert again["id"] == "q1" and again["data"] == first["data"] == [["1"]]


def test_post_reusing_the_id_of_a_closed_query_starts_a_new_query_under_that_id(h):
    headers = {"X-DATABEND-QUERY-ID": "q1"}
    first = h.post("SELECT 1", headers=headers).json
    assert h.get(first["final_uri"], headers=headers).status == 200
    again = h.post("SELECT 2", headers=headers).json
    assert again["id"] == "q1" and again["data"] == [["2"]]


def test_post_reusing_the_id_of_another_users_query_gets_a_fresh_id():
    from tests.web.harness import run_now
    from tests.web.test_auth import basic
    from web.auth import Authenticator, hash_password

    h = Harness(authenticator=Authenticator({"alice": hash_password("a"),
                                             "bob": hash_password("b")}, run_in_thread=run_now))
    headers = {"X-DATABEND-QUERY-ID": "q1"}
    alice = h.post("SELECT * FROM numbers(3)", headers=headers, auth=basic("alice", "a"),
                   pagination={"max_rows_per_page": 1}).json
    bob = h.post("SELECT 2", headers=headers, auth=basic("bob", "b")).json
    assert bob["id"] != "q1" and bob["data"] == [["2"]]
    page = h.get(alice["next_uri"], headers=headers, auth=basic("alice", "a")).json
    assert page["id"] == "q1" and page["data"] == [["1"]]  # alice's query is untouched


def test_unknown_keys_are_ignored(h):
    reply = h.post("SELECT 1", string_fields=True, params=None, stage_attachment=None,
                   session={"internal": "{}", "need_sticky": False, "catalog": "default"})
    assert reply.status == 200 and reply.json["state"] == "Succeeded"


def test_databend_session_echo_keeps_opaque_keys(h):
    a = h.post("SELECT 1", headers=DATABEND_HEADERS,
               session={"database": "default", "internal": "{\"x\":1}",
                        "secondary_roles": ["r"]}).json
    assert json.loads(a["session"]["internal"])["x"] == 1  # kept beside the server's keys
    assert a["session"]["secondary_roles"] == ["r"]
    assert a["session"]["database"] == "default"


def test_stats_uri_answers_at_once_with_empty_data(h):
    a = h.post("SELECT 1").json
    stats = h.get(a["stats_uri"])
    assert stats.status == 200
    assert stats.json["data"] == [] and stats.json["id"] == a["id"]
    assert stats.json["state"] == "Succeeded"


def test_running_time_stops_when_the_query_ends():
    h = Harness(inline_steps=1)
    h.db.script("slow", [("n", "UInt64")], [[(1,)], [], [(2,)]])
    post = h.start("POST", "/v1/query", {"sql": "slow", "pagination": {"wait_time_secs": 5}})
    assert not post.done  # one step inline, then it waits for the cooperator
    h.clock.advance(0.25)
    h.pump(5)
    a = post.reply().json
    assert a["state"] == "Succeeded" and a["data"] == [["1"], ["2"]]
    assert a["stats"]["running_time_ms"] == pytest.approx(250.0)
    h.clock.advance(10)
    stats = h.get(a["stats_uri"]).json["stats"]
    assert stats["running_time_ms"] == pytest.approx(250.0)


def test_login_answers_a_semver_version(h):
    reply = h.request("POST", "/v1/session/login?disable_session_token=true",
                      {"database": "default"}, headers=DATABEND_HEADERS)
    assert reply.status == 200
    assert reply.json["version"] == "1.2.934"


def test_verify_names_the_signed_in_user_as_databend_go_ping_reads_it(h):
    reply = h.request("POST", "/v1/verify", None, headers=DATABEND_HEADERS)
    assert reply.status == 200
    assert reply.json == {"tenant": "", "user": "root", "auth_type": "password",
                          "is_configured": True, "default_role": "account_admin",
                          "default_warehouse": "", "roles": reply.json["roles"]}
    assert "account_admin" in reply.json["roles"]


def test_health_is_cheap_and_plain(h):
    reply = h.request("GET", "/health", auth=None)
    assert reply.status == 200 and reply.body == b"ok"


def test_seed_schema_strips_nullable_into_the_flag(h):
    h.db.script("n", [("x", "Nullable(Int32)"), ("y", "String")], [[(None, "a")]])
    a = h.post("n").json
    assert a["schema"]["fields"][0]["data_type"] == {"type": "Int32"}
    assert a["schema"]["fields"][0]["nullable"] is True
    assert a["schema"]["fields"][1]["nullable"] is False


def test_null_is_a_string_in_spec_and_json_null_in_databend(h):
    h.db.script("n", [("x", "Nullable(Int32)")], [[(None,), (1,)]])
    assert h.post("n").json["data"] == [["NULL"], ["1"]]
    assert h.post("n", headers=DATABEND_HEADERS).json["data"] == [[None], ["1"]]


def test_format_null_as_str_setting_decides(h):
    h.db.script("n", [("x", "Nullable(Int32)")], [[(None,)]])
    spec = h.post("n", session={"settings": {"format_null_as_str": "0"}}).json
    assert spec["data"] == [[None]]
    databend = h.post("n", headers=DATABEND_HEADERS,
                      session={"settings": {"format_null_as_str": "1"}}).json
    assert databend["data"] == [["NULL"]]


def test_databend_py_gets_null_as_text_unless_its_session_says_otherwise(h):
    # databend-py converts cells by type with int()/float() and knows only the text NULL
    h.db.script("n", [("x", "Nullable(Int32)")], [[(None,)]])
    py = {**DATABEND_HEADERS, "User-Agent": "databend-py/0.6.2"}
    assert h.post("n", headers=py).json["data"] == [["NULL"]]
    explicit = h.post("n", headers=py, session={"settings": {"format_null_as_str": "0"}}).json
    assert explicit["data"] == [[None]]
    other = {**DATABEND_HEADERS, "User-Agent": "databend-driver-python/0.34"}
    assert h.post("n", headers=other).json["data"] == [[None]]


def test_heartbeat_keeps_queries_alive_and_lists_the_gone_ones(h):
    a = h.post("SELECT 1").json
    h.clock.advance(50)
    reply = h.request("POST", "/v1/session/heartbeat",
                      {"node_to_queries": {"": [a["id"], "unknown"]}}, headers=DATABEND_HEADERS)
    assert reply.status == 200 and reply.json == {"queries_to_remove": ["unknown"]}
    h.clock.advance(50)
    h.app.sweep()
    assert h.get(a["stats_uri"]).status == 200  # 100 s old, but heartbeated at 50 s


def test_logout_answers_ok(h):
    assert h.request("POST", "/v1/session/logout", {}).status == 200


JSON, TEXT = b"application/json", b"text/plain; charset=utf-8"


@pytest.mark.parametrize("method, path, body, spec_type, databend_type", [
    ("POST", "/v1/query", {"sql": "SELECT 1"}, JSON, JSON),
    ("GET", "{stats}", None, JSON, JSON),
    ("GET", "{stats}/page/0", None, JSON, JSON),
    ("GET", "{stats}/kill", None, TEXT, TEXT),  # an empty body
    ("POST", "{stats}/final", None, JSON, JSON),
    ("POST", "/v1/session/login", {}, JSON, JSON),
    ("POST", "/v1/session/heartbeat", {}, JSON, JSON),
    ("GET", "/health", None, TEXT, TEXT),
    ("POST", "/v1/query", b"{", TEXT, JSON),  # 400
    ("GET", "/nowhere", None, TEXT, JSON),  # 404
    ("GET", "/v1/query", None, TEXT, JSON),  # 405
    ("GET", "{stats}/page/9", None, TEXT, JSON),  # 404
])
def test_content_type_of_every_answer(h, method, path, body, spec_type, databend_type):
    for headers, expected in (({}, spec_type), (DATABEND_HEADERS, databend_type)):
        stats = h.post("SELECT 1").json["stats_uri"]
        reply = h.request(method, path.format(stats=stats), body, headers=headers)
        assert reply.header("content-type") == expected, reply.status
        assert reply.header("x-databend-version") == b"1.2.934"
