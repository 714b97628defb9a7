"""Numeric functions as current Databend answers them (the suite's 02_0014_function_maths file):
text arguments read as the first overload's type (UInt64 or Float64) and refused when they are
not one, abs(Boolean) refused, factorial of a negative number refused, exact cube roots, mod of
decimals."""

from __future__ import annotations

import pytest

import engine
from engine import EngineError


@pytest.fixture
def session():
    return engine.Database().session()


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT sqrt('a')", 1006), ("SELECT abs('-233.0')", 1006), ("SELECT abs('blah')", 1006),
    ("SELECT pow('a', 2)", 1006), ("SELECT power(2, 'a')", 1006), ("SELECT factorial(-1)", 1006),
    ("SELECT abs(TRUE)", 1065),
])
def test_refusals(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_answers(session):
    result = session.execute("SELECT sqrt('4'), pow('2.5', 2), floor('2.5'), cbrt(-64), mod(34.5, 3)")
    assert result.renderer(True)(list(result)) == [("2.0", "6.25", "2.0", "-4.0", "1.5")]
