"""Budgets before allocation (the code review's N9, N12): large built values are charged to the
query before they are built, and regexp_replace's work per call is bounded."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import engine
from engine.core import memory as M
from engine.core.errors import EngineError
from engine.core.limits import Limits
from engine.functions import regex

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MiB = 1 << 20


def _run(db, sql, **settings):
    return list(db.session(settings={k: str(v) for k, v in settings.items()}).execute(sql))


def _code(db, sql, **settings):
    with pytest.raises(EngineError) as info:
        _run(db, sql, **settings)
    return info.value


def _repeat_bytes(first: int, rows: int) -> int:
    """What `repeat('x', first + number) FROM numbers(rows)` reserves in one step."""
    return sum(M.text_bytes(first + i, "x") for i in range(rows))


def test_a_step_of_large_strings_fits_a_budget_equal_to_its_reservations_and_fails_one_byte_below():
    sql = "SELECT repeat('x', 2000000 + number) FROM numbers({})"
    budget = _repeat_bytes(2_000_000, 5)  # the batch holds all five strings until the step ends
    db = engine.Database(limits=Limits(server_memory_bytes=budget))
    assert [len(r[0]) for r in _run(db, sql.format(5))] == [2_000_000 + i for i in range(5)]
    assert db.memory.used == 0
    error = _code(engine.Database(limits=Limits(server_memory_bytes=budget - 1)), sql.format(5))
    assert error.code == 2411 and "server's memory budget" in error.message
    assert _code(db, sql.format(6)).code == 2411
    assert db.memory.used == 0  # a failed query gives back what it reserved


def test_max_memory_usage_bounds_a_step_of_built_strings():
    db = engine.Database()
    sql = "SELECT repeat('ab', 1000000 + number) FROM numbers(4)"
    need = sum(M.text_bytes(2 * (1_000_000 + i), "ab") for i in range(4))
    assert len(_run(db, sql, max_memory_usage=need)) == 4
    assert _code(db, sql, max_memory_usage=need - 1).code == 2411


def test_temporaries_are_given_back_so_only_what_a_step_holds_counts():
    # 300 strings of ~1 MB are built in one step, but each is dropped once measured
    db = engine.Database()
    sql = "SELECT sum(length(repeat('x', 1000000 + number))) FROM numbers(300)"
    assert _run(db, sql, max_memory_usage=8 * MiB) == [(300 * 1_000_000 + 299 * 300 // 2,)]


def test_concatenation_of_column_values_is_charged_inline_code_only_below_the_threshold():
    db = engine.Database()
    s = db.session()
    list(s.execute("CREATE TABLE t (s STRING)"))
    list(s.execute("INSERT INTO t SELECT repeat('x', 500000) FROM numbers(8)"))
    # each `s || s` is 1 MB: kept in the batch, eight of them exceed 4 MiB
    assert _code(db, "SELECT s || s FROM t", max_memory_usage=4 * MiB).code == 2411
    assert _run(db, "SELECT length(s || s) FROM t", max_memory_usage=4 * MiB) == [(1_000_000,)] * 8
    # CONCAT too: eight values of 1.5 MB held by one batch
    assert _code(db, "SELECT concat(s, s, s) FROM t", max_memory_usage=8 * MiB).code == 2411
    assert _run(db, "SELECT concat(s, s, s) FROM t", max_memory_usage=16 * MiB) == [("x" * 1_500_000,)] * 8


def test_small_values_reserve_nothing(monkeypatch):
    calls = []
    monkeypatch.setattr(M.QueryMemory, "reserve", lambda self, n: calls.append(n))
    db = engine.Database()
    rows = _run(db, "SELECT repeat('ab', 1000) || 'c', concat('a', repeat('b', 30000)), lpad('x', 60000, 'yz'), "
                    "replace(repeat('a', 100), 'a', 'bb'), string_agg(to_string(number), ',') "
                    "FROM numbers(100) GROUP BY number % 2")
    assert len(rows) == 2 and calls == []


def test_string_agg_past_max_memory_usage_answers_2411():
    db = engine.Database()
    sql = "SELECT length(string_agg(repeat('x', 1000), ',')) FROM numbers(20000)"
    result = db.session().execute(sql)
    assert list(result) == [(20_000 * 1001 - 1,)]
    peak = result.memory.peak
    # the held values and the joined copy: the join is charged before it is made
    assert peak > 20_000 * 1000 + M.text_bytes(20_000 * 1001 - 1, "x")
    assert _run(db, sql, max_memory_usage=peak) == [(20_000 * 1001 - 1,)]
    error = _code(db, sql, max_memory_usage=peak - 1)
    assert error.code == 2411 and "max_memory_usage" in error.message


def test_regexp_replace_of_a_literal_is_refused_from_its_projected_size_before_any_match(monkeypatch):
    def no_matching(*args):
        raise AssertionError("a literal pattern must not be matched one match at a time")

    monkeypatch.setattr(regex, "_replace_matches", no_matching)
    db = engine.Database()
    error = _code(db, "SELECT regexp_replace(repeat('a', 1000000), 'a', repeat('b', 100))")
    assert error.code == 1006 and "100000000 characters" in error.message and "string_result_chars" in error.message
    assert _run(db, "SELECT regexp_replace(repeat('ab', 3), 'b', 'XY', 3)") == [("abaXYaXY",)]


def test_regexp_replace_goes_through_at_most_regex_replace_matches_matches(monkeypatch):
    looked_at = []
    compile_pattern = regex._compile.__wrapped__

    class Counting:
        def __init__(self, compiled):
            self.compiled = compiled

        def finditer(self, *args):
            for m in self.compiled.finditer(*args):
                looked_at.append(1)
                yield m

    monkeypatch.setattr(regex, "_compile", lambda *args: Counting(compile_pattern(*args)))
    db = engine.Database()
    error = _code(db, "SELECT regexp_replace(repeat('a', 1000000), 'a|c', 'b')")
    limit = Limits().regex_replace_matches
    assert error.code == 1006 and "regex_replace_matches" in error.message
    assert len(looked_at) == limit + 1  # the work is bounded, whatever the input's size
    small = engine.Database(limits=Limits(regex_replace_matches=10))
    assert _run(small, "SELECT regexp_replace(repeat('a', 10), 'a|c', 'b')") == [("b" * 10,)]
    assert _code(small, "SELECT regexp_replace(repeat('a', 11), 'a|c', 'b')").code == 1006
    # only the matches up to the wanted occurrence are looked at
    assert _run(small, "SELECT regexp_replace(repeat('a', 100), 'a|c', 'b', 1, 3)") == [("aab" + "a" * 97,)]


_RSS_CHILD = textwrap.dedent("""
    import resource, sys
    from engine import Database
    from engine.core.errors import EngineError
    from engine.core.limits import Limits
    budget, rows = int(sys.argv[1]), int(sys.argv[2])
    s = Database(limits=Limits(server_memory_bytes=budget)).session()
    list(s.execute("SELECT repeat('x', 10) FROM numbers(1)"))  # the parser and compiler warmed up
    with open("/proc/self/statm") as statm:  # resident now (the peak so far may be the imports')
        virtual, resident = (int(n) * resource.getpagesize() for n in statm.read().split()[:2])
    before = resident
    with open("/proc/self/clear_refs", "w") as clear:  # the peak resident size restarts from now
        clear.write("5")  # (the imports' own peak would otherwise count as the query's)
    # a regression must fail this test with MemoryError, not exhaust the machine
    resource.setrlimit(resource.RLIMIT_AS, (virtual + budget + (512 << 20), resource.RLIM_INFINITY))
    code = 0
    try:
        for batch in s.execute(f"SELECT repeat('x', 20000000 + number) FROM numbers({rows})").batches():
            pass
    except EngineError as exc:
        code = exc.code
    with open("/proc/self/status") as status:  # the peak since the reset above
        peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    print(code, peak - before)
""")


def _rss_run(budget: int, rows: int) -> tuple[int, int]:
    done = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(budget), str(rows)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    code, grown = map(int, done.stdout.split())
    return code, grown


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident size from /proc")
def test_a_step_asking_for_far_more_than_the_budget_fails_before_the_process_holds_it():
    # numbers(2048) asks for ~40 GiB in one step: refused after ~96 MiB, RSS barely past it
    code, grown = _rss_run(96 * MiB, 2048)
    assert code == 2411
    assert grown < 96 * MiB + 32 * MiB
    # the same query that fits (4 rows, 80 MB) answers under the same budget
    code, grown = _rss_run(96 * MiB, 4)
    assert code == 0 and grown >= 64 * MiB  # the strings were really built (~80 MB)
