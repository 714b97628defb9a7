"""Stall benchmark: pathological statements beside a `SELECT 1` prober; the slowest probe per case.

    pip install .                          # twistd runs the installed copy of queryhttp
    python -m bench.stall                  # every case, each bounded (30 s): 2 to 7 minutes
    python -m bench.stall --quick          # each case bounded to 5 s: about 1.5 minutes
    python -m bench.stall --cases round,like --bound 10

Each case gets a fresh `twistd queryhttp` on 127.0.0.1 (a case may wedge or kill its server, and
a fresh process gives every case the same RSS baseline) and a prober process (bench.stall_probe)
that sends `SELECT 1` every 20 ms over one keep-alive connection. The case's setup runs, then its
statement runs until it ends or until the case's bound, whichever comes first: at the bound the
statement is killed through its kill_uri and the harness stops waiting (a server that never
answers is simply stopped, SIGKILL after 2 s). Reported per case: how the statement ended (state,
error code, rows), the slowest and the p99 probe round trip while it ran (a probe still waiting
when the case ends counts with the time it has waited so far), and the server's RSS growth (the
peak of VmRSS sampled every 20 ms and of VmHWM, minus VmRSS before the statement). A server that
grows past --rss-ceiling-mb is killed on the spot. A hard overall timeout (--timeout) ends the
run whatever the server does.

A case is "within 100 ms" when every probe that overlapped it succeeded within 100 ms; a memory
case "fails cleanly" when the statement is refused with code 2411 (MemoryExceedsLimit) before
the server has grown by 1.5 GB. Exit status 0 unless the harness itself broke: this benchmark
measures, it does not judge.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench import timeout as hard
from bench.http import CLIENT_CPU, SERVER_CPU, _env, _pinning
from bench.server_process import ServerProcess, queryhttp_command

AUTH = "Basic cm9vdDo="  # root with an empty password
PROBE_TARGET_MS = 100.0
MEMORY_CODE = 2411  # MemoryExceedsLimit
MEMORY_GROWTH_TARGET_MB = 1536
LONG_POLL_SECS = 1  # pagination.wait_time_secs of the harness's own queries
LONG_POLL_GRACE = 1.5  # a request's socket timeout beyond the bound: one long poll's answer


# --------------------------------------------------------------------------- the cases

@dataclass(frozen=True)
class Case:
    """One pathological statement, run in a fresh server after `setup`."""

    name: str  # the id for --cases
    title: str  # what the report calls it
    statement: str | Callable[[], str]  # built on demand when large
    setup: tuple[str, ...] = ()
    settings: dict[str, str] = field(default_factory=dict)  # session settings of the statement
    bound: float = 30.0  # seconds the statement may run before it is killed
    memory: bool = False  # must be refused with MEMORY_CODE instead of growing the server
    # Queries started (and never read) just before the statement, within a bound of their
    # own (ABANDON_SECS at least): the statement's bound starts once they are all started.
    abandoned: int = 0

    def sql(self) -> str:
        return self.statement() if callable(self.statement) else self.statement


def _in_list_sql(items: int = 150_000) -> str:
    return ("SELECT count(*) FROM numbers(10) WHERE number IN ("
            + ", ".join(map(str, range(items))) + ")")


def _insert_sql(rows: int = 150_000) -> str:
    return "INSERT INTO wide VALUES " + ", ".join(f"({i}, 'row {i}')" for i in range(rows))


def _nested_sql(levels: int = 300) -> str:
    # Nullable arithmetic: every level is a NULL check plus an addition in generated code.
    return ("SELECT " + "(" * levels + "NULLIF(number, 0)" + " + 1)" * levels
            + " FROM numbers(1000)")


CASES: tuple[Case, ...] = (
    Case("like", "backtracking LIKE (8 × %a, no match)",
         "SELECT repeat('a', 60) LIKE '%a%a%a%a%a%a%a%a%ab'"),
    Case("skewjoin", "join of 6,000 × 6,000 rows on one key (36M pairs)",
         "SELECT count(*) FROM l JOIN r ON l.k = r.k",
         setup=("CREATE TABLE l AS SELECT 1 AS k FROM numbers(6000)",
                "CREATE TABLE r AS SELECT 1 AS k FROM numbers(6000)")),
    Case("inlist", "IN list of 150,000 items", _in_list_sql),
    # the largest IN list the default limits accept (in_list_items, within max_sql_bytes):
    # parsed in a thread, bound on the event loop
    Case("inlist_max", "IN list of 100,000 items (accepted: at the limits)",
         lambda: _in_list_sql(100_000)),
    Case("round", "ROUND(1, -10000000)", "SELECT ROUND(1, -10000000)"),
    Case("insert", "INSERT ... VALUES of 150,000 rows in one POST", _insert_sql,
         setup=("CREATE TABLE wide (a BIGINT, b VARCHAR)",)),
    # the largest INSERT of this shape within max_sql_bytes: parsed in a thread, converted in steps
    Case("insert_max", "INSERT ... VALUES of 45,000 rows (accepted: under max_sql_bytes)",
         lambda: _insert_sql(45_000), setup=("CREATE TABLE wide (a BIGINT, b VARCHAR)",)),
    Case("crossjoin", "ORDER BY over a 100,000 × 100,000 cross join, max_memory_usage 1 GiB",
         "SELECT a.number + b.number FROM numbers(100000) a CROSS JOIN numbers(100000) b "
         "ORDER BY 1", settings={"max_memory_usage": str(1 << 30)}, memory=True),
    Case("abandoned", "a 65th client's SELECT 1 after 64 abandoned numbers(10000000) queries",
         "SELECT 1", abandoned=64),
    Case("replace", "REPLACE building 100M characters",
         "SELECT length(REPLACE(REPEAT('a', 10000), 'a', REPEAT('b', 10000)))"),
    # the code review's N12: refused from the projected size before any replacement is made
    Case("regexp_replace", "regexp_replace of 1M literal matches by 100 characters each",
         "SELECT regexp_replace(repeat('a', 1000000), 'a', repeat('b', 100))"),
    # a pattern that is not a literal: matched one at a time, refused at regex_replace_matches
    Case("regexp_replace_re", "regexp_replace of a 1M-match pattern (not a literal)",
         "SELECT length(regexp_replace(repeat('a', 1000000), 'a|c', 'b'))"),
    # the code review's N9: each string is charged before it is built, not after the step
    Case("repeat_budget", "REPEAT of 50M characters × 2,048 rows, max_memory_usage 512 MiB",
         "SELECT repeat('x', 50000000 + number) FROM numbers(2048)",
         settings={"max_memory_usage": str(512 << 20)}, memory=True),
    Case("correlated", "correlated subquery: 3,000 outer rows over a 200,000-row table",
         "SELECT count(*) FROM outer_t o "
         "WHERE o.k < (SELECT count(*) FROM big b WHERE b.v = o.k)",
         setup=("CREATE TABLE big AS SELECT number AS k, number % 1000 AS v "
                "FROM numbers(200000)",
                "CREATE TABLE outer_t AS SELECT number AS k FROM numbers(3000)")),
    Case("sort", "ORDER BY a, b DESC over 700,000 rows (read to the end)",
         "SELECT number % 1000 AS a, number AS b FROM numbers(700000) ORDER BY a, b DESC"),
    Case("nesting", "300 levels of nested nullable arithmetic", _nested_sql),
)

ABANDONED_SQL = "SELECT * FROM numbers(10000000)"
ABANDON_SECS = 30.0  # each POST answers with a first page, slower as more producers run


# --------------------------------------------------------------------------- the client

class Client:
    """One keep-alive connection speaking the query protocol; every call has a timeout."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def call(self, method: str, path: str, body: bytes | None, timeout: float):
        """(status, answer object or None, raw body); socket errors propagate, closing first."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        self.conn.timeout = timeout
        if self.conn.sock is not None:
            self.conn.sock.settimeout(timeout)
        headers = {"Authorization": AUTH}
        if body is not None:
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            raw = response.read()
        except BaseException:
            self.close()
            raise
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = None
        return response.status, answer if isinstance(answer, dict) else None, raw


@dataclass
class Outcome:
    """How one statement ended, as the client saw it."""

    state: str = "not run"
    code: int | None = None
    message: str = ""
    rows: int = 0
    written: int = 0
    seconds: float = 0.0
    kill_uri: str | None = None
    echoed_settings: dict | None = None
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        if not self.seconds:  # never sent
            return self.state
        text = self.state + (f" {self.code}" if self.code is not None else "")
        if self.rows or self.state == "Succeeded":
            text += f", {self.rows:,} rows"
        if self.written:
            text += f", {self.written:,} written"
        return text + f" ({self.seconds:.1f}s)"


def _brief(message: str, keep: int = 70) -> str:
    """One line; a long message keeps its start and its end (where parsers put the reason)."""
    text = " ".join(message.split())
    return text if len(text) <= 2 * keep + 3 else f"{text[:keep]} … {text[-keep:]}"


def _remaining(deadline: float) -> float:
    return max(0.05, deadline - time.monotonic()) + LONG_POLL_GRACE


def kill(port: int, kill_uri: str | None, outcome: Outcome) -> None:
    """GET the kill_uri on a fresh connection (the statement's own one may be wedged)."""
    if not kill_uri:
        return
    client = Client(port)
    try:
        status, _, _ = client.call("GET", kill_uri, None, 2.0)
        outcome.notes.append(f"killed (HTTP {status})")
    except (OSError, http.client.HTTPException):
        outcome.notes.append("kill unanswered within 2 s")
    finally:
        client.close()


def run_statement(client: Client, sql: str, settings: dict, deadline: float,
                  read: bool = True) -> Outcome:
    """POST `sql` and page it to the end, or to `deadline` (then kill it). With read=False,
    return after the POST's answer, leaving the query running and unread."""
    out = Outcome()
    body = {"sql": sql, "pagination": {"wait_time_secs": LONG_POLL_SECS}}
    if settings:
        body["session"] = {"settings": settings}
    started = time.monotonic()
    try:
        status, answer, raw = client.call("POST", "/v1/query", json.dumps(body).encode(),
                                          _remaining(deadline))
        if answer is not None:
            out.echoed_settings = (answer.get("session") or {}).get("settings")
        while True:
            if status >= 400 or answer is None:
                out.state = f"HTTP {status}"
                out.message = _brief(raw[:4000].decode(errors="replace"))
                break
            out.kill_uri = answer.get("kill_uri") or out.kill_uri
            out.rows += len(answer.get("data") or ())
            progress = (answer.get("stats") or {}).get("write_progress") or {}
            out.written = max(out.written, progress.get("rows") or 0)
            error = answer.get("error")
            if error:
                out.state = answer.get("state") or "Failed"
                details = error if isinstance(error, dict) else {"message": error}
                out.code = details.get("code")
                out.message = _brief(str(details.get("message", "")))
                break
            out.state = answer.get("state", "?")
            if not answer.get("next_uri") or not read:
                break
            if time.monotonic() >= deadline:
                out.state += ", killed at the bound"
                kill(client.port, out.kill_uri, out)
                break
            status, answer, raw = client.call("GET", answer["next_uri"], None,
                                              _remaining(deadline))
    except TimeoutError:
        out.state = "no answer by the bound"
        kill(client.port, out.kill_uri, out)
    except (OSError, http.client.HTTPException) as exc:
        out.state = f"connection lost ({type(exc).__name__})"
    out.seconds = time.monotonic() - started
    return out


# --------------------------------------------------------------------------- the observers

@dataclass
class ProbeStats:
    count: int = 0
    failures: int = 0
    first_failure: str = ""
    max_ms: float | None = None
    p99_ms: float | None = None
    stuck: bool = False  # the slowest probe had not been answered when the case ended


class Prober:
    """The bench.stall_probe process and the probes it has reported."""

    def __init__(self, port: int, interval: float, pin: bool):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.stall_probe", "--port", str(port),
             "--interval", str(interval)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(),
            preexec_fn=_pinning(CLIENT_CPU, pin), start_new_session=True)
        self._lock = threading.Lock()
        self.done: list[tuple[float, float, bool, str]] = []  # (start, seconds, ok, detail)
        self.in_flight: float | None = None  # start of the probe awaiting its answer
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self):
        for line in self.process.stdout:
            parts = line.decode(errors="replace").split()
            with self._lock:
                if parts[:1] == ["S"]:
                    self.in_flight = float(parts[1])
                elif parts[:1] == ["D"] and len(parts) >= 5:
                    self.done.append((float(parts[1]), float(parts[2]), parts[3] == "1",
                                      parts[4]))
                    self.in_flight = None

    def wait_ready(self, answers: int, timeout: float) -> bool:
        """True once `answers` probes have succeeded."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if sum(ok for _, _, ok, _ in self.done) >= answers:
                    return True
            time.sleep(0.02)
        return False

    def window(self, t0: float, t1: float, settle: float) -> ProbeStats:
        """Probes that overlapped [t0, t1]; waits up to `settle` s for one still in flight."""
        settle_until = time.monotonic() + settle
        while time.monotonic() < settle_until:
            with self._lock:
                if self.in_flight is None or self.in_flight > t1:
                    break
            time.sleep(0.01)
        with self._lock:
            latencies = [(s, ok, d) for start, s, ok, d in self.done
                         if start <= t1 and start + s >= t0]
            if self.in_flight is not None and self.in_flight <= t1:
                # Not a failure: its wait so far is its latency, reported as a lower bound.
                latencies.append((time.monotonic() - self.in_flight, True, "unanswered"))
        stats = ProbeStats(count=len(latencies))
        failed = [d for _, ok, d in latencies if not ok]
        stats.failures = len(failed)
        stats.first_failure = failed[0] if failed else ""
        if latencies:
            ordered = sorted(s for s, _, _ in latencies)
            stats.max_ms = 1e3 * ordered[-1]
            stats.p99_ms = 1e3 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            stats.stuck = latencies[-1][2] == "unanswered" and \
                latencies[-1][0] >= ordered[-1]
        return stats

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._reader.join(2)


class MemoryWatch:
    """Samples the server's VmRSS every `period` s; kills the server past the ceiling."""

    def __init__(self, server: ServerProcess, ceiling_mb: float, period: float = 0.02):
        self.server = server
        first = server.memory_kb()
        self.before_kb = first.get("VmRSS", 0)
        self._hwm_before = first.get("VmHWM", 0)
        self.peak_kb = self.before_kb
        self.ceiling_hit = False
        self.ceiling_mb = ceiling_mb
        self._period = period
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.wait(self._period):
            rss = self.server.memory_kb().get("VmRSS")
            if rss is None:  # the process is gone
                return
            self.peak_kb = max(self.peak_kb, rss)
            if rss - self.before_kb > self.ceiling_mb * 1024:
                self.ceiling_hit = True
                self.server.process.kill()
                return

    def stop(self) -> float:
        """Stop sampling; the growth in MB (peak of the samples and of VmHWM, minus before)."""
        self._stop.set()
        self._thread.join(2)
        hwm = self.server.memory_kb().get("VmHWM", 0)
        if hwm > self._hwm_before:  # a new lifetime peak was reached during the case
            self.peak_kb = max(self.peak_kb, hwm)
        return (self.peak_kb - self.before_kb) / 1024


# --------------------------------------------------------------------------- one case

@dataclass
class CaseResult:
    case: Case
    outcome: Outcome = field(default_factory=Outcome)
    probes: ProbeStats = field(default_factory=ProbeStats)
    growth_mb: float | None = None

    @property
    def within(self) -> bool:
        p = self.probes
        return (p.count > 0 and p.failures == 0 and p.max_ms is not None
                and p.max_ms <= PROBE_TARGET_MS)

    @property
    def failed_cleanly(self) -> bool:
        return (self.outcome.code == MEMORY_CODE and self.growth_mb is not None
                and self.growth_mb < MEMORY_GROWTH_TARGET_MB)


_LIVE: list = []  # servers and probers to stop if the overall timeout fires mid-case


def _start_abandoned(client: Client, count: int, deadline: float, out: Outcome) -> list[str]:
    """Start `count` large queries and never read them; their kill_uris."""
    kill_uris, refused = [], []
    if not count:
        return kill_uris
    for _ in range(count):
        if time.monotonic() >= deadline:
            out.notes.append("the bound ran out while starting them")
            break
        started = run_statement(client, ABANDONED_SQL, {}, deadline, read=False)
        if started.kill_uri and started.state in ("Starting", "Running"):
            kill_uris.append(started.kill_uri)
        else:
            refused.append(started.describe())
    out.notes.insert(0, f"{len(kill_uris)} of {count} abandoned queries started"
                     + (f"; first refusal: {refused[0]}" if refused else ""))
    return kill_uris


def run_case(case: Case, args) -> CaseResult:
    """The case in a fresh server with its own prober; both are stopped whatever happens."""
    bound = args.bound if args.bound else (min(case.bound, 5.0) if args.quick else case.bound)
    server = ServerProcess(queryhttp_command(*args.server_arg), "twistd queryhttp",
                           preexec_fn=_pinning(SERVER_CPU, args.pin), keep_lines=50)
    _LIVE.append(server)
    try:
        prober = Prober(server.port, args.probe_interval, args.pin)
        _LIVE.append(prober)
        try:
            return _measure(case, args, bound, server, prober)
        finally:
            prober.stop()
            _LIVE.remove(prober)
    finally:
        server.stop(grace=2.0)
        _LIVE.remove(server)


def _measure(case: Case, args, bound: float, server: ServerProcess, prober: Prober):
    result = CaseResult(case)
    if not prober.wait_ready(3, 15.0):
        result.outcome.notes.append("the prober had no answer before the case")
    client = Client(server.port)
    for sql in case.setup:
        done = run_statement(client, sql, {}, time.monotonic() + args.setup_bound)
        if done.state != "Succeeded":
            done.state = f"setup failed: {done.state}"
            result.outcome = done
            return result
    watch = MemoryWatch(server, args.rss_ceiling_mb)
    t0 = time.monotonic()
    before = Outcome()
    abandoned = _start_abandoned(client, case.abandoned, t0 + max(bound, ABANDON_SECS), before)
    result.outcome = run_statement(client, case.sql(), case.settings,
                                   time.monotonic() + bound)
    result.outcome.notes[:0] = before.notes
    # Fast cases still get a window long enough for a few dozen probes.
    time.sleep(max(0.0, t0 + args.min_window - time.monotonic()))
    result.probes = prober.window(t0, time.monotonic(), settle=1.0)
    result.growth_mb = watch.stop()
    for uri in abandoned:
        if server.process.poll() is not None:
            break
        kill(server.port, uri, Outcome())
    client.close()
    _note_server_fate(result, server, watch)
    return result


def _note_server_fate(result: CaseResult, server: ServerProcess, watch: MemoryWatch):
    notes = result.outcome.notes
    echoed = result.outcome.echoed_settings
    for key in result.case.settings:
        if echoed is not None and key not in echoed:
            notes.append(f"setting {key} not echoed: unknown to this server")
    if watch.ceiling_hit:
        notes.append(f"server killed at the {watch.ceiling_mb:,.0f} MB RSS growth ceiling")
    elif server.process.poll() is not None:
        notes.append(f"server exited (status {server.process.returncode})")


# --------------------------------------------------------------------------- report

def _ms(value: float | None, stuck: bool = False) -> str:
    return "—" if value is None else ("≥ " if stuck else "") + f"{value:,.0f}"


def table(results: list[CaseResult]) -> str:
    lines = ["| case | statement | outcome | probes (failed) | slowest probe ms | p99 probe ms "
             "| RSS growth MB |", "|---|---|---|---:|---:|---:|---:|"]
    for r in results:
        notes = "; ".join(r.outcome.notes)
        outcome = r.outcome.describe() + (f" — {notes}" if notes else "")
        if r.outcome.message:
            outcome += f" — “{r.outcome.message}”"
        growth = "—" if r.growth_mb is None else f"{r.growth_mb:+,.0f}"
        lines.append(f"| {r.case.name} | {r.case.title} | {outcome.replace('|', '/')} | "
                     f"{r.probes.count} ({r.probes.failures}) | "
                     f"{_ms(r.probes.max_ms, r.probes.stuck)} | {_ms(r.probes.p99_ms)} | "
                     f"{growth} |")
    return "\n".join(lines)


def verdict(r: CaseResult) -> str:
    p = r.probes
    if r.outcome.state.startswith(("not run", "cut short")):
        return f"{r.case.name}: {r.outcome.state} — STALL (unmeasured)"
    if p.count == 0:
        text = f"{r.case.name}: no probe ran"
    else:
        text = (f"{r.case.name}: slowest probe {_ms(p.max_ms, p.stuck)} ms "
                f"{'≤' if p.max_ms <= PROBE_TARGET_MS else '>'} {PROBE_TARGET_MS:g} ms")
        if p.failures:
            text += f", {p.failures} of {p.count} probes failed (first: {p.first_failure})"
        if p.stuck:
            text += " (still unanswered when the case ended)"
    text += " — ok" if r.within else " — STALL"
    if r.case.memory:
        if r.failed_cleanly:
            text += f"; memory: failed cleanly ({MEMORY_CODE}, {r.growth_mb:+,.0f} MB)"
        else:
            how = (f"refused with {r.outcome.code}" if r.outcome.code is not None
                   else "not refused")
            text += f"; memory: NOT clean ({how}, {_growth(r)})"
    return text


def _growth(r: CaseResult) -> str:
    return "growth unknown" if r.growth_mb is None else f"{r.growth_mb:+,.0f} MB"


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.stall", description=__doc__.split("\n")[0])
    p.add_argument("--cases", default=",".join(c.name for c in CASES),
                   help="comma-separated case names (default: all): "
                        + ", ".join(c.name for c in CASES))
    p.add_argument("--bound", type=float, default=0.0,
                   help="seconds each statement may run (default: the case's own, 30)")
    p.add_argument("--quick", action="store_true", help="bound each case to 5 s")
    p.add_argument("--timeout", type=float, default=0.0,
                   help="hard limit on the whole run in seconds (default 900, 300 with --quick)")
    p.add_argument("--setup-bound", type=float, default=60.0, help="seconds per setup statement")
    p.add_argument("--probe-interval", type=float, default=0.02, help="seconds between probes")
    p.add_argument("--min-window", type=float, default=1.0,
                   help="shortest probing window of a case, in seconds (fast cases)")
    p.add_argument("--rss-ceiling-mb", type=float, default=MEMORY_GROWTH_TARGET_MB,
                   help="kill the server when its RSS grows by more during a case (a safety "
                        "net for the machine; default: the memory target, 1.5 GB)")
    p.add_argument("--server-arg", action="append", default=[],
                   help="extra option for twistd queryhttp (repeatable)")
    p.add_argument("--no-pin", dest="pin", action="store_false",
                   help="do not pin the server to CPU 0 and the prober to CPU 1")
    args = p.parse_args(argv)
    known = {c.name: c for c in CASES}
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        p.error(f"unknown case(s) {', '.join(unknown) or '(none given)'}; "
                f"known: {', '.join(known)}")
    args.selected = [known[n] for n in names]
    if not args.timeout:
        args.timeout = 300.0 if args.quick else 900.0
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    print(f"## bench.stall (Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{'server on CPU 0, prober on CPU 1' if _pinning(0, args.pin) else 'no pinning'}, "
          f"probe every {args.probe_interval * 1e3:g} ms, {time.strftime('%Y-%m-%d %H:%M')})\n",
          flush=True)
    results: list[CaseResult] = []
    with hard.alarm_handler():
        try:
            with hard.hard_timeout(args.timeout):
                for case in args.selected:
                    print(f"  {case.name}: {case.title} ...", file=sys.stderr, flush=True)
                    results.append(run_case(case, args))
                    print(f"    {verdict(results[-1])}", file=sys.stderr, flush=True)
        except hard.HardTimeout:
            for live in list(_LIVE):
                live.stop(**({"grace": 0.5} if isinstance(live, ServerProcess) else {}))
            _LIVE.clear()
            for i, case in enumerate(args.selected[len(results):]):
                results.append(CaseResult(case, Outcome(
                    state=f"{'cut short' if i == 0 else 'not run'}: the {args.timeout:g} s "
                          f"overall timeout fired")))
    print(table(results) + "\n")
    for r in results:
        print(f"- {verdict(r)}")
    memory = [r for r in results if r.case.memory]
    print(f"\n_{time.monotonic() - started:.0f}s in all_\n")
    if memory:
        print(f"memory: {sum(r.failed_cleanly for r in memory)} of {len(memory)} memory cases "
              f"failed cleanly")
    print(f"stall: {sum(r.within for r in results)} of {len(results)} cases within "
          f"{PROBE_TARGET_MS:g} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
