"""Three-valued logic and NULL propagation, spelled out as truth tables."""

import pytest

T, F, N = "TRUE", "FALSE", "NULL"
VALUE = {T: True, F: False, N: None}

AND = [(T, T, T), (T, F, F), (T, N, N), (F, N, F), (N, F, F), (N, N, N), (F, F, F)]
OR = [(T, T, T), (T, F, T), (T, N, T), (F, N, N), (N, T, T), (N, N, N), (F, F, F)]
NOT = [(T, F), (F, T), (N, N)]


@pytest.mark.parametrize("a, b, want", AND)
def test_and(run, a, b, want):
    assert run(f"SELECT {a} AND {b}") == [(VALUE[want],)]
    # the same truth table when the values come from a table (generated predicate code)
    rows = run(f"SELECT count(*) FROM (SELECT {a} AS x, {b} AS y) s WHERE x AND y")
    assert rows == [(1 if want == T else 0,)]


@pytest.mark.parametrize("a, b, want", OR)
def test_or(run, a, b, want):
    assert run(f"SELECT {a} OR {b}") == [(VALUE[want],)]
    rows = run(f"SELECT count(*) FROM (SELECT {a} AS x, {b} AS y) s WHERE x OR y")
    assert rows == [(1 if want == T else 0,)]


@pytest.mark.parametrize("a, want", NOT)
def test_not(run, a, want):
    assert run(f"SELECT NOT {a}") == [(VALUE[want],)]
    assert run(f"SELECT count(*) FROM (SELECT {a} AS x) s WHERE NOT x") == [(1 if want == T else 0,)]


NULL_CASES = [
    ("SELECT NULL + 1, 1 - NULL, NULL * NULL", [(None, None, None)]),
    ("SELECT NULL = NULL, NULL <> 1, 1 < NULL", [(None, None, None)]),
    ("SELECT NULL IS NULL, 1 IS NULL, NULL IS NOT NULL", [(True, False, False)]),
    ("SELECT 1 IN (1, NULL), 2 IN (1, NULL), NULL IN (1), 2 NOT IN (1, NULL), 1 NOT IN (2, 3)",
     [(True, None, None, None, True)]),
    ("SELECT NULL BETWEEN 1 AND 2, 1 BETWEEN NULL AND 0, 1 BETWEEN 0 AND NULL", [(None, False, None)]),
    ("SELECT CASE WHEN NULL THEN 1 ELSE 2 END, CASE NULL WHEN NULL THEN 1 ELSE 2 END", [(2, 2)]),
    ("SELECT COALESCE(NULL, NULL), NULLIF(NULL, 1)", [(None, None)]),
    ("SELECT -x, x + 1, x * 2, x > 0, x = 1 FROM n ORDER BY x NULLS LAST",
     [(-1, 2, 2, True, True), (None, None, None, None, None)]),
    ("SELECT count(*) FROM n WHERE x <> 1", [(0,)]),
    ("SELECT count(*) FROM n WHERE NOT (x = 1)", [(0,)]),
    ("SELECT count(*) FROM n WHERE NOT (x > 5)", [(1,)]),
    ("SELECT count(*) FROM n WHERE x IN (SELECT x FROM n)", [(1,)]),
    ("SELECT count(*) FROM n WHERE x NOT IN (SELECT x FROM n)", [(0,)]),
    ("SELECT count(*) FROM n WHERE 5 NOT IN (SELECT x FROM n WHERE x IS NOT NULL)", [(2,)]),
    ("SELECT count(*) FROM n WHERE x NOT IN (SELECT x FROM n WHERE x > 100)", [(2,)]),
    ("SELECT count(x), sum(x), min(x), max(x), avg(x) FROM n", [(1, 1, 1, 1, 1.0)]),
    ("SELECT count(x), sum(x) FROM n WHERE x IS NULL", [(0, None)]),
    ("SELECT x, count(*) FROM n GROUP BY x ORDER BY x", [(1, 1), (None, 1)]),
    ("SELECT DISTINCT x FROM (SELECT x FROM n UNION ALL SELECT x FROM n) s ORDER BY x", [(1,), (None,)]),
    ("SELECT count(*) FROM n AS p JOIN n AS q ON p.x = q.x", [(1,)]),
]


@pytest.mark.parametrize("sql, expected", NULL_CASES)
def test_null_semantics(run, sql, expected):
    assert run(sql) == expected
