"""HTTP benchmark: a real `twistd queryhttp` on 127.0.0.1 beside a bare Klein route, in one run.

    pip install .            # twistd runs the installed copy of queryhttp
    python -m bench.http                     # about 4 minutes
    python -m bench.http --quick             # about 1 minute
    python -m bench.http --stream-rows 10000000 --server-arg=--some-option

Measures, each bounded in time:
1. `SELECT 1` round trips per second (POST /v1/query, then GET next_uri until null) at
   concurrency 1, 8 and 64, interleaved with the same load on a bare Klein route that returns
   a fixed QueryResponse (bench.http_baseline); ratio = median of per-round ratios; then
   single-row INSERT round trips beside `SELECT 1` ones at 8 clients (in memory).
2. Streaming: rows/s of `SELECT * FROM numbers(N)` paged to the end by one client.
3. Latency p50/p99 of `SELECT 1` (one client) while two heavy queries run.
4. Peak memory (VmHWM/VmRSS of the server process, from /proc) of a fresh server while a slow
   client pages through --stream-rows rows.
5. Arrow vs JSON: rows/s of a three-column result (--arrow-rows rows: an integer, a decimal, a
   string) paged to the end as Databend's JSON pages and as Arrow IPC pages, alternating; the
   client decodes every page (json.loads / pyarrow), with the server's CPU time per row (from
   /proc: steadier than rates on a busy machine). Needs pyarrow on both sides.
Servers are pinned to CPU 0 and the load generator (bench.httpload, a separate asyncio
process) to CPU 1 when the machine has two CPUs or more: they still share the machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.server_process import ServerProcess, queryhttp_command

PACKAGE_PARENT = Path(__file__).resolve().parent.parent
CONCURRENCY = (1, 8, 64)
SERVER_CPU, CLIENT_CPU = 0, 1


def _pinning(cpu, enabled):
    if not enabled or (os.cpu_count() or 1) < 2 or not hasattr(os, "sched_setaffinity"):
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_PARENT),
                                                      env.get("PYTHONPATH")]))
    return env


def start_queryhttp(args):
    return ServerProcess(queryhttp_command(*args.server_arg), "twistd queryhttp",
                         preexec_fn=_pinning(SERVER_CPU, args.pin), keep_lines=50)


def start_baseline(args):
    return ServerProcess([sys.executable, "-m", "bench.http_baseline", "--port", "0"],
                         "bare Klein route", env=_env(),
                         preexec_fn=_pinning(SERVER_CPU, args.pin), keep_lines=50)


def load(args, mode, port, *options, limit=600):
    """Run bench.httpload in its own process; its JSON answer, or {'error': ...}."""
    command = [sys.executable, "-m", "bench.httpload", mode, "--port", str(port),
               *map(str, options)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit, env=_env(),
                              preexec_fn=_pinning(CLIENT_CPU, args.pin))
    except subprocess.TimeoutExpired:
        return {"error": f"load generator exceeded {limit}s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["load generator failed"])[-1]}
    return json.loads(done.stdout)


# --------------------------------------------------------------------------- scenarios

def roundtrip_scenario(args, qh, base):
    """{(server, c): [result per round]}, rounds interleaved between the two servers."""
    runs = collections.defaultdict(list)
    servers = [("queryhttp", qh), ("bare Klein", base)]
    for rep in range(args.reps):
        for c in CONCURRENCY:
            order = servers if rep % 2 == 0 else servers[::-1]
            for name, server in order:
                cpu_before = server.cpu_seconds()
                r = load(args, "roundtrip", server.port, "--concurrency", c, "--duration",
                         args.duration, "--warmup", args.warmup, "--sql", "SELECT 1",
                         limit=args.duration + args.warmup + 120)
                _server_cpu(r, cpu_before, server.cpu_seconds())
                runs[(name, c)].append(r)
                print(f"  round {rep} {name:10s} c={c:<3d} "
                      + (f"{r['round_trips_per_s']:8.0f} round trips/s  server CPU "
                         f"{r.get('server_cpu_us', 0):5.0f} us each  p50 {_ms(r['p50_ms'])} "
                         f"p99 {_ms(r['p99_ms'])} ms  errors {r['errors']}  "
                         f"load generator CPU {r['client_cpu']:.0%}"
                         if "round_trips_per_s" in r else r.get("error", "")),
                      file=sys.stderr, flush=True)
    return runs


def _server_cpu(result: dict, before: float | None, after: float | None) -> None:
    """Add the server's CPU per round trip (µs, from /proc: steadier than rates when other
    work shares the machine) to a load generator's result."""
    if before is not None and after is not None and result.get("all_round_trips"):
        result["server_cpu_us"] = 1e6 * (after - before) / result["all_round_trips"]


INSERT_TABLE_SQL = "CREATE TABLE IF NOT EXISTS bench_insert (a INT, b VARCHAR)"
INSERT_SQL = "INSERT INTO bench_insert VALUES (1, 'x')"


def insert_scenario(args, qh):
    """Single-row INSERT beside SELECT 1 round trips on queryhttp at 8 clients, interleaved:
    [(insert result, select result)] per round (the ratio is issue 24's write-path goal)."""
    created = load(args, "roundtrip", qh.port, "--concurrency", 1, "--duration", 0.01,
                   "--warmup", 0, "--sql", INSERT_TABLE_SQL, limit=60)
    if "error" in created:
        return [({"error": created["error"]}, {})]
    runs = []
    for rep in range(args.reps):
        pair = {}
        for sql in ((INSERT_SQL, "SELECT 1") if rep % 2 == 0 else ("SELECT 1", INSERT_SQL)):
            cpu_before = qh.cpu_seconds()
            pair[sql] = load(args, "roundtrip", qh.port, "--concurrency", 8, "--duration",
                             args.duration, "--warmup", args.warmup, "--sql", sql,
                             limit=args.duration + args.warmup + 120)
            _server_cpu(pair[sql], cpu_before, qh.cpu_seconds())
        runs.append((pair[INSERT_SQL], pair["SELECT 1"]))
        print(f"  insert round {rep}: " + ", ".join(
            f"{sql[:12]} {r.get('round_trips_per_s', 0):,.0f}/s (server CPU "
            f"{r.get('server_cpu_us', 0):,.0f} us each)" for sql, r in pair.items()),
            file=sys.stderr, flush=True)
    return runs


def insert_table(runs):
    ok = [(i, s) for i, s in runs if i.get("round_trips") and s.get("round_trips")]
    if not ok:
        return f"single-row INSERT round trips: n/a ({_first_error([r for p in runs for r in p])})"
    inserts = _median(i["round_trips_per_s"] for i, _ in ok)
    selects = _median(s["round_trips_per_s"] for _, s in ok)
    ratio = statistics.median(i["round_trips_per_s"] / s["round_trips_per_s"] for i, s in ok)
    table = (f"#### Single-row INSERT (in memory, 8 clients)\n\n| `{INSERT_SQL}` round trips/s | "
             f"`SELECT 1` round trips/s | ratio |\n|---:|---:|---:|\n| {inserts:,.0f} | "
             f"{selects:,.0f} | {ratio:.2f}× |")
    cpu = [(i["server_cpu_us"], s["server_cpu_us"]) for i, s in ok
           if i.get("server_cpu_us") and s.get("server_cpu_us")]
    if cpu:
        table += (f"\n| server CPU {_median(i for i, _ in cpu):,.0f} µs each | "
                  f"{_median(s for _, s in cpu):,.0f} µs each | "
                  f"{statistics.median(s / i for i, s in cpu):.2f}× |")
    return table


def stream_scenario(args, qh):
    runs = []
    for _ in range(args.reps):
        r = load(args, "stream", qh.port, "--sql", f"SELECT * FROM numbers({args.fast_rows})",
                 "--max-seconds", args.max_seconds, limit=args.max_seconds + 60)
        runs.append(r)
        print(f"  stream {r.get('rows', 0):,} rows in {r.get('elapsed_s', 0):.2f}s "
              f"{r.get('rows_per_s', 0):,.0f} rows/s {r.get('error') or ''}",
              file=sys.stderr, flush=True)
    return runs


ARROW_SQL = "SELECT number, number * 2.5, concat('x', number::STRING) FROM numbers({rows})"


def arrow_scenario(args, qh):
    """{"json": [run], "arrow": [run]}: the same result paged as JSON and as Arrow pages,
    alternating which goes first."""
    runs = {"json": [], "arrow": []}
    sql = ARROW_SQL.format(rows=args.arrow_rows)
    for rep in range(args.reps):
        for answer_format in ("json", "arrow") if rep % 2 == 0 else ("arrow", "json"):
            cpu_before = qh.cpu_seconds()
            r = load(args, "stream", qh.port, "--sql", sql, "--format", answer_format,
                     "--max-seconds", args.max_seconds, limit=args.max_seconds + 60)
            cpu_after = qh.cpu_seconds()
            if cpu_before is not None and cpu_after is not None and r.get("rows"):
                r["server_cpu_us_per_row"] = 1e6 * (cpu_after - cpu_before) / r["rows"]
            runs[answer_format].append(r)
            print(f"  {answer_format:5s} pages: {r.get('rows', 0):,} rows in "
                  f"{r.get('elapsed_s', 0):.2f}s {r.get('rows_per_s', 0):,.0f} rows/s, "
                  f"server CPU {r.get('server_cpu_us_per_row', 0):.2f} us/row, "
                  f"{r.get('arrow_pages', 0)} of {r.get('pages', 0)} pages Arrow "
                  f"{r.get('error') or ''}", file=sys.stderr, flush=True)
    return runs


def arrow_table(args, runs):
    lines = [f"#### Arrow vs JSON pages: `{ARROW_SQL.format(rows=f'{args.arrow_rows:,}')}`", "",
             "| answer format | rows/s (median) | server CPU per row (median) | runs |",
             "|---|---:|---:|---:|"]
    rates = {}
    for answer_format in ("json", "arrow"):
        ok = [r for r in runs[answer_format] if r.get("finished")]
        rates[answer_format] = _median(r["rows_per_s"] for r in ok) if ok else None
        shown = f"{rates[answer_format]:,.0f}" if ok else \
            f"n/a: {(_first_error(runs[answer_format]) or 'did not finish in time')[:150]}"
        cpu = _median(r.get("server_cpu_us_per_row") for r in ok)
        lines.append(f"| {answer_format} | {shown} | {'—' if cpu is None else f'{cpu:.2f} µs'} "
                     f"| {len(ok)} |")
    pairs = [(a["rows_per_s"], j["rows_per_s"])
             for a, j in zip(runs["arrow"], runs["json"], strict=False)
             if a.get("finished") and j.get("finished")]
    if pairs:
        ratio = statistics.median(a / j for a, j in pairs)
        lines.append(f"| **arrow / json** | {ratio:.2f}× | | {len(pairs)} |")
    if not any(r.get("arrow_pages") for r in runs["arrow"]):
        lines.append("\nnote: no page was Arrow (is pyarrow installed beside the server?)")
    return "\n".join(lines)


def mixed_scenario(args, qh):
    r = load(args, "mixed", qh.port, "--sql", "SELECT 1", "--heavy-sql", args.heavy_sql,
             "--heavies", 2, "--duration", args.mixed_seconds, "--head-start", 1.0,
             limit=args.mixed_seconds + 120)
    print(f"  mixed: {json.dumps(r)[:300]}", file=sys.stderr, flush=True)
    return r


def memory_scenario(args):
    server = start_queryhttp(args)
    try:
        time.sleep(0.5)
        before = server.memory_kb()
        samples = []
        stop = threading.Event()

        def sample():
            while not stop.wait(0.2):
                m = server.memory_kb()
                if m:
                    samples.append(m["VmRSS"])

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        r = load(args, "stream", server.port, "--sql", f"SELECT * FROM numbers({args.stream_rows})",
                 "--page-delay", args.slow_delay, "--max-seconds", args.memory_seconds,
                 limit=args.memory_seconds + 60)
        stop.set()
        sampler.join()
        after = server.memory_kb()
    finally:
        server.stop()
    r.update(rss_before_kb=before.get("VmRSS"), hwm_kb=after.get("VmHWM"),
             peak_sampled_kb=max(samples, default=None), rss_after_kb=after.get("VmRSS"))
    print(f"  memory: {json.dumps(r)}", file=sys.stderr, flush=True)
    return r


# --------------------------------------------------------------------------- tables

def _ms(x):
    return "—" if x is None else f"{x:.2f}"


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _first_error(results):
    for r in results:
        if r.get("error"):
            return r["error"]
        if r.get("first_error"):
            return r["first_error"]
    return None


def roundtrip_table(runs):
    lines = ["#### `SELECT 1` round trips (POST, then next_uri until null)", "",
             "| server | " + " | ".join(f"c={c} round trips/s" for c in CONCURRENCY) + " | "
             + " | ".join(f"c={c} p50 / p99 ms" for c in CONCURRENCY) + " | errors |",
             "|---|" + "---:|" * (2 * len(CONCURRENCY) + 1)]
    notes = []
    for name in ("queryhttp", "bare Klein"):
        rates, lats, errors = [], [], 0
        for c in CONCURRENCY:
            rs = runs[(name, c)]
            ok = [r for r in rs if "round_trips_per_s" in r and r["round_trips"]]
            rates.append(f"{_median(r['round_trips_per_s'] for r in ok):,.0f}" if ok else "n/a")
            lats.append(f"{_ms(_median(r['p50_ms'] for r in ok))} / "
                        f"{_ms(_median(r['p99_ms'] for r in ok))}" if ok else "n/a")
            errors += sum(r.get("errors", 0) for r in rs)
            err = _first_error(rs)
            if err:
                notes.append(f"{name} c={c}: {err[:200]}")
        lines.append(f"| {name} | " + " | ".join(rates) + " | " + " | ".join(lats) + f" | {errors} |")
    ratios = []
    for c in CONCURRENCY:
        pairs = [(a["round_trips_per_s"], b["round_trips_per_s"])
                 for a, b in zip(runs[("queryhttp", c)], runs[("bare Klein", c)], strict=False)
                 if a.get("round_trips") and b.get("round_trips")]
        ratios.append(f"{statistics.median(a / b for a, b in pairs):.2f}×" if pairs else "—")
    lines.append("| **queryhttp / bare Klein** | " + " | ".join(ratios) + " | " +
                 " | " * len(CONCURRENCY) + " |")
    lines += _server_cpu_lines(runs)
    busiest = max((r.get("client_cpu", 0) for rs in runs.values() for r in rs), default=0)
    lines.append("")
    lines.append(f"_load generator: one asyncio process, at most {busiest:.0%} of a CPU "
                 "(near 100% it would be the bottleneck)_")
    lines += [f"note: {n}" for n in dict.fromkeys(notes)]
    return "\n".join(lines)


def _server_cpu_lines(runs) -> list[str]:
    """The server's CPU per round trip of each server and concurrency (medians), and the
    ratio bare Klein / queryhttp (above 1: queryhttp spends less CPU on one)."""
    cells = {name: [] for name in ("queryhttp", "bare Klein")}
    ratios = []
    for c in CONCURRENCY:
        for name in cells:
            cpu = _median(r.get("server_cpu_us") for r in runs[(name, c)]
                          if r.get("server_cpu_us"))
            cells[name].append(cpu)
        pairs = [(a["server_cpu_us"], b["server_cpu_us"])
                 for a, b in zip(runs[("queryhttp", c)], runs[("bare Klein", c)], strict=False)
                 if a.get("server_cpu_us") and b.get("server_cpu_us")]
        ratios.append(f"{statistics.median(b / a for a, b in pairs):.2f}×" if pairs else "—")
    if not any(cpu for row in cells.values() for cpu in row):
        return []
    lines = ["", "| server CPU per round trip | " + " | ".join(f"c={c}" for c in CONCURRENCY)
             + " |", "|---|" + "---:|" * len(CONCURRENCY)]
    for name, row in cells.items():
        lines.append(f"| {name} | " + " | ".join("n/a" if cpu is None else f"{cpu:,.0f} µs"
                                               for cpu in row) + " |")
    lines.append("| **bare Klein / queryhttp** | " + " | ".join(ratios) + " |")
    return lines


def stream_table(args, runs, mixed, memory):
    lines = ["#### Streaming, latency under load, memory", "", "| measurement | result | target |",
             "|---|---:|---|"]
    ok = [r for r in runs if r.get("finished")]
    if ok:
        rate = _median(r["rows_per_s"] for r in ok)
        lines.append(f"| `SELECT * FROM numbers({args.fast_rows:,})` paged to the end "
                     f"(median of {len(ok)}) | {rate:,.0f} rows/s | ≥ 500,000 rows/s |")
    else:
        lines.append(f"| `SELECT * FROM numbers({args.fast_rows:,})` paged to the end | n/a: "
                     f"{(_first_error(runs) or 'did not finish in time')[:150]} | ≥ 500,000 rows/s |")
    if mixed.get("round_trips"):
        heavy = mixed.get("heavy", [])
        state = ", ".join("error" if "error" in h else ("still running" if not h["finished"]
                          else f"finished in {h['seconds']:.1f}s") for h in heavy)
        lines.append(f"| `SELECT 1` p50 / p99 while 2 heavy queries run ({state}; "
                     f"{mixed['round_trips']} probes) | {_ms(mixed['p50_ms'])} / "
                     f"{_ms(mixed['p99_ms'])} ms | p99 < 50 ms |")
        errs = [h["error"] for h in heavy if "error" in h]
        if errs:
            lines.append(f"| heavy query error | {errs[0][:150]} | |")
    else:
        lines.append(f"| `SELECT 1` p50 / p99 while 2 heavy queries run | n/a: "
                     f"{(_first_error([mixed]) or 'no probe finished')[:150]} | p99 < 50 ms |")
    if memory.get("rss_before_kb"):
        peak = max(filter(None, [memory.get("hwm_kb"), memory.get("peak_sampled_kb")]), default=0)
        growth = (peak - memory["rss_before_kb"]) / 1024
        done = "to the end" if memory.get("finished") else \
            "failed" if memory.get("error") else "stopped at the time limit"
        lines.append(f"| server peak RSS while a slow client ({args.slow_delay * 1000:g} ms "
                     f"between pages) pages {memory.get('rows', 0):,} of {args.stream_rows:,} rows "
                     f"({done}, {memory.get('elapsed_s', 0):.0f}s) | "
                     f"{memory['rss_before_kb'] / 1024:.0f} → {peak / 1024:.0f} MB "
                     f"(+{growth:.0f} MB) | growth < 50 MB |")
        if memory.get("error"):
            lines.append(f"| slow client error | {memory['error'][:150]} | |")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.http", description=__doc__.split("\n")[0])
    p.add_argument("--reps", type=int, default=3, help="rounds of each round-trip measurement")
    p.add_argument("--duration", type=float, default=5.0, help="seconds per round-trip measurement")
    p.add_argument("--warmup", type=float, default=1.0)
    p.add_argument("--fast-rows", type=int, default=1_000_000, help="rows for the streaming rate")
    p.add_argument("--stream-rows", type=int, default=10_000_000,
                   help="rows the slow client pages through (memory measurement)")
    p.add_argument("--slow-delay", type=float, default=0.02, help="slow client: seconds between pages")
    p.add_argument("--memory-seconds", type=float, default=180.0,
                   help="bound on the memory measurement (the query is killed after)")
    p.add_argument("--max-seconds", type=float, default=60.0, help="bound on one streaming run")
    p.add_argument("--mixed-seconds", type=float, default=10.0)
    p.add_argument("--heavy-sql",
                   default="SELECT COUNT(*) FROM numbers(10000000000) WHERE number % 7 = 3",
                   help="the heavy query (two run at once)")
    p.add_argument("--arrow-rows", type=int, default=1_000_000,
                   help="rows of the Arrow vs JSON measurement")
    p.add_argument("--only", default="roundtrip,insert,stream,mixed,memory,arrow")
    p.add_argument("--server-arg", action="append", default=[],
                   help="extra option for twistd queryhttp (repeatable)")
    p.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin CPUs")
    p.add_argument("--quick", action="store_true",
                   help="1 round of 2 s, 200,000 streamed rows (and Arrow vs JSON rows), "
                        "1,000,000 for memory")
    args = p.parse_args(argv)
    if args.quick:
        args.reps, args.duration, args.warmup = 1, 2.0, 0.5
        args.fast_rows, args.stream_rows, args.mixed_seconds = 200_000, 1_000_000, 4.0
        args.arrow_rows = 200_000
    return args


def main(argv=None):
    args = parse_args(argv)
    only = set(args.only.split(","))
    started = time.monotonic()
    import importlib.metadata as md

    versions = ", ".join(f"{p} {md.version(p)}" for p in ("twisted", "klein"))
    print(f"## bench.http (Python {sys.version.split()[0]}, {versions}, {os.cpu_count()} CPUs, "
          f"{'server on CPU 0, load generator on CPU 1' if _pinning(0, args.pin) else 'no pinning'}"
          f", {time.strftime('%Y-%m-%d %H:%M')})\n", flush=True)
    runs, streams, mixed, memory, arrow, inserts = {}, [], {}, {}, {}, []
    if only & {"roundtrip", "insert", "stream", "mixed", "arrow"}:
        qh = start_queryhttp(args)
        base = start_baseline(args) if "roundtrip" in only else None
        try:
            if "roundtrip" in only:
                runs = roundtrip_scenario(args, qh, base)
            if "insert" in only:
                inserts = insert_scenario(args, qh)
            if "stream" in only:
                streams = stream_scenario(args, qh)
            if "mixed" in only:
                mixed = mixed_scenario(args, qh)
            if "arrow" in only:
                arrow = arrow_scenario(args, qh)
        finally:
            qh.stop()
            if base:
                base.stop()
    if "memory" in only:
        memory = memory_scenario(args)
    if runs:
        print(roundtrip_table(runs) + "\n", flush=True)
    if inserts:
        print(insert_table(inserts) + "\n", flush=True)
    if streams or mixed or memory:
        print(stream_table(args, streams, mixed, memory) + "\n")
    if arrow:
        print(arrow_table(args, arrow) + "\n")
    print(f"_reps={args.reps}, {args.duration:g}s per round-trip measurement; "
          f"total {time.monotonic() - started:.0f}s_")
    return 0


if __name__ == "__main__":
    sys.exit(main())
