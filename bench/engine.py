"""Engine benchmark: queryhttp's embedded engine beside sqlite3, sqlglot's executor and a Python floor.

    python -m bench.engine                      # 100,000 rows (all queries) + 1,000,000 (scan subset)
    python -m bench.engine --rows 100000 --reps 7 --queries topk,join_dim
    python -m bench.engine --quick              # 10,000 rows, 3 reps: a minute-sized run

Every SELECT is timed including building the Python rows (`list(result)` for queryhttp,
`fetchall()` for sqlite3, `.rows` for sqlglot). Rounds are interleaved (each round runs every
engine once), `gc.collect()` runs before each timed call and the base data is `gc.freeze()`-d.
Cells are medians in ms; ratio columns are medians of per-round ratios (same round, same
noise). Every engine's result is checked against the floor, normalised. sqlglot is optional
(`pip install .[bench]`). Each (engine, query) gets a time budget (--budget, reps are cut to
fit) and a hard timeout (--timeout).
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import sqlite3
import statistics
import sys
import time

from bench import workload as W
from bench.timeout import HardTimeout, alarm_handler, hard_timeout

ENGINES = ("queryhttp", "sqlite3", "duckdb", "sqlglot", "floor")
LOAD_CHUNK_ROWS = 10_000


class Unavailable(Exception):
    """An engine cannot run this benchmark at all (not installed, load failed)."""


# --------------------------------------------------------------------------- engines

class QueryHTTPEngine:
    """The embedded engine, used only through Database().session().execute(sql)."""

    name = "queryhttp"

    def __init__(self, t, d):
        import engine

        self.session = engine.Database().session()
        self.load_seconds = 0.0
        t0 = time.perf_counter()
        try:
            self._run(W.T_DDL)
            self._run(W.D_DDL)
            for table, rows in (("t", t), ("d", d)):
                for i in range(0, len(rows), LOAD_CHUNK_ROWS):
                    chunk = rows[i:i + LOAD_CHUNK_ROWS]
                    self._run(f"INSERT INTO {table} VALUES " + ", ".join(map(W.values_row, chunk)))
            self._run(W.EV_DDL)
            events = W.gen_events(t)
            for i in range(0, len(events), LOAD_CHUNK_ROWS):
                chunk = events[i:i + LOAD_CHUNK_ROWS]
                self._run("INSERT INTO ev VALUES " + ", ".join(map(W.events_values_row, chunk)))
        except Exception as exc:
            raise Unavailable(f"loading the tables failed: {type(exc).__name__}: "
                              f"{str(exc)[:150]}") from exc
        self.load_seconds = time.perf_counter() - t0

    def _run(self, sql):
        return list(self.session.execute(sql))

    def select(self, q):
        return self._run(q["sql"])

    def reset_t2(self):
        self._run("DROP TABLE IF EXISTS t2")
        self._run(W.T2_DDL)

    def run_inserts(self, sqls):
        execute = self.session.execute
        for sql in sqls:
            list(execute(sql))

    def count_t2(self):
        return self._run("SELECT COUNT(*) FROM t2")[0][0]


class _DbApiWrites:
    """The INSERT side of the DB-API peers (sqlite3, DuckDB): `self.conn` runs the statements."""

    def reset_t2(self):
        self.conn.execute("DROP TABLE IF EXISTS t2")
        self.conn.execute(W.T2_DDL)

    def run_inserts(self, sqls):
        execute = self.conn.execute
        for sql in sqls:
            execute(sql)

    def count_t2(self):
        return self.conn.execute("SELECT COUNT(*) FROM t2").fetchone()[0]


class SqliteEngine(_DbApiWrites):
    name = "sqlite3"

    def __init__(self, t, d):
        t0 = time.perf_counter()
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute(W.T_DDL)
        self.conn.execute(W.D_DDL)
        self.conn.executemany("INSERT INTO t VALUES (?,?,?,?,?)", t)
        self.conn.executemany("INSERT INTO d VALUES (?,?,?)", d)
        self.conn.execute(W.EV_DDL_TEXT)
        self.conn.executemany("INSERT INTO ev VALUES (?,?,?,?)",
                              [(i, ts.isoformat(sep=" "), day.isoformat(), attrs)
                               for i, ts, day, attrs in W.gen_events(t)])
        self.conn.commit()
        self.load_seconds = time.perf_counter() - t0

    def select(self, q):
        return self.conn.execute(q.get("sqlite_sql", q["sql"])).fetchall()


class DuckDBEngine(_DbApiWrites):
    """DuckDB in memory on one thread, through its Python API (`fetchall()` builds the rows, as
    for sqlite3): the column-at-a-time engine in C that the aggregation goals compare with."""

    name = "duckdb"

    def __init__(self, t, d):
        try:
            import duckdb
        except ImportError:
            raise Unavailable("duckdb is not installed (pip install .[bench])") from None
        t0 = time.perf_counter()
        self.conn = conn = duckdb.connect(":memory:", config={"threads": 1})
        conn.execute(W.T_DDL)
        conn.execute(W.D_DDL)
        conn.execute("CREATE TABLE ev (id INTEGER, ts TIMESTAMP, d DATE, attrs JSON)")
        for table, rows, width in (("t", t, 5), ("d", d, 3), ("ev", W.gen_events(t), 4)):
            _duckdb_load(conn, table, rows, width)
        self.load_seconds = time.perf_counter() - t0

    def select(self, q):
        return self.conn.execute(q.get("duckdb_sql", q["sql"])).fetchall()


def _duckdb_load(conn, table, rows, width):
    """Rows into a DuckDB table: as an Arrow table when pyarrow is there (executemany of 100,000
    rows takes minutes), else row by row."""
    try:
        import pyarrow
    except ImportError:
        conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * width)})", rows)
        return
    columns = list(zip(*rows, strict=True)) if rows else [[] for _ in range(width)]
    names = [f"c{i}" for i in range(width)]
    arrow = pyarrow.table(dict(zip(names, map(list, columns), strict=True)))  # noqa: F841
    conn.execute(f"INSERT INTO {table} SELECT * FROM arrow")


class SqlglotEngine:
    """sqlglot's pure-Python executor over pre-built tables (only optimise+plan+execute timed)."""

    name = "sqlglot"

    def __init__(self, t, d):
        try:
            from sqlglot.executor import execute
            from sqlglot.executor.table import Table
        except ImportError:
            raise Unavailable("sqlglot is not installed (pip install .[bench])") from None
        t0 = time.perf_counter()
        self.execute = execute
        self.tables = {"t": Table(W.T_COLS, t), "d": Table(W.D_COLS, d),
                       "ev": Table(("id", "ts", "d", "attrs"), W.gen_events(t))}
        self.load_seconds = time.perf_counter() - t0

    def select(self, q):
        return self.execute(q["sql"], tables=self.tables).rows

    def reset_t2(self):
        raise Unavailable("sqlglot's executor accepts INSERT but does not insert")


class FloorEngine:
    name = "floor"

    def __init__(self, t, d):
        self.t, self.d, self.t2 = t, d, []
        self.load_seconds = 0.0

    def select(self, q):
        return q["floor"](self.t, self.d)

    def reset_t2(self):
        self.t2 = []

    def run_inserts(self, sqls):
        for sql in sqls:
            W.floor_insert(sql, self.t2)

    def count_t2(self):
        return len(self.t2)


ENGINE_CLASSES = {"queryhttp": QueryHTTPEngine, "sqlite3": SqliteEngine, "duckdb": DuckDBEngine,
                  "sqlglot": SqlglotEngine, "floor": FloorEngine}


# --------------------------------------------------------------------------- timing

def timed(fn, *args, timeout=0.0):
    """(seconds, result) of one call, with gc collected first and a hard timeout."""
    gc.collect()
    with hard_timeout(timeout):
        t0 = time.perf_counter()
        result = fn(*args)
        return time.perf_counter() - t0, result


def _error_text(exc):
    if isinstance(exc, HardTimeout):
        return "timeout"
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:100]}"


def measure_selects(engines, queries, t, d, reps, budget, timeout):
    """{query name: {"rows_out", "times": {engine: [s]}, "status": {engine: text}}}."""
    out = {}
    for q in queries:
        ref = W.normalise(q["floor"](t, d), q["kind"])
        times = {e.name: [] for e in engines}
        status = {}
        want = {e.name: reps for e in engines}
        active = list(engines)
        while active:
            for e in list(active):
                if len(times[e.name]) >= want[e.name]:
                    active.remove(e)
                    continue
                try:
                    dt, rows = timed(e.select, q, timeout=timeout)
                except (Exception, HardTimeout) as exc:
                    status[e.name] = _error_text(exc)
                    active.remove(e)
                    continue
                times[e.name].append(dt)
                if e.name not in status:
                    got = W.normalise(rows, q["kind"])
                    status[e.name] = "ok" if got == ref else \
                        f"MISMATCH: {len(got)} rows, floor {len(ref)}" + _first_difference(got, ref)
                    want[e.name] = max(1, min(reps, int(budget / max(dt, 1e-9))))
        out[q["name"]] = {"rows_out": len(ref), "times": times, "status": status}
        print(_progress_line(q["name"], times, status), file=sys.stderr, flush=True)
    return out


def _first_difference(got, ref):
    for a, b in zip(got, ref, strict=False):
        if a != b:
            return f"; first difference {a!r} vs {b!r}"[:160]
    return ""


def measure_inserts(engines, reps, insert_rows, single_inserts, budget, timeout):
    rows = W.gen_big(insert_rows, seed=W.SEED + 7)
    bulk = W.insert_bulk_sql(rows)
    singles = W.insert_single_sqls(rows[:single_inserts])
    out = {}
    for label, sqls, nrows in (("insert_bulk", [bulk], len(rows)),
                               ("insert_single", singles, len(singles))):
        times = {e.name: [] for e in engines}
        status = {}
        for _ in range(reps):
            for e in engines:
                if status.get(e.name, "ok") != "ok":
                    continue
                if times[e.name] and sum(times[e.name]) > budget:
                    continue
                try:
                    e.reset_t2()
                    dt, _ = timed(e.run_inserts, sqls, timeout=timeout)
                    n = e.count_t2()
                except (Exception, HardTimeout) as exc:
                    status[e.name] = "n/a: " + str(exc) if isinstance(exc, Unavailable) \
                        else _error_text(exc)
                    continue
                status[e.name] = "ok" if n == nrows else f"MISMATCH: {n} rows, want {nrows}"
                times[e.name].append(dt)
        desc = f"{len(sqls)} statement(s), {nrows} rows, {sum(map(len, sqls)):,} chars of SQL"
        out[label] = {"rows_out": nrows, "times": times, "status": status, "sql": desc}
        print(_progress_line(label, times, status), file=sys.stderr, flush=True)
    return out


def _progress_line(name, times, status):
    parts = []
    for eng, ts in times.items():
        st = status.get(eng, "")
        cell = f"{statistics.median(ts) * 1e3:.2f}ms" if ts else "n/a"
        parts.append(f"{eng}={cell}" + ("" if st in ("ok", "") else f" [{st}]"))
    return f"  {name:14s} " + "  ".join(parts)


# --------------------------------------------------------------------------- tables

def fmt_ms(seconds):
    ms = seconds * 1e3
    if ms >= 100:
        return f"{ms:,.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3f}"


def paired_ratio(a, b):
    """Median over rounds of a/b (rounds are interleaved, so each pair shares its noise)."""
    if not a or not b:
        return None
    return statistics.median(x / y for x, y in zip(a, b, strict=False))


def fmt_ratio(r):
    if r is None:
        return "—"
    return f"{r:.2f}×" if r < 10 else f"{r:.0f}×" if r >= 100 else f"{r:.1f}×"


def render_table(measured, engines, title):
    """Markdown table of medians and the paired ratios the issue asks for."""
    names = [e for e in ENGINES if e in engines]
    lines = [f"#### {title}", "",
             "| query | rows out | " + " | ".join(f"{n} ms" for n in names) +
             " | queryhttp/floor | queryhttp/sqlite3 | queryhttp/duckdb | sqlglot/queryhttp |",
             "|---|---:|" + "---:|" * len(names) + "---:|---:|---:|---:|"]
    ratios = {"qf": [], "qs": [], "qd": [], "gq": []}
    notes = []
    for qname, m in measured.items():
        times, status = m["times"], m["status"]
        cells = []
        for n in names:
            st = status.get(n, "")
            if times.get(n):
                cell = fmt_ms(statistics.median(times[n]))
                if st != "ok":
                    cell += " ✗"
            else:
                cell = "n/a"
            if st not in ("ok", ""):
                notes.append(f"{qname} / {n}: {st}")
            cells.append(cell)

        def ok(n, _times=times, _status=status):
            return _times.get(n) if _status.get(n) == "ok" else None

        qf = paired_ratio(ok("queryhttp"), ok("floor"))
        qs = paired_ratio(ok("queryhttp"), ok("sqlite3"))
        qd = paired_ratio(ok("queryhttp"), ok("duckdb"))
        gq = paired_ratio(ok("sqlglot"), ok("queryhttp"))
        if not qname.startswith("insert"):
            for key, r in (("qf", qf), ("qs", qs), ("qd", qd), ("gq", gq)):
                if r is not None:
                    ratios[key].append(r)
        lines.append(f"| {qname} | {m['rows_out']:,} | " + " | ".join(cells) +
                     f" | {fmt_ratio(qf)} | {fmt_ratio(qs)} | {fmt_ratio(qd)} | {fmt_ratio(gq)} |")
    geo = [fmt_ratio(math.exp(statistics.fmean(map(math.log, ratios[k])))) if ratios[k] else "—"
           for k in ("qf", "qs", "qd", "gq")]
    lines.append("| **geomean, SELECTs** | | " + " | " * len(names) + " | ".join(geo) + " |")
    lines.append("")
    lines += [("note: " if n.split(": ", 1)[1].startswith("n/a") else "✗ ") + n for n in notes]
    return "\n".join(lines)


# --------------------------------------------------------------------------- driver

def build_engines(t, d, wanted):
    engines, skipped = [], []
    for name in wanted:
        try:
            engines.append(ENGINE_CLASSES[name](t, d))
            print(f"  loaded {name} in {engines[-1].load_seconds:.2f}s", file=sys.stderr)
        except Unavailable as exc:
            skipped.append(f"{name}: n/a ({exc})")
    return engines, skipped


def run_size(rows, queries, args, engine_names, with_inserts):
    print(f"# {rows:,} rows", file=sys.stderr, flush=True)
    t = W.gen_big(rows)
    d = W.gen_dim()
    engines, skipped = build_engines(t, d, engine_names)
    gc.collect()
    gc.freeze()
    try:
        measured = measure_selects(engines, queries, t, d, args.reps, args.budget, args.timeout)
        if with_inserts:
            measured.update(measure_inserts(engines, args.reps, args.insert_rows,
                                            args.single_inserts, args.budget, args.timeout))
    finally:
        gc.unfreeze()
    text = render_table(measured, engine_names, f"{rows:,}-row table (d: 1,000 rows)")
    loads = ", ".join(f"{e.name} {e.load_seconds:.2f}s" for e in engines if e.load_seconds)
    text += f"\n_load: {loads}; reps={args.reps} (cut to fit a {args.budget:g}s budget per " \
            f"engine and query)_\n"
    for s in skipped:
        text += f"\n{s}"
    return text


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split("\n")[0])
    p.add_argument("--rows", default="100000,1000000",
                   help="comma-separated table sizes (default %(default)s); sizes above "
                        "100,000 run only the scan/aggregate subset unless --queries is given")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--queries", default="",
                   help="comma-separated query names (default all): "
                        + ",".join(q["name"] for q in W.QUERIES) + ",insert")
    p.add_argument("--engines", default=",".join(ENGINES))
    p.add_argument("--quick", action="store_true", help="10,000 rows, 3 reps")
    p.add_argument("--budget", type=float, default=15.0,
                   help="seconds per (engine, query) before reps are cut (default %(default)s)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="hard limit per timed call, seconds (default %(default)s)")
    p.add_argument("--profile", metavar="QUERY",
                   help="instead of the tables: cProfile queryhttp on one query (a name above, "
                        "insert_bulk or insert_single) at the first --rows size")
    p.add_argument("--insert-rows", type=int, default=10_000)
    p.add_argument("--single-inserts", type=int, default=2_000)
    args = p.parse_args(argv)
    if args.quick:
        args.rows, args.reps = "10000", 3
    return args


def profile(args, rows, name, top=25):
    """Print the cProfile of queryhttp running one workload query (time sorted)."""
    import cProfile
    import pstats

    t, d = W.gen_big(rows), W.gen_dim()
    engine = QueryHTTPEngine(t, d)
    if name.startswith("insert"):
        ins = W.gen_big(args.insert_rows, seed=W.SEED + 7)
        sqls = [W.insert_bulk_sql(ins)] if name == "insert_bulk" else \
            W.insert_single_sqls(ins[:args.single_inserts])
        engine.reset_t2()

        def call():
            engine.run_inserts(sqls)
    else:
        query = next(q for q in W.QUERIES if q["name"] == name)

        def call():
            engine.select(query)
    call()  # warm caches (parser, plan cache) as the timed runs do
    if name.startswith("insert"):
        engine.reset_t2()
    profiler = cProfile.Profile()
    profiler.runcall(call)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)
    return 0


def main(argv=None):
    args = parse_args(argv)
    sizes = [int(x) for x in args.rows.split(",") if x]
    if args.profile:
        return profile(args, sizes[0], args.profile)
    chosen = [x for x in args.queries.split(",") if x]
    engine_names = [e for e in args.engines.split(",") if e]
    started = time.perf_counter()
    with alarm_handler():
        import importlib.metadata as md
        versions = [f"Python {platform.python_version()}", f"sqlite {sqlite3.sqlite_version}"]
        for pkg in ("sqlglot", "lark"):
            try:
                versions.append(f"{pkg} {md.version(pkg)}")
            except md.PackageNotFoundError:
                pass
        print(f"## bench.engine ({', '.join(versions)}, {time.strftime('%Y-%m-%d %H:%M')})\n")
        for rows in sizes:
            if chosen:
                queries = [q for q in W.QUERIES if q["name"] in chosen]
                with_inserts = "insert" in chosen
            elif rows > 100_000:
                queries = [q for q in W.QUERIES if q["name"] in W.BIG_QUERIES]
                with_inserts = False
            else:
                queries, with_inserts = W.QUERIES, True
            print(run_size(rows, queries, args, engine_names, with_inserts), flush=True)
            print()
    print(f"_total {time.perf_counter() - started:.0f}s_")
    return 0


if __name__ == "__main__":
    sys.exit(main())
