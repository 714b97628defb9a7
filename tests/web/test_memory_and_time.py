"""The service over the real engine: max_execute_time_in_seconds and max_memory_usage over HTTP."""

from tests.web.harness import Harness

ABORTED = "Aborted query, because the execution time exceeds the maximum execution time limit"


def _harness() -> Harness:
    h = Harness(inline_steps=1)
    h.db.real.clock = h.clock.seconds  # the engine's deadline reads the test's clock
    return h


def _settings(**settings) -> dict:
    return {"settings": {k: str(v) for k, v in settings.items()}}


def test_a_query_past_max_execute_time_in_seconds_fails_with_1043():
    h = _harness()
    a = h.post("SELECT * FROM numbers(1000000) ORDER BY number DESC",
               session=_settings(max_execute_time_in_seconds=5), pagination={"wait_time_secs": 0}).json
    assert a["state"] == "Running"
    query = h.app.queries.find(a["id"])
    h.pump(2)
    assert query.state == "Running" and h.db.real.memory.used > 0
    h.clock.advance(6)
    h.pump(1)
    b = h.get(a["next_uri"]).json
    assert b["state"] == "Failed"
    assert b["error"]["code"] == 1043 and b["error"]["message"] == ABORTED
    assert h.db.real.memory.used == 0


def test_a_query_paused_on_a_full_buffer_is_failed_by_the_sweeper_at_its_deadline():
    h = _harness()
    a = h.post("SELECT * FROM numbers(100000000)", session=_settings(max_execute_time_in_seconds=5),
               pagination={"wait_time_secs": 0, "max_rows_per_page": 1000}).json
    query = h.app.queries.find(a["id"])
    h.pump(50)
    assert query.state == "Running" and query.buffer.full  # paused: no step runs
    h.clock.advance(5)
    h.app.sweep()
    assert query.state == "Running"  # at the limit
    h.clock.advance(1)
    h.app.sweep()
    assert query.state == "Failed" and query.error.code == 1043
    assert h.db.real.memory.used == 0


def test_the_page_buffer_counts_against_the_query_memory_until_read_or_killed():
    h = _harness()
    a = h.post("SELECT * FROM numbers(100000000)",
               pagination={"wait_time_secs": 0, "max_rows_per_page": 1000}).json
    query = h.app.queries.find(a["id"])
    h.pump(50)
    assert query.buffer.full
    full = h.db.real.memory.used
    assert full > 2000 * 60  # a streaming scan holds nothing itself: these are the unread rows
    h.get(a["next_uri"])
    assert h.db.real.memory.used < full  # a page taken is released
    h.get(a["kill_uri"])
    assert h.db.real.memory.used == 0


def test_a_page_buffer_over_max_memory_usage_fails_the_query_with_2411():
    h = _harness()
    a = h.post("SELECT * FROM numbers(100000000)", session=_settings(max_memory_usage=10000),
               pagination={"wait_time_secs": 0}).json
    query = h.app.queries.find(a["id"])
    h.pump(5)
    assert query.state == "Failed" and query.error.code == 2411
    assert "max_memory_usage (10000 bytes)" in query.error.message
    assert h.db.real.memory.used == 0


def test_a_sort_over_max_memory_usage_answers_2411_over_http():
    h = _harness()
    a = h.post("SELECT a.number + b.number FROM numbers(100000) a CROSS JOIN numbers(100000) b ORDER BY 1",
               session=_settings(max_memory_usage=1 << 20), pagination={"wait_time_secs": 0}).json
    h.pump(100)
    b = h.get(a["next_uri"]).json if a["state"] == "Running" else a
    assert b["state"] == "Failed" and b["error"]["code"] == 2411
    assert h.db.real.memory.used == 0


def test_memory_is_released_when_a_query_is_finalized_or_expires():
    h = _harness()
    sql = "SELECT * FROM numbers(100000) ORDER BY number DESC"
    a = h.post(sql, pagination={"wait_time_secs": 0}).json
    h.pump(3)
    assert h.db.real.memory.used > 0
    h.get(a["final_uri"])
    assert h.db.real.memory.used == 0
    b = h.post(sql, pagination={"wait_time_secs": 0}).json
    h.pump(3)
    assert h.db.real.memory.used > 0
    h.clock.advance(61)  # nobody polls it for its result timeout
    h.app.sweep()
    assert h.app.queries.find(b["id"]) is None
    assert h.db.real.memory.used == 0
