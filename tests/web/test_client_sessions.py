"""Client sessions as Databend keeps them: the id in a cookie or header, the login's checks
and tokens, Bearer session tokens, refresh and logout, and what `internal` carries."""

import base64
import json

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness
from web.tokens import PREFIX

COOKIE_ON = {**DATABEND_HEADERS, "Cookie": "cookie_enabled=true"}


@pytest.fixture
def h():
    return Harness()


def cookies(reply) -> dict:
    jar = {}
    for raw in reply.headers.getRawHeaders(b"set-cookie") or []:
        name, _, rest = raw.decode().partition("=")
        jar[name] = rest.split(";")[0]
    return jar


def login(h, body=None, query="", headers=None, auth=None):
    kwargs = {} if auth is None else {"auth": auth}
    return h.request("POST", "/v1/session/login" + query, body or {},
                     headers=headers or {"Cookie": "cookie_enabled=true"}, **kwargs)


def bearer(token):
    return "Bearer " + token


def test_a_cookie_session_is_created_once_and_named_on_every_answer(h):
    first = h.post("SELECT 1", headers=COOKIE_ON)
    jar = cookies(first)
    session_id = jar["session_id"]
    assert int(jar["last_refresh_time"]) >= 0
    assert first.header("x-databend-session-id") == session_id.encode()
    assert first.json["session_id"] == session_id
    again = h.post("SELECT 1", headers={**DATABEND_HEADERS,
                                        "Cookie": f"cookie_enabled=true; session_id={session_id}"})
    assert again.header("x-databend-session-id") == session_id.encode()
    assert cookies(again) == {}  # the client keeps the one it has
    assert again.json["session_id"] == session_id


def test_without_cookies_or_caps_there_is_no_client_session(h):
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS)
    assert reply.header("x-databend-session-id") is None and cookies(reply) == {}
    assert reply.json["session_id"] == ""


def test_a_header_session_round_trips_in_x_databend_session(h):
    caps = {**DATABEND_HEADERS, "X-DATABEND-CLIENT-CAPS": "session_header"}
    first = h.post("SELECT 1", headers=caps)
    value = first.header("x-databend-session")
    doc = json.loads(base64.urlsafe_b64decode(value))
    assert doc["id"] == first.header("x-databend-session-id").decode()
    again = h.post("SELECT 1", headers={**caps, "X-DATABEND-SESSION": value.decode()})
    assert again.header("x-databend-session-id").decode() == doc["id"]
    plain_json = h.post("SELECT 1", headers={**caps, "X-DATABEND-SESSION": json.dumps(
        {"id": "abc", "last_refresh_time": 1})})
    assert plain_json.header("x-databend-session-id") == b"abc"


def test_a_malformed_session_header_is_400(h):
    caps = {**DATABEND_HEADERS, "X-DATABEND-CLIENT-CAPS": "session_header",
            "X-DATABEND-SESSION": "%%%"}
    reply = h.post("SELECT 1", headers=caps)
    assert reply.status == 400 and b"X-DATABEND-SESSION" in reply.body


def test_login_names_the_session_and_advertises_what_it_serves(h):
    reply = login(h, query="?disable_session_token=true")
    answer = reply.json
    assert answer["session_id"] == cookies(reply)["session_id"]
    assert reply.header("x-databend-session-id") == answer["session_id"].encode()
    assert "tokens" not in answer
    assert answer["server_max_arrow_result_version"] == 3  # pyarrow is a test extra
    assert answer["server_arrow_features"] == {"decimal64": True}
    assert answer["version"].count(".") == 2


@pytest.mark.parametrize("body, code", [
    ({"database": "nowhere"}, 1003),
    ({"role": "no_such_role"}, 2206),
    ({"settings": {"max_threads": "many"}}, None),
])
def test_login_checks_database_role_and_settings_as_databend(h, body, code):
    reply = login(h, body, "?disable_session_token=true")
    assert reply.status == 400
    error = json.loads(reply.body)["error"]
    if code is not None:
        assert error["code"] == code
    assert error["message"]


def test_login_accepts_an_existing_database(h):
    h.post("CREATE DATABASE sales", headers=DATABEND_HEADERS)
    assert login(h, {"database": "sales"}).status == 200


def test_session_tokens_authenticate_queries_and_refresh_renews_them(h):
    answer = login(h).json
    tokens = answer["tokens"]
    assert tokens["session_token"].startswith(PREFIX + "s-")
    assert tokens["refresh_token"].startswith(PREFIX + "r-")
    assert tokens["session_token_ttl_in_secs"] == 3600
    reply = h.post("SELECT current_user()", headers=DATABEND_HEADERS,
                   auth=bearer(tokens["session_token"]))
    assert reply.json["data"] == [["'root'@'%'"]]
    # the token carries its session: the answer names it without any cookie
    assert reply.json["session_id"] == answer["session_id"]
    # a refresh token is not a session token
    wrong = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(tokens["refresh_token"]))
    assert wrong.status == 401 and json.loads(wrong.body)["error"]["code"] == 5100
    renewed = h.request("POST", "/v1/session/refresh",
                        {"session_token": tokens["session_token"]},
                        headers=DATABEND_HEADERS, auth=bearer(tokens["refresh_token"]))
    assert renewed.status == 200
    pair = renewed.json["tokens"]
    assert renewed.json["session_token"] == pair["session_token"]  # bendsql reads it here
    assert h.post("SELECT 1", headers=DATABEND_HEADERS,
                  auth=bearer(pair["session_token"])).json["data"] == [["1"]]
    # the old pair is revoked: 5103 makes bendsql refresh, 5104 log in again
    old = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(tokens["session_token"]))
    assert old.status == 401 and json.loads(old.body)["error"]["code"] == 5103
    again = h.request("POST", "/v1/session/refresh", {}, headers=DATABEND_HEADERS,
                      auth=bearer(tokens["refresh_token"]))
    assert again.status == 401 and json.loads(again.body)["error"]["code"] == 5104


def test_a_session_token_expires_after_a_quarter_of_the_session_timeout(h):
    tokens = login(h).json["tokens"]
    assert h.post("SELECT 1", headers=DATABEND_HEADERS,
                  auth=bearer(tokens["session_token"])).status == 200  # checked once, kept
    h.clock.advance(3601)
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(tokens["session_token"]))
    assert reply.status == 401 and json.loads(reply.body)["error"]["code"] == 5101


def test_a_forged_token_is_refused(h):
    tokens = login(h).json["tokens"]
    kind, body = tokens["session_token"][:len(PREFIX) + 2], tokens["session_token"][len(PREFIX) + 2:]
    claim = json.loads(base64.b64decode(body))
    claim["user"] = "admin"
    forged = kind + base64.b64encode(json.dumps(claim).encode()).decode()
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(forged))
    assert reply.status == 401 and json.loads(reply.body)["error"]["code"] == 5103


def test_logout_revokes_the_session_token(h):
    tokens = login(h).json["tokens"]
    out = h.request("POST", "/v1/session/logout", {}, headers=DATABEND_HEADERS,
                    auth=bearer(tokens["session_token"]))
    assert out.status == 200 and out.json == {"error": None}
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(tokens["session_token"]))
    assert reply.status == 401


def test_a_dropped_users_token_stops_working(h):
    h.post("CREATE USER ann IDENTIFIED BY 'pw'", headers=DATABEND_HEADERS)
    ann = "Basic " + base64.b64encode(b"ann:pw").decode()
    tokens = login(h, auth=ann).json["tokens"]
    assert h.post("SELECT 1", headers=DATABEND_HEADERS,
                  auth=bearer(tokens["session_token"])).status == 200
    h.post("DROP USER ann", headers=DATABEND_HEADERS)
    reply = h.post("SELECT 1", headers=DATABEND_HEADERS, auth=bearer(tokens["session_token"]))
    assert reply.status == 401 and json.loads(reply.body)["error"]["code"] == 5100


def test_last_query_id_is_the_previous_request_of_the_session(h):
    first = h.post("SELECT 1", headers=DATABEND_HEADERS).json
    second = h.post("SELECT last_query_id()", headers=DATABEND_HEADERS,
                    session=first["session"]).json
    assert second["data"] == [[first["id"]]]


def test_the_answer_names_this_server_as_its_node(h):
    a = h.post("SELECT 1", headers=DATABEND_HEADERS).json
    assert a["node_id"] and json.loads(a["session"]["internal"])["last_node_id"] == a["node_id"]


# -- what the client session keeps between requests ---------------------------------------------

class Client:
    """A cookie session as bendsql keeps it: the cookie jar and the last session answered."""

    def __init__(self, h, auth=None):
        self.h = h
        self.auth = auth
        self.cookie = "cookie_enabled=true"
        self.session = None

    def post(self, sql):
        kwargs = {} if self.auth is None else {"auth": self.auth}
        fields = {} if self.session is None else {"session": self.session}
        reply = self.h.post(sql, headers={**DATABEND_HEADERS, "Cookie": self.cookie},
                            **kwargs, **fields)
        jar = cookies(reply)
        if "session_id" in jar:
            self.cookie += f"; session_id={jar['session_id']}"
        answer = reply.json
        if answer.get("session"):
            self.session = answer["session"]
        return answer

    def logout(self):
        return self.h.request("POST", "/v1/session/logout", {},
                              headers={**DATABEND_HEADERS, "Cookie": self.cookie})


def test_temporary_tables_live_in_their_session_only_and_go_at_logout(h):
    one, two = Client(h), Client(h)
    assert one.post("CREATE TEMP TABLE scratch (x INT)")["state"] == "Succeeded"
    assert one.session["need_sticky"] and one.session["need_keep_alive"]
    assert json.loads(one.session["internal"])["has_temp_table"] is True
    one.post("INSERT INTO scratch VALUES (1), (2)")
    assert one.post("SELECT sum(x) FROM scratch")["data"] == [["3"]]
    other = two.post("SELECT * FROM scratch")
    assert other["state"] == "Failed" and other["error"]["code"] == 1025
    assert one.logout().status == 200
    gone = one.post("SELECT * FROM scratch")
    assert gone["state"] == "Failed" and gone["error"]["code"] == 5110


def test_temporary_tables_expire_after_the_session_timeout_unless_heartbeats_keep_them(h):
    one = Client(h)
    one.post("CREATE TEMP TABLE scratch (x INT)")
    for _ in range(3):  # a heartbeat every hour keeps the session for longer than its timeout
        h.clock.advance(3600)
        h.request("POST", "/v1/session/heartbeat", {"node_to_queries": {}},
                  headers={**DATABEND_HEADERS, "Cookie": one.cookie})
    assert one.post("SELECT count(*) FROM scratch")["data"] == [["0"]]
    h.clock.advance(14401)
    h.app.sweep()
    expired = one.post("SELECT * FROM scratch")
    assert expired["error"]["code"] == 5110 and "expired after idle" in expired["error"]["message"]


def test_a_session_from_another_server_has_lost_its_temporary_tables(h):
    one = Client(h)
    one.post("CREATE TEMP TABLE scratch (x INT)")
    internal = json.loads(one.session["internal"])
    internal["last_node_id"] = "another-server"
    one.session["internal"] = json.dumps(internal)
    lost = one.post("SELECT * FROM scratch")
    assert lost["error"]["code"] == 5111


def test_session_variables_travel_in_internal(h):
    one = Client(h)
    one.post("SET VARIABLE (a, b) = (41, 'yy')")
    assert one.post("SELECT $a + 1, getvariable('b'), getvariable('c')")["data"] == [
        ["42", "yy", None]]
    one.post("UNSET VARIABLE a")
    assert one.post("SELECT getvariable('a')")["data"] == [[None]]
    fresh = Client(h)  # variables belong to the session that set them
    assert fresh.post("SELECT getvariable('b')")["data"] == [[None]]


def test_result_scan_reads_the_previous_querys_result_across_requests(h):
    one = Client(h)
    one.post("SET enable_query_result_cache = 1")
    one.post("SET query_result_cache_min_execute_secs = 0")
    one.post("SELECT number AS a FROM numbers(3)")
    assert one.post("SELECT * FROM RESULT_SCAN(last_query_id()) ORDER BY a")["data"] == [
        ["0"], ["1"], ["2"]]
