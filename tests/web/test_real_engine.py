"""The service over the real engine: large results paged, killed and expired."""

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness


def test_numbers_100000_paged_every_row_once_in_order(h):
    a = h.post("SELECT * FROM numbers(100000)", headers=DATABEND_HEADERS).json
    assert a["schema"] == [{"name": "number", "type": "UInt64"}]
    seen = list(a["data"])
    pages = 1
    while a["next_uri"]:
        a = h.get(a["next_uri"], headers=DATABEND_HEADERS).json
        assert len(a["data"]) <= 10000
        seen += a["data"]
        pages += 1
    assert seen == [[str(i)] for i in range(100000)]
    assert pages >= 11  # ten full pages, then /final


def test_kill_stops_a_large_query_within_one_slice():
    h = Harness(inline_steps=1)
    a = h.post("SELECT * FROM numbers(100000)", pagination={"wait_time_secs": 0}).json
    query = h.app.queries.find(a["id"])
    h.pump(2)
    assert query.state == "Running"
    h.get(a["kill_uri"])
    assert query.state == "Failed" and query._result is None and query.buffer.rows == []
    assert h.scheduler.pending == [] or h.pump(5) is None
    assert h.app.cooperator._tasks == []


def test_slow_reader_keeps_the_buffer_bounded():
    h = Harness(inline_steps=1)
    a = h.post("SELECT * FROM numbers(100000000)",
               pagination={"wait_time_secs": 0, "max_rows_per_page": 1000}).json
    query = h.app.queries.find(a["id"])
    h.pump(500)
    assert query.state == "Running"
    # two pages plus at most one engine batch, not a hundred million rows
    assert len(query.buffer.rows) < 2000 + 4096
    b = h.get(a["next_uri"]).json
    assert len(b["data"]) == 1000
    h.get(a["kill_uri"])


def test_insert_answers_one_row_and_write_progress(h):
    h.post("CREATE TABLE t (x INT, y VARCHAR)")
    a = h.post("INSERT INTO t VALUES (1, 'a'), (2, NULL)", headers=DATABEND_HEADERS).json
    assert a["data"] == [["2"]] and a["stats"]["write_progress"]["rows"] == 2
    b = h.post("SELECT * FROM t ORDER BY x", headers=DATABEND_HEADERS).json
    assert b["schema"] == [{"name": "x", "type": "Nullable(Int32)"},
                           {"name": "y", "type": "Nullable(String)"}]
    assert b["data"] == [["1", "a"], ["2", None]]
    c = h.post("SELECT * FROM t ORDER BY x").json
    assert c["data"] == [["1", "a"], ["2", "NULL"]]


def test_unknown_table_is_1025(h):
    a = h.post("SELECT * FROM missing", headers=DATABEND_HEADERS).json
    assert a["state"] == "Failed" and a["error"]["code"] == 1025


def test_a_small_result_ends_inside_the_post(h):
    a = h.post("SELECT * FROM numbers(3)", pagination={"max_rows_per_page": 2}).json
    assert a["state"] == "Succeeded" and a["data"] == [["0"], ["1"]]
    assert a["stats"]["result_progress"]["rows"] == 3
    b = h.get(a["next_uri"]).json
    assert b["data"] == [["2"]] and b["next_uri"] is None


def test_set_and_use_are_final_in_the_post_answer(h):
    h.post("CREATE DATABASE inpost")
    a = h.post("USE inpost", headers=DATABEND_HEADERS).json
    assert a["state"] == "Succeeded" and a["session"]["database"] == "inpost"
    b = h.post("SET timezone = 'Asia/Shanghai'", session=a["session"],
               headers=DATABEND_HEADERS).json
    assert b["state"] == "Succeeded"
    assert b["session"]["database"] == "inpost"
    assert b["session"]["settings"] == {"timezone": "Asia/Shanghai"}


@pytest.mark.parametrize("headers, end_uri", [({}, None), (DATABEND_HEADERS, "final")])
def test_a_query_failing_after_its_first_pages_answers_failed_then_kill_and_final(headers, end_uri):
    h = Harness()
    a = h.post("SELECT 1 DIV (number - 50000) FROM numbers(100000)", headers=headers).json
    assert a["state"] == "Running" and len(a["data"]) == 10000 and a["error"] is None
    while a["error"] is None:
        a = h.get(a["next_uri"], headers=headers).json
        assert len(a["data"]) == 10000 or a["error"] is not None
    assert a["state"] == "Failed" and a["data"] == []
    assert a["error"]["code"] == 1006 and "zero" in a["error"]["message"]
    if end_uri is None:
        assert a["next_uri"] is None
    else:
        assert a["next_uri"] == a["final_uri"]
    assert h.get(a["kill_uri"], headers=headers).status == 200
    final = h.get(a["final_uri"], headers=headers).json
    assert final["state"] == "Failed" and final["error"]["code"] == 1006
    assert h.app.queries.running == 0


def test_a_script_answers_the_columns_it_returned(h):
    """EXECUTE IMMEDIATE's columns are known only when the script ends (RETURN TABLE): the answer
    carries them, with the rows, whatever page they come on."""
    script = ("EXECUTE IMMEDIATE $$ BEGIN LET n := 0; WHILE n < 300 DO n := n + 1; END WHILE; "
              "RETURN TABLE(SELECT number AS a, 'x' AS b FROM numbers(2)); END; $$")
    a = h.post(script, headers=DATABEND_HEADERS).json
    data = list(a["data"])
    while a["next_uri"]:
        a = h.get(a["next_uri"], headers=DATABEND_HEADERS).json
        data += a["data"]
    assert a["state"] == "Succeeded" and a["error"] is None
    assert [c["name"] for c in a["schema"]] == ["a", "b"]
    assert data == [["0", "x"], ["1", "x"]]
