"""A sample of real sqllogictest statements (tests/grammar/data/slt_sample.sql) all parse."""

from pathlib import Path

import pytest

from grammar import ast, parse
from grammar.fastinsert import parse_fast_insert
from grammar.parser import get_parser

SAMPLE = Path(__file__).with_name("data") / "slt_sample.sql"


def _statements():
    blocks = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    return [b.strip() for b in blocks if b.strip() and not b.lstrip().startswith("#")]


STATEMENTS = _statements()


def test_sample_is_representative():
    assert len(STATEMENTS) > 500
    text = "\n".join(STATEMENTS).upper()
    for construct in ("CROSS JOIN", "BETWEEN", "CASE", "EXISTS", "UNION", "INTERSECT",
                      "EXCEPT", "CAST(", "NULLIF", "COALESCE", "DISTINCT", "GROUP BY",
                      "HAVING", "ORDER BY", "IS NULL", "NOT IN", "PRIMARY KEY", "DIV"):
        assert construct in text, construct


def test_every_sampled_statement_parses():
    failures = []
    for sql in STATEMENTS:
        try:
            parse(sql)
        except Exception as exc:  # collect them all, then report
            failures.append((sql, exc))
    assert failures == []


@pytest.mark.parametrize("sql", [s for s in STATEMENTS if s.upper().startswith("INSERT")])
def test_sampled_inserts_take_the_fast_path_with_the_same_ast(sql):
    fast = parse_fast_insert(sql)
    if "SELECT" in sql.upper():
        assert fast is None
        assert isinstance(parse(sql).query, ast.Node)
    else:
        assert fast is not None
        assert fast == get_parser().parse(sql)
