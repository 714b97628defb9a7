"""Date syntax: INTERVAL n unit, EXTRACT(unit FROM x), CURRENT_TIMESTAMP()."""

import pytest

from grammar import ast as A
from grammar.errors import SqlSyntaxError
from tests.grammar.helpers import bop, col, expr, fn, neg, num, s


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


def test_interval_needs_a_unit():
    with pytest.raises(SqlSyntaxError):
        expr("d + INTERVAL 1")
