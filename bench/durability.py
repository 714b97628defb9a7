"""What durability costs, measured in one run beside sqlite3 on the same disk.

    python -m bench.durability [--rows 1000000] [--duration 3]

- single-row INSERT round trips/s over HTTP at 1 and 8 connections in memory and with
  `--data_dir` and `--fsync always`, beside sqlite3 in WAL mode with synchronous=FULL doing
  autocommit INSERTs in-process from 1 and 8 threads (goal at 8: >= 1.0x sqlite3, by group
  commit; the in-memory column shows what HTTP alone allows);
- a bulk INSERT of `--rows` rows over HTTP with and without `--data_dir` (goal: <= 1.3x);
- recovery time of that table, from the log (after SIGKILL) and from a checkpoint (after
  SIGTERM) (goal <= 5 s);
- data directory bytes per row after the checkpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import sqlite3
import statistics
import tempfile
import threading
import time
import urllib.request

from bench.http import load
from bench.server_process import ServerProcess, queryhttp_command

RECOVERED = re.compile(rb"recovered (\d+) tables, (\d+) rows and (\d+) log records in ([0-9.]+) s")


def sqlite_inserts(path: str, threads: int, duration: float) -> float:
    """Autocommit single-row INSERTs/s into a WAL database with synchronous=FULL."""
    setup = sqlite3.connect(path)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.execute("CREATE TABLE IF NOT EXISTS t (a INTEGER, b TEXT)")
    setup.commit()
    setup.close()
    counts = [0] * threads
    stop = time.perf_counter() + duration

    def work(i):
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=FULL")
        n = 0
        while time.perf_counter() < stop:
            conn.execute("INSERT INTO t VALUES (?, ?)", (n, "x"))
            n += 1
        counts[i] = n
        conn.close()

    started = time.perf_counter()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - started)


def run(url: str, sql: str) -> dict:
    """POST and follow next_uri to the end (the statement's final answer)."""
    def call(path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url + path, data=data, method="POST" if data else "GET")
        req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", "Basic cm9vdDo=")
        with urllib.request.urlopen(req, timeout=600) as resp:
            return json.loads(resp.read())

    answer = call("/v1/query", {"sql": sql, "pagination": {"wait_time_secs": 10}})
    while answer.get("next_uri"):
        answer = call(answer["next_uri"])
    if answer["state"] != "Succeeded":
        raise RuntimeError(f"{sql}: {answer['error']}")
    return answer


def start(*args: str) -> ServerProcess:
    return ServerProcess(queryhttp_command(*args), "twistd queryhttp", keep_lines=200, timeout=120)


def bulk_seconds(server: ServerProcess, rows: int) -> float:
    run(server.url, "CREATE TABLE big (id BIGINT, twice BIGINT, label VARCHAR)")
    started = time.perf_counter()
    run(server.url, f"INSERT INTO big SELECT number, number * 2, concat('row-', number::VARCHAR) "
                    f"FROM numbers({rows})")
    return time.perf_counter() - started


def recovery(server_output: bytes) -> tuple[float, int]:
    found = RECOVERED.findall(server_output)
    if not found:
        raise RuntimeError("the server did not say what it recovered:\n" + server_output.decode(errors="replace"))
    return float(found[-1][3]), int(found[-1][2])


def directory_bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(path, name)) for name in os.listdir(path))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.durability", description=__doc__.split("\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--duration", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=3, help="bulk INSERT rounds (median)")
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="queryhttp-durability-")
    try:
        print(f"single-row INSERT round trips/s ({args.duration:.0f} s each):")
        print(f"{'clients':>8} {'in memory':>10} {'fsync on':>10} {'sqlite3':>10} {'vs sqlite3':>11}")
        data_dir = os.path.join(work, "data")
        rates: dict = {}
        for label, server_args in (("memory", ()), ("fsync", ("--data_dir", data_dir))):
            server = start(*server_args)
            try:
                run(server.url, "CREATE TABLE t (a INT, b VARCHAR)")
                for clients in (1, 8):
                    ours = load(argparse.Namespace(pin=False), "roundtrip", server.port, "--sql",
                                "INSERT INTO t VALUES (1, 'x')", "--concurrency", clients,
                                "--duration", args.duration, "--warmup", 0.5)
                    if ours.get("error") or ours.get("errors"):
                        raise RuntimeError(f"load failed: {ours}")
                    rates[label, clients] = ours["round_trips_per_s"]
            finally:
                server.stop()
        shutil.rmtree(data_dir)
        for clients in (1, 8):
            theirs = sqlite_inserts(os.path.join(work, f"sqlite-{clients}.db"), clients, args.duration)
            ours = rates["fsync", clients]
            print(f"{clients:>8} {rates['memory', clients]:>10.0f} {ours:>10.0f} {theirs:>10.0f} "
                  f"{ours / theirs:>10.2f}x")

        print(f"\nbulk INSERT ... SELECT of {args.rows:,} rows over HTTP (median of {args.rounds}):")
        plain_runs, logged_runs = [], []
        for round_number in range(args.rounds):  # alternated: the machine's noise hits both
            memory_only = start()
            try:
                plain_runs.append(bulk_seconds(memory_only, args.rows))
            finally:
                memory_only.stop()
            shutil.rmtree(data_dir, ignore_errors=True)
            server = start("--data_dir", data_dir)
            try:
                logged_runs.append(bulk_seconds(server, args.rows))
            finally:
                if round_number == args.rounds - 1:
                    os.kill(server.process.pid, signal.SIGKILL)  # recovery below replays the log
                    server.process.wait()
                else:
                    server.stop()
        plain, logged = statistics.median(plain_runs), statistics.median(logged_runs)
        ratios = sorted(b / a for a, b in zip(plain_runs, logged_runs, strict=True))
        print(f"  in memory      {plain:7.2f} s")
        print(f"  --data_dir     {logged:7.2f} s   {statistics.median(ratios):.2f}x "
              f"(per-round ratios {', '.join(f'{r:.2f}' for r in ratios)}; goal <= 1.3x)")

        server = start("--data_dir", data_dir)  # after SIGKILL: replays the log
        from_log, records = recovery(server.output)
        server.stop()  # SIGTERM: checkpoint
        server = start("--data_dir", data_dir)
        from_checkpoint, _ = recovery(server.output)
        count = run(server.url, "SELECT count(*) FROM big")["data"][0][0]
        server.stop()
        size = directory_bytes(data_dir)
        print(f"\nrecovery of {int(count):,} rows (goal <= 5 s):")
        print(f"  from the log ({records} records) {from_log:6.2f} s")
        print(f"  from a checkpoint    {from_checkpoint:6.2f} s")
        print(f"\ndata directory: {size / 1e6:.1f} MB, {size / int(count):.1f} bytes per row")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
