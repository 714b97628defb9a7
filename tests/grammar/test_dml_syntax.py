"""Parsing of DML statements and query clauses: INSERT OVERWRITE, DEFAULT, REPLACE, MERGE,
UPDATE ... FROM, INSERT ALL|FIRST, VALUES, TOP, EXCLUDE, SEMI/ANTI joins, quantified comparisons,
IS [NOT] DISTINCT FROM, IS [NOT] TRUE|FALSE, WITH RECURSIVE."""

import pytest

from grammar import SqlSyntaxError
from grammar import ast as A
from grammar.parser import parse


def one(sql):
    return parse(sql)


def lit(v):
    return A.Literal(v, "int")


def col(*parts):
    return A.ColumnRef(parts)


def test_insert_overwrite_and_default():
    s = one("INSERT OVERWRITE INTO t (a, b) VALUES (1, DEFAULT)")
    assert s == A.Insert(("t",), ("a", "b"), rows=((lit(1), A.Default()),), overwrite=True)
    assert one("INSERT OVERWRITE t SELECT 1").overwrite
    assert not one("INSERT INTO t VALUES (DEFAULT)").overwrite


def test_replace_into():
    s = one("REPLACE INTO t ON CONFLICT (k) VALUES (1, 2)")
    assert s == A.Replace(("t",), None, ("k",), rows=((lit(1), lit(2)),))
    assert one("REPLACE INTO t (k, v) ON (k, v) SELECT 1, 2").keys == ("k", "v")


def test_merge_clauses():
    s = one("MERGE INTO t AS x USING s ON x.k = s.k WHEN MATCHED AND s.d THEN DELETE "
            "WHEN MATCHED THEN UPDATE SET v = s.v WHEN MATCHED THEN UPDATE * "
            "WHEN NOT MATCHED AND s.k > 1 THEN INSERT (k) VALUES (s.k) WHEN NOT MATCHED THEN INSERT *")
    assert (s.table, s.alias, s.source) == (("t",), "x", A.TableRef(("s",)))
    assert [(c.action, c.condition is not None) for c in s.clauses] == [
        ("DELETE", True), ("UPDATE", False), ("UPDATE", False), ("INSERT", True), ("INSERT", False)]
    assert s.clauses[1].assignments == (A.Assignment("v", col("s", "v")),)
    assert s.clauses[2].assignments is None and s.clauses[4].values is None
    assert s.clauses[3].columns == ("k",) and s.clauses[3].values == (col("s", "k"),)


def test_update_from():
    s = one("UPDATE t SET v = s.v FROM s, u WHERE t.k = s.k")
    assert s.from_ == A.Join("CROSS", A.TableRef(("s",)), A.TableRef(("u",)))
    assert one("UPDATE t SET v = 1 WHERE k = 1").from_ is None


def test_multi_table_insert():
    s = one("INSERT FIRST WHEN a > 1 THEN INTO t1 INTO t2 (x) VALUES (a) ELSE INTO t3 SELECT a FROM s")
    assert s.first and len(s.branches) == 1
    condition, targets = s.branches[0]
    assert targets == (A.IntoTarget(("t1",)), A.IntoTarget(("t2",), ("x",), (col("a"),)))
    assert s.else_ == (A.IntoTarget(("t3",)),)
    s = one("INSERT ALL INTO t1 INTO t2 SELECT 1")
    assert not s.first and s.branches == ((None, (A.IntoTarget(("t1",)), A.IntoTarget(("t2",)))),)


def test_values_as_a_statement_and_a_table():
    assert one("VALUES (1), (2) LIMIT 1") == A.Values(((lit(1),), (lit(2),)), limit=lit(1))
    ref = one("SELECT * FROM (VALUES (1, 2)) AS v(x, y)").from_
    assert ref == A.ValuesRef(A.Values(((lit(1), lit(2)),)), "v", ("x", "y"))


def test_top_exclude_and_semi_joins():
    s = one("SELECT TOP 3 * EXCLUDE (a, b), t.* EXCLUDE c FROM t LEFT ANTI JOIN u ON t.a = u.a ORDER BY 1")
    assert s.limit == lit(3) and s.order_by
    assert [i.expr for i in s.items] == [A.Star(exclude=("a", "b")), A.Star(("t",), exclude=("c",))]
    assert s.from_.kind == "LEFT ANTI"
    kinds = [one(f"SELECT 1 FROM a {j} JOIN b ON true").from_.kind
             for j in ("SEMI", "ANTI", "LEFT SEMI", "RIGHT SEMI", "RIGHT ANTI")]
    assert kinds == ["LEFT SEMI", "LEFT ANTI", "LEFT SEMI", "RIGHT SEMI", "RIGHT ANTI"]


def test_top_with_limit_is_refused_as_databend_does_with_1065():
    with pytest.raises(SqlSyntaxError) as refused:
        parse("SELECT TOP 2 a FROM t LIMIT 1")
    assert refused.value.code == 1065  # a SemanticError in Databend, not a syntax error
    assert refused.value.reason == "Duplicate LIMIT: TopN and Limit cannot be used together."


def test_predicates():
    (item,) = one("SELECT a >= SOME (SELECT 1)").items
    assert item.expr == A.QuantifiedComparison(">=", col("a"), "SOME", one("SELECT 1"))
    assert one("SELECT a <> ALL (SELECT 1)").items[0].expr.quantifier == "ALL"
    assert one("SELECT a = ANY (SELECT 1)").items[0].expr.op == "="
    assert one("SELECT a IS NOT DISTINCT FROM b").items[0].expr == A.IsDistinctFrom(col("a"), col("b"), True)
    assert one("SELECT a IS FALSE").items[0].expr == A.IsTruth(col("a"), False)
    assert one("SELECT a IS NOT TRUE").items[0].expr == A.IsTruth(col("a"), True, True)


def test_with_recursive_is_marked():
    assert one("WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r").recursive
    assert not one("WITH r AS (SELECT 1) SELECT * FROM r").recursive


def test_any_call_after_a_comparison_is_the_any_aggregate():
    expr = one("SELECT a = any(b)").items[0].expr
    assert expr == A.BinaryOp("=", col("a"), A.FunctionCall("any", (col("b"),)))
    assert one("SELECT a >= ANY ((SELECT 1))").items[0].expr.quantifier == "ANY"
