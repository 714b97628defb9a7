"""Window functions: ranking, value and aggregate functions OVER (PARTITION BY .. ORDER BY ..),
named windows, QUALIFY, result types and column names (as Databend 1.2.453 answers)."""

import decimal

import pytest

import engine

SETUP = [
    "CREATE TABLE w (g INT, v INT, s VARCHAR)",
    "INSERT INTO w VALUES (1, 10, 'a'), (1, 20, 'b'), (1, 20, 'c'), (2, 5, 'd'), (2, NULL, 'e'), (NULL, 7, 'f')",
]


@pytest.fixture
def session():
    s = engine.Database().session()
    for sql in SETUP:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


CASES = [
    ("SELECT g, v, row_number() OVER (PARTITION BY g ORDER BY v) FROM w ORDER BY g, v",
     [("g", "Nullable(Int32)"), ("v", "Nullable(Int32)"),
      ("row_number() over ( partition by g order by v )", "UInt64")],
     [(1, 10, 1), (1, 20, 2), (1, 20, 3), (2, 5, 1), (2, None, 2), (None, 7, 1)]),
    ("SELECT rank() OVER (PARTITION BY g ORDER BY v), dense_rank() OVER (PARTITION BY g ORDER BY v DESC), "
     "percent_rank() OVER (PARTITION BY g ORDER BY v), cume_dist() OVER (PARTITION BY g ORDER BY v), "
     "ntile(2) OVER (PARTITION BY g ORDER BY v) FROM w ORDER BY g, v",
     [("rank() over ( partition by g order by v )", "UInt64"),
      ("dense_rank() over ( partition by g order by v desc )", "UInt64"),
      ("percent_rank() over ( partition by g order by v )", "Float64"),
      ("cume_dist() over ( partition by g order by v )", "Float64"),
      ("ntile(2) over ( partition by g order by v )", "UInt64")],
     [(1, 2, 0.0, 1 / 3, 1), (2, 1, 0.5, 1.0, 1), (2, 1, 0.5, 1.0, 2), (1, 1, 0.0, 0.5, 1), (2, 2, 1.0, 1.0, 2),
      (1, 1, 0.0, 1.0, 1)]),
    # window COUNT(x) counts the frame's rows, NULLs too (Databend 1.2.453)
    ("SELECT sum(v) OVER (PARTITION BY g ORDER BY v) a, count(v) OVER (PARTITION BY g) b, "
     "avg(v) OVER (ORDER BY v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) c, min(v) OVER w, max(v) OVER w, "
     "count(*) OVER w FROM w WINDOW w AS (PARTITION BY g) ORDER BY g, v",
     [("a", "Nullable(Int64)"), ("b", "UInt64"), ("c", "Nullable(Float64)"), ("min(v) over w", "Nullable(Int32)"),
      ("max(v) over w", "Nullable(Int32)"), ("count(*) over w", "UInt64")],
     [(10, 3, 37 / 3, 10, 20, 3), (50, 3, 50 / 3, 10, 20, 3), (50, 3, 20.0, 10, 20, 3), (5, 2, 6.0, 5, 5, 2),
      (5, 2, 20.0, 5, 5, 2), (7, 1, 22 / 3, 7, 7, 1)]),
    ("SELECT lag(v) OVER (ORDER BY s), lead(v, 2, 0) OVER (ORDER BY s), first_value(v) OVER (ORDER BY s), "
     "last_value(v) OVER (ORDER BY s), nth_value(v, 2) OVER (ORDER BY s) FROM w ORDER BY s",
     [("lag(v) over ( order by s )", "Nullable(Int32)"), ("lead(v, 2, 0) over ( order by s )", "Nullable(Int32)"),
      ("first_value(v) over ( order by s )", "Nullable(Int32)"),
      ("last_value(v) over ( order by s )", "Nullable(Int32)"),
      ("nth_value(v, 2) over ( order by s )", "Nullable(Int32)")],
     [(None, 20, 10, 10, None), (10, 5, 10, 20, 20), (20, None, 10, 20, 20), (20, 7, 10, 5, 20),
      (5, 0, 10, None, 20), (None, 0, 10, 7, 20)]),
    ("SELECT g, row_number() OVER (ORDER BY v NULLS FIRST) FROM w ORDER BY v NULLS FIRST",
     [("g", "Nullable(Int32)"), ("row_number() over ( order by v nulls first )", "UInt64")],
     [(2, 1), (2, 2), (None, 3), (1, 4), (1, 5), (1, 6)]),
    ("SELECT g, sum(v), rank() OVER (ORDER BY sum(v) DESC) FROM w GROUP BY g ORDER BY g",
     [("g", "Nullable(Int32)"), ("sum(v)", "Nullable(Int64)"), ("rank() over ( order by sum(v) desc )", "UInt64")],
     [(1, 50, 1), (2, 5, 3), (None, 7, 2)]),
    ("SELECT row_number() OVER () * 2 FROM w",
     [("row_number() over ( ) * 2", "UInt64")], [(2,), (4,), (6,), (8,), (10,), (12,)]),
    ("SELECT g, v FROM w QUALIFY row_number() OVER (PARTITION BY g ORDER BY v) = 1 ORDER BY g",
     [("g", "Nullable(Int32)"), ("v", "Nullable(Int32)")], [(1, 10), (2, 5), (None, 7)]),
    ("SELECT g, v FROM w WINDOW p AS (PARTITION BY g) QUALIFY row_number() OVER p = 1 ORDER BY g",
     [("g", "Nullable(Int32)"), ("v", "Nullable(Int32)")], [(1, 10), (2, 5), (None, 7)]),
    ("SELECT g, v FROM w ORDER BY row_number() OVER (ORDER BY v DESC)",
     [("g", "Nullable(Int32)"), ("v", "Nullable(Int32)")], [(1, 20), (1, 20), (1, 10), (None, 7), (2, 5), (2, None)]),
    ("SELECT sum(v) OVER q FROM w WINDOW p AS (PARTITION BY g), q AS (p ORDER BY v) ORDER BY g, v",
     [("sum(v) over q", "Nullable(Int64)")], [(10,), (50,), (50,), (5,), (5,), (7,)]),
    ("SELECT any(v) OVER (PARTITION BY g) FROM w ORDER BY g, v",
     [("any(v) over ( partition by g )", "Nullable(Int32)")], [(10,), (10,), (10,), (5,), (5,), (7,)]),
    ("SELECT lag(v, -1) OVER (ORDER BY v) FROM w WHERE g = 1 ORDER BY v",
     [("lag(v, - 1) over ( order by v )", "Nullable(Int32)")], [(20,), (20,), (None,)]),
]


@pytest.mark.parametrize("sql, schema, rows", CASES)
def test_window_query(session, sql, schema, rows):
    got_schema, got_rows = answer(session, sql)
    assert got_schema == schema
    assert len(got_rows) == len(rows)
    for got, want in zip(got_rows, rows, strict=True):
        assert list(got) == [pytest.approx(v) if isinstance(v, float) else v for v in want]


def test_not_null_argument_types(session):
    list(session.execute("CREATE TABLE nn (g INT, v INT NOT NULL)"))
    list(session.execute("INSERT INTO nn VALUES (1, 10), (1, 20), (2, 5)"))
    schema, _ = answer(session, "SELECT min(v) OVER (), sum(v) OVER (), avg(v) OVER (), count(v) OVER (), "
                                "first_value(v) OVER (), lag(v) OVER (), lag(v, 1, 0) OVER (), lead(v, 1, 1.5) OVER () "
                                "FROM nn")
    assert [t for _, t in schema] == ["Nullable(Int32)", "Nullable(Int64)", "Nullable(Float64)", "UInt64",
                                      "Nullable(Int32)", "Nullable(Int32)", "Int32", "Int32"]


def test_count_distinct_over_skips_nulls(session):
    # as Databend 1.2.453 answers
    _, rows = answer(session, "SELECT g, v, count(DISTINCT v) OVER (PARTITION BY g) FROM w ORDER BY g, v")
    assert [r[2] for r in rows] == [2, 2, 2, 1, 1, 1]


ERRORS = [
    ("SELECT g FROM w WHERE row_number() OVER () > 1", 1065),
    ("SELECT rank() FROM w", 1065),
    ("SELECT sum(v) OVER w2 FROM w WINDOW w1 AS (PARTITION BY g)", 1005),
    ("SELECT ntile(0) OVER (ORDER BY v) FROM w", 2004),
    ("SELECT ntile(g) OVER () FROM w", 2004),
    ("SELECT lag(v, g) OVER () FROM w", 2004),
    ("SELECT g FROM w QUALIFY row_number() OVER p = 1 WINDOW p AS (PARTITION BY g)", 1005),
    ("SELECT g, count(*) FROM w GROUP BY g HAVING row_number() OVER () > 0", 1065),
    ("SELECT g FROM w GROUP BY row_number() OVER ()", 1065),
    ("SELECT sum(row_number() OVER ()) OVER () FROM w", 1065),
    ("SELECT sum(row_number() OVER ()) FROM w", 1065),
    ("SELECT g, v, lag(v, 1, 'x') OVER () FROM w", 1006),
]


@pytest.mark.parametrize("sql, code", ERRORS)
def test_window_errors(session, sql, code):
    # codes as Databend 1.2.453 answers
    with pytest.raises(engine.EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_the_same_window_call_in_a_subquery_and_its_query_are_separate(session):
    _, rows = answer(session, "SELECT (SELECT min(v) OVER () FROM w WHERE g = 2 LIMIT 1), min(v) OVER (), g "
                              "FROM w WHERE g = 1")
    assert rows == [(5, 10, 1)] * 3
    _, rows = answer(session, "SELECT rn, row_number() OVER () FROM (SELECT row_number() OVER (ORDER BY v DESC) rn "
                              "FROM w) ORDER BY rn")
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]


def test_qualify_without_window_functions_filters_rows(session):
    assert answer(session, "SELECT g FROM w QUALIFY g > 1")[1] == [(2,), (2,)]


def test_window_over_a_grouped_query_and_qualify_with_aggregates(session):
    _, rows = answer(session, "SELECT g, count(*) c FROM w GROUP BY g QUALIFY rank() OVER (ORDER BY count(*) DESC) = 1")
    assert rows == [(1, 3)]


def test_explain_shows_the_window(session):
    lines = [r[0].strip() for r in session.execute("EXPLAIN SELECT row_number() OVER (PARTITION BY g ORDER BY v) FROM w")]
    assert "Window functions: row_number" in lines


def test_decimal_and_string_window_aggregates():
    # as Databend 1.2.453 answers: a window AVG of a Decimal keeps at least 4 decimal places
    s = engine.Database().session()
    list(s.execute("CREATE TABLE dd (d DECIMAL(10, 2), s VARCHAR)"))
    list(s.execute("INSERT INTO dd VALUES (1.25, 'x'), (2.50, 'y'), (3.10, NULL)"))
    schema, rows = answer(s, "SELECT avg(d) OVER (), sum(d) OVER (ORDER BY d), avg(d) OVER (ORDER BY d ROWS BETWEEN "
                             "1 PRECEDING AND CURRENT ROW), min(s) OVER (ORDER BY d), max(s) OVER () FROM dd ORDER BY d")
    assert [t for _, t in schema] == ["Nullable(Decimal(38, 4))", "Nullable(Decimal(38, 2))",
                                      "Nullable(Decimal(38, 4))", "Nullable(String)", "Nullable(String)"]
    D = decimal.Decimal
    assert rows == [(D("2.2833"), D("1.25"), D("1.2500"), "x", "y"), (D("2.2833"), D("3.75"), D("1.8750"), "x", "y"),
                    (D("2.2833"), D("6.85"), D("2.8000"), "x", "y")]


def test_an_inline_window_inherits_its_base_window(session):
    """OVER (p ORDER BY v) takes p's PARTITION BY, as SQL and a WINDOW clause chain do
    (Databend 1.2.453 drops the base window of an inline OVER; its named chains inherit)."""
    schema, rows = answer(session, "SELECT sum(v) OVER (p ORDER BY v) FROM w WINDOW p AS (PARTITION BY g) "
                                   "ORDER BY g, v")
    assert schema == [("sum(v) over ( p order by v )", "Nullable(Int64)")]
    assert rows == [(10,), (50,), (50,), (5,), (5,), (7,)]
