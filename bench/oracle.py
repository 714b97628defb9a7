"""Differential tester: generated queries run in queryhttp's engine and in the real Databend
engine (the `databend` PyPI wheel, 1.2.453, embedded), comparing column types and rows.

    python -m bench.oracle --oracle-python ORACLE_VENV/bin/python [--count 400] [--seed 1]
    python -m bench.oracle --oracle-python ... --record      # rewrite the golden answers

The wheel needs pyarrow and lives in a virtual environment of its own (its interpreter is
--oracle-python, or the ORACLE_PYTHON environment variable); it runs bench.oracle_worker there.
Cases come from bench.oracle_cases. The agreement rate is printed with each disagreement.
--record writes tests/oracle/golden.jsonl (each query with Databend's answer), which CI
replays against the engine without the wheel (tests/oracle/test_golden.py); disagreements
that are known and accepted are listed with a reason in tests/oracle/known_differences.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import engine
from bench.oracle_cases import SETUP, queries
from bench.oracle_values import canonical

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "oracle" / "golden.jsonl"
KNOWN = ROOT / "tests" / "oracle" / "known_differences.json"


def our_session():
    session = engine.Database().session()
    for sql in SETUP:
        list(session.execute(sql))
    return session


def our_answer(session, sql: str) -> dict:
    """Our engine's answer in the oracle's form: types and canonical rows, or the error code."""
    try:
        result = session.execute(sql)
        types = [column.type for column in result.schema]
        rows = [[canonical(v) for v in row] for row in result]
    except engine.EngineError as exc:
        return {"error": exc.code}
    return {"types": types, "rows": rows}


def oracle_answers(python: str, statements: list[str]) -> list[dict]:
    """Databend's answers, one per statement (run in its own interpreter)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([python, "-m", "bench.oracle_worker"], input=json.dumps(statements),
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if len(lines) != len(statements):
        raise SystemExit(f"the oracle answered {len(lines)} of {len(statements)} statements:\n"
                         f"{done.stderr[-2000:]}")
    return [json.loads(line) for line in lines]


def agrees(ours: dict, theirs: dict) -> bool:
    """Same column types and rows, or both an error (with any code: the tester checks results;
    error codes are checked by the engine's own tests)."""
    if "error" in theirs or "error" in ours:
        return "error" in theirs and "error" in ours
    return ours["types"] == theirs["types"] and ours["rows"] == theirs["rows"]


def difference(ours: dict, theirs: dict) -> str:
    if "error" in ours or "error" in theirs:
        return f"ours {ours.get('error', 'rows')}, Databend {theirs.get('error', 'rows')}"
    if ours["types"] != theirs["types"]:
        return f"types: ours {ours['types']}, Databend {theirs['types']}"
    for number, (a, b) in enumerate(zip(ours["rows"], theirs["rows"], strict=False)):
        if a != b:
            return f"row {number + 1}: ours {a}, Databend {b}"
    return f"{len(ours['rows'])} rows, Databend {len(theirs['rows'])}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oracle-python", default=os.environ.get("ORACLE_PYTHON"))
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", action="store_true", help="rewrite the golden answers")
    args = parser.parse_args()
    if not args.oracle_python:
        raise SystemExit("give --oracle-python (an interpreter with `pip install databend pyarrow`)")
    cases = queries(args.count, args.seed)
    answers = oracle_answers(args.oracle_python, SETUP + cases)
    setup_errors = [a for a in answers[:len(SETUP)] if "error" in a]
    if setup_errors:
        raise SystemExit(f"the oracle refused the setup: {setup_errors}")
    session = our_session()
    known = json.loads(KNOWN.read_text()) if KNOWN.exists() else {}
    panics = [sql for sql, theirs in zip(cases, answers[len(SETUP):], strict=True) if "panic" in theirs]
    for sql in panics:
        print(f"SKIPPED {sql}\n        Databend panicked")
    kept = [(sql, theirs) for sql, theirs in zip(cases, answers[len(SETUP):], strict=True)
            if "panic" not in theirs]
    cases = [sql for sql, _ in kept]
    agreed, differ = 0, []
    for sql, theirs in kept:
        ours = our_answer(session, sql)
        if agrees(ours, theirs):
            agreed += 1
        else:
            differ.append((sql, difference(ours, theirs)))
    for sql, why in differ:
        note = f"  [known: {known[sql]}]" if sql in known else ""
        print(f"DIFFERS {sql}\n        {why}{note}")
    print(f"agreement: {agreed}/{len(cases)} = {100.0 * agreed / len(cases):.1f}% "
          f"({sum(1 for sql, _ in differ if sql in known)} of the differences are known)")
    if args.record:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        with GOLDEN.open("w") as out:
            for sql, theirs in kept:
                out.write(json.dumps({"sql": sql, "databend": theirs}) + "\n")
        print(f"recorded {len(cases)} answers in {GOLDEN.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
