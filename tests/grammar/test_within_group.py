"""`agg(...) WITHIN GROUP (ORDER BY ...)`, as the current Databend parses it (after the call's
parentheses, before FILTER and OVER; Databend 1.2.453 has no such clause): the tree it builds,
the syntax errors, and EXPLAIN SYNTAX text that parses back to the same tree (the view text's
round trip, OVER included, is in tests/engine/test_within_group.py)."""

import pytest

from grammar import ast as A
from grammar import parse
from grammar.errors import SqlSyntaxError
from grammar.format import explain_syntax
from tests.grammar.helpers import col, fn, num, s


def item(sql):
    [first] = parse(sql).items
    return first


def key(expr, desc=False, nulls_first=None):
    return A.OrderItem(expr, desc, nulls_first)


@pytest.mark.parametrize("sql, within_group", [
    ("SELECT listagg(b, '|') WITHIN GROUP (ORDER BY b) FROM t", (key(col("b")),)),
    ("select string_agg(b) within group (order by a desc, b nulls first) from t",
     (key(col("a"), desc=True), key(col("b"), nulls_first=True))),
    ("SELECT array_agg(a) Within\n Group(ORDER BY a + 1 ASC NULLS LAST) FROM t",
     (key(fn("plus", col("a"), num(1)), nulls_first=False),)),
    ("SELECT list(a) WITHIN /* between */ GROUP (ORDER BY a) FROM t", (key(col("a")),)),
])
def test_the_clause_orders_the_call(sql, within_group):
    call = item(sql).expr
    assert isinstance(call, A.FunctionCall)
    got = tuple(A.OrderItem(_plain(k.expr), k.desc, k.nulls_first) for k in call.within_group)
    assert got == within_group


def _plain(expr):
    """`a + 1` as the helpers write it (the parser builds a BinaryOp)."""
    if isinstance(expr, A.BinaryOp):
        return fn("plus", expr.left, expr.right)
    return expr


def test_written_asc_is_remembered_but_means_the_default():
    asc, plain = (item(f"SELECT listagg(b) WITHIN GROUP (ORDER BY b{d}) FROM t").expr.within_group[0]
                  for d in (" ASC", ""))
    assert asc.asc and not plain.asc
    assert asc == plain  # the same order: the same aggregate


def test_with_filter_and_over():
    call = item("SELECT listagg(b, ',') WITHIN GROUP (ORDER BY a) FILTER (WHERE a > 1) OVER (PARTITION BY c) "
                "FROM t").expr
    assert isinstance(call, A.WindowCall)
    assert call.func.within_group == (key(col("a")),)
    assert call.func.filter == A.BinaryOp(">", col("a"), num(1))
    assert call.func.args == (col("b"), s(","))


@pytest.mark.parametrize("sql, message", [
    ("SELECT listagg(b) FILTER (WHERE a > 1) WITHIN GROUP (ORDER BY a) FROM t", "must come before FILTER"),
    ("SELECT listagg(b) WITHIN GROUP (ORDER BY a) WITHIN GROUP (ORDER BY b) FROM t", "cannot be combined"),
    ("SELECT count(*) WITHIN GROUP (ORDER BY a) FROM t", "one aggregate call"),
    ("SELECT listagg(b) WITHIN GROUP (a) FROM t", "unexpected"),
    ("SELECT listagg(b) WITHIN GROUP ORDER BY a FROM t", "unexpected"),
    ("SELECT listagg(b) WITHIN GROUP (ORDER BY) FROM t", "unexpected"),
])
def test_syntax_errors(sql, message):
    with pytest.raises(SqlSyntaxError) as info:
        parse(sql)
    assert info.value.code == 1005
    assert message in str(info.value)


def test_order_by_inside_the_arguments_is_the_same_tree():
    assert parse("SELECT string_agg(DISTINCT b, ',' ORDER BY a DESC) FROM t") \
        == parse("SELECT string_agg(DISTINCT b, ',') WITHIN GROUP (ORDER BY a DESC) FROM t")
    with pytest.raises(SqlSyntaxError) as info:
        parse("SELECT string_agg(b ORDER BY a) WITHIN GROUP (ORDER BY b) FROM t")
    assert "cannot be combined with WITHIN GROUP" in str(info.value)


def test_within_alone_is_still_an_alias():
    # as Databend 1.2.453 reads it (`within` is no reserved word)
    assert item("SELECT count(*) within FROM t").alias == "within"
    assert item("SELECT a within FROM t").alias == "within"


@pytest.mark.parametrize("sql", [
    "SELECT listagg(b, '|') WITHIN GROUP (ORDER BY b DESC NULLS FIRST, a ASC) FROM t",
    "SELECT g, array_agg(DISTINCT a) FROM t GROUP BY g",
    "SELECT string_agg(b) WITHIN GROUP (ORDER BY a + 1) FILTER (WHERE c IS NULL) FROM t",
    "SELECT g, list(a) WITHIN GROUP (ORDER BY a NULLS LAST), group_concat(b, '-') WITHIN GROUP (ORDER BY a ASC) "
    "FROM t GROUP BY g HAVING listagg(b) WITHIN GROUP (ORDER BY b) <> ''",
    "SELECT count(*) FILTER (WHERE a > 1) FROM t",
])
def test_explain_syntax_parses_back_to_the_same_tree(sql):
    tree = parse(sql)
    text = " ".join(explain_syntax(tree))
    assert parse(text) == tree
    assert [i.asc for i in _order_items(parse(text))] == [i.asc for i in _order_items(tree)]


def _order_items(select):
    out = []
    for i in select.items:
        if isinstance(i.expr, A.FunctionCall):
            out += i.expr.within_group
    return out
