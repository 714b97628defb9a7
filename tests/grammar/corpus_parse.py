"""Parse every statement and query of a sqllogictest corpus that runs as engine `mysql`.

    python -m tests.grammar.corpus_parse                     # ../shared/conformance
    python -m tests.grammar.corpus_parse --corpus DIR -v     # list the failures

Honours skipif/onlyif/halt, skips index DDL (CREATE/DROP INDEX, REINDEX) as the conformance
runners do, splits records on top-level `;`, and prints the number of parse failures.
Also usable from tests: `iter_corpus_sql(paths)` and `parse_failures(sqls)`.
"""

from __future__ import annotations

import argparse
import collections
import glob
import sys
import time
from pathlib import Path

from bench import slt
from grammar import SqlSyntaxError, parse

ENGINE_NAME = "mysql"
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO_ROOT / ".." / "shared" / "conformance"


def iter_corpus_sql(paths):
    """Yield (path, line, sql) for each statement/query the runner would send."""
    for path in paths:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        halted = False
        for record in slt.parse_records(text):
            if halted:
                break
            if not slt.record_applies(record, ENGINE_NAME):
                continue
            if record.kind == "halt":
                halted = True
                continue
            if record.kind not in ("statement", "query"):
                continue
            if record.kind == "statement" and slt.INDEX_DDL_RE.match(record.sql):
                continue
            for sql in slt.split_statements(record.sql):
                yield path, record.line, sql


def parse_failures(items):
    """Parse each (path, line, sql); return (count, [(path, line, sql, error)])."""
    count = 0
    failures = []
    for path, line, sql in items:
        count += 1
        try:
            parse(sql)
        except SqlSyntaxError as exc:
            failures.append((path, line, sql, exc))
    return count, failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="conformance folder")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    options = parser.parse_args(argv)
    paths = sorted(glob.glob(str(Path(options.corpus) / "**" / "*.test"), recursive=True))
    if not paths:
        print(f"no .test files under {options.corpus}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    count, failures = parse_failures(iter_corpus_sql(paths))
    elapsed = time.perf_counter() - started
    by_file = collections.Counter(path for path, _, _, _ in failures)
    for path, line, sql, exc in failures if options.verbose else ():
        print(f"{path}:{line}: {sql!r}\n{exc.message}")
    for path, n in sorted(by_file.items()):
        print(f"{n:6d} failures in {path}")
    print(f"{count} statements parsed in {elapsed:.1f} s ({count / elapsed:.0f}/s)")
    print(f"{len(failures)} parse failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
