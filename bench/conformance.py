"""Run SQLite's sqllogictest corpus against queryhttp's embedded engine and report the pass rate.

    python -m bench.conformance                          # the whole corpus, all cores
    python -m bench.conformance --files 'slt/test/select1.test' --max-records 300 -v
    python -m bench.conformance -j 2 --failures-out failures.jsonl

The corpus lives beside the project (default ../shared/conformance from the repository root;
--corpus DIR picks another folder, e.g. tests/conformance/data). Records run as engine name
`mysql`, so `skipif mysql` / `onlyif mysql` apply (Databend shares MySQL's division: `DIV` and
`CAST(... AS SIGNED)` appear). Each file gets a fresh `engine.Database()`; every statement and
query goes through `session.execute(sql)` and the rows through `list(result)`.

Output: one line per file, the overall pass rate over the records that run, and the failures
grouped by category (error code, mismatch kind, Python exception, timeout) with an example of
each, plus, when the corpus folder has the conformance kit's slt_features.py, the SQL features
whose queries fail most.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

from bench import slt
from bench.timeout import HardTimeout, alarm_handler, hard_timeout

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT / ".." / "shared" / "conformance"
ENGINE_NAME = "mysql"


class RecordFailed(Exception):
    """A statement or query raised: `category` groups it, `detail` is the message."""

    def __init__(self, category, detail):
        super().__init__(detail)
        self.category = category
        self.detail = detail


# --------------------------------------------------------------------------- engine side

def _normalise_message(text):
    """Error text with names, numbers and quoted parts blanked, so similar errors group."""
    text = text.splitlines()[0] if text else ""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'…'", text)
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", text)
    return text[:90]


def _classify_exception(exc):
    from engine.core.errors import EngineError

    if isinstance(exc, EngineError):
        return f"error {exc.code} ({type(exc).__name__})", str(exc)
    return f"python {type(exc).__name__}", f"{type(exc).__name__}: {exc}"


class EmbeddedBackend:
    """One fresh engine.Database per file; runs records through session.execute()."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.session = None
        self.formatter = slt.Formatter()

    def open(self):
        import engine

        self.session = engine.Database().session()

    def close(self):
        self.session = None

    def _run(self, sql):
        """(column count, rows) of one SQL text; raises RecordFailed."""
        try:
            with hard_timeout(self.timeout):
                result = self.session.execute(sql)
                rows = list(result)
            return len(result.schema), rows
        except HardTimeout:
            raise RecordFailed("timeout", f"timeout after {self.timeout}s") from None
        except RecursionError as exc:
            raise RecordFailed("python RecursionError", f"RecursionError: {exc}") from None
        except Exception as exc:  # an engine error or an engine bug: both are results here
            raise RecordFailed(*_classify_exception(exc)) from None

    def statement(self, sql):
        for part in slt.split_statements(sql):
            self._run(part)

    def query(self, sql, types):
        ncols, rows = self._run(sql)
        if ncols != len(types):
            raise RecordFailed("mismatch: column count",
                               f"expected {len(types)} columns, got {ncols}")
        render = self.formatter.render
        out = []
        try:
            for row in rows:
                for v, t in zip(row, types, strict=True):
                    out.append(render(v, t))
        except ValueError:
            raise RecordFailed("mismatch: column count",
                               f"a row has {len(row)} values, expected {len(types)}") from None
        return out


# --------------------------------------------------------------------------- one file

def run_file(path, corpus, max_records=0, timeout=10.0, verbose=False, classify=None):
    """Run one .test file; returns a plain dict (picklable for worker processes)."""
    rel = os.path.relpath(path, corpus)
    res = {"path": rel, "passed": 0, "failed": 0, "skipped": 0, "records": 0,
           "truncated": False, "halted": False, "elapsed": 0.0, "failures": [],
           "features": collections.Counter(), "messages": []}
    t0 = time.monotonic()
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    backend = EmbeddedBackend(timeout)
    hash_threshold = 8
    halted = False
    with alarm_handler():
        try:
            backend.open()
            for rec in slt.parse_records(text):
                if rec.kind not in ("statement", "query"):
                    if halted or not slt.record_applies(rec, ENGINE_NAME):
                        continue
                    if rec.kind == "hash-threshold":
                        hash_threshold = rec.arg
                    elif rec.kind == "halt":
                        halted = res["halted"] = True
                    continue
                if max_records and res["records"] >= max_records:
                    res["truncated"] = True
                    break
                res["records"] += 1
                if halted or not slt.record_applies(rec, ENGINE_NAME):
                    res["skipped"] += 1
                    continue
                if rec.kind == "statement" and rec.expect_ok and slt.INDEX_DDL_RE.match(rec.sql):
                    res["skipped"] += 1     # indexes do not change results; the engine has none
                    continue
                features = ()
                if classify is not None and rec.kind == "query":
                    features = tuple(sorted(classify(rec.sql)))
                    res["features"].update(features)
                failure = _run_record(backend, rec)
                if failure is None:
                    res["passed"] += 1
                    continue
                category, detail, actual = failure
                res["failed"] += 1
                res["failures"].append({
                    "file": rel, "line": rec.line, "kind": rec.kind, "category": category,
                    "detail": detail, "sql": rec.sql, "types": rec.types, "sortmode": rec.sortmode,
                    "expected": rec.expected if rec.kind == "query" else
                    ("ok" if rec.expect_ok else "error"),
                    "actual": actual[:50] if actual is not None else None,
                    "features": features})
                if verbose:
                    res["messages"].append(_describe_failure(res["failures"][-1], hash_threshold))
        finally:
            backend.close()
    res["elapsed"] = time.monotonic() - t0
    return res


def _run_record(backend, rec):
    """None when the record passes, else (category, detail, actual values or None)."""
    if rec.kind == "statement":
        try:
            backend.statement(rec.sql)
        except RecordFailed as exc:
            if rec.expect_ok:
                return exc.category, exc.detail, None
            return None
        if not rec.expect_ok:
            return "mismatch: no error raised", "statement succeeded but an error was expected", None
        return None
    if not rec.types or any(c not in "TIR" for c in rec.types) or \
            rec.sortmode not in ("nosort", "rowsort", "valuesort"):
        return "bad record", f"bad type string or sort mode {rec.header}", None
    try:
        actual = backend.query(rec.sql, rec.types)
    except RecordFailed as exc:
        return exc.category, exc.detail, None
    actual = slt.sort_results(rec, actual)
    mismatch = slt.compare(rec, actual)
    if mismatch is None:
        return None
    return f"mismatch: {mismatch[0]}", mismatch[1], actual


def _describe_failure(f, hash_threshold=8):
    lines = [f"FAIL {f['file']}:{f['line']}: [{f['category']}] {f['detail']}"]
    lines += ["    " + line for line in f["sql"].split("\n")]
    if f["kind"] == "query":
        exp = f["expected"] or []
        lines.append(f"  expected: {exp[:12]}{' ...' if len(exp) > 12 else ''}")
        if f["actual"] is not None:
            lines.append(f"  actual:   {f['actual'][:12]}{' ...' if len(f['actual']) > 12 else ''}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- driving

def load_classifier(corpus):
    """The conformance kit's SQL feature classifier, when the corpus folder ships it."""
    if not (Path(corpus) / "slt_features.py").is_file():
        return None
    sys.path.insert(0, str(Path(corpus)))
    try:
        import slt_features
    except Exception:
        return None
    finally:
        sys.path.pop(0)
    return slt_features.classify


def collect_files(corpus, patterns):
    corpus = Path(corpus)
    if not patterns:
        patterns = ["slt/**/*.test"] if (corpus / "slt").is_dir() else ["**/*.test"]
    files = []
    for pattern in patterns:
        matches = glob.glob(pattern, recursive=True) if os.path.isabs(pattern) else \
            glob.glob(str(corpus / pattern), recursive=True) or glob.glob(pattern, recursive=True)
        for m in sorted(matches):
            a = os.path.abspath(m)
            if os.path.isfile(a) and a not in files:
                files.append(a)
    return files


def _worker_init(memory_mb):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _worker(args):
    path, corpus, max_records, timeout, verbose, with_features = args
    classify = load_classifier(corpus) if with_features else None
    return run_file(path, corpus, max_records, timeout, verbose, classify)


def run_corpus(corpus, patterns=(), max_records=0, jobs=1, timeout=10.0, verbose=False,
               features=True, memory_mb=0, on_file=None):
    """Run the matching files; returns the per-file result dicts (in completion order)."""
    files = collect_files(corpus, patterns)
    # biggest files first so that parallel workers finish together
    files.sort(key=lambda p: -os.path.getsize(p))
    tasks = [(p, str(corpus), max_records, timeout, verbose, features) for p in files]
    results = []
    if jobs > 1 and len(files) > 1:
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=jobs, initializer=_worker_init, initargs=(memory_mb,)) as pool:
            futures = {pool.submit(_worker, task): task for task in tasks}
            for future in concurrent.futures.as_completed(futures):
                try:
                    res = future.result()
                except Exception as exc:  # a worker died (crash, memory): report the file
                    res = _aborted_file(futures[future][0], corpus, exc)
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


def _aborted_file(path, corpus, exc):
    rel = os.path.relpath(path, corpus)
    return {"path": rel, "passed": 0, "failed": 1, "skipped": 0, "records": 1,
            "truncated": False, "halted": False, "elapsed": 0.0, "features": collections.Counter(),
            "messages": [f"{rel}: ABORTED: {type(exc).__name__}: {exc}"],
            "failures": [{"file": rel, "line": 0, "kind": "file", "category": "worker died",
                          "detail": f"{type(exc).__name__}: {exc}", "sql": "", "types": "",
                          "sortmode": "", "expected": None, "actual": None, "features": ()}]}


def pass_rate(passed, failed):
    return 100.0 * passed / (passed + failed) if passed + failed else 0.0


def fmt_rate(passed, failed):
    """Percent with enough decimals that a failure never prints as 100%."""
    rate = pass_rate(passed, failed)
    return f"{rate:.2f}%" if rate < 99.99 or not failed else f"{rate:.4f}%"


def summarise(results):
    tot = collections.Counter()
    for r in results:
        for k in ("passed", "failed", "skipped", "records"):
            tot[k] += r[k]
    return tot


def print_breakdown(results, top=15, out=sys.stdout):
    failures = [f for r in results for f in r["failures"]]
    tot = summarise(results)
    if not failures:
        return
    by_cat = collections.Counter(f["category"] for f in failures)
    print(f"\n## Failures by category ({len(failures)} failing records)\n", file=out)
    print("| category | failures | % of run | example message | example (file:line) SQL |", file=out)
    print("|---|---:|---:|---|---|", file=out)
    run = tot["passed"] + tot["failed"]
    for cat, n in by_cat.most_common(top):
        sub = collections.Counter(_normalise_message(f["detail"]) for f in failures
                                  if f["category"] == cat)
        msg, _ = sub.most_common(1)[0]
        ex = next(f for f in failures if f["category"] == cat
                  and _normalise_message(f["detail"]) == msg)
        print(f"| {cat} | {n} | {100.0 * n / run:.2f} | {table_cell(msg)} | "
              f"{ex['file']}:{ex['line']} `{table_cell(_one_line(ex['sql']), 160)}` |", file=out)
    print("\n## Most frequent error messages\n", file=out)
    print("| message (normalised) | failures | example SQL |", file=out)
    print("|---|---:|---|", file=out)
    msgs = collections.Counter((f["category"], _normalise_message(f["detail"])) for f in failures)
    for (cat, msg), n in msgs.most_common(top):
        ex = next(f for f in failures if f["category"] == cat
                  and _normalise_message(f["detail"]) == msg)
        print(f"| [{cat}] {table_cell(msg)} | {n} | `{table_cell(_one_line(ex['sql']), 160)}` |", file=out)
    totals = collections.Counter()
    for r in results:
        totals.update(r["features"])
    failing = collections.Counter()
    examples = {}
    for f in failures:
        failing.update(f["features"])
        for feat in f["features"]:
            examples.setdefault(feat, f)
    ranked = sorted(failing, key=lambda k: (-failing[k] / max(totals[k], 1), -failing[k]))
    ranked = [k for k in ranked if failing[k] >= 3][:top]
    if ranked:
        print("\n## SQL features of failing queries (heuristic classifier; a query counts "
              "toward each feature it uses)\n", file=out)
        print("| feature | failing queries | queries run | fail % | example SQL |", file=out)
        print("|---|---:|---:|---:|---|", file=out)
        for feat in ranked:
            print(f"| {feat} | {failing[feat]} | {totals[feat]} | "
                  f"{100.0 * failing[feat] / max(totals[feat], 1):.1f} | "
                  f"`{table_cell(_one_line(examples[feat]['sql']), 140)}` |", file=out)


def _one_line(sql):
    return " ".join(sql.split())


def table_cell(text, limit=100):
    """`text` for a Markdown table cell: pipes escaped, cut to `limit` characters."""
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def build_argparser():
    p = argparse.ArgumentParser(
        prog="python -m bench.conformance",
        description="Run sqllogictest files against queryhttp's embedded engine "
                    "(engine name 'mysql').")
    p.add_argument("--corpus", default=str(DEFAULT_CORPUS),
                   help="folder holding the .test files (default: ../shared/conformance "
                        "from the repository root)")
    p.add_argument("--files", nargs="+", action="extend", default=[], metavar="GLOB",
                   help="file globs relative to --corpus (recursive ** allowed; default "
                        "slt/**/*.test, or **/*.test when the folder has no slt/)")
    p.add_argument("--max-records", type=int, default=0, metavar="N",
                   help="only the first N statement/query records of each file")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="files run in N worker processes (default: all cores)")
    add_run_options(p)
    p.add_argument("--no-features", action="store_true",
                   help="skip the SQL-feature breakdown")
    add_output_options(p)
    return p


def add_run_options(p) -> None:
    """The per-record limits both sqllogictest runners take (this one and bench.dbsuite)."""
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECS",
                   help="per record (default %(default)s; a timeout is a failure)")
    p.add_argument("--memory-mb", type=int, default=4096,
                   help="address-space cap per worker process with -j > 1 (0: none)")
    p.add_argument("--failures-out", metavar="FILE", help="one JSON line per failure")


def add_output_options(p) -> None:
    p.add_argument("-v", "--verbose", action="store_true", help="print every failure")
    p.add_argument("-q", "--quiet", action="store_true", help="no per-file lines")


def main(argv=None):
    opts = build_argparser().parse_args(argv)
    corpus = Path(opts.corpus)
    if not corpus.is_dir():
        print(f"corpus folder not found: {opts.corpus} (use --corpus DIR)", file=sys.stderr)
        return 2
    features = not opts.no_features and load_classifier(corpus) is not None
    t0 = time.monotonic()

    def on_file(r):
        for m in r["messages"]:
            print(m)
        if not opts.quiet:
            extra = [k for k in ("truncated", "halted") if r[k]]
            print(f"{'ok  ' if not r['failed'] else 'FAIL'} {r['path']}: {r['passed']} passed, "
                  f"{r['failed']} failed, {r['skipped']} skipped ({r['records']} records, "
                  f"{r['elapsed']:.1f}s) {fmt_rate(r['passed'], r['failed'])}"
                  + (f" [{', '.join(extra)}]" if extra else ""), flush=True)

    results = run_corpus(corpus, opts.files, opts.max_records, opts.jobs, opts.timeout,
                         opts.verbose, features, opts.memory_mb if opts.jobs > 1 else 0, on_file)
    if not results:
        print(f"no .test files matched under {opts.corpus}", file=sys.stderr)
        return 2
    if opts.failures_out:
        with open(opts.failures_out, "w") as fh:
            for r in results:
                for f in r["failures"]:
                    fh.write(json.dumps(f) + "\n")
    print_breakdown(results)
    tot = summarise(results)
    print(f"\n# {tot['records']} records in {len(results)} files, "
          f"{time.monotonic() - t0:.1f}s, engine name {ENGINE_NAME}")
    print(f"{tot['skipped']} skipped")
    print(f"{tot['passed']} passed, {tot['failed']} failed: "
          f"pass rate {fmt_rate(tot['passed'], tot['failed'])}")
    return 0 if tot["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
