"""Queries as tables of (sql, expected rows), one table per feature."""

from decimal import Decimal

import pytest

EXPRESSIONS = [
    ("SELECT 1", [(1,)]),
    ("SELECT 1 + 1, 2 * 3, 7 - 10", [(2, 6, -3)]),
    ("SELECT - - + 3, -(2)", [(3, -2)]),
    ("SELECT 1 / 2, 7 DIV 2, -7 DIV 2, -7 % 3, 7 % 3", [(0.5, 3, -3, -1, 1)]),
    ("SELECT 1.5, 1.5 * 2, 0.1 + 0.2", [(Decimal("1.5"), Decimal("3.0"), Decimal("0.3"))]),
    ("SELECT 2e1, 1.5 + 1.0e0", [(20.0, 2.5)]),
    ("SELECT 'a' || 'b', CONCAT('x', 1, 'y')", [("ab", "x1y")]),
    ("SELECT 1 = 1, 1 <> 1, 2 > 1, 2 >= 3, 'a' < 'b'", [(True, False, True, False, True)]),
    ("SELECT 3 BETWEEN 1 AND 5, 3 NOT BETWEEN 1 AND 5", [(True, False)]),
    ("SELECT 2 IN (1, 2), 3 NOT IN (1, 2)", [(True, True)]),
    ("SELECT 'abc' LIKE 'a%', 'abc' LIKE '_b_', 'abc' NOT LIKE '%z%', 'a%c' LIKE 'a\\%c'", [(True, True, True, True)]),
    ("SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END", [("two",)]),
    ("SELECT CASE WHEN 1 > 2 THEN 'x' ELSE 'y' END", [("y",)]),
    ("SELECT CAST('12' AS INT), CAST(2.5 AS INT), CAST(-2.5 AS SIGNED), CAST(3 AS VARCHAR)", [(12, 3, -3, "3")]),
    ("SELECT TRY_CAST('x' AS INT), '7'::INT + 1", [(None, 8)]),
    ("SELECT COALESCE(NULL, 2), NULLIF(1, 1), NULLIF(1, 2), IF(1 < 2, 'a', 'b'), IFNULL(NULL, 'z')",
     [(2, None, 1, "a", "z")]),
    ("SELECT ABS(-3), ROUND(2.5), ROUND(1.25, 1), FLOOR(1.5), CEIL(1.2), SQRT(16), POW(2, 10), MOD(7, 3)",
     [(3, Decimal("3"), Decimal("1.3"), 1, 2, 4.0, 1024.0, 1)]),
    ("SELECT LENGTH('abc'), UPPER('a'), LOWER('B'), SUBSTRING('hello', 2, 3), TRIM('  a  ')",
     [(3, "A", "b", "ell", "a")]),
    ("SELECT TYPEOF(1), TYPEOF(1.5), TYPEOF(1 / 2), TYPEOF('a'), TYPEOF(NULL)",
     [("TINYINT UNSIGNED", "DECIMAL(2, 1)", "DOUBLE", "VARCHAR", "NULL")]),
    ("SELECT DATABASE(), CURRENTDATABASE(), CURRENT_USER()", [("default", "default", "'root'@'%'")]),
    ("SELECT TO_DATE('2020-01-02') = '2020-01-02'", [(True,)]),
]

QUERIES = [
    ("SELECT a, b FROM t WHERE a > 1 ORDER BY a", [(2, "y"), (4, None)]),
    ("SELECT a FROM t ORDER BY a DESC", [(4,), (2,), (1,), (None,)]),
    ("SELECT a FROM t ORDER BY a NULLS FIRST", [(None,), (1,), (2,), (4,)]),
    ("SELECT a AS k FROM t WHERE a IS NOT NULL ORDER BY k DESC LIMIT 2", [(4,), (2,)]),
    ("SELECT a FROM t WHERE a IS NOT NULL ORDER BY 1 LIMIT 1 OFFSET 1", [(2,)]),
    ("SELECT b FROM t WHERE a IS NOT NULL ORDER BY c", [(None,), ("x",), ("y",)]),
    ("SELECT t.* FROM t WHERE a = 1", [(1, "x", 1.5)]),
    ("SELECT DISTINCT a > 1 FROM t WHERE a IS NOT NULL ORDER BY 1", [(False,), (True,)]),
    ("SELECT ALL id FROM u ORDER BY id", [(1,), (2,), (3,)]),
    ("SELECT number FROM numbers(4)", [(0,), (1,), (2,), (3,)]),
    ("SELECT count(*) FROM numbers(100000)", [(100000,)]),
    ("SELECT x FROM (SELECT id AS x FROM u) AS s WHERE x > 1 ORDER BY x", [(2,), (3,)]),
    ("WITH c AS (SELECT id FROM u WHERE id < 3) SELECT count(*) FROM c", [(2,)]),
    ("SELECT id FROM u UNION ALL SELECT id FROM u WHERE id = 1 ORDER BY 1", [(1,), (1,), (2,), (3,)]),
    ("SELECT id FROM u UNION SELECT id FROM u ORDER BY id", [(1,), (2,), (3,)]),
    ("SELECT id FROM u EXCEPT SELECT a FROM t ORDER BY 1", [(3,)]),
    ("SELECT id FROM u INTERSECT SELECT a FROM t ORDER BY 1", [(1,), (2,)]),
]

AGGREGATES = [
    ("SELECT count(*), count(a), sum(a), min(a), max(a) FROM t", [(4, 3, 7, 1, 4)]),
    ("SELECT avg(a) FROM t", [(7 / 3,)]),
    ("SELECT count(*), sum(a), avg(a), min(b) FROM t WHERE a > 100", [(0, None, None, None)]),
    ("SELECT min(b), max(b) FROM t", [("x", "z")]),
    ("SELECT count(DISTINCT x), sum(DISTINCT x) FROM (SELECT 1 AS x UNION ALL SELECT 1 UNION ALL SELECT 2)",
     [(2, 3)]),
    ("SELECT a > 1 AS big, count(*) FROM t GROUP BY big ORDER BY big", [(False, 1), (True, 2), (None, 1)]),
    ("SELECT a > 1, count(*) FROM t GROUP BY 1 ORDER BY 2 DESC, 1", [(True, 2), (False, 1), (None, 1)]),
    ("SELECT id % 2, sum(id) FROM u GROUP BY id % 2 ORDER BY 1", [(0, 2), (1, 4)]),
    ("SELECT id % 2 AS k FROM u GROUP BY k HAVING count(*) > 1", [(1,)]),
    ("SELECT id % 2 AS k FROM u GROUP BY k HAVING max(id) > 2 ORDER BY sum(id) DESC", [(1,)]),
    ("SELECT count(*) * 3 + 1", [(4,)]),
    ("SELECT sum(number), avg(number) FROM numbers(10)", [(45, 4.5)]),
    ("SELECT number % 3 AS g, count(*) FROM numbers(10) GROUP BY g ORDER BY g", [(0, 4), (1, 3), (2, 3)]),
]

JOINS = [
    ("SELECT u.label, t.b FROM t JOIN u ON t.a = u.id ORDER BY u.id", [("one", "x"), ("two", "y")]),
    ("SELECT u.label, t.b FROM u LEFT JOIN t ON t.a = u.id ORDER BY u.id",
     [("one", "x"), ("two", "y"), ("three", None)]),
    ("SELECT u.label, t.a FROM t RIGHT JOIN u ON t.a = u.id ORDER BY u.id",
     [("one", 1), ("two", 2), ("three", None)]),
    ("SELECT count(*) FROM t FULL OUTER JOIN u ON t.a = u.id", [(5,)]),
    ("SELECT count(*) FROM t CROSS JOIN u", [(12,)]),
    ("SELECT count(*) FROM t, u WHERE t.a = u.id AND u.label <> 'one'", [(1,)]),
    ("SELECT count(*) FROM t JOIN u ON t.a < u.id", [(3,)]),
    ("SELECT x.id, y.id FROM u x JOIN u y USING (id) ORDER BY 1", [(1, 1), (2, 2), (3, 3)]),
]

SUBQUERIES = [
    ("SELECT (SELECT max(id) FROM u)", [(3,)]),
    ("SELECT id FROM u WHERE id IN (SELECT a FROM t) ORDER BY id", [(1,), (2,)]),
    ("SELECT id FROM u WHERE id NOT IN (SELECT a FROM t WHERE a IS NOT NULL)", [(3,)]),
    ("SELECT id FROM u WHERE id NOT IN (SELECT a FROM t)", []),
    ("SELECT id FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.a = u.id) ORDER BY id", [(1,), (2,)]),
    ("SELECT id FROM u WHERE NOT EXISTS (SELECT 1 FROM t WHERE t.a = u.id)", [(3,)]),
    ("SELECT id, (SELECT b FROM t WHERE t.a = u.id) FROM u ORDER BY id", [(1, "x"), (2, "y"), (3, None)]),
    ("SELECT id FROM u WHERE id > (SELECT avg(id) FROM u)", [(3,)]),
    ("SELECT id FROM u AS o WHERE (SELECT count(*) FROM u AS i WHERE i.id < o.id) = 1", [(2,)]),
]


@pytest.mark.parametrize("sql, expected", EXPRESSIONS + QUERIES + AGGREGATES + JOINS + SUBQUERIES)
def test_query(run, sql, expected):
    assert run(sql) == expected


def test_join_using_star_shows_the_column_once(run):
    assert run("SELECT * FROM u JOIN u AS v USING (id) WHERE id = 1") == [(1, "one", "one")]
