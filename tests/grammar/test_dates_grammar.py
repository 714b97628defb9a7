"""Date syntax: INTERVAL n unit, EXTRACT(unit FROM x), CURRENT_TIMESTAMP()."""

import pytest

from grammar import ast as A
from grammar import parse
from grammar.errors import SqlSyntaxError
from tests.grammar.helpers import bop, col, expr, fn, neg, num, s, typ


@pytest.mark.parametrize(("sql", "tree"), [
    ("d + INTERVAL 1 DAY", bop("+", col("d"), A.Interval(num(1), "day"))),
    ("d - interval '1' month", bop("-", col("d"), A.Interval(s("1"), "month"))),
    ("INTERVAL n HOUR + t", bop("+", A.Interval(col("n"), "hour"), col("t"))),
    ("d + INTERVAL -2 YEAR", bop("+", col("d"), A.Interval(neg(num(2)), "year"))),
    ("EXTRACT(YEAR FROM d)", fn("extract", col("year"), col("d"))),
    ("CURRENT_TIMESTAMP()", fn("current_timestamp")),
    ("CURRENT_TIMESTAMP", fn("current_timestamp")),
])
def test_date_syntax(sql, tree):
    assert expr(sql) == tree


def test_interval_without_a_unit_is_a_cast():
    # Databend: INTERVAL x with no unit keyword after it is CAST(x AS INTERVAL)
    assert expr("d + INTERVAL '1 day'") == bop("+", col("d"), A.Cast(s("1 day"), typ("INTERVAL")))
    assert expr("(interval '2 days') + d") == bop("+", A.Cast(s("2 days"), typ("INTERVAL")), col("d"))


@pytest.mark.parametrize(("sql", "tree"), [
    ("INTERVAL (n) MONTH", A.Interval(col("n"), "month")),
    ("INTERVAL '1' Epoch", A.Interval(s("1"), "epoch")),
])
def test_interval_units_are_keywords_only_after_interval(sql, tree):
    assert expr(sql) == tree


def test_unit_words_stay_aliases_elsewhere():
    statement = parse("SELECT 1 day, x month, 'a' year, (1) hour, f(x) minute, -1 second, t.c week, "
                      "interval '1 day' hour_col, interval 2 day epoch")
    assert [i.alias for i in statement.items] == ["day", "month", "year", "hour", "minute", "second", "week",
                                                  "hour_col", "epoch"]


def test_interval_with_an_unknown_unit():
    with pytest.raises(SqlSyntaxError):
        expr("d + INTERVAL 1 fortnight + 1")

