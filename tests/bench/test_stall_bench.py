"""bench.stall runs one cheap case end to end (server, prober, bound, report) and judges results."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench import stall

ROOT = Path(__file__).resolve().parents[2]


def _stall(*options):
    return subprocess.run([sys.executable, "-m", "bench.stall", *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=90)


def test_one_bounded_case_is_measured_and_reported():
    done = _stall("--cases", "round", "--quick", "--bound", "1", "--min-window", "0.5",
                  "--timeout", "60")
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("| round |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    probes, failed = map(int, re.fullmatch(r"(\d+) \((\d+)\)", cells[3]).groups())
    assert probes >= 1 and failed <= probes
    assert re.fullmatch(r"(≥ )?[\d,]+", cells[4]), cells[4]  # slowest probe, ms
    assert re.fullmatch(r"[+-][\d,]+", cells[6]), cells[6]  # RSS growth, MB
    # However it ended (refused by a limit, or stopped at the 1 s bound), it ended.
    assert re.match(r"(Failed \d+|Succeeded|no answer by the bound)", cells[2]), cells[2]
    assert re.search(r"^stall: [01] of 1 cases within 100 ms$", done.stdout, re.M)


def test_the_overall_timeout_ends_the_run_and_reports_what_did_not_run():
    done = _stall("--cases", "round,like", "--timeout", "1")
    assert done.returncode == 0, done.stderr
    assert "- round: cut short: the 1 s overall timeout fired" in done.stdout
    assert "- like: not run: the 1 s overall timeout fired" in done.stdout
    assert "stall: 0 of 2 cases within 100 ms" in done.stdout


def _result(code, growth_mb, max_ms, failures=0):
    case = next(c for c in stall.CASES if c.memory)
    return stall.CaseResult(case, stall.Outcome(state="Failed", code=code),
                            stall.ProbeStats(count=50, failures=failures, max_ms=max_ms,
                                             p99_ms=max_ms), growth_mb)


def test_a_memory_case_fails_cleanly_only_with_its_code_below_the_growth_target():
    assert _result(2411, 1535.0, 40.0).failed_cleanly
    assert not _result(2411, 1536.0, 40.0).failed_cleanly
    assert not _result(None, 100.0, 40.0).failed_cleanly
    assert "NOT clean (not refused" in stall.verdict(_result(None, 100.0, 40.0))


def test_a_case_is_within_the_target_only_if_every_probe_answered_in_time():
    assert _result(2411, 0.0, 100.0).within
    assert not _result(2411, 0.0, 100.5).within
    assert not _result(2411, 0.0, 20.0, failures=1).within
