"""Hostile input: huge or deeply nested statements give SqlSyntaxError, never a crash."""

import pytest

from grammar import SqlSyntaxError, parse
from grammar.parser import MAX_NESTING_DEPTH


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT " + "- " * 2000 + "1",
        "SELECT " + "NOT " * 2000 + "a",
        "SELECT " + " + ".join(["1"] * 2000),
        "SELECT " + "abs(" * 2000 + "1" + ")" * 2000,
        "SELECT " + "(SELECT " * 500 + "1" + ")" * 500,
        "SELECT a FROM t WHERE " + " AND ".join(["a = 1"] * 2000),
    ],
)
def test_too_deep_is_a_syntax_error(sql):
    with pytest.raises(SqlSyntaxError) as caught:
        parse(sql)
    assert caught.value.code == 1005
    assert len(caught.value.message) < 2000


def test_depth_limit_leaves_room_for_real_statements():
    parse("SELECT " + "- " * (MAX_NESTING_DEPTH - 10) + "1")
    parse("SELECT " + " + ".join(["1"] * (MAX_NESTING_DEPTH - 10)))


def test_redundant_parentheses_do_not_nest():
    assert parse("SELECT " + "(" * 5000 + "1" + ")" * 5000) == parse("SELECT 1")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT " + "(" * 5000,
        "SELECT " + ")" * 5000,
        "SELECT '" + "x" * 100000,
        "SELECT " + "1, " * 20000,
        "\x00\x01\x02",
        "SELECT \ufeff 1",
        "SELECT 1 " + "/*" * 1000,
    ],
)
def test_garbage_is_a_syntax_error_with_a_short_message(sql):
    with pytest.raises(SqlSyntaxError) as caught:
        parse(sql)
    assert len(caught.value.message) < 2000


def test_long_flat_statements_parse():
    statement = parse("SELECT " + ", ".join(f"c{i}" for i in range(5000)) + " FROM t")
    assert len(statement.items) == 5000
    assert len(parse("SELECT a FROM t WHERE a IN (" + ", ".join(["1"] * 20000) + ")")
               .where.items) == 20000
