"""Run Databend's own sqllogictest files against queryhttp's engine, as Databend's HTTP client would.

    python -m bench.dbsuite                               # ../shared/conformance/databend
    python -m bench.dbsuite --files 'query/functions/*json*' -v
    python -m bench.dbsuite --suite DIR -j 2 --failures-out failures.jsonl

Each file runs in a fresh ``engine.Database()`` and one session (Databend's runner opens one
client per file). Values are rendered by ``Result.renderer`` — the function the HTTP handler
uses for its JSON pages — with NULL as ``NULL``, and the empty string becomes ``(empty)`` as
in Databend's HTTP client (tests/sqllogictests/src/util.rs). Errors are the client's text,
``http query error: code: <code>, Text: <message>``, matched by the record's regex. The format
and comparison rules are in bench/dbsuite_format.py; records that need what the project leaves
out (Fuse internals, enterprise features, external storage, a cluster) are skipped and counted
apart by reason (bench/dbsuite_skips.py).

Output: one line per file, a table per directory, the failures grouped by cause (an error's
code and first words, 'wrong result', 'no error', 'wrong error') and the skipped records by
reason.

The same files against the real engine of the ``databend`` wheel (1.2.453), and the comparison:

    python -m bench.dbsuite -j 2 -q --outcomes-out ours.json
    python -m bench.dbsuite -j 2 -q --engine databend --databend-python PY --outcomes-out db.json
    python -m bench.dbsuite --compare ours.json db.json

``--engine databend`` runs each file in a worker process of PY (the Python that has the wheel and
pyarrow; default the DATABEND_PYTHON environment variable) with one fresh SessionContext in its
own scratch directory; values are rendered as current Databend's HTTP handler writes them
(bench/dbsuite_databend_worker.py), the time limit is enforced from this side and a crashed
worker fails the file's remaining records (bench/dbsuite_databend.py). The project's skip rules
do not apply there. ``--outcomes-out`` writes every record's outcome (file:line -> pass / fail /
skip); ``--compare OURS THEIRS`` reports, of the records the embedded engine passes, how many
queryhttp passes per directory, and lists the others grouped by cause (bench/dbsuite_compare.py).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import re
import sys
import time
from pathlib import Path

from bench import dbsuite_format as F
from bench.conformance import (
    _worker_init,
    add_output_options,
    add_run_options,
    fmt_rate,
    pass_rate,
    table_cell,
)
from bench.dbsuite_compare import compare_main, write_outcomes
from bench.dbsuite_databend import PYTHON_ENV, default_python
from bench.dbsuite_skips import SCRIPT_UDF_REASON, calls_any, script_udf_name, skip_reason
from bench.timeout import HardTimeout, alarm_handler, hard_timeout

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SUITE = REPO_ROOT / ".." / "shared" / "conformance" / "databend"
LABELS = frozenset({"http"})       # the HTTP client's engine name: onlyif/skipif http apply
INTERNAL = 1001


class Failed(Exception):
    """A statement failed: Databend's code and message, and a cause for the report."""

    def __init__(self, code, message, cause):
        super().__init__(message)
        self.code = code
        self.message = message
        self.cause = cause


def _first_words(message, n=5):
    """The first words of an error message, names and numbers blanked, to group failures."""
    text = (message or "").splitlines()[0] if message else ""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", text)
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", text)
    return " ".join(text.split()[:n])


_NAMED = re.compile(r"^(no function matches the given name|Unknown table function|"
                    r"Unknown variable|unknown function)\W+(\S+)", re.I)


def error_cause(code, message):
    """How a failure by error groups: the missing function or setting by name, a syntax error
    by what the parser says at the caret, anything else by its first words."""
    named = _NAMED.match(message or "")
    if named:
        return f"error {code}: {named.group(1)} {named.group(2).strip(chr(39))}"
    if code == 1005:
        lines = [line for line in (message or "").splitlines() if line.strip()]
        caret = next((line for line in reversed(lines) if "^" in line), "")
        said = caret.split("^")[-1].strip() or (lines[0] if lines else "")
        said = re.sub(r"\b\d+(\.\d+)?\b", "N", said)
        return f"error 1005: {' '.join(said.split()[:8])}"
    return f"error {code}: {_first_words(message)}"


class Backend:
    """One engine.Database and one session for a file; runs SQL as the HTTP handler would."""

    def __init__(self, timeout):
        import engine

        self.timeout = timeout
        self.session = engine.Database().session()
        # the first statement of a process builds the parser (seconds on a busy machine): not
        # under a record's time limit, where a timeout would leave it half built
        list(self.session.execute("SELECT 1"))

    def run(self, sql):
        """The rendered rows (lists of strings) of one SQL text; raises Failed."""
        from engine.core.errors import EngineError

        try:
            with hard_timeout(self.timeout):
                result = self.session.execute(sql)
                render = result.renderer(True)
                rows = []
                for batch in result.batches():
                    rows.extend(render(batch))
            return [["(empty)" if v == "" else v for v in row] for row in rows]
        except HardTimeout:
            raise Failed(INTERNAL, "timeout", f"timeout after {self.timeout}s") from None
        except EngineError as exc:
            cause = exc.__cause__
            if exc.code == INTERNAL and cause is not None and not isinstance(cause, EngineError):
                raise Failed(exc.code, exc.message, f"python {type(cause).__name__}") from None
            raise Failed(exc.code, exc.message, error_cause(exc.code, exc.message)) from None
        except RecursionError:
            raise Failed(INTERNAL, "query is nested too deeply", "python RecursionError") from None
        except Exception as exc:  # an engine bug: the server answers 1001 internal error
            raise Failed(INTERNAL, f"internal error: {exc!r}",
                         f"python {type(exc).__name__}") from None

    def close(self):
        self.session = None


def open_backend(engine, timeout, databend_python=None):
    """The backend running one file's SQL: queryhttp's engine, or the embedded Databend."""
    if engine == "databend":
        from bench.dbsuite_databend import DatabendBackend  # noqa: PLC0415

        return DatabendBackend(timeout, databend_python, Failed)
    return Backend(timeout)


# --------------------------------------------------------------------------- one file

def _new_result(rel):
    return {"path": rel, "passed": 0, "failed": 0, "skipped": 0, "records": 0,
            "elapsed": 0.0, "failures": [], "skips": collections.Counter(), "messages": [],
            "outcomes": {}}


def record_key(rec, rel, suite):
    """A record's name in the outcomes files: 'file:line', with the including file first when
    the record comes from an included one ('file>included:line')."""
    own = os.path.relpath(rec.path, suite)
    return f"{own}:{rec.line}" if own == rel else f"{rel}>{own}:{rec.line}"


def run_file(path, suite, timeout=10.0, verbose=False, engine="queryhttp", databend_python=None):
    """Run one .test file; returns a plain dict (picklable for worker processes)."""
    rel = os.path.relpath(path, suite)
    res = _new_result(rel)
    t0 = time.monotonic()
    records = F.parse_file(path)
    backend = open_backend(engine, timeout, databend_python)
    try:
        with alarm_handler():
            _run_records(records, backend, res, suite, verbose, engine)
    finally:
        backend.close()
    res["elapsed"] = time.monotonic() - t0
    return res


def _run_records(records, backend, res, suite, verbose, engine):
    """Run the records of one file (includes expanded) into `res`."""
    rel = res["path"]
    sortmode, threshold = None, 0
    script_udfs: set = set()  # names of the file's script UDFs (bench.dbsuite_skips)
    for rec in records:
        if rec.kind == "halt":
            break
        if rec.kind == "control":
            parts = rec.arg.split()
            if parts[:1] == ["sortmode"] and len(parts) == 2:
                sortmode = parts[1]
            continue
        if rec.kind == "hash-threshold":
            threshold = int(rec.arg) if rec.arg.isdigit() else 0
            continue
        if rec.kind not in ("statement", "query", "bad"):
            continue
        res["records"] += 1
        key = record_key(rec, rel, suite)
        reason = _skipped(rec, engine)
        if reason is None and engine == "queryhttp" and rec.kind != "bad":
            name = script_udf_name(rec.sql)
            if name:
                script_udfs.add(name)
            elif script_udfs and calls_any(rec.sql, script_udfs):
                reason = SCRIPT_UDF_REASON
        if reason:
            res["skipped"] += 1
            res["skips"][reason] += 1
            res["outcomes"][key] = "skip"
            continue
        failure = _run_record(backend, rec, sortmode, threshold)
        if failure is None:
            res["passed"] += 1
            res["outcomes"][key] = "pass"
            continue
        cause, detail = failure
        res["failed"] += 1
        res["outcomes"][key] = "fail"
        res["failures"].append({"file": os.path.relpath(rec.path, suite), "line": rec.line,
                                "key": key, "cause": cause, "detail": detail,
                                "sql": rec.sql})
        if verbose:
            res["messages"].append(_describe(res["failures"][-1]))


def _skipped(rec, engine="queryhttp"):
    """Why a record is not run, or None. The project's skip rules (what queryhttp leaves out)
    apply to queryhttp only: the embedded Databend runs those records too."""
    if F.should_skip(rec.conditions, LABELS):
        return f"{rec.conditions[0][0]} {rec.conditions[0][1]}"
    if rec.kind == "bad":
        return rec.arg if rec.arg.startswith(("include", "'system'", "'let'")) else None
    return skip_reason(rec.sql) if engine == "queryhttp" else None


def _run_record(backend, rec, sortmode, threshold):
    """None when the record passes, else (cause, detail)."""
    if rec.kind == "bad":
        return "runner: unreadable record", rec.arg
    try:
        rows = backend.run(rec.sql)
    except Failed as exc:
        if not rec.expect_error:
            return exc.cause, exc.message[:300]
        if F.error_matches(rec, F.error_text(exc.code, exc.message)):
            return None
        want = rec.error_regex or rec.error_exact
        return (f"wrong error (expected {want[:40]})",
                f"got {exc.code}: {exc.message[:200]}")
    if rec.expect_error:
        return "no error", f"succeeded, expected error {rec.error_regex or ''}".strip()
    if rec.kind == "statement":
        return None
    mode = rec.sortmode or sortmode
    rows = F.hash_rows(F.sort_rows(rows, mode), threshold, mode == "valuesort")
    if F.results_match(rows, rec.expected):
        return None
    return "wrong result", F.first_difference(rows, rec.expected)


def _describe(f):
    lines = [f"FAIL {f['file']}:{f['line']}: [{f['cause']}] {f['detail']}"]
    lines += ["    " + line for line in f["sql"].split("\n")[:12]]
    return "\n".join(lines)


# --------------------------------------------------------------------------- driving

def collect_files(suite, patterns=()):
    """The .test files under the suite matching the globs (all when none), sorted."""
    suite = Path(suite)
    found = set()
    for pattern in patterns or ["**/*.test"]:
        found.update(p for p in suite.glob(pattern) if p.is_file() and p.suffix == ".test")
    return sorted(str(p) for p in found)


def _worker(args):
    return run_file(*args)


def run_suite(suite, patterns=(), jobs=1, timeout=10.0, verbose=False, memory_mb=0,
              on_file=None, engine="queryhttp", databend_python=None):
    """Run the matching files; returns the per-file result dicts (in completion order)."""
    files = collect_files(suite, patterns)
    files.sort(key=lambda p: -os.path.getsize(p))   # biggest first: workers end together
    tasks = [(p, str(suite), timeout, verbose, engine, databend_python) for p in files]
    results = []
    if jobs > 1 and len(files) > 1:
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=jobs, initializer=_worker_init, initargs=(memory_mb,)) as pool:
            futures = {pool.submit(_worker, task): task for task in tasks}
            for future in concurrent.futures.as_completed(futures):
                try:
                    res = future.result()
                except Exception as exc:  # a worker died (crash, memory): report the file
                    res = _new_result(os.path.relpath(futures[future][0], suite))
                    res.update(failed=1, records=1, failures=[{
                        "file": res["path"], "line": 0, "cause": "runner: worker died",
                        "detail": f"{type(exc).__name__}: {exc}", "sql": ""}])
                results.append(res)
                if on_file:
                    on_file(res)
    else:
        for task in tasks:
            res = _worker(task)
            results.append(res)
            if on_file:
                on_file(res)
    return results


def totals(results, key=lambda r: "all"):
    """{group: Counter(passed, failed, skipped, records)} with `key` naming a file's group."""
    out = collections.defaultdict(collections.Counter)
    for r in results:
        for k in ("passed", "failed", "skipped", "records"):
            out[key(r)][k] += r[k]
    return out


def directory_of(result):
    return os.path.dirname(result["path"]) or "."


def print_report(results, top=25, out=sys.stdout):
    by_dir = totals(results, directory_of)
    whole = totals(results)["all"]
    print("\n| directory | records | skipped | run | passed | pass rate | of all records |", file=out)
    print("|---|---:|---:|---:|---:|---:|---:|", file=out)
    for name in sorted(by_dir) + ["total"]:
        t = whole if name == "total" else by_dir[name]
        print(f"| {name} | {t['records']} | {t['skipped']} | {t['passed'] + t['failed']} | "
              f"{t['passed']} | {fmt_rate(t['passed'], t['failed'])} | "
              f"{100.0 * t['passed'] / max(t['records'], 1):.1f}% |", file=out)
    failures = [f for r in results for f in r["failures"]]
    if failures:
        print(f"\n## Failures by cause ({len(failures)} records)\n", file=out)
        print("| cause | records | example (file:line) | SQL |", file=out)
        print("|---|---:|---|---|", file=out)
        for cause, n in collections.Counter(f["cause"] for f in failures).most_common(top):
            ex = next(f for f in failures if f["cause"] == cause)
            print(f"| {table_cell(cause, 90)} | {n} | {ex['file']}:{ex['line']} | "
                  f"`{table_cell(' '.join(ex['sql'].split()), 110)}` |", file=out)
    skips = collections.Counter()
    for r in results:
        skips.update(r["skips"])
    if skips:
        print("\n## Skipped records by reason\n", file=out)
        print("| reason | records |", file=out)
        print("|---|---:|", file=out)
        for reason, n in skips.most_common():
            print(f"| {table_cell(reason, 90)} | {n} |", file=out)


def build_argparser():
    p = argparse.ArgumentParser(
        prog="python -m bench.dbsuite",
        description="Run Databend's sqllogictest files against queryhttp's engine "
                    "(client label 'http').")
    p.add_argument("--suite", default=str(DEFAULT_SUITE),
                   help="folder holding the .test files (default: ../shared/conformance/"
                        "databend from the repository root)")
    p.add_argument("--files", nargs="+", action="extend", default=[], metavar="GLOB",
                   help="file globs relative to --suite (default **/*.test)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--engine", choices=("queryhttp", "databend"), default="queryhttp",
                   help="queryhttp's engine (default) or the embedded Databend of the "
                        "`databend` wheel, run by --databend-python")
    p.add_argument("--databend-python", default=default_python(), metavar="PATH",
                   help=f"the Python that has the `databend` wheel and pyarrow (default: "
                        f"${PYTHON_ENV})")
    p.add_argument("--outcomes-out", metavar="FILE",
                   help="write every record's outcome (file:line -> pass/fail/skip) as JSON")
    p.add_argument("--compare", nargs=2, metavar=("OURS", "THEIRS"),
                   help="no run: compare two --outcomes-out files (queryhttp's, Databend's)")
    add_run_options(p)
    p.add_argument("--top", type=int, default=25, help="causes listed (default 25)")
    add_output_options(p)
    return p


def main(argv=None):
    opts = build_argparser().parse_args(argv)
    if opts.compare:
        return compare_main(*opts.compare, top=opts.top)
    if opts.engine == "databend" and not opts.databend_python:
        print(f"--engine databend needs --databend-python PATH (or ${PYTHON_ENV})",
              file=sys.stderr)
        return 2
    suite = Path(opts.suite)
    if not suite.is_dir():
        print(f"suite folder not found: {opts.suite} (use --suite DIR)", file=sys.stderr)
        return 2
    t0 = time.monotonic()

    def on_file(r):
        for m in r["messages"]:
            print(m)
        if not opts.quiet:
            print(f"{'ok  ' if not r['failed'] else 'FAIL'} {r['path']}: {r['passed']} passed, "
                  f"{r['failed']} failed, {r['skipped']} skipped ({r['elapsed']:.1f}s)", flush=True)

    # the embedded engine reserves address space freely: no cap on its runners
    memory_mb = opts.memory_mb if opts.jobs > 1 and opts.engine == "queryhttp" else 0
    results = run_suite(suite, opts.files, opts.jobs, opts.timeout, opts.verbose, memory_mb,
                        on_file, opts.engine, opts.databend_python)
    if not results:
        print(f"no .test files matched under {opts.suite}", file=sys.stderr)
        return 2
    if opts.failures_out:
        with open(opts.failures_out, "w") as fh:
            for r in results:
                for f in r["failures"]:
                    fh.write(json.dumps(f) + "\n")
    if opts.outcomes_out:
        write_outcomes(opts.outcomes_out, results, opts.engine)
    print_report(results, opts.top)
    t = totals(results)["all"]
    print(f"\n# {t['records']} records in {len(results)} files, {time.monotonic() - t0:.1f}s; "
          f"{t['skipped']} skipped; {t['passed']} passed, {t['failed']} failed: "
          f"{fmt_rate(t['passed'], t['failed'])} of those run, "
          f"{pass_rate(t['passed'], t['records'] - t['passed']):.2f}% of all records")
    return 0 if t["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
