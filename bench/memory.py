"""Memory benchmark: resident bytes per row and INSERT ... SELECT rows/s, beside sqlite3 `:memory:`.

    python -m bench.memory                        # 1,000,000 rows, the three tables (~2 min)
    python -m bench.memory --rows 100000 --tables narrow --rounds 3

Tables (each filled by one INSERT ... SELECT from a row generator, in both engines):
- narrow: `a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE` filled from `numbers(N)` as issue 24
  describes (a number, number % 1000, number / 7, 'name-' || number % 50000, a date);
- wide: 20 columns (BIGINT, INT, DOUBLE, VARCHAR, DATE four times), each NULL on every other
  row (half the values NULL);
- strings: an id and four VARCHARs (a unique e-mail, a path, a text prefix of 0-63 characters,
  a tag of 100 distinct values).

sqlite3 runs through Python's sqlite3 module on `:memory:` and gets its rows from a recursive
CTE (it has no numbers()); DATE is stored as sqlite's ISO text ('YYYY-MM-DD', what its date
functions use).

How memory is measured: every (engine, table) runs in a fresh subprocess. It imports the
engine, creates the table and warms up (the same INSERT ... SELECT of 100 rows into a second
table, so the parser, compiled code and caches exist before the baseline); then it calls
gc.collect() and glibc's malloc_trim(0) and reads VmRSS from /proc/self/status (the baseline),
runs the timed INSERT ... SELECT of N rows, and reads VmRSS again after gc.collect() and
malloc_trim(0). Bytes per row = (RSS after - RSS before) / N: everything the process keeps
for the rows (Python objects, C arrays, sqlite's pages), not only what tracemalloc sees. The
peak column is VmHWM - baseline (transient memory of the INSERT). Rows/s times the INSERT
... SELECT alone. Rounds alternate the engines; cells are medians, ratios medians of
per-round ratios. Linux only (/proc).

Start-up leaves a few MB of free heap that the rows reuse first, so below ~200,000 rows the
RSS figure understates (at 20,000 rows queryhttp shows ~8 B/row). `--tracemalloc` adds a
third child per round that counts queryhttp's Python allocations kept by the INSERT (exact
for a pure-Python engine whatever the row count, and slower, so its time is not reported);
sqlite3 allocates outside Python's allocator and has RSS only.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

PACKAGE_PARENT = Path(__file__).resolve().parent.parent
ENGINES = ("queryhttp", "sqlite3")
WARMUP_ROWS = 100
LOREM = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt")  # 89 characters: the text column takes a 0-63 character prefix


# --------------------------------------------------------------------------- tables

def narrow_table():
    columns = "a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE"
    queryhttp = ("SELECT number, number % 1000, number / 7, "
                 "concat('name-', (number % 50000)::VARCHAR), to_date(number % 20000) "
                 "FROM numbers({n})")
    sqlite = ("SELECT number, number % 1000, number / 7.0, 'name-' || (number % 50000), "
              "date((number % 20000) * 86400, 'unixepoch') FROM n")
    return columns, queryhttp, sqlite, "d"


WIDE_TYPES = ("BIGINT", "INT", "DOUBLE", "VARCHAR", "DATE")


def _wide_value(k, kind, dialect):
    if kind == "BIGINT":
        return f"number * {k + 1}"
    if kind == "INT":
        return f"number % {1000 + k}"
    if kind == "DOUBLE":
        return f"number / {k + 7}" + (".0" if dialect == "sqlite" else "")
    if kind == "VARCHAR":
        if dialect == "sqlite":
            return f"'v' || (number % {5000 * (k + 1)})"
        return f"concat('v', (number % {5000 * (k + 1)})::VARCHAR)"
    if dialect == "sqlite":
        return f"date((number % 20000 + {k}) * 86400, 'unixepoch')"
    return f"to_date(number % 20000 + {k})"


def wide_table():
    kinds = [WIDE_TYPES[k % len(WIDE_TYPES)] for k in range(20)]
    columns = ", ".join(f"c{k} {kind}" for k, kind in enumerate(kinds))

    def select(dialect):
        items = [f"CASE WHEN (number + {k}) % 2 = 0 THEN NULL ELSE "
                 f"{_wide_value(k, kind, dialect)} END" for k, kind in enumerate(kinds)]
        source = "n" if dialect == "sqlite" else "numbers({n})"
        return f"SELECT {', '.join(items)} FROM {source}"

    return columns, select("queryhttp"), select("sqlite"), "c3"


def strings_table():
    columns = "id BIGINT, email VARCHAR, path VARCHAR, note VARCHAR, tag VARCHAR"
    queryhttp = ("SELECT number, concat('user', number::VARCHAR, '@example.com'), "
                 "concat('/srv/data/', (number % 1000)::VARCHAR, '/', "
                 "(number * 7919 % 1000003)::VARCHAR, '.parquet'), "
                 f"substr('{LOREM}', 1, number % 64), concat('tag-', (number % 100)::VARCHAR) "
                 "FROM numbers({n})")
    sqlite = ("SELECT number, 'user' || number || '@example.com', "
              "'/srv/data/' || (number % 1000) || '/' || (number * 7919 % 1000003) || '.parquet', "
              f"substr('{LOREM}', 1, number % 64), 'tag-' || (number % 100) FROM n")
    return columns, queryhttp, sqlite, "note"


TABLES = {"narrow": narrow_table, "wide": wide_table, "strings": strings_table}


# --------------------------------------------------------------------------- the child

def _status_kb(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _settle():
    """Collect garbage and hand freed heap pages back to the system (glibc), then RSS in bytes."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    return _status_kb("VmRSS") * 1024


def _reset_peak():
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


class QueryHTTPTarget:
    def __init__(self):
        import engine

        self.session = engine.Database().session()

    def run(self, sql):
        return list(self.session.execute(sql))

    def fill(self, table, select, n):
        return self.run(f"INSERT INTO {table} {select.format(n=n)}")

    def check(self, table, column):
        return tuple(self.run(f"SELECT count(*), sum(length({column})) FROM {table}")[0])


class SqliteTarget:
    def __init__(self):
        self.conn = sqlite3.connect(":memory:")

    def run(self, sql):
        return self.conn.execute(sql).fetchall()

    def fill(self, table, select, n):
        cte = f"WITH RECURSIVE n(number) AS (SELECT 0 UNION ALL SELECT number + 1 FROM n " \
              f"WHERE number < {n - 1}) "
        self.conn.execute(f"{cte}INSERT INTO {table} {select}")
        self.conn.commit()

    def check(self, table, column):
        return tuple(self.run(f"SELECT count(*), sum(length({column})) FROM {table}")[0])


def child(engine_name, table_name, rows, traced=False):
    columns, queryhttp_select, sqlite_select, check_column = TABLES[table_name]()
    target = QueryHTTPTarget() if engine_name == "queryhttp" else SqliteTarget()
    select = queryhttp_select if engine_name == "queryhttp" else sqlite_select
    target.run(f"CREATE TABLE t ({columns})")
    target.run(f"CREATE TABLE warmup ({columns})")
    target.fill("warmup", select, WARMUP_ROWS)
    before = _settle()
    peak_known = _reset_peak()
    if traced:
        tracemalloc.start()
    started = time.perf_counter()
    target.fill("t", select, rows)
    seconds = time.perf_counter() - started
    if traced:
        gc.collect()
        traced_bytes = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return {"engine": engine_name, "table": table_name, "rows": rows,
                "traced_bytes": traced_bytes}
    peak = _status_kb("VmHWM") * 1024 if peak_known else None
    after = _settle()
    count, text_length = target.check("t", check_column)
    if count != rows:
        raise SystemExit(f"{engine_name}: {count} rows in t, expected {rows}")
    return {"engine": engine_name, "table": table_name, "rows": rows, "seconds": seconds,
            "bytes": after - before, "peak_bytes": None if peak is None else peak - before,
            "text_length": text_length}


# --------------------------------------------------------------------------- the parent

def run_child(engine_name, table_name, rows, timeout, traced=False):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_PARENT),
                                                      env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "bench.memory", "--child", engine_name, table_name,
               str(rows)] + (["--child-traced"] if traced else [])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1][:200]}
    return json.loads(done.stdout)


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def measure(args):
    results = {}
    for table_name in args.tables:
        runs = {name: [] for name in (*ENGINES, "traced")}
        for round_number in range(args.rounds):
            order = ENGINES if round_number % 2 == 0 else ENGINES[::-1]
            for engine_name in order:
                run = run_child(engine_name, table_name, args.rows, args.timeout)
                runs[engine_name].append(run)
                print(f"  {table_name} {engine_name}: " + (
                    run["error"] if "error" in run else
                    f"{per_row(run):,.0f} B/row, {speed(run):,.0f} rows/s"),
                    file=sys.stderr, flush=True)
            if args.tracemalloc:
                runs["traced"].append(run_child("queryhttp", table_name, args.rows,
                                                args.timeout, traced=True))
        results[table_name] = runs
    return results


def per_row(run):
    return run["bytes"] / run["rows"]


def peak_per_row(run):
    return None if run["peak_bytes"] is None else run["peak_bytes"] / run["rows"]


def speed(run):
    return run["rows"] / run["seconds"]


def report(args, results):
    print(f"bench.memory: {args.rows:,} rows, {args.rounds} round(s), Python "
          f"{platform.python_version()}, sqlite {sqlite3.sqlite_version}; resident bytes per "
          f"row (RSS delta, fresh process per engine) and INSERT ... SELECT rows/s")
    header = ("table", "qh B/row", "sqlite B/row", "qh/sqlite", "qh peak B/row",
              "qh rows/s", "sqlite rows/s", "qh/sqlite speed")
    print("  ".join(f"{h:>15}" for h in header))
    for table_name, runs in results.items():
        errors = [r["error"] for name in runs for r in runs[name] if "error" in r]
        if errors:
            print(f"{table_name:>15}  error: {errors[0]}")
            continue
        qh, lite = runs["queryhttp"], runs["sqlite3"]
        if qh[0]["text_length"] != lite[0]["text_length"]:
            print(f"{table_name:>15}  note: the engines' strings differ in total length "
                  f"({qh[0]['text_length']} vs {lite[0]['text_length']})")
        cells = (table_name,
                 _fmt(_median(map(per_row, qh)), ",.0f"),
                 _fmt(_median(map(per_row, lite)), ",.0f"),
                 _fmt(_median(per_row(a) / per_row(b) for a, b in zip(qh, lite, strict=True)), ".2f") + "x",
                 _fmt(_median(map(peak_per_row, qh)), ",.0f"),
                 _fmt(_median(map(speed, qh)), ",.0f"),
                 _fmt(_median(map(speed, lite)), ",.0f"),
                 _fmt(_median(speed(a) / speed(b) for a, b in zip(qh, lite, strict=True)), ".2f") + "x")
        print("  ".join(f"{c:>15}" for c in cells))
        if runs["traced"]:
            traced = _median(r["traced_bytes"] / r["rows"] for r in runs["traced"])
            print(f"{'':>15}  queryhttp, tracemalloc: {traced:,.0f} B/row kept")
    if args.json:
        print(json.dumps(results))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--tables", default=",".join(TABLES),
                        help="comma-separated subset of: " + ", ".join(TABLES))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds allowed to one (engine, table) subprocess")
    parser.add_argument("--json", action="store_true", help="also print the raw runs as JSON")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also count queryhttp's Python allocations (a third child)")
    parser.add_argument("--child-traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=3, metavar=("ENGINE", "TABLE", "ROWS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        engine_name, table_name, rows = args.child
        print(json.dumps(child(engine_name, table_name, int(rows), args.child_traced)))
        return
    args.tables = [t.strip() for t in args.tables.split(",") if t.strip()]
    unknown = [t for t in args.tables if t not in TABLES]
    if unknown or args.rows < 1:
        parser.error(f"unknown table(s) {unknown}" if unknown else "--rows must be >= 1")
    report(args, measure(args))


if __name__ == "__main__":
    main()
