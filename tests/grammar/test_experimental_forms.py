"""The experimental dialect's expression forms (Databend's query/functions/02_0069_experimental_expr.test):
method calls after a literal or a bracket, the key of a map literal, list comprehensions and
digit groups in numbers; a qualified table name keeps its meaning."""

from __future__ import annotations

import engine


def _rows(session, sql):
    return [tuple(row) for row in session.execute(sql)]


def test_method_calls_keys_and_comprehensions():
    s = engine.Database().session()
    assert _rows(s, "SELECT (3).add(4), 3 + {'k1': 4}.k1, 'openai is nothing'.upper(), 'ab'.upper().lower()") == [
        (7, 7, "OPENAI IS NOTHING", "ab")]
    assert _rows(s, "SELECT [x * 100 FOR x IN [1, 2, 3] IF x % 2 = 0], [x + 1 FOR x IN [1, 2]]") == [
        ((200,), (2, 3))]
    assert _rows(s, "SELECT 12_000_111_222") == [(12000111222,)]


def test_qualified_names_are_not_method_calls():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE default.tq(a INT)"))
    list(s.execute("INSERT INTO default.tq(a) VALUES (1)"))
    assert _rows(s, "SELECT tq.a FROM default.tq") == [(1,)]
