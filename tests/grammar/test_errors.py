"""Syntax errors: code 1005, 1-based line and column, a caret under the offending text."""

import pytest

from grammar import SqlSyntaxError, parse

ERRORS = [
    ("", 1, 1),
    ("   ", 1, 1),
    (";", 1, 1),
    ("-- nothing but a comment", 1, 25),
    ("select a frm t", 1, 14),
    ("SELECT a b c FROM t", 1, 12),
    ("select from t", 1, 8),
    ("SELECT * FROM select", 1, 15),
    ("SELECT 1; SELECT 2", 1, 11),
    ("SELECT 1;;", 1, 10),
    ("SELECT (1", 1, 10),
    ("SELECT 1 +", 1, 11),
    ("SELECT 'abc", 1, 8),
    ('SELECT "abc', 1, 8),
    ("SELECT #", 1, 8),
    ("SELECT\n  a,\n  FROM t", 3, 3),
    ("SELECT a\nFROM t\nWHERE", 3, 6),
    ("SELECT CAST(1 AS foo)", 1, 18),
    ("CREATE TABLE t (a INT, b BLOBBY)", 1, 26),
    ("SELECT CAST(1 AS DECIMAL(1.5))", 1, 26),
    ("SELECT CAST(1 AS double float)", 1, 25),
    ("SELECT 1e999", 1, 8),
    ("SELECT x'123'", 1, 8),
    ("INSERT INTO t VALUES (1,)", 1, 25),
    ("INSERT INTO t VALUES (1) (2)", 1, 26),
    ("INSERT INTO t VALUES ('a', 'b'", 1, 31),
    ("INSERT INTO select VALUES (1)", 1, 13),
    ("CREATE TABLE t", 1, 15),
    ("DROP TABLE", 1, 11),
    ("SELECT a FROM t ORDER a", 1, 23),
    ("SELECT a FROM t LIMIT", 1, 22),
    ("SELECT a BETWEEN 1 OR 2", 1, 20),
    ("SELECT CASE WHEN 1 THEN 2", 1, 26),
    ("SELECT count(DISTINCT *)", 1, 23),
    ("SHOW TABLE", 1, 11),  # Databend 1.2.453: expecting `STATUS`
    ("SELECT 1 UNION", 1, 15),
    ("MERGE INTO t USING u", 1, 21),  # MERGE needs ON and WHEN clauses
    ("UPDATE t SET u.a = 1", 1, 14),  # current Databend: `t.a` names the target table's column; `u.a` no column of it
    ("UPDATE t SET", 1, 13),
    ("UPDATE t SET a 1", 1, 16),
    ("UPDATE t SET a = 1 WHERE", 1, 25),
    ("DELETE t", 1, 8),
    ("DELETE FROM t AS where", 1, 18),
    ("SELECT a 'x'", 1, 10),
    ("SELECT abs(a FROM 2)", 1, 8),
    ("SELECT lower(BOTH FROM a)", 1, 8),
    ("SELECT * FROM t AS x(a, b)", 1, 20),
    ("SELECT * FROM result_scan('x') n(a)", 1, 32),  # numbers(2) n(a) names its column (Databend)
]


@pytest.mark.parametrize("sql, line, column", ERRORS)
def test_syntax_error_position(sql, line, column):
    with pytest.raises(SqlSyntaxError) as caught:
        parse(sql)
    error = caught.value
    assert error.code == 1005
    assert (error.line, error.column) == (line, column)
    assert error.position == (line, column)
    assert f"--> SQL:{line}:{column}" in error.message


@pytest.mark.parametrize("sql, line, column", ERRORS)
def test_caret_points_at_the_column(sql, line, column):
    with pytest.raises(SqlSyntaxError) as caught:
        parse(sql)
    message_lines = caught.value.message.splitlines()
    quoted = [text for text in message_lines if text.startswith(f"{line} | ")]
    assert quoted, message_lines
    caret_lines = [text for text in message_lines if "^" in text]
    assert len(caret_lines) == 1
    gutter = len(f"{line} | ")
    assert caret_lines[0].index("^") == gutter + column - 1


def test_message_says_what_was_found_and_expected():
    with pytest.raises(SqlSyntaxError) as caught:
        parse("select a frm t")
    assert "unexpected `t`" in caught.value.message
    assert "`FROM`" in caught.value.message
    assert str(caught.value) == caught.value.message


def test_caret_width_covers_the_token():
    with pytest.raises(SqlSyntaxError) as caught:
        parse("SELECT * FROM select")
    assert "^^^^^^ " in caught.value.message


def test_is_a_plain_exception_not_a_lark_one():
    with pytest.raises(SqlSyntaxError) as caught:
        parse("SELECT (")
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__
    assert not type(caught.value).__module__.startswith("lark")
