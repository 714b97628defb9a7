"""GET /metrics: Prometheus text after a few queries, gauges read when scraped, and its auth."""

import pytest
from prometheus_client.parser import text_string_to_metric_families
from twisted.python import usage

from tests.web.harness import Harness
from web.config import ServiceConfig
from web.tap import Options

BIG = "SELECT number FROM numbers(1000000)"
SMALL_PAGES = {"max_rows_per_page": 10, "max_rows_in_buffer": 10, "wait_time_secs": 0}


def scrape(h, **kwargs) -> dict:
    """{(sample name, sorted labels): value} of one scrape."""
    reply = h.get("/metrics", **kwargs)
    assert reply.status == 200
    assert reply.header("content-type").startswith(b"text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(reply.body.decode()):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def test_counters_and_histogram_after_a_few_queries(h):
    h.post("SELECT number FROM numbers(3)")
    h.post("SELECT 1")
    h.post("SELECT 1 DIV 0")
    m = scrape(h)
    assert m[("queryhttp_queries_total", (("code", "0"), ("state", "Succeeded")))] == 2
    assert m[("queryhttp_queries_total", (("code", "1006"), ("state", "Failed")))] == 1
    assert m[("queryhttp_query_duration_seconds_count", ())] == 3
    assert m[("queryhttp_query_duration_seconds_bucket", (("le", "+Inf"),))] == 3
    assert m[("queryhttp_query_duration_seconds_bucket", (("le", "0.005"),))] == 3  # no clock time
    assert m[("queryhttp_result_rows_total", ())] == 4
    assert m[("queryhttp_result_bytes_total", ())] > 0
    assert m[("queryhttp_slow_steps_total", ())] == 0


def test_latency_comes_from_the_clock(h):
    a = h.post(BIG, pagination=SMALL_PAGES).json
    h.clock.advance(7)
    h.get(f"/v1/query/{a['id']}/kill")
    m = scrape(h)
    assert m[("queryhttp_query_duration_seconds_bucket", (("le", "5.0"),))] == 0
    assert m[("queryhttp_query_duration_seconds_bucket", (("le", "10.0"),))] == 1
    assert m[("queryhttp_queries_total", (("code", "1043"), ("state", "Failed")))] == 1


def test_running_and_paused_gauges(h):
    a = h.post(BIG, pagination=SMALL_PAGES).json
    m = scrape(h)
    assert m[("queryhttp_running_queries", ())] == 1
    assert m[("queryhttp_paused_queries", ())] == 1  # its page buffer is full
    assert m[("queryhttp_held_queries", ())] == 1
    h.get(f"/v1/query/{a['id']}/kill")
    m = scrape(h)
    assert m[("queryhttp_running_queries", ())] == 0
    assert m[("queryhttp_paused_queries", ())] == 0


def test_refused_queries_are_counted_by_code():
    h = Harness(config=ServiceConfig(max_retained_queries=1, default_rows_per_page=2))
    for _ in range(2):  # twice max_retained_queries hold unread rows: the hold limit
        h.post("SELECT * FROM numbers(10)")
    refused = h.post("SELECT 1").json
    assert refused["error"]["code"] == 1067
    m = scrape(h)
    assert m[("queryhttp_refused_queries_total", (("code", "1067"),))] == 1


def test_sessions_gauge(h):
    assert scrape(h)[("queryhttp_sessions", ())] == 0
    h.post("SELECT 1", session={"keep_server_session_secs": 10})
    assert scrape(h)[("queryhttp_sessions", ())] == 1


def test_memory_gauge_reads_the_engines_accounting_when_it_has_one(h):
    assert scrape(h)[("queryhttp_memory_bytes", ())] == 0  # no accounting: 0, not an error

    class ServerMemory:
        used = 12345

    h.db.memory = ServerMemory()
    assert scrape(h)[("queryhttp_memory_bytes", ())] == 12345


def test_each_app_has_its_own_registry():
    first, second = Harness(), Harness()
    first.post("SELECT 1")
    key = ("queryhttp_queries_total", (("code", "0"), ("state", "Succeeded")))
    assert scrape(first)[key] == 1
    assert key not in scrape(second)


def test_metrics_need_credentials_by_default(h):
    reply = h.get("/metrics", auth=None)
    assert reply.status == 401
    assert b"Authentication error" in reply.body
    assert reply.header("www-authenticate") is not None


def test_metrics_are_open_with_metrics_auth_none():
    h = Harness(config=ServiceConfig(metrics_auth=False))
    reply = h.get("/metrics", auth=None)
    assert reply.status == 200
    assert b"queryhttp_queries_total" in reply.body or b"queryhttp_running_queries" in reply.body


def test_metrics_auth_and_log_query_start_options():
    assert Options().service_config().metrics_auth is True
    assert Options().service_config().log_query_start is False
    options = Options()
    options.parseOptions(["--log_query_start"])
    assert options.service_config().log_query_start is True
    for value, required in (("required", True), ("none", False)):
        options = Options()
        options.parseOptions(["--metrics_auth", value])
        assert options.service_config().metrics_auth is required
    with pytest.raises(usage.UsageError, match="--metrics_auth must be required or none"):
        Options().parseOptions(["--metrics_auth", "open"])


def test_plan_cache_hits_misses_and_entries(h):
    h.post("SELECT 41 + 1")
    h.post("SELECT 41 + 1")
    h.post("SELECT 41 + 1")
    h.post("SELECT now()")  # never kept: planned each time
    m = scrape(h)
    assert m[("queryhttp_plan_cache_hits_total", ())] == 2
    assert m[("queryhttp_plan_cache_misses_total", ())] == 2
    assert m[("queryhttp_plan_cache_entries", ())] == 1


def test_process_python_and_build_series(h):
    import sys

    import engine
    from web.build import queryhttp_version

    samples = scrape(h)
    names = {name for name, _ in samples}
    if sys.platform.startswith("linux"):  # the library reads /proc
        assert {"process_resident_memory_bytes", "process_cpu_seconds_total",
                "process_start_time_seconds", "process_open_fds", "process_max_fds"} <= names
    assert any(name == "python_info" for name in names)
    build = [labels for name, labels in samples if name == "queryhttp_build_info"]
    assert len(build) == 1
    assert dict(build[0])["version"] == queryhttp_version()
    assert dict(build[0])["databend_version"] == engine.VERSION
