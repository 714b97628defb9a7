"""Queries: select lists, FROM and joins, clauses, set operations, WITH."""

import pytest

from grammar import ast as A
from grammar import parse
from grammar.errors import SqlSyntaxError
from tests.grammar.helpers import bop, col, fn, item, num, s, select, table

STAR = A.Star()

QUERIES = [
    ("SELECT 1", select(num(1))),
    ("select 1;", select(num(1))),
    ("SELECT 1 ;  ", select(num(1))),
    ("SELECT ALL a FROM t", select(col("a"), from_=table("t"))),
    ("SELECT DISTINCT a FROM t", select(col("a"), from_=table("t"), distinct=True)),
    ("SELECT * FROM t", select(STAR, from_=table("t"))),
    ("SELECT t.*, u.a FROM t, u",
     select(A.Star(("t",)), col("u", "a"),
            from_=A.Join("CROSS", table("t"), table("u")))),
    ("SELECT db.t.* FROM db.t", select(A.Star(("db", "t")), from_=table("db", "t"))),
    ("SELECT a AS x, b y, c FROM t",
     select(item(col("a"), "x"), item(col("b"), "y"), col("c"), from_=table("t"))),
    ("SELECT a AS \"X\", b `Y` FROM t",
     select(item(col("a"), "X"), item(col("b"), "Y"), from_=table("t"))),
    ("SELECT 1 AS 'one'", select(item(num(1), "one"))),
    ("SELECT a FROM t AS u", select(col("a"), from_=table("t", alias="u"))),
    ("SELECT a FROM t u", select(col("a"), from_=table("t", alias="u"))),
    ("SELECT a FROM t WHERE a > 1",
     select(col("a"), from_=table("t"), where=bop(">", col("a"), num(1)))),
    ("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1",
     select(col("a"), fn("count", star=True), from_=table("t"), group_by=(col("a"),),
            having=bop(">", fn("count", star=True), num(1)))),
    ("SELECT a FROM t GROUP BY 1, b + 1",
     select(col("a"), from_=table("t"), group_by=(num(1), bop("+", col("b"), num(1))))),
    ("SELECT a FROM t ORDER BY a",
     select(col("a"), from_=table("t"), order_by=(A.OrderItem(col("a")),))),
    ("SELECT a FROM t ORDER BY 2 DESC, 1 ASC",
     select(col("a"), from_=table("t"),
            order_by=(A.OrderItem(num(2), desc=True), A.OrderItem(num(1))))),
    ("SELECT a FROM t ORDER BY a NULLS FIRST, b DESC NULLS LAST",
     select(col("a"), from_=table("t"),
            order_by=(A.OrderItem(col("a"), nulls_first=True),
                      A.OrderItem(col("b"), desc=True, nulls_first=False)))),
    ("SELECT a FROM t LIMIT 10", select(col("a"), from_=table("t"), limit=num(10))),
    ("SELECT a FROM t LIMIT 10 OFFSET 5",
     select(col("a"), from_=table("t"), limit=num(10), offset=num(5))),
    ("SELECT a FROM t LIMIT 5, 10",
     select(col("a"), from_=table("t"), limit=num(10), offset=num(5))),
    ("SELECT a FROM t OFFSET 5", select(col("a"), from_=table("t"), offset=num(5))),
    ("SELECT * FROM numbers(10)", select(STAR, from_=A.TableFunction("numbers", (num(10),)))),
    ("SELECT * FROM NUMBERS(3) AS n",
     select(STAR, from_=A.TableFunction("numbers", (num(3),), "n"))),
    ("SELECT * FROM (SELECT 1) AS s",
     select(STAR, from_=A.SubqueryRef(select(num(1)), "s"))),
    ("SELECT * FROM (SELECT 1, 2) s(a, b)",
     select(STAR, from_=A.SubqueryRef(select(num(1), num(2)), "s", ("a", "b")))),
    ("SELECT * FROM (SELECT 1)", select(STAR, from_=A.SubqueryRef(select(num(1))))),
    ("SELECT * FROM a JOIN b ON a.x = b.x",
     select(STAR, from_=A.Join("INNER", table("a"), table("b"),
                               on=bop("=", col("a", "x"), col("b", "x"))))),
    ("SELECT * FROM a INNER JOIN b USING (x, y)",
     select(STAR, from_=A.Join("INNER", table("a"), table("b"), using=("x", "y")))),
    ("SELECT * FROM a LEFT JOIN b ON TRUE",
     select(STAR, from_=A.Join("LEFT", table("a"), table("b"), on=A.Literal(True, "bool")))),
    ("SELECT * FROM a LEFT OUTER JOIN b ON 1",
     select(STAR, from_=A.Join("LEFT", table("a"), table("b"), on=num(1)))),
    ("SELECT * FROM a RIGHT JOIN b ON 1",
     select(STAR, from_=A.Join("RIGHT", table("a"), table("b"), on=num(1)))),
    ("SELECT * FROM a FULL OUTER JOIN b ON 1",
     select(STAR, from_=A.Join("FULL", table("a"), table("b"), on=num(1)))),
    ("SELECT * FROM a CROSS JOIN b",
     select(STAR, from_=A.Join("CROSS", table("a"), table("b")))),
    ("SELECT * FROM a x CROSS JOIN b AS y JOIN c z ON 1",
     select(STAR, from_=A.Join(
         "INNER",
         A.Join("CROSS", table("a", alias="x"), table("b", alias="y")),
         table("c", alias="z"), on=num(1)))),
    ("SELECT * FROM a, b, c",
     select(STAR, from_=A.Join("CROSS", A.Join("CROSS", table("a"), table("b")),
                               table("c")))),
    ("SELECT * FROM a, b JOIN c ON 1",
     select(STAR, from_=A.Join("CROSS", table("a"),
                               A.Join("INNER", table("b"), table("c"), on=num(1))))),
    ("SELECT * FROM ( a AS x CROSS JOIN b )",
     select(STAR, from_=A.Join("CROSS", table("a", alias="x"), table("b")))),
    # PIVOT / UNPIVOT after a table or a subquery; the alias before or after the operator
    ("SELECT * FROM t PIVOT(SUM(x) FOR Key IN ('a', 1))",
     select(STAR, from_=A.Pivot(table("t"), fn("sum", col("x")), "key", (s("a"), num(1))))),
    ("SELECT * FROM db.t AS m PIVOT(count(x) FOR k IN ('a')) JOIN u ON 1",
     select(STAR, from_=A.Join("INNER", A.Pivot(table("db", "t", alias="m"), fn("count", col("x")), "k", (s("a"),)),
                               table("u"), on=num(1)))),
    ("SELECT * FROM t PIVOT(max(x) FOR k IN ('a')) m",
     select(STAR, from_=A.Pivot(table("t", alias="m"), fn("max", col("x")), "k", (s("a"),)))),
    ("SELECT * FROM (SELECT 1) s UNPIVOT(V FOR k IN (Ab, \"Cd\" AS 'x', e 'y')) ORDER BY 1",
     select(STAR, from_=A.Unpivot(A.SubqueryRef(select(num(1)), "s"), "v", "k",
                                  (A.UnpivotColumn("ab", "Ab"), A.UnpivotColumn("Cd", "Cd", "x"),
                                   A.UnpivotColumn("e", "e", "y"))),
            order_by=(A.OrderItem(num(1)),))),
]


@pytest.mark.parametrize("sql, expected", QUERIES)
def test_queries(sql, expected):
    assert parse(sql) == expected


A1 = select(col("a"), from_=table("t"))
B1 = select(col("b"), from_=table("u"))
C1 = select(col("c"), from_=table("v"))

SET_OPERATIONS = [
    ("SELECT a FROM t UNION SELECT b FROM u", A.SetOperation("UNION", A1, B1)),
    ("SELECT a FROM t UNION ALL SELECT b FROM u", A.SetOperation("UNION", A1, B1, all_=True)),
    ("SELECT a FROM t UNION DISTINCT SELECT b FROM u", A.SetOperation("UNION", A1, B1)),
    ("SELECT a FROM t EXCEPT SELECT b FROM u", A.SetOperation("EXCEPT", A1, B1)),
    ("SELECT a FROM t INTERSECT SELECT b FROM u", A.SetOperation("INTERSECT", A1, B1)),
    ("SELECT a FROM t UNION SELECT b FROM u EXCEPT SELECT c FROM v",
     A.SetOperation("EXCEPT", A.SetOperation("UNION", A1, B1), C1)),
    ("SELECT a FROM t UNION SELECT b FROM u INTERSECT SELECT c FROM v",
     A.SetOperation("UNION", A1, A.SetOperation("INTERSECT", B1, C1))),
    ("SELECT a FROM t INTERSECT SELECT b FROM u UNION SELECT c FROM v",
     A.SetOperation("UNION", A.SetOperation("INTERSECT", A1, B1), C1)),
    ("SELECT a FROM t UNION (SELECT b FROM u UNION SELECT c FROM v)",
     A.SetOperation("UNION", A1, A.SetOperation("UNION", B1, C1))),
    ("(SELECT a FROM t) UNION ALL (SELECT b FROM u)",
     A.SetOperation("UNION", A1, B1, all_=True)),
    ("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 2",
     A.SetOperation("UNION", A1, B1, order_by=(A.OrderItem(num(1)),), limit=num(2))),
    ("(SELECT a FROM t)", A1),
    ("(SELECT a FROM t) ORDER BY a",
     select(col("a"), from_=table("t"), order_by=(A.OrderItem(col("a")),))),
    ("(SELECT a FROM t LIMIT 1) LIMIT 2",
     select(STAR, from_=A.SubqueryRef(select(col("a"), from_=table("t"), limit=num(1))),
            limit=num(2))),
]


@pytest.mark.parametrize("sql, expected", SET_OPERATIONS)
def test_set_operations(sql, expected):
    assert parse(sql) == expected


WITHS = [
    ("WITH x AS (SELECT 1) SELECT * FROM x",
     A.With((A.CommonTableExpr("x", select(num(1))),), select(STAR, from_=table("x")))),
    ("WITH x(a) AS (SELECT 1), y AS (SELECT a FROM x) SELECT a FROM y ORDER BY a",
     A.With((A.CommonTableExpr("x", select(num(1)), ("a",)),
             A.CommonTableExpr("y", select(col("a"), from_=table("x")))),
            select(col("a"), from_=table("y"), order_by=(A.OrderItem(col("a")),)))),
    ("SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) AS w",
     select(STAR, from_=A.SubqueryRef(
         A.With((A.CommonTableExpr("x", select(num(1))),), select(STAR, from_=table("x"))),
         "w"))),
]


@pytest.mark.parametrize("sql, expected", WITHS)
def test_with(sql, expected):
    assert parse(sql) == expected


def test_table_ref_position():
    statement = parse("SELECT a\nFROM   db.t")
    assert statement.from_.pos == (2, 8)
    assert statement.items[0].expr.pos == (1, 8)


def test_join_inside_comments():
    sql = "SELECT /* list */ a -- the column\nFROM t /* table */ WHERE a = 'x' -- done"
    assert parse(sql) == select(col("a"), from_=table("t"), where=bop("=", col("a"), s("x")))


def test_star_positions():
    statement = parse("SELECT *, t.* FROM t")
    assert statement.items[0].expr.pos == (1, 8)
    assert statement.items[1].expr.pos == (1, 11)


@pytest.mark.parametrize("sql", [
    "SELECT * FROM t AS a PIVOT(sum(x) FOR k IN ('a')) AS b",  # two aliases
    "SELECT * FROM t PIVOT(sum(x) FOR k IN ())",
    "SELECT * FROM t UNPIVOT(v FOR k IN (a AS))",
    "SELECT * FROM t UNPIVOT(v FOR k IN (a + 1))",
    "SELECT * FROM t UNPIVOT(v FOR k IN (select))",
    "SELECT * FROM t AS pivot",
])
def test_pivot_syntax_errors(sql):
    with pytest.raises(SqlSyntaxError) as caught:
        parse(sql)
    assert caught.value.code == 1005
