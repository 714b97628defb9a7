"""`*` forms of Databend's suite (base/03_common/03_0033, 03_0034): EXCLUDE with a name twice
(1065), an unknown table qualifier (1025), COLUMNS(* EXCLUDE ...) and COLUMNS(x -> predicate)."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q


def _session():
    s = engine.Database().session()
    q(s, "CREATE TABLE abc (score INT, age INT, name STRING, issues INT, father STRING)")
    q(s, "INSERT INTO abc VALUES (1, 2, 'jack', 3, 'frank')")
    return s


def test_exclude_twice_and_unknown_qualifier_are_refused():
    s = _session()
    assert error_code(s, "SELECT * EXCLUDE (age, age) FROM abc") == 1065
    assert error_code(s, "SELECT * EXCLUDE (AGE, age) FROM abc") == 1065
    assert error_code(s, "SELECT t1.* FROM abc") == 1025


def test_columns_of_star_exclude_and_of_a_lambda():
    s = _session()
    assert q(s, "SELECT * EXCLUDE (name, father), COLUMNS(* EXCLUDE (score, age, issues)) FROM abc") == [
        (1, 2, 3, "jack", "frank")]
    assert q(s, "SELECT COLUMNS(a -> a LIKE '%re%' OR a LIKE '%er%'), "
                "COLUMNS(a -> a = 'age' OR a IN ('issues', 'name')) FROM abc") == [(1, "frank", 2, "jack", 3)]
    assert q(s, "SELECT COLUMNS(a -> length(a) = 3) FROM abc") == [(2,)]


def test_an_unknown_qualified_column_is_named_alone():
    # base/03_common/03_0000_select_aliases.test: Databend names the column without its qualifier
    s = _session()
    for sql in ("SELECT b.number FROM numbers(3) AS a ORDER BY a.number",
                "SELECT a.number FROM numbers(3) AS a ORDER BY b.number",
                "SELECT b.number FROM (SELECT * FROM numbers(3) AS b) AS a ORDER BY b.number"):
        try:
            q(s, sql)
        except engine.EngineError as exc:
            assert exc.code == 1065 and "column number doesn't exist" in exc.message, exc.message
        else:
            raise AssertionError(f"{sql} succeeded")
