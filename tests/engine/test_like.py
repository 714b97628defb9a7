"""LIKE matches without backtracking, agrees with a regex reference, and bounds pattern length."""

import random
import re

import pytest

import engine
from engine.core.limits import Limits
from engine.runtime import helpers as runtime


def reference_like(s: str, pattern: str) -> bool:
    """The former matcher: every `%` as `.*`, `_` as `.`, backslash escapes, one regex fullmatch.
    Exact but exponential on patterns such as '%a%a%a...b'; fine for the short cases here."""
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.DOTALL).fullmatch(s) is not None


def test_matcher_agrees_with_the_regex_reference_on_random_cases():
    rng = random.Random(20261123)
    alphabet = "ab%_\\"
    for _ in range(30_000):
        s = "".join(rng.choice("ab%_\\\n") for _ in range(rng.randint(0, 9)))
        pattern = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        assert runtime.like_predicate(pattern)(s) == reference_like(s, pattern), (s, pattern)


@pytest.mark.parametrize(("s", "pattern", "expected"), [
    ("abc", "abc", True), ("abc", "a%", True), ("abc", "%c", True), ("abc", "%b%", True),
    ("abc", "a_c", True), ("abc", "_b_", True), ("abc", "a\\%", False), ("a%", "a\\%", True),
    ("a_", "a\\_", True), ("ab", "a\\_", False), ("a\\", "a\\", True), ("", "%", True),
    ("", "", True), ("", "_", False), ("abab", "%ab%ab", True), ("aab", "%a_b", True),
    ("ab", "%a%b%", True), ("ba", "%a%b%", False), ("a\nb", "a_b", True), ("a\nb", "a%b", True),
])
def test_matcher_cases(s, pattern, expected):
    assert runtime.like_predicate(pattern)(s) is expected
    assert reference_like(s, pattern) is expected


def test_pathological_pattern_does_linear_work(monkeypatch):
    """'%a%a...%ab' over 60 'a's: one leftmost search per segment, no backtracking (the regex
    matcher took seconds on 8 such segments and grows exponentially)."""
    searches = []
    original = runtime._Segment.find

    def counting_find(self, s, pos, end):
        searches.append(pos)
        return original(self, s, pos, end)

    monkeypatch.setattr(runtime._Segment, "find", counting_find)
    pattern = "%a" * 8 + "%ab"
    matcher = runtime._segment_matcher(runtime._like_segments(pattern))
    assert matcher("a" * 60) is False
    assert matcher("a" * 60 + "b") is True
    # each call runs each of the 8 middle segments at most once
    assert len(searches) <= 2 * 8


def test_pathological_pattern_in_sql(run):
    assert run("SELECT repeat('a', 60) LIKE '%a%a%a%a%a%a%a%a%ab'") == [(False,)]
    assert run("SELECT concat(repeat('a', 60), 'b') LIKE '%a%a%a%a%a%a%a%a%ab'") == [(True,)]
    assert run("SELECT repeat('a', 60) LIKE '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b'") == [(False,)]


def test_column_patterns_use_the_same_matcher(run):
    run("CREATE TABLE pats (s VARCHAR, p VARCHAR)")
    run("INSERT INTO pats VALUES ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '%a%a%a%a%a%a%a%a%a%a%b'), "
        "('abc', 'a_c'), ('abc', '%b%'), ('a%', 'a\\\\%'), ('x', NULL), (NULL, 'x')")
    assert run("SELECT s LIKE p, s NOT LIKE p FROM pats") == [
        (False, True), (True, False), (True, False), (True, False), (None, None), (None, None)]


def test_show_like_uses_the_same_matcher(run):
    run("CREATE TABLE tab_like_1 (x INT)")
    run("CREATE TABLE tabxlike_2 (x INT)")
    assert run("SHOW TABLES LIKE 'tab\\\\_%'") == [("tab_like_1",)]
    assert sorted(run("SHOW TABLES LIKE 'tab%like%'")) == [("tab_like_1",), ("tabxlike_2",)]


LIMIT = 40


@pytest.fixture
def limited():
    db = engine.Database(limits=Limits(like_pattern_chars=LIMIT))
    s = db.session()
    list(s.execute("CREATE TABLE p (s VARCHAR, p VARCHAR)"))
    list(s.execute(f"INSERT INTO p VALUES ('x', '{'%' * LIMIT}'), ('y', '{'%' * (LIMIT + 1)}')"))
    return s


def test_constant_pattern_at_the_limit_is_accepted(limited):
    assert list(limited.execute(f"SELECT 'abc' LIKE '{'%' * LIMIT}'")) == [(True,)]
    assert list(limited.execute(f"SHOW TABLES LIKE '{'%' * LIMIT}'")) == [("p",)]


@pytest.mark.parametrize("sql", [
    f"SELECT 'abc' LIKE '{'%' * (LIMIT + 1)}'",
    f"SELECT 'abc' NOT LIKE '{'%' * (LIMIT + 1)}'",
    f"SHOW TABLES LIKE '{'%' * (LIMIT + 1)}'",
])
def test_constant_pattern_over_the_limit_is_refused_at_bind(limited, sql):
    with pytest.raises(engine.EngineError) as info:
        limited.execute(sql)
    assert info.value.code == 1006
    assert "like_pattern_chars" in info.value.message
    assert f"{LIMIT + 1} characters" in info.value.message


def test_column_pattern_is_checked_per_row(limited):
    assert list(limited.execute("SELECT s LIKE p FROM p WHERE s = 'x'")) == [(True,)]
    with pytest.raises(engine.EngineError) as info:
        list(limited.execute("SELECT s LIKE p FROM p"))
    assert info.value.code == 1006
    assert "like_pattern_chars" in info.value.message
