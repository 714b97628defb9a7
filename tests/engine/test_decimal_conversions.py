"""Decimals as current Databend answers them (the suite's base/11_data_type/11_0006_data_type_decimal
file): to_decimal / to_number / to_numeric and their try_ forms, formats, sizes out of range,
Snowflake's scales for * and /, 76-digit casts, no negative zero."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine.sql_helpers import typed_answer as answer


@pytest.mark.parametrize(("sql", "shown"), [
    ("SELECT to_decimal(38, 4)('15.0e-1')", "1.5000"),
    ("SELECT to_decimal(38, 10)('-1.3096723705530167E-9')", "-0.0000000013"),
    ("SELECT to_decimal('1234.56', '9999D99')", "1235"),
    ("SELECT to_number('1,234.56', '9G999D99')", "1235"),
    ("SELECT to_numeric('-1234.56', 'S9999D99')", "-1235"),
    ("SELECT to_decimal('1234.56', '9999D99', 38, 1)", "1234.6"),
    ("SELECT to_decimal('00001234.56', '00009999D99')", "1235"),
    ("SELECT to_decimal('   1234.56   ', '9999D99')", "1235"),
    ("SELECT to_decimal('0000.00', '0000D99')", "0"),
    ("SELECT to_decimal('-1234.56')", "-1235"),
    ("SELECT to_decimal(-123.4567, 10, 4)", "-123.4567"),
    ("SELECT to_decimal(true, 5, 2)", "1.00"),
    ("SELECT to_decimal(CAST(123.45 AS FLOAT32), 10, 2)", "123.45"),
    ("SELECT TO_DECIMAL('123456789', 9)", "123456789"),
    ("SELECT try_to_decimal(123456, 6, 0)", "123456"),
    ("SELECT try_to_decimal('12.34.56', '9999D99')", None),
    ("SELECT try_to_number('12,34', '9G999')", None),
    ("SELECT TRY_TO_DECIMAL('1234567.89012', 9, 5)", None),
])
def test_to_decimal(session, sql, shown):
    assert answer(session, sql)[1] == [(shown,)]


@pytest.mark.parametrize("sql", [
    "SELECT to_decimal(2, 1)(10.1)", "SELECT to_decimal('12.34.56', '9999D99')", "SELECT to_decimal('', '9999D99')",
    "SELECT to_decimal('1234.56', '999D')", "SELECT to_decimal('00001234.56', '0000009999D99')",
    "SELECT TO_DECIMAL('1234567890', 9)",
])
def test_to_decimal_refusals(session, sql):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == 1006


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE TABLE t (a Decimal(77, 0) NOT NULL)", 1049), ("CREATE TABLE t (a Decimal(1, 2))", 1049),
    ("CREATE TABLE t (a Decimal(0, 0))", 1049), ("SELECT 2::Decimal(2000, 3)", 1005),
])
def test_sizes_out_of_range(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_scales_of_products_and_quotients(session):
    types, rows = answer(session, "SELECT CAST(116214450.59000000000000000007 AS DECIMAL(38, 14)) * "
                                  "CAST(1.0000000003 AS DECIMAL(38, 14)) * CAST(1.0000000004 AS DECIMAL(38, 14)), "
                                  "404.754480000000000000000001 / 563.653044520000000000000001")
    assert [t.split(",")[1] for t in types] == [" 14)", " 24)"]
    assert rows == [("116214450.67135011542695", "0.718091535094401799683905")]


def test_products_of_columns_round_to_the_scale(session):
    list(session.execute("CREATE TABLE d (a DECIMAL(20, 10), b DECIMAL(20, 10))"))
    list(session.execute("INSERT INTO d VALUES (1.0000000005, 1.0000000005), (-1.0000000005, 1.0000000005)"))
    types, rows = answer(session, "SELECT a * b FROM d ORDER BY a")
    assert types == ["Nullable(Decimal(32, 12))"]  # 10 + 10 whole digits, the scale at most 12
    assert rows == [("-1.000000001000",), ("1.000000001000",)]


def test_seventy_six_digits_and_no_negative_zero(session):
    _, rows = answer(session, "SELECT ('3.' || repeat('3', 72))::Decimal(76, 72) * 3.33, "
                              "'-0.001'::Decimal(4, 2)")
    assert rows == [("11." + "0" + "9" * 71, "0.00")]  # the product rounded to the 72 places


def test_numeric_cast_option_truncating(session):
    list(session.execute("CREATE TABLE f (b FLOAT, c DECIMAL(20, 10))"))
    list(session.execute("INSERT INTO f VALUES (1.567, -1.567)"))
    list(session.execute("SET numeric_cast_option = 'truncating'"))
    _, rows = answer(session, "SELECT cast('1.16' AS decimal(2,1)), cast(0.6 AS decimal(10, 0)), cast(1.5 AS int), "
                              "cast(b AS decimal(10, 2)), cast(c AS decimal(10, 2)), cast(c AS int) FROM f")
    assert rows == [("1.1", "0", "1", "1.56", "-1.56", "-1")]
    list(session.execute("SET numeric_cast_option = 'rounding'"))
    assert answer(session, "SELECT cast(c AS decimal(10, 2)) FROM f")[1] == [("-1.57",)]


def test_variant_numbers_to_decimals(session):
    # the suite's 02_0056_function_semi_structureds_as
    _, rows = answer(session, "SELECT to_decimal(10, 2)(parse_json('3.14')), as_decimal(parse_json('3.14')), "
                              "as_decimal(10, 2)(parse_json('3.14')), as_decimal(parse_json('3.14'), 10, 2), "
                              "as_decimal(parse_json('\"x\"'))")
    assert rows == [("3.14", "3", "3.14", "3.14", None)]
