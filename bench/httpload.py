"""Load generator for bench.http: a small asyncio keep-alive HTTP/1.1 client speaking the query protocol.

Runs in its own process (bench.http starts it, pinned away from the server's CPU when it can)
and prints one JSON object on stdout. Loopback only; every mode is bounded in time.

    python -m bench.httpload roundtrip --port P --concurrency 8 --duration 5
    python -m bench.httpload stream    --port P --sql 'SELECT * FROM numbers(1000000)'
    python -m bench.httpload stream    --port P --sql '...' --format arrow   # Arrow pages
    python -m bench.httpload mixed     --port P --heavy-sql '...' --heavies 2 --duration 10

A round trip is `POST /v1/query` and then `GET next_uri` until it is null (the last page).
`--format json` and `--format arrow` send an X-DATABEND-* header (Databend's answer format),
`arrow` also `Accept: application/vnd.apache.arrow.stream` and a result version; the client
decodes every page either way (json.loads, or pyarrow's IPC reader).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time

AUTH = "Basic cm9vdDo="  # root with an empty password
ARROW = "application/vnd.apache.arrow.stream"
# the extra request headers of each --format ("spec": none, the seed's answer format)
FORMAT_HEADERS = {"spec": "", "json": "X-DATABEND-ROUTE: warehouse\r\n",
                  "arrow": f"X-DATABEND-ROUTE: warehouse\r\nAccept: {ARROW}\r\n"}


class ProtocolError(Exception):
    """The server answered with an HTTP error, a failed query or a malformed response."""


class Connection:
    """One keep-alive connection; `request` returns (status, body bytes)."""

    def __init__(self, port, timeout, extra_headers=""):
        self.port = port
        self.timeout = timeout
        self.extra_headers = extra_headers  # header lines sent with every request
        self.content_type = ""  # of the last answer
        self.reader = self.writer = None
        self.requests = 0

    async def _open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    async def request(self, method, path, body=b""):
        return await asyncio.wait_for(self._request(method, path, body), self.timeout)

    async def _request(self, method, path, body):
        if self.writer is None:
            await self._open()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Authorization: {AUTH}\r\n{self.extra_headers}")
        if method == "POST":
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode("ascii") + b"\r\n" + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        if "content-length" in headers:
            data = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    while await self.reader.readuntil(b"\r\n") != b"\r\n":
                        pass
                    break
                parts.append((await self.reader.readexactly(size + 2))[:-2])
            data = b"".join(parts)
        else:
            data = await self.reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            await self.close()
        self.content_type = headers.get("content-type", "")
        self.requests += 1
        return status, data


def query_body(sql, wait_time_secs=1, arrow=False):
    body = {"sql": sql, "pagination": {"wait_time_secs": wait_time_secs}}
    if arrow:
        body["arrow_result_version_max"] = 3
    return json.dumps(body).encode()


def _page(status, data, content_type=""):
    """The answer as a dict; an Arrow answer's is its `response_header`, with `_rows` (the
    rows of its record batches, decoded into columns)."""
    if status >= 400:
        raise ProtocolError(f"HTTP {status}: {data[:200]!r}")
    if content_type == ARROW:
        import pyarrow.ipc  # only the Arrow mode needs it

        reader = pyarrow.ipc.open_stream(data)
        obj = json.loads(reader.schema.metadata[b"response_header"])
        obj["_rows"] = reader.read_all().num_rows
    else:
        obj = json.loads(data)
    if obj.get("error") or obj.get("state") == "Failed":
        raise ProtocolError(f"query failed: {json.dumps(obj.get('error'))[:200]}")
    return obj


def _rows(obj):
    return obj["_rows"] if "_rows" in obj else len(obj.get("data") or ())


async def run_query(conn, body, on_page=None, stop_at=None, page_delay=0.0):
    """POST a query and follow next_uri to the end; returns (rows, pages, finished)."""
    obj = _page(*await conn.request("POST", "/v1/query", body), conn.content_type)
    rows, pages = _rows(obj), 1
    if on_page:
        on_page(obj)
    while obj.get("next_uri"):
        if stop_at is not None and time.perf_counter() > stop_at:
            kill = obj.get("kill_uri")
            if kill:
                await conn.request("GET", kill)
            return rows, pages, False
        if page_delay:
            await asyncio.sleep(page_delay)
        obj = _page(*await conn.request("GET", obj["next_uri"]), conn.content_type)
        rows += _rows(obj)
        pages += 1
        if on_page:
            on_page(obj)
    return rows, pages, True


def _latency_summary(latencies):
    if not latencies:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(latencies)
    return {"p50_ms": 1e3 * statistics.median(ordered),
            "p99_ms": 1e3 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
            "max_ms": 1e3 * ordered[-1]}


async def roundtrips(port, sql, concurrency, duration, warmup, timeout, max_round_trips=10**7):
    """SELECT round trips from `concurrency` connections for `duration` seconds."""
    body = query_body(sql)
    latencies, errors = [], []
    conns = [Connection(port, timeout) for _ in range(concurrency)]
    measuring = False
    count = [0]
    completed = [0]  # round trips, the warm-up's included (the server's CPU covers them too)

    async def worker(conn, until):
        while time.perf_counter() < until and count[0] < max_round_trips:
            t0 = time.perf_counter()
            try:
                await run_query(conn, body)
            except (TimeoutError, ProtocolError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                await conn.close()
                if len(errors) > 1000:
                    return
                continue
            completed[0] += 1
            if measuring:
                latencies.append(time.perf_counter() - t0)
                count[0] += 1

    if warmup > 0:
        await asyncio.gather(*(worker(c, time.perf_counter() + warmup) for c in conns))
        errors.clear()
    measuring = True
    requests_before = sum(c.requests for c in conns)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*(worker(c, t0 + duration) for c in conns))
    elapsed = time.perf_counter() - t0
    client_cpu = (time.process_time() - cpu0) / elapsed
    requests = sum(c.requests for c in conns) - requests_before
    for c in conns:
        await c.close()
    return {"round_trips": len(latencies), "requests": requests, "elapsed_s": elapsed,
            "round_trips_per_s": len(latencies) / elapsed, "requests_per_s": requests / elapsed,
            **_latency_summary(latencies), "client_cpu": client_cpu, "errors": len(errors),
            "first_error": errors[0] if errors else None, "all_round_trips": completed[0]}


async def stream(port, sql, timeout, max_seconds, page_delay=0.0, answer_format="spec"):
    """One client pages a query to the end; rows/s over the whole exchange."""
    conn = Connection(port, timeout, FORMAT_HEADERS[answer_format])
    arrow_pages = []

    def count_arrow(page):
        if "_rows" in page:
            arrow_pages.append(1)

    t0 = time.perf_counter()
    try:
        body = query_body(sql, arrow=answer_format == "arrow")
        rows, pages, finished = await run_query(conn, body, on_page=count_arrow,
                                                stop_at=t0 + max_seconds, page_delay=page_delay)
        error = None
    except (TimeoutError, ProtocolError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
        rows, pages, finished, error = 0, 0, False, f"{type(exc).__name__}: {exc}"
    elapsed = time.perf_counter() - t0
    await conn.close()
    return {"rows": rows, "pages": pages, "finished": finished, "elapsed_s": elapsed,
            "rows_per_s": rows / elapsed if elapsed else 0.0, "error": error,
            "arrow_pages": len(arrow_pages)}


async def mixed(port, probe_sql, heavy_sql, heavies, duration, head_start, timeout):
    """Latency of `probe_sql` round trips while `heavies` clients run `heavy_sql`."""
    stop_at = time.perf_counter() + head_start + duration
    results = []

    async def heavy():
        conn = Connection(port, timeout)
        t0 = time.perf_counter()
        try:
            rows, pages, finished = await run_query(conn, query_body(heavy_sql), stop_at=stop_at)
            results.append({"finished": finished, "rows": rows, "seconds": time.perf_counter() - t0})
        except (TimeoutError, ProtocolError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            results.append({"error": f"{type(exc).__name__}: {exc}"})
        await conn.close()

    tasks = [asyncio.ensure_future(heavy()) for _ in range(heavies)]
    await asyncio.sleep(head_start)
    probe = await roundtrips(port, probe_sql, 1, duration, 0.0, timeout)
    await asyncio.gather(*tasks)
    probe["heavy"] = results
    return probe


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.httpload", description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=("roundtrip", "stream", "mixed"))
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sql", default="SELECT 1")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--duration", type=float, default=5.0)
    p.add_argument("--warmup", type=float, default=1.0)
    p.add_argument("--timeout", type=float, default=30.0, help="per request, seconds")
    p.add_argument("--max-seconds", type=float, default=60.0, help="stream: stop (kill) after")
    p.add_argument("--page-delay", type=float, default=0.0, help="stream: pause between pages")
    p.add_argument("--format", default="spec", choices=tuple(FORMAT_HEADERS),
                   help="stream: the answer format asked for (arrow: Arrow IPC pages)")
    p.add_argument("--heavy-sql", default="")
    p.add_argument("--heavies", type=int, default=2)
    p.add_argument("--head-start", type=float, default=1.0)
    a = p.parse_args(argv)
    if a.mode == "roundtrip":
        coro = roundtrips(a.port, a.sql, a.concurrency, a.duration, a.warmup, a.timeout)
    elif a.mode == "stream":
        coro = stream(a.port, a.sql, a.timeout, a.max_seconds, a.page_delay, a.format)
    else:
        coro = mixed(a.port, a.sql, a.heavy_sql, a.heavies, a.duration, a.head_start, a.timeout)
    json.dump(asyncio.run(coro), sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
