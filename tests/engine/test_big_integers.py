"""Integers beyond 64 bits: typed as Databend types them and rendered exactly on the wire."""

import pytest

import engine


def wire(sql):
    result = engine.Database().session().execute(sql)
    render = result.renderer(null_as_str=True)
    return [c.type for c in result.schema], [cell for batch in result.batches() for cell in render(batch)]


# answers of Databend 1.2 (the `databend` Python package): an integer literal is the smallest
# integer type holding it, beyond 64 bits Decimal(digits, 0), beyond 76 digits Float64
@pytest.mark.parametrize(("sql", "type_", "text"), [
    ("SELECT 18446744073709551615", "UInt64", "18446744073709551615"),
    ("SELECT 18446744073709551617", "Decimal(20, 0)", "18446744073709551617"),
    ("SELECT 99999999999999999999", "Decimal(20, 0)", "99999999999999999999"),
    ("SELECT -99999999999999999999", "Decimal(20, 0)", "-99999999999999999999"),
    ("SELECT " + "9" * 38, "Decimal(38, 0)", "9" * 38),
    ("SELECT " + "9" * 39, "Decimal(39, 0)", "9" * 39),
    ("SELECT 1234567890123456789012345678901234567890123", "Decimal(43, 0)",
     "1234567890123456789012345678901234567890123"),
    ("SELECT " + "9" * 76, "Decimal(76, 0)", "9" * 76),
    ("SELECT 1" + "0" * 76, "Float64", "1e+76"),
])
def test_integer_literals_render_exactly(sql, type_, text):
    types, rows = wire(sql)
    assert types == [type_]
    assert rows == [(text,)]


def test_folded_integer_arithmetic_wraps_and_is_typed_by_value():
    """A folded constant is typed by its value (as Databend's constant folding does); 64-bit
    arithmetic wraps around as Databend's does (answers of Databend 1.2.453)."""
    assert wire("SELECT 18446744073709551615 + 1") == (["UInt8"], [("0",)])
    assert wire("SELECT 9223372036854775807 + 1") == (["UInt64"], [("9223372036854775808",)])
    assert wire("SELECT -9223372036854775808 - 1") == (["UInt64"], [("9223372036854775807",)])
    assert wire("SELECT 4294967295 * 4294967295 * 4294967295") == (["UInt64"], [("12884901887",)])


def test_folding_beyond_decimal_76_is_an_overflow_not_a_huge_number():
    """Constant folding cannot build ever larger integers at bind time."""
    sql = "SELECT " + " * ".join(["99999999999999999999"] * 4)
    with pytest.raises(engine.EngineError) as info:
        wire(sql)
    assert info.value.code == 1006
    assert info.value.message == "arithmetic overflow"


@pytest.mark.parametrize("digits", [310, 5000])
def test_literals_beyond_float64_are_a_syntax_error(digits):
    with pytest.raises(engine.EngineError) as info:
        wire("SELECT 1" + "0" * (digits - 1))
    assert info.value.code == 1005
    assert f"number of {digits} digits is out of range" in info.value.message
