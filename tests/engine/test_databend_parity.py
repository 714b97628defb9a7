"""Behaviour matched against Databend: NATURAL joins, DISTINCT with ORDER BY, scalar subquery
rows, and conditional expressions that only evaluate the branch they need."""

from decimal import Decimal

import pytest

from engine import EngineError


@pytest.fixture
def rs(db):
    """A session with two tables sharing column `a` (NATURAL joins on it)."""
    session = db.session()
    for sql in [
        "CREATE TABLE l (a INT, b INT, s VARCHAR)",
        "INSERT INTO l VALUES (1, 15, 'x'), (2, 22, 'y'), (2, NULL, NULL), (0, 30, 'z')",
        "CREATE TABLE r (a INT, c INT)",
        "INSERT INTO r VALUES (1, 10), (2, 20), (3, 30)",
    ]:
        list(session.execute(sql))
    return session


def rows(session, sql):
    return list(session.execute(sql))


def names(session, sql):
    return [c.name for c in session.execute(sql).schema]


# ---------------------------------------------------------------- NATURAL joins

NATURAL = [
    ("SELECT * FROM l NATURAL JOIN r ORDER BY a, b",
     [(1, 15, "x", 10), (2, 22, "y", 20), (2, None, None, 20)]),
    ("SELECT * FROM l NATURAL INNER JOIN r ORDER BY a, b",
     [(1, 15, "x", 10), (2, 22, "y", 20), (2, None, None, 20)]),
    ("SELECT * FROM l NATURAL LEFT JOIN r ORDER BY a, b",
     [(0, 30, "z", None), (1, 15, "x", 10), (2, 22, "y", 20), (2, None, None, 20)]),
    ("SELECT * FROM r NATURAL RIGHT JOIN l ORDER BY a, b",
     [(None, 0, 30, "z"), (10, 1, 15, "x"), (20, 2, 22, "y"), (20, 2, None, None)]),
    ("SELECT * FROM l NATURAL FULL OUTER JOIN r ORDER BY a, b",
     [(0, 30, "z", None), (1, 15, "x", 10), (2, 22, "y", 20), (2, None, None, 20),
      (None, None, None, 30)]),
    ("SELECT a, c FROM l NATURAL LEFT OUTER JOIN r WHERE b > 20 ORDER BY 1", [(0, None), (2, 20)]),
    # no common column: a cross join
    ("SELECT * FROM (SELECT 1 AS x) p NATURAL JOIN (SELECT 2 AS y) q", [(1, 2)]),
    # every common column takes part
    ("SELECT * FROM (SELECT 1 AS x, 2 AS y) p NATURAL JOIN (SELECT 2 AS y, 1 AS x, 3 AS z) q",
     [(1, 2, 3)]),
    ("SELECT * FROM (SELECT 1 AS x, 2 AS y) p NATURAL JOIN (SELECT 2 AS y, 5 AS x) q", []),
]


@pytest.mark.parametrize("sql, expected", NATURAL)
def test_natural_join(rs, sql, expected):
    assert rows(rs, sql) == expected


def test_natural_join_shows_common_columns_once(rs):
    assert names(rs, "SELECT * FROM l NATURAL JOIN r") == ["a", "b", "s", "c"]
    assert names(rs, "SELECT * FROM r NATURAL RIGHT JOIN l") == ["c", "a", "b", "s"]


def test_natural_is_never_a_table_alias(rs):
    # before: `l natural` aliased l, then a cross join with r (12 rows)
    assert len(rows(rs, "SELECT * FROM l natural JOIN r")) == 3


# ---------------------------------------------------------------- DISTINCT + ORDER BY


@pytest.mark.parametrize(
    "sql",
    ["SELECT DISTINCT a FROM l ORDER BY b", "SELECT DISTINCT a FROM l ORDER BY a + 1",
     "SELECT DISTINCT a, s FROM l ORDER BY b DESC"],
)
def test_distinct_order_by_outside_select_list_is_an_error(rs, sql):
    with pytest.raises(EngineError) as info:
        rows(rs, sql)
    assert info.value.code == 1065
    assert "ORDER BY expressions must appear in select list" in str(info.value)


@pytest.mark.parametrize(
    "sql, expected",
    [
        ("SELECT DISTINCT a FROM l ORDER BY a", [(0,), (1,), (2,)]),
        ("SELECT DISTINCT a FROM l ORDER BY l.a DESC", [(2,), (1,), (0,)]),
        ("SELECT DISTINCT a + 1 AS x FROM l ORDER BY x", [(1,), (2,), (3,)]),
        ("SELECT DISTINCT a + 1 FROM l ORDER BY a + 1 DESC", [(3,), (2,), (1,)]),
        ("SELECT DISTINCT a FROM l ORDER BY 1 DESC LIMIT 2", [(2,), (1,)]),
        ("SELECT a FROM l ORDER BY b DESC NULLS LAST LIMIT 2", [(0,), (2,)]),
    ],
)
def test_distinct_order_by_select_list(rs, sql, expected):
    assert rows(rs, sql) == expected


# ---------------------------------------------------------------- scalar subqueries


def test_uncorrelated_scalar_subquery_takes_the_first_row(rs):
    # Databend plans it as a join with one row: no error
    assert rows(rs, "SELECT (SELECT c FROM r ORDER BY c DESC)") == [(30,)]


def test_correlated_scalar_subquery_with_two_rows_is_an_error(rs):
    with pytest.raises(EngineError) as info:
        rows(rs, "SELECT a, (SELECT c FROM r WHERE r.a > l.a) FROM l")
    assert info.value.code == 1001
    assert "Scalar subquery can't return more than one row" in str(info.value)


def test_correlated_scalar_subquery_with_at_most_one_row(rs):
    assert rows(rs, "SELECT a, (SELECT c FROM r WHERE r.a = l.a) FROM l ORDER BY a, b") == [
        (0, None), (1, 10), (2, 20), (2, 20)]


# ---------------------------------------------------------------- lazy branches

LAZY = [
    ("SELECT COALESCE(1, 1 DIV 0)", [(1,)]),
    ("SELECT IFNULL(1, 1 DIV 0)", [(1,)]),
    ("SELECT IF(true, 1, 1 DIV 0)", [(1,)]),
    ("SELECT IF(false, 1 DIV 0, 2)", [(2,)]),
    ("SELECT NULLIF(NULL, 1 DIV 0), NULLIF(b, 15), NULLIF(b, NULL) FROM l ORDER BY a, b",
     [(None, 30, 30), (None, None, 15), (None, 22, 22), (None, None, None)]),
    ("SELECT CASE WHEN a = 0 THEN 0 ELSE 10 DIV a END FROM l ORDER BY a", [(0,), (10,), (5,), (5,)]),
    ("SELECT IF(a = 0, 0, 10 DIV a) FROM l ORDER BY a", [(0,), (10,), (5,), (5,)]),
    ("SELECT a FROM l WHERE a <> 0 AND 10 DIV a > 1 ORDER BY a", [(1,), (2,), (2,)]),
    ("SELECT a <> 0 AND 10 DIV a > 1 FROM l ORDER BY a", [(False,), (True,), (True,), (True,)]),
    ("SELECT a = 0 OR 10 DIV a > 1 FROM l ORDER BY a", [(True,), (True,), (True,), (True,)]),
    # NULL operands still give three-valued results
    ("SELECT b > 20 AND a <> 0 AND 10 DIV a > 1 FROM l ORDER BY a, b",
     [(False,), (False,), (True,), (None,)]),
    ("SELECT b > 20 OR a = 0 OR 10 DIV a > 6 FROM l ORDER BY a, b", [(True,), (True,), (True,), (None,)]),
]


@pytest.mark.parametrize("sql, expected", LAZY)
def test_branches_not_taken_are_not_evaluated(rs, sql, expected):
    assert rows(rs, sql) == expected


def test_coalesce_evaluates_later_arguments_only_for_null_rows(rs):
    assert rows(rs, "SELECT COALESCE(b, a) FROM l ORDER BY a, b") == [(30,), (15,), (22,), (2,)]
    with pytest.raises(EngineError) as info:
        rows(rs, "SELECT COALESCE(b, 1 DIV (a - a)) FROM l")
    assert info.value.code == 1006


@pytest.mark.parametrize(
    "sql", ["SELECT 1 DIV 0", "SELECT COALESCE(NULL, 1 DIV 0)", "SELECT IF(true, 1 DIV 0, 1)"]
)
def test_a_branch_taken_still_raises(rs, sql):
    with pytest.raises(EngineError) as info:
        rows(rs, sql)
    assert info.value.code == 1006


# ---------------------------------------------------------------- column names
# Each name below is what Databend 1.2.453 gives the same unaliased select item.

NAMES = [
    ("SELECT a + 1 * 2, (a + 1) * 2, a - (1 - 2), a * (2 + 3) FROM l",
     ["a + 1 * 2", "(a + 1) * 2", "a - 1 - 2", "a * (2 + 3)"]),
    ("SELECT a = 0 AND b > 1, a = 1 OR a = 2 AND a = 3, (a = 1 OR a = 2) AND a = 3 FROM l",
     ["a = 0 and b > 1", "a = 1 or a = 2 and a = 3", "(a = 1 or a = 2) and a = 3"]),
    ("SELECT NOT a = 1, NOT (a = 1 AND b = 2), -(a + 1), -a * 2, 2 - -a FROM l",
     ["not a = 1", "not (a = 1 and b = 2)", "- (a + 1)", "- a * 2", "2 - - a"]),
    ("SELECT (a + 1) IS NULL, (a + 1) BETWEEN 1 AND 2, (a AND true) IS NULL, a NOT IN (1, 2) FROM l",
     ["a + 1 is null", "a + 1 between 1 and 2", "(a and true) is null", "a not in(1, 2)"]),
    ("SELECT a::string, (a + 1)::VARCHAR, CAST(a AS STRING), a::int64 + 1, a::nullable(int) FROM l",
     ["a::string", "(a + 1)::string", "cast(a as string)", "a::int64 + 1", "a::int32 null"]),
    ("SELECT NULL, 'X', UPPER('x'), 'it''s', 'a\\nb', 1e3, .5, true FROM l",
     ["null", "'x'", "upper('x')", "'it\\'s'", "'a\\nb'", "1000", "0.5", "true"]),
    ("SELECT s || 'x' || 'y', 'x' || (s || 'y'), l.a, l.a + 1 FROM l",
     ["s || 'x' || 'y'", "'x' || s || 'y'", "a", "a + 1"]),  # oracle: a qualifier goes through operators
    ("SELECT CASE a WHEN 1 THEN 'x' END, CASE WHEN a = 1 THEN 'x' ELSE 'y' END, IF(a > 1, 1, 2) FROM l",
     ["case a  when 1 then 'x' end", "case when a = 1 then 'x' else 'y' end", "if(a > 1, 1, 2)"]),
    ("SELECT substring(s FROM 1 FOR 2), substr(s, 2), trim(BOTH 'x' FROM s), CURRENT_TIMESTAMP IS NOT NULL "
     "FROM l",
     ["substring(s from 1 for 2)", "substring(s from 2)", "trim(both 'x' from s)",
      "current_timestamp() is not null"]),
    ("SELECT count(*), count(DISTINCT a), avg(a), avg(DISTINCT a), sum(a) + 1 FROM l",
     ["count(*)", "count(distinct a)", "sum(a) / if(count(a) = 0, 1, count(a))", "avg(distinct a)",
      "sum(a) + 1"]),
    ("SELECT (SELECT 1), (SELECT a FROM (SELECT 1 a) x WHERE a = 1), EXISTS (SELECT 1), "
     "a IN (SELECT 1) FROM l",
     ["(select 1)", "(select a from (select 1 as a) as x where a = 1)", "exists (select 1)",
      "a in(select 1)"]),
    ("SELECT (SELECT c FROM r WHERE c = 1 GROUP BY c HAVING count(*) > 0 ORDER BY c DESC LIMIT 1 OFFSET 0), "
     "(SELECT DISTINCT r1.c FROM r r1 JOIN r r2 ON r1.c = r2.c), (SELECT c FROM r LEFT JOIN r AS w USING (c)), "
     "(SELECT 1 UNION ALL SELECT 2)",
     ["(select c from r where c = 1 group by c having count(*) > 0 order by c desc limit 1 offset 0)",
      "(select distinct r1.c from r as r1 inner join r as r2 on r1.c = r2.c)",
      "(select c from r left outer join r as w using(c))", "(select 1 union all select 2)"]),
]


@pytest.mark.parametrize("sql, expected", NAMES)
def test_column_names_as_databend_prints_them(rs, sql, expected):
    assert names(rs, sql) == expected


def test_describe_shows_folded_defaults(rs):
    rows(rs, "CREATE TABLE d (a INT DEFAULT 1 + 2, b VARCHAR DEFAULT 'X', c INT DEFAULT -1)")
    assert [r[3] for r in rows(rs, "DESCRIBE d")] == ["3", "'X'", "-1"]


# ---------------------------------------------------------------- string functions (values from Databend)

STRINGS = [
    ("SELECT concat('a', NULL), 'a' || NULL, concat_ws(',', 'a', NULL, 'b'), concat_ws(NULL, 'a')",
     [(None, None, "a,b", None)]),
    ("SELECT ltrim('  a '), rtrim(' a  '), trim_both('xxaxx', 'x'), trim(BOTH 'x' FROM 'xaxx'), "
     "trim(LEADING 'x' FROM 'xa'), trim(TRAILING 'xy' FROM 'axyxy')",
     [("a ", " a", "a", "a", "a", "a")]),
    ("SELECT replace('abc', 'b', 'X'), replace('abc', '', 'X'), reverse('abc'), repeat('ab', 3), repeat('a', -1)",
     [("aXc", "abc", "cba", "ababab", "")]),
    ("SELECT left('abc', 2), right('abc', 2), right('abc', 0), lpad('ab', 5, '*'), rpad('ab', 5, '*-'), "
     "lpad('abc', 2, '*')",
     [("ab", "bc", "", "***ab", "ab*-*", "ab")]),
    ("SELECT locate('b', 'abc'), locate('b', 'abcb', 3), locate('z', 'abc'), instr('abc', 'c'), position('c', 'abc')",
     [(2, 4, 0, 3, 3)]),
    ("SELECT ascii('a'), space(3), octet_length('é'), length('é'), strcmp('a', 'b'), strcmp('b', 'b'), "
     "split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 9)",
     [(97, "   ", 2, 1, -1, 0, "b", "")]),
]


@pytest.mark.parametrize("sql, expected", STRINGS)
def test_string_functions(rs, sql, expected):
    assert rows(rs, sql) == expected


def test_concat_of_a_nullable_column_is_nullable(rs):
    result = rs.execute("SELECT s || 'x', concat(s, 'y') FROM l ORDER BY a, b")
    assert [c.type for c in result.schema] == ["Nullable(String)", "Nullable(String)"]
    assert list(result) == [("zx", "zy"), ("xx", "xy"), ("yx", "yy"), (None, None)]


def test_huge_string_results_are_refused(rs):
    with pytest.raises(EngineError) as info:
        rows(rs, "SELECT repeat('ab', 100000000)")
    assert info.value.code == 1006


# ---------------------------------------------------------------- AVG of decimals


@pytest.fixture
def decimals(rs):
    rows(rs, "CREATE TABLE dec (g INT, a DECIMAL(10, 0), b DECIMAL(10, 2), f DECIMAL(50, 3))")
    rows(rs, "INSERT INTO dec VALUES (1, 1, 1.25, 2.5), (1, 2, 2.5, 3), (2, 2, NULL, NULL), (2, -1, NULL, NULL), "
             "(2, -1, NULL, NULL), (2, -1, NULL, NULL), (2, -1, NULL, NULL)")
    return rs


def test_avg_of_decimal_is_decimal(decimals):
    result = decimals.execute("SELECT avg(a), avg(DISTINCT a), avg(b), avg(f) FROM dec")
    assert [c.type for c in result.schema] == [
        "Nullable(Decimal(38, 6))", "Nullable(Decimal(38, 4))", "Nullable(Decimal(38, 8))",
        "Nullable(Decimal(76, 9))"]
    # AVG rounds half up, AVG(DISTINCT) truncates (as Databend does)
    assert [str(v) for v in list(result)[0]] == ["0.142857", "0.6666", "1.87500000", "2.750000000"]
    assert [str(v) for v in rows(decimals, "SELECT avg(a) FROM dec WHERE a > 0")[0]] == ["1.666667"]


def test_grouped_avg_of_decimal_and_distinct_over_nulls(decimals):
    assert rows(decimals, "SELECT g, count(DISTINCT b), avg(b), avg(DISTINCT a) FROM dec GROUP BY g ORDER BY g") == [
        (1, 2, Decimal("1.87500000"), Decimal("1.5000")), (2, 0, None, Decimal("0.5000"))]


# ---------------------------------------------------------------- Date arithmetic


def test_date_plus_and_minus_days(rs):
    rows(rs, "CREATE TABLE dt (d DATE, n INT)")
    rows(rs, "INSERT INTO dt VALUES ('2024-01-15', 3), (NULL, 1), ('2024-03-01', NULL)")
    result = rs.execute("SELECT d + 1, d - 1, d + n, d - to_date('2024-01-01') FROM dt")
    assert [c.type for c in result.schema] == ["Nullable(Date)", "Nullable(Date)", "Nullable(Date)",
                                               "Nullable(Int32)"]
    assert [tuple(str(v) for v in r) for r in result] == [
        ("2024-01-16", "2024-01-14", "2024-01-18", "14"), ("None",) * 4,
        ("2024-03-02", "2024-02-29", "None", "60")]


# no matching overload is 1065 (out of range clamps to 0001-01-01 in current Databend)
@pytest.mark.parametrize(("sql", "code"), [("SELECT to_date('2024-01-15') + 1.5", 1065),
                                           ("SELECT 1 + to_date('2024-01-15')", 1065)])
def test_bad_date_arithmetic_is_an_error(rs, sql, code):
    with pytest.raises(EngineError) as info:
        rows(rs, sql)
    assert info.value.code == code


def test_select_star_over_duplicate_column_names(rs):
    assert rows(rs, "SELECT * FROM (SELECT 1 AS a, 2 AS a) s") == [(1, 2)]
    assert rows(rs, "SELECT s.* FROM (SELECT 1 AS a, 2 AS a) s") == [(1, 2)]
    assert names(rs, "SELECT * FROM (SELECT 1 AS a, 2 AS a) s") == ["a", "a"]
    assert rows(rs, "SELECT * FROM r GROUP BY 1, 2 ORDER BY 2 DESC LIMIT 1") == [(3, 30)]


def test_non_boolean_where_filters_by_truth_as_in_databend(db):
    s = db.session()
    list(s.execute("CREATE TABLE truthy (x INT NULL, y INT)"))
    list(s.execute("INSERT INTO truthy VALUES (1, 1), (0, 0), (NULL, 2)"))
    assert list(s.execute("SELECT y FROM truthy WHERE x ORDER BY y")) == [(1,)]
    assert list(s.execute("SELECT y FROM truthy WHERE y ORDER BY y")) == [(1,), (2,)]
    assert list(s.execute("DELETE FROM truthy WHERE x")) == [(1,)]
    assert list(s.execute("SELECT y FROM truthy ORDER BY y")) == [(0,), (2,)]


def test_like_pattern_from_a_column_of_any_type(db):
    s = db.session()
    list(s.execute("CREATE TABLE patterns (a INT, b VARCHAR, p VARCHAR)"))
    list(s.execute("INSERT INTO patterns VALUES (1, 'abc', 'a%'), (12, 'xyz', '%b%'), (3, '3', '3')"))
    assert list(s.execute("SELECT a FROM patterns WHERE b LIKE p ORDER BY a")) == [(1,), (3,)]
    assert list(s.execute("SELECT a FROM patterns WHERE b LIKE a ORDER BY a")) == [(3,)]
    assert list(s.execute("SELECT 1 LIKE 1, 12 LIKE 1")) == [(True, False)]
