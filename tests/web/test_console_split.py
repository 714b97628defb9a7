"""POST /v1/console/split: the console's script runner asks the server where each statement
of a script is (the grammar's cut), with the same credentials as its queries."""

from web.console_split import MAX_SCRIPT_STATEMENTS


def split(h, body, **kwargs):
    return h.request("POST", "/v1/console/split", body, **kwargs)


def test_statements_of_a_script_as_utf16_offsets(h):
    script = "SELECT '😀;' AS e;\nINSERT INTO t VALUES (1);  SELEC oops; SELECT 3"
    reply = split(h, {"sql": script})
    assert reply.status == 200 and reply.header("content-type") == b"application/json"
    statements = reply.json["statements"]
    utf16 = script.encode("utf-16-le")

    def text(entry):  # what JavaScript's script.slice(start, end) gives
        return utf16[2 * entry["start"]:2 * entry["end"]].decode("utf-16-le")

    assert [(text(s), s["complete"]) for s in statements] == [
        ("SELECT '😀;' AS e", True), ("INSERT INTO t VALUES (1)", True),
        ("SELEC oops; SELECT 3", False)]
    assert [s["params"] for s in statements] == [[], [], []]
    reply = split(h, {"sql": "SELECT * FROM t WHERE a = :a OR b = :b"})
    assert reply.json["statements"][0]["params"] == ["a", "b"]


def test_an_empty_script_has_no_statements(h):
    assert split(h, {"sql": " -- nothing\n;"}).json == {"statements": []}


def test_credentials_are_required(h):
    assert split(h, {"sql": "SELECT 1"}, auth=None).status == 401


def test_a_body_without_sql_is_400(h):
    for body in ({}, {"sql": 1}, [1], b"not json"):
        reply = split(h, body)
        assert reply.status == 400, body


def test_too_many_statements_is_400_at_the_limit(h):
    assert len(split(h, {"sql": "SELECT 1;" * MAX_SCRIPT_STATEMENTS}).json["statements"]) \
        == MAX_SCRIPT_STATEMENTS
    reply = split(h, {"sql": "SELECT 1;" * (MAX_SCRIPT_STATEMENTS + 1)})
    assert reply.status == 400
    assert f"more than {MAX_SCRIPT_STATEMENTS} statements" in reply.body.decode()
