"""GROUP BY GROUPING SETS, ROLLUP, CUBE, GROUPING(...) and GROUP BY ALL (as Databend 1.2.453
answers: keys some set leaves out become nullable; GROUPING's last argument is its lowest bit)."""

import pytest

import engine


@pytest.fixture
def session():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (g INT, h VARCHAR, v INT NOT NULL)"))
    list(s.execute("INSERT INTO t VALUES (1, 'x', 10), (1, 'y', 20), (2, 'x', 5), (2, 'x', 7)"))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


CASES = [
    ("SELECT g, h, sum(v), grouping(g), grouping(g, h), grouping(h, g) FROM t "
     "GROUP BY GROUPING SETS ((g, h), (g), ()) ORDER BY g, h",
     [("g", "Nullable(Int32)"), ("h", "Nullable(String)"), ("sum(v)", "Nullable(Int64)"), ("grouping(g)", "UInt32"),
      ("grouping(g, h)", "UInt32"), ("grouping(h, g)", "UInt32")],
     [(1, "x", 10, 0, 0, 0), (1, "y", 20, 0, 0, 0), (1, None, 30, 0, 1, 2), (2, "x", 12, 0, 0, 0),
      (2, None, 12, 0, 1, 2), (None, None, 42, 1, 3, 3)]),
    ("SELECT g, h, count(*) FROM t GROUP BY ROLLUP(g, h) ORDER BY g, h",
     [("g", "Nullable(Int32)"), ("h", "Nullable(String)"), ("count(*)", "UInt64")],
     [(1, "x", 1), (1, "y", 1), (1, None, 2), (2, "x", 2), (2, None, 2), (None, None, 4)]),
    ("SELECT g, h, count(*) FROM t GROUP BY CUBE(g, h) ORDER BY g NULLS FIRST, h NULLS FIRST",
     [("g", "Nullable(Int32)"), ("h", "Nullable(String)"), ("count(*)", "UInt64")],
     [(None, None, 4), (None, "x", 3), (None, "y", 1), (1, None, 2), (1, "x", 1), (1, "y", 1), (2, None, 2),
      (2, "x", 2)]),
    ("SELECT g, count(*) FROM t GROUP BY GROUPING SETS (g, h) ORDER BY g, count(*)",
     [("g", "Nullable(Int32)"), ("count(*)", "UInt64")], [(1, 2), (2, 2), (None, 1), (None, 3)]),
    ("SELECT g, h, grouping(h) FROM t GROUP BY GROUPING SETS ((g), (h)) ORDER BY 1, 2",
     [("g", "Nullable(Int32)"), ("h", "Nullable(String)"), ("grouping(h)", "UInt32")],
     [(1, None, 1), (2, None, 1), (None, "x", 0), (None, "y", 0)]),
    ("SELECT g, sum(sum(v)) OVER (), count(*) FROM t GROUP BY ROLLUP(g) ORDER BY g",
     [("g", "Nullable(Int32)"), ("sum(sum(v)) over ( )", "Nullable(Int64)"), ("count(*)", "UInt64")],
     [(1, 84, 2), (2, 84, 2), (None, 84, 4)]),
    ("SELECT g, h, sum(v) FROM t GROUP BY ALL ORDER BY g, h",
     [("g", "Nullable(Int32)"), ("h", "Nullable(String)"), ("sum(v)", "Nullable(Int64)")],
     [(1, "x", 10), (1, "y", 20), (2, "x", 12)]),
    ("SELECT g + 1 AS k, upper(h), sum(v) FROM t GROUP BY ALL ORDER BY k, 2",
     [("k", "Nullable(Int64)"), ("upper(h)", "Nullable(String)"), ("sum(v)", "Nullable(Int64)")],
     [(2, "X", 10), (2, "Y", 20), (3, "X", 12)]),
    ("SELECT g, count(*) FROM t GROUP BY ALL ORDER BY g",
     [("g", "Nullable(Int32)"), ("count(*)", "UInt64")], [(1, 2), (2, 2)]),
]


@pytest.mark.parametrize("sql, schema, rows", CASES)
def test_grouping_sets(session, sql, schema, rows):
    assert answer(session, sql) == (schema, rows)


def test_every_key_of_grouping_sets_is_nullable(session):
    schema, rows = answer(session, "SELECT v, count(*) FROM t GROUP BY ROLLUP(v) ORDER BY v")
    assert schema == [("v", "Nullable(Int32)"), ("count(*)", "UInt64")]
    assert rows == [(5, 1), (7, 1), (10, 1), (20, 1), (None, 4)]
    schema, _ = answer(session, "SELECT v, count(*) FROM t GROUP BY GROUPING SETS ((v), (v, g))")
    assert schema[0] == ("v", "Nullable(Int32)")


def test_empty_table_with_grouping_sets_has_no_rows():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE e (g INT)"))
    assert list(s.execute("SELECT g, count(*) FROM e GROUP BY GROUPING SETS ((g), ())")) == []


ERRORS = [
    ("SELECT g, grouping(g) FROM t GROUP BY g", 1065),
    ("SELECT grouping(v) FROM t GROUP BY GROUPING SETS ((g), (h))", 1006),
    ("SELECT g, sum(v) OVER (), count(*) FROM t GROUP BY ROLLUP(g)", 1065),
]


@pytest.mark.parametrize("sql, code", ERRORS)
def test_grouping_errors(session, sql, code):
    with pytest.raises(engine.EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_the_empty_grouping_set_of_no_rows_is_no_group():
    # as Databend 1.2.453 answers
    s = engine.Database().session()
    list(s.execute("CREATE TABLE e (g INT)"))
    assert list(s.execute("SELECT count(*) FROM e GROUP BY GROUPING SETS (())")) == []
    list(s.execute("INSERT INTO e VALUES (1), (1)"))
    assert list(s.execute("SELECT count(*) FROM e GROUP BY GROUPING SETS (())")) == [(2,)]


def test_plain_keys_with_rollup_and_grouping_sets_are_crossed(session):
    # base/03_common/03_0003_select_group_by.test: `a, ROLLUP (b)` is GROUPING SETS ((a, b), (a))
    rows = answer(session, "SELECT g, h, sum(v) FROM t GROUP BY g, ROLLUP (h) ORDER BY g, h")[1]
    assert rows == [(1, "x", 10), (1, "y", 20), (1, None, 30), (2, "x", 12), (2, None, 12)]
    rows = answer(session, "SELECT g, h, sum(v) FROM t GROUP BY h, GROUPING SETS (g, ()) ORDER BY g, h")[1]
    assert rows == [(1, "x", 10), (1, "y", 20), (2, "x", 12), (None, "x", 22), (None, "y", 20)]
    # the crossed sets are deduplicated: (h, g, h) is (h, g), (h, h) is (h)
    rows = answer(session, "SELECT g, h, sum(v) FROM t GROUP BY h, ROLLUP (g), GROUPING SETS (h, g) "
                           "ORDER BY g, h")[1]
    assert rows == [(1, "x", 10), (1, "y", 20), (2, "x", 12), (None, "x", 22), (None, "y", 20)]


def test_an_aggregate_in_group_by_is_refused_with_databends_words(session):
    with pytest.raises(engine.EngineError) as err:
        answer(session, "SELECT sum(v) FROM t GROUP BY sum(v)")
    assert err.value.code == 1065
    assert "GROUP BY items can't contain aggregate functions or window functions: sum(v)" in err.value.message
