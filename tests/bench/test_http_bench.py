"""bench.httpload speaks the query protocol to the bare Klein route of bench.http_baseline."""

from __future__ import annotations

import argparse

import pytest

from bench import http as bench_http
from bench import httpload


@pytest.fixture(scope="module")
def baseline():
    args = argparse.Namespace(pin=False)
    server = bench_http.start_baseline(args)
    yield args, server
    server.stop()


def test_round_trips_are_counted_without_errors(baseline):
    args, server = baseline
    r = bench_http.load(args, "roundtrip", server.port, "--concurrency", 2, "--duration", 0.3,
                        "--warmup", 0, limit=60)
    assert r["errors"] == 0, r["first_error"]
    assert r["round_trips"] > 0 and r["requests"] == r["round_trips"]
    assert 0 < r["p50_ms"] <= r["p99_ms"] <= r["max_ms"]


def test_stream_reads_the_last_page(baseline):
    args, server = baseline
    r = bench_http.load(args, "stream", server.port, "--sql", "SELECT 1", limit=60)
    assert r == {**r, "rows": 1, "pages": 1, "finished": True, "error": None}


def test_server_memory_is_read_from_proc(baseline):
    _, server = baseline
    memory = server.memory_kb()
    assert memory["VmHWM"] >= memory["VmRSS"] > 1000


def test_server_cpu_time_is_read_from_proc_and_grows_with_work(baseline):
    args, server = baseline
    before = server.cpu_seconds()
    bench_http.load(args, "roundtrip", server.port, "--concurrency", 2, "--duration", 0.5,
                    "--warmup", 0, limit=60)
    assert before is not None and server.cpu_seconds() > before


def test_arrow_table_shows_the_servers_cpu_per_row():
    runs = {"json": [{"finished": True, "rows_per_s": 100.0, "server_cpu_us_per_row": 3.0}],
            "arrow": [{"finished": True, "rows_per_s": 200.0, "server_cpu_us_per_row": 1.5,
                       "arrow_pages": 2}]}
    table = bench_http.arrow_table(argparse.Namespace(arrow_rows=1000), runs)
    assert "| json | 100 | 3.00 µs | 1 |" in table and "| arrow | 200 | 1.50 µs | 1 |" in table
    assert "| **arrow / json** | 2.00× | | 1 |" in table


def test_a_failed_query_is_a_protocol_error():
    with pytest.raises(httpload.ProtocolError):
        httpload._page(200, b'{"state": "Failed", "error": {"code": 1005, "message": "x"}}')
    with pytest.raises(httpload.ProtocolError):
        httpload._page(401, b"unauthorized")
    assert httpload._page(200, b'{"state": "Succeeded", "error": null, "data": []}')["data"] == []


def test_insert_table_gives_the_ratio_of_medians_per_round():
    runs = [({"round_trips": 10, "round_trips_per_s": 700.0}, {"round_trips": 10, "round_trips_per_s": 1000.0}),
            ({"round_trips": 10, "round_trips_per_s": 900.0}, {"round_trips": 10, "round_trips_per_s": 1000.0})]
    table = bench_http.insert_table(runs)
    assert "| 800 | 1,000 | 0.80× |" in table
    assert "n/a (boom)" in bench_http.insert_table([({"error": "boom"}, {})])


def test_an_arrow_page_is_read_from_its_ipc_stream():
    pa = pytest.importorskip("pyarrow")
    header = '{"state": "Succeeded", "error": null, "data": [], "next_uri": null}'
    schema = pa.schema([pa.field("n", pa.int64())], metadata={"response_header": header})
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, schema) as writer:
        writer.write_batch(pa.record_batch([pa.array([1, 2, 3])], schema=schema))
    page = httpload._page(200, sink.getvalue().to_pybytes(), httpload.ARROW)
    assert page["state"] == "Succeeded" and httpload._rows(page) == 3


def test_round_trip_table_shows_each_servers_cpu_per_round_trip():
    def run(rate, cpu):
        return {"round_trips": 10, "round_trips_per_s": rate, "p50_ms": 1.0, "p99_ms": 2.0,
                "server_cpu_us": cpu}

    runs = {(name, c): [run(1000.0, cpu)] for c in bench_http.CONCURRENCY
            for name, cpu in (("queryhttp", 200.0), ("bare Klein", 220.0))}
    table = bench_http.roundtrip_table(runs)
    assert "| queryhttp | 200 µs | 200 µs | 200 µs |" in table
    assert "| **bare Klein / queryhttp** | 1.10× | 1.10× | 1.10× |" in table
    r = {"all_round_trips": 400}
    bench_http._server_cpu(r, 1.0, 1.1)
    assert r["server_cpu_us"] == pytest.approx(250.0)


def test_round_trips_count_the_warm_up_for_the_servers_cpu(baseline):
    args, server = baseline
    r = bench_http.load(args, "roundtrip", server.port, "--concurrency", 2, "--duration", 0.2,
                        "--warmup", 0.2, limit=60)
    assert r["all_round_trips"] > r["round_trips"] > 0
