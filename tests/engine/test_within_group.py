"""WITHIN GROUP (ORDER BY ...) after string_agg / listagg / group_concat / array_agg / list, as the
current Databend has it (its docs and its own tests). Databend 1.2.453 has no such clause: it
answers 1005 (`unexpected `(`, expecting `BY``), so the expected answers here come from the current
Databend's documentation examples and test suite, or are worked out by hand on small inputs."""

import pytest

import engine
from engine.core.errors import EngineError
from grammar.errors import SqlSyntaxError


@pytest.fixture
def s():
    session = engine.Database().session()
    for sql in [
        # the current Databend's own test table for WITHIN GROUP
        "CREATE TABLE t3 (s STRING NULL, x INT NULL, y INT NULL, z INT NULL, b BOOLEAN NULL)",
        "INSERT INTO t3 VALUES ('abc', 3, 1, 2, true), ('def', 2, 1, NULL, false), (NULL, 1, 2, 1, NULL), "
        "('xyz', 0, 2, 0, true)",
        # the examples of the current Databend docs (STRING_AGG, ARRAY_AGG)
        "CREATE TABLE programming_languages (id INT, language_name VARCHAR)",
        "INSERT INTO programming_languages VALUES (1, 'Python'), (2, 'JavaScript'), (3, 'Java'), (4, 'C#'), "
        "(5, 'Ruby')",
        "CREATE TABLE movie_ratings (id INT, movie_title VARCHAR, user_id INT, rating INT)",
        "INSERT INTO movie_ratings VALUES (1, 'Inception', 1, 5), (2, 'Inception', 2, 4), (3, 'Inception', 3, 5), "
        "(4, 'Interstellar', 1, 4), (5, 'Interstellar', 2, 3)",
    ]:
        list(session.execute(sql))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def answer(s, sql):
    result = s.execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


def error(s, sql):
    with pytest.raises((EngineError, SqlSyntaxError)) as info:
        list(s.execute(sql))
    return info.value.code, str(info.value)


# ---------------------------------------------------------------- the docs' examples


def test_string_agg_docs_example(s):
    schema, got = answer(s, "SELECT STRING_AGG(language_name, ', ') WITHIN GROUP ( ORDER BY language_name DESC ) "
                            "AS concatenated_languages FROM programming_languages")
    assert schema == [("concatenated_languages", "Nullable(String)")]
    assert got == [("Ruby, Python, JavaScript, Java, C#",)]


def test_array_agg_docs_example(s):
    got = rows(s, "SELECT movie_title, ARRAY_AGG(rating) WITHIN GROUP ( ORDER BY rating DESC ) AS ratings "
                  "FROM movie_ratings WHERE movie_title = 'Inception' GROUP BY movie_title")
    assert got == [("Inception", (5, 5, 4))]


# ---------------------------------------------------------------- ordering (the current Databend's tests)


@pytest.mark.parametrize("order, expected", [
    ("s desc", "xyz|def|abc"),
    ("x desc", "abc|def|xyz"),
    ("x + 1 desc", "abc|def|xyz"),
    ("x", "xyz|def|abc"),
    ("x asc", "xyz|def|abc"),
    # a NULL key comes last in both directions unless NULLS FIRST (not a query ORDER BY's default)
    ("z desc", "abc|xyz|def"),
    ("z desc nulls first", "def|abc|xyz"),
    ("z desc nulls last", "abc|xyz|def"),
    ("z", "xyz|abc|def"),
    ("z nulls first", "def|xyz|abc"),
])
def test_listagg_in_the_order_of_one_key(s, order, expected):
    assert rows(s, f"SELECT listagg(s, '|') WITHIN GROUP (ORDER BY {order}) FROM t3") == [(expected,)]


def test_several_keys_the_first_deciding_first(s):
    assert rows(s, "SELECT listagg(concat('Hello ', s), '|') WITHIN GROUP (ORDER BY y + 1 DESC, x DESC) FROM t3") \
        == [("Hello xyz|Hello abc|Hello def",)]
    assert rows(s, "SELECT array_agg(x) WITHIN GROUP (ORDER BY y + 1 DESC, x DESC), "
                   "array_agg(x) WITHIN GROUP (ORDER BY x DESC) FROM t3") == [((1, 0, 3, 2), (3, 2, 1, 0))]


def test_equal_keys_keep_the_rows_order(s):
    # b = true on 'abc' then 'xyz' (and the NULL value's row is left out): a stable sort
    assert rows(s, "SELECT array_agg(s) WITHIN GROUP (ORDER BY b), array_agg(s) WITHIN GROUP (ORDER BY b DESC), "
                   "list(s) WITHIN GROUP (ORDER BY 1) FROM t3") \
        == [(("def", "abc", "xyz"), ("abc", "xyz", "def"), ("abc", "def", "xyz"))]


def test_every_ordered_aggregate_and_its_column_name(s):
    schema, got = answer(s, "SELECT string_agg(s) WITHIN GROUP (ORDER BY x), group_concat(s, '-') WITHIN GROUP "
                            "(ORDER BY x), listagg(s, '|') WITHIN GROUP (ORDER BY x DESC NULLS FIRST), array_agg(x) "
                            "WITHIN GROUP (ORDER BY s ASC), list(s) WITHIN GROUP (ORDER BY x, y DESC) FROM t3")
    # named as the current Databend prints the call (its keywords in lower case, as this server
    # names every column, as Databend 1.2.453 did); ASC shown only where written
    assert schema == [
        ("string_agg(s) within group ( order by x )", "Nullable(String)"),
        ("group_concat(s, '-') within group ( order by x )", "Nullable(String)"),
        ("listagg(s, '|') within group ( order by x desc nulls first )", "Nullable(String)"),
        ("array_agg(x) within group ( order by s asc )", "Array(Int32)"),
        ("list(s) within group ( order by x, y desc )", "Array(String)"),
    ]
    # array_agg(x) by s: the row whose s is NULL comes last
    assert got == [("xyzdefabc", "xyz-def-abc", "abc|def|xyz", (3, 2, 0, 1), ("xyz", "def", "abc"))]


def test_with_and_without_the_clause_are_two_aggregates(s):
    assert rows(s, "SELECT listagg(s, ',') WITHIN GROUP (ORDER BY x), listagg(s, ',') WITHIN GROUP (ORDER BY x DESC),"
                   " listagg(s, ',') FROM t3") == [("xyz,def,abc", "abc,def,xyz", "abc,def,xyz")]


def test_order_by_inside_the_arguments_is_the_same_call(s):
    # the current Databend's PostgreSQL spelling, named (and printed) as WITHIN GROUP
    schema, got = answer(s, "SELECT string_agg(s, '|' ORDER BY x DESC), string_agg(s, '|' ORDER BY z DESC NULLS FIRST), "
                            "array_agg(x ORDER BY y + 1 DESC, x DESC), string_agg(s, '|' ORDER BY x DESC) "
                            "FILTER (WHERE b) FROM t3")
    assert [name for name, _ in schema] == [
        "string_agg(s, '|') within group ( order by x desc )",
        "string_agg(s, '|') within group ( order by z desc nulls first )",
        "array_agg(x) within group ( order by y + 1 desc, x desc )",
        "string_agg(s, '|') within group ( order by x desc ) filter (where b)",
    ]
    assert got == [("abc|def|xyz", "def|abc|xyz", (1, 0, 3, 2), "abc|xyz")]
    code, message = error(s, "SELECT string_agg(s ORDER BY x) WITHIN GROUP (ORDER BY y) FROM t3")
    assert code == 1005 and "ORDER BY inside aggregate arguments cannot be combined with WITHIN GROUP" in message
    assert error(s, "SELECT count_distinct(x ORDER BY y) FROM t3") \
        == (1065, "only aggregate functions allowed in within group syntax")


# ---------------------------------------------------------------- groups


def test_group_by_several_groups(s):
    got = rows(s, "SELECT y, listagg(s, '|') WITHIN GROUP (ORDER BY x), array_agg(z) WITHIN GROUP (ORDER BY x DESC) "
                  "FROM t3 GROUP BY y ORDER BY y")
    # y = 1: def (x 2), abc (x 3); y = 2: xyz (x 0), NULL (x 1) -- NULL values left out
    assert got == [(1, "def|abc", (2,)), (2, "xyz", (1, 0))]
    got = rows(s, "SELECT movie_title, listagg(to_varchar(user_id), ',') WITHIN GROUP (ORDER BY rating, id DESC) "
                  "FROM movie_ratings GROUP BY movie_title ORDER BY movie_title")
    assert got == [("Inception", "2,3,1"), ("Interstellar", "2,1")]


def test_empty_and_all_null_groups(s):
    # no rows: string aggregates are NULL, array aggregates an empty array
    assert rows(s, "SELECT listagg(s) WITHIN GROUP (ORDER BY x), array_agg(s) WITHIN GROUP (ORDER BY x) "
                   "FROM t3 WHERE x > 10") == [(None, ())]
    # a group whose values are all NULL, and a grouped query over no rows (no group at all)
    assert rows(s, "SELECT y, string_agg(s) WITHIN GROUP (ORDER BY x), list(s) WITHIN GROUP (ORDER BY x) "
                   "FROM t3 WHERE s IS NULL GROUP BY y") == [(2, None, ())]
    assert rows(s, "SELECT y, string_agg(s) WITHIN GROUP (ORDER BY x) FROM t3 WHERE x > 10 GROUP BY y") == []


def test_filter_having_and_order_by(s):
    assert rows(s, "SELECT listagg(s, '|') WITHIN GROUP (ORDER BY x DESC) FILTER (WHERE b) FROM t3") \
        == [("abc|xyz",)]
    assert rows(s, "SELECT y FROM t3 GROUP BY y HAVING listagg(s) WITHIN GROUP (ORDER BY x DESC) = 'abcdef'") \
        == [(1,)]
    assert rows(s, "SELECT y, listagg(s) WITHIN GROUP (ORDER BY x) AS l FROM t3 GROUP BY y "
                   "ORDER BY listagg(s) WITHIN GROUP (ORDER BY x DESC)") == [(1, "defabc"), (2, "xyz")]


def test_keys_of_other_types(s):
    assert rows(s, "SELECT array_agg(x) WITHIN GROUP (ORDER BY to_date(x + 19000) DESC), "
                   "array_agg(x) WITHIN GROUP (ORDER BY x / 2.0), array_agg(x) WITHIN GROUP (ORDER BY s) FROM t3") \
        == [((3, 2, 1, 0), (0, 1, 2, 3), (3, 2, 0, 1))]


# ---------------------------------------------------------------- windows


WINDOW_ROWS = ("('develop', 10, 5200, 0), ('sales', 1, 5000, NULL), ('personnel', 5, 3500, 1), "
               "('sales', 4, 4800, NULL), ('personnel', 2, 3900, 2), ('develop', 7, 4200, NULL), "
               "('develop', 9, 4500, 3), ('sales', 3, 4800, 5), ('develop', 8, 6000, 4), ('develop', 11, 5200, 3)")


@pytest.mark.parametrize("call, expected", [
    # the current Databend's window tests (rows sorted)
    ("listagg(cast(salary AS VARCHAR), '|') WITHIN GROUP (ORDER BY empno DESC)",
     ["3500|3900", "3900", "4200", "4500|6000|4200", "4800|4800|5000", "4800|5000", "5000", "5200|4500|6000|4200",
      "5200|5200|4500|6000|4200", "6000|4200"]),
    ("listagg(cast(salary AS VARCHAR), '|') WITHIN GROUP (ORDER BY ord DESC NULLS FIRST)",
     ["3900", "3900|3500", "4200", "4200|6000", "4200|6000|4500", "4200|6000|4500|5200", "4200|6000|4500|5200|5200",
      "5000", "5000|4800", "5000|4800|4800"]),
    ("array_agg(salary) WITHIN GROUP (ORDER BY salary DESC)",
     [(3900,), (3900, 3500), (4200,), (5000,), (5000, 4800), (5000, 4800, 4800), (6000, 4200), (6000, 4500, 4200),
      (6000, 5200, 4500, 4200), (6000, 5200, 5200, 4500, 4200)]),
])
def test_window_aggregates_order_each_frame(s, call, expected):
    list(s.execute("CREATE TABLE empsalary (depname STRING, empno BIGINT, salary INT, ord INT NULL)"))
    list(s.execute(f"INSERT INTO empsalary VALUES {WINDOW_ROWS}"))
    schema, got = answer(s, f"SELECT {call} OVER (PARTITION BY depname ORDER BY empno) FROM empsalary")
    assert schema[0][0].endswith(" over ( partition by depname order by empno )")
    assert sorted(v for (v,) in got) == expected


# ---------------------------------------------------------------- errors (the current Databend's)


@pytest.mark.parametrize("sql", [
    "SELECT sum(x) WITHIN GROUP (ORDER BY x) FROM t3",
    "SELECT median(x) WITHIN GROUP (ORDER BY x) FROM t3",
    "SELECT abs(x) WITHIN GROUP (ORDER BY x) FROM t3",
    "SELECT rank() WITHIN GROUP (ORDER BY x) OVER (ORDER BY y) FROM t3",
    "SELECT sum(x) WITHIN GROUP (ORDER BY x) OVER () FROM t3",
])
def test_within_group_on_another_function_is_1065(s, sql):
    assert error(s, sql) == (1065, "only aggregate functions allowed in within group syntax")


def test_distinct_with_within_group_is_1005(s):
    for sql in ["SELECT string_agg(DISTINCT s) WITHIN GROUP (ORDER BY s) FROM t3",
                "SELECT count(DISTINCT x) WITHIN GROUP (ORDER BY y) FROM t3",
                "SELECT string_agg(DISTINCT s ORDER BY x) FROM t3"]:
        assert error(s, sql) == (1005, "DISTINCT aggregate ORDER BY is not supported")
    # without the clause DISTINCT is as before
    assert rows(s, "SELECT array_agg(DISTINCT y) FROM t3") == [((1, 2),)]


def test_misplaced_clause_and_keys(s):
    code, message = error(s, "SELECT listagg(s) FILTER (WHERE b) WITHIN GROUP (ORDER BY x) FROM t3")
    assert code == 1005 and "WITHIN GROUP must come before FILTER" in message
    assert error(s, "SELECT count(*) WITHIN GROUP (ORDER BY x) FROM t3")[0] == 1005
    assert error(s, "SELECT listagg(s) WITHIN GROUP (ORDER BY count(*)) FROM t3") \
        == (1065, "aggregate function calls cannot be nested")
    assert error(s, "SELECT listagg(s) WITHIN GROUP (ORDER BY row_number() OVER ()) FROM t3") \
        == (1065, "aggregate function calls cannot contain window function calls")
    assert error(s, "SELECT x FROM t3 WHERE listagg(s) WITHIN GROUP (ORDER BY x) = ''")[0] == 1065
    # a lone `within` after a call is still an alias, as in Databend 1.2.453
    assert answer(s, "SELECT count(*) within FROM t3") == ([("within", "UInt64")], [(4,)])


# ---------------------------------------------------------------- views and EXPLAIN SYNTAX


def test_a_view_keeps_and_answers_the_clause(s):
    list(s.execute("CREATE VIEW v AS SELECT y, listagg(s, '|') WITHIN GROUP (ORDER BY x ASC NULLS FIRST, z DESC) "
                   "AS l, array_agg(y) WITHIN GROUP (ORDER BY y DESC) OVER () AS a FROM t3 GROUP BY y"))
    [(text,)] = rows(s, "SELECT view_query FROM system.views WHERE name = 'v'")
    assert text == ("SELECT y, listagg(s, '|') WITHIN GROUP ( ORDER BY x ASC NULLS FIRST, z DESC ) AS l, "
                    "array_agg(y) WITHIN GROUP ( ORDER BY y DESC ) OVER ( ) AS a FROM default.t3 GROUP BY y")
    assert rows(s, "SELECT y, l, a FROM v ORDER BY y") == [(1, "def|abc", (2, 1)), (2, "xyz", (2, 1))]


def test_explain_syntax_prints_the_clause(s):
    got = rows(s, "EXPLAIN SYNTAX SELECT listagg(s, '|') WITHIN GROUP (ORDER BY x ASC, z DESC NULLS LAST) "
                  "FILTER (WHERE b) FROM t3")
    assert got == [("SELECT listagg(s, '|') WITHIN GROUP ( ORDER BY x ASC, z DESC NULLS LAST ) FILTER ( WHERE b )",),
                   ("FROM",), ("    t3",)]
