"""The float sort for free: a table keeps per column whether its rows hold a NaN (Table.nan_free), and a sort of such a column uses the plain value as its key, kept right through every way rows change."""

import math
from operator import itemgetter

import pytest

import engine
from engine.codegen.sort_keys import nan_free_columns
from engine.types import keys as K


def _sorted_column(session, sql):
    return [r[0] for r in session.execute(sql)]


def _same(a, b):
    return len(a) == len(b) and all(x == y or (x != x and y != y) for x, y in zip(a, b, strict=True))


@pytest.fixture
def session():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (i INT NOT NULL, x DOUBLE NOT NULL, y DOUBLE, s STRING)"))
    list(s.execute("INSERT INTO t VALUES (1, 2.5, 1.0, 'a'), (2, -1.0, NULL, 'b'), (3, 7.0, 'nan'::DOUBLE, 'c')"))
    return s


def _nan_free(session):
    """The sort's view of t: which of (i, x, y, s) it may sort by their plain values."""
    planned = []
    original = nan_free_columns

    import engine.codegen.sort_keys as S  # noqa: PLC0415

    def spy(plan):
        free = original(plan)
        planned.append([cid in free for cid in plan.layout])
        return free

    S.nan_free_columns = spy
    try:
        list(session.execute("SELECT i, x, y, s FROM t ORDER BY x, y"))
    finally:
        S.nan_free_columns = original
    return planned[0]


def test_the_flags_follow_inserts_updates_deletes_and_truncate(session):
    assert _nan_free(session) == [True, True, False, True]  # y holds a NaN
    list(session.execute("INSERT INTO t VALUES (4, 'nan'::DOUBLE, 2.0, 'd')"))
    assert _nan_free(session) == [True, False, False, True]
    list(session.execute("DELETE FROM t WHERE NOT (x = x) OR NOT (y = y)"))  # NaN = NaN: true
    assert _nan_free(session) == [True, False, False, True]
    list(session.execute("DELETE FROM t WHERE x > 100 OR y > 100"))  # NaN is the greatest
    assert _nan_free(session) == [True, True, True, True]
    list(session.execute("UPDATE t SET x = 'nan'::DOUBLE WHERE i = 1"))
    assert _nan_free(session) == [True, False, True, True]
    assert _same(_sorted_column(session, "SELECT x FROM t ORDER BY x"), [-1.0, math.nan])
    list(session.execute("TRUNCATE TABLE t"))
    assert _nan_free(session) == [True, True, True, True]


def test_sorts_are_right_whichever_key_they_use(session):
    values = [3.0, -0.0, math.inf, 1.5, -math.inf, 0.0]
    list(session.execute("CREATE TABLE f (x DOUBLE NOT NULL, y DOUBLE)"))
    list(session.execute("INSERT INTO f VALUES " + ", ".join(f"('{v!r}'::DOUBLE, '{v!r}'::DOUBLE)" for v in values)))
    expected = sorted(values)
    assert _sorted_column(session, "SELECT x FROM f ORDER BY x") == expected
    assert _sorted_column(session, "SELECT y FROM f ORDER BY y DESC") == expected[::-1]
    assert _sorted_column(session, "SELECT x FROM f WHERE x < 10 ORDER BY x LIMIT 2") == expected[:2]
    list(session.execute("INSERT INTO f VALUES ('nan'::DOUBLE, 'nan'::DOUBLE)"))
    assert _same(_sorted_column(session, "SELECT x FROM f ORDER BY x"), expected + [math.nan])
    assert _same(_sorted_column(session, "SELECT y FROM f ORDER BY y DESC"), [math.nan] + expected[::-1])
    ranked = list(session.execute("SELECT x, rank() OVER (ORDER BY y) FROM f ORDER BY 2"))
    assert ranked[-1][1] == len(values) + 1 and math.isnan(ranked[-1][0])


def test_a_transaction_sorts_its_own_rows_by_its_own_flags(session):
    list(session.execute("BEGIN"))
    list(session.execute("INSERT INTO t VALUES (4, 'nan'::DOUBLE, 2.0, 'd')"))
    assert _same(_sorted_column(session, "SELECT x FROM t ORDER BY x"), [-1.0, 2.5, 7.0, math.nan])
    # another session sees neither the uncommitted NaN nor its flag
    assert _sorted_column(session.db.session(), "SELECT x FROM t ORDER BY x") == [-1.0, 2.5, 7.0]
    list(session.execute("ROLLBACK"))
    assert _nan_free(session) == [True, True, False, True]


def test_only_columns_passed_on_unchanged_are_trusted(session):
    # x + y is computed: its NaN (from y) must sort last although x holds none
    got = _sorted_column(session, "SELECT x + coalesce(y, 0) AS z FROM t ORDER BY z")
    assert _same(got, [-1.0, 3.5, math.nan])
    got = _sorted_column(session, "SELECT z FROM (SELECT x AS z FROM t UNION ALL SELECT 'nan'::DOUBLE) ORDER BY z")
    assert _same(got, [-1.0, 2.5, 7.0, math.nan])
    got = _sorted_column(session, "SELECT a.x FROM t AS a JOIN t AS b ON a.i = b.i ORDER BY a.x DESC")
    assert got == [7.0, 2.5, -1.0]


def test_the_key_is_the_plain_itemgetter_only_for_nan_free_columns(session, captured_sources):
    list(session.execute("SELECT y FROM t ORDER BY y"))  # a nullable float column holding a NaN
    assert any("r[0] if r[0] == r[0] else" in s for s in captured_sources)
    key = K.float_column_key(1)
    assert isinstance(key.plain, itemgetter) and K.rows_key(key, [(0, 1.0)]) is key.plain
