"""Decimal arithmetic with Databend 1.2.453's result types and exact values (no 28-digit Python
context, no Float64 for division)."""

import decimal

import pytest

import engine

D = decimal.Decimal


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    s.execute("CREATE TABLE d (x DECIMAL(38, 10), m DECIMAL(10, 2), n DECIMAL(5, 3), i INT)")
    s.execute("INSERT INTO d VALUES (1.5, 10.00, 1.215, 3), (-2.25, -12.30, 2.000, -4)")
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [c.type for c in result.schema], list(result)


@pytest.mark.parametrize("sql, types, rows", [
    # as Databend answers: the dividend's scale + 6, its precision + 6 + the divisor's scale
    ("SELECT m / n FROM d ORDER BY i", ["Nullable(Decimal(19, 8))"], [(D("-6.15000000"),), (D("8.23045267"),)]),
    ("SELECT m / i FROM d ORDER BY i", ["Nullable(Decimal(16, 8))"], [(D("3.07500000"),), (D("3.33333333"),)]),
    ("SELECT i / m FROM d ORDER BY i", ["Nullable(Decimal(18, 6))"], [(D("0.325203"),), (D("0.300000"),)]),
    ("SELECT 10.00::DECIMAL(10, 2) / 1.215::DECIMAL(5, 3)", ["Decimal(9, 8)"], [(D("8.23045267"),)]),
    # a Decimal128 operation stays at most 38 digits
    ("SELECT x * 2 FROM d ORDER BY i", ["Nullable(Decimal(38, 10))"], [(D("-4.5000000000"),), (D("3.0000000000"),)]),
    # beyond Python's default 28 digits, exactly
    ("SELECT 123456789012345678901234567890.5 + 1", ["Decimal(31, 1)"],
     [(D("123456789012345678901234567891.5"),)]),
    ("SELECT m % 3 FROM d ORDER BY i", ["Nullable(Float64)"], [(-0.3000000000000007,), (1.0,)]),
    ("SELECT m DIV 2 FROM d ORDER BY i", ["Nullable(Int64)"], [(-6,), (5,)]),
    # folded constants are typed by their digits
    ("SELECT 1.5 + 2.25, 99.5 - 0.5", ["Decimal(3, 2)", "Decimal(3, 1)"], [(D("3.75"), D("99.0"))]),
])
def test_decimal_operations(session, sql, types, rows):
    assert answer(session, sql) == (types, rows)


def test_decimal_division_by_zero_is_1006(session):
    with pytest.raises(engine.EngineError) as err:
        list(session.execute("SELECT m / (i - i) FROM d"))
    assert err.value.code == 1006
