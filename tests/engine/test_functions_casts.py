"""Conversion functions (to_int8 .. to_uint64, to_float32/64, to_string/to_varchar/to_text,
to_boolean, try_to_*) and CAST results and messages as Databend 1.2.453 answers them."""

import pytest

import engine
from engine import EngineError


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE v (u8 UINT8 NOT NULL, u16 UINT16 NOT NULL, u64 UINT64 NOT NULL, f64 DOUBLE NOT NULL,"
        " d DECIMAL(10, 3) NOT NULL, s VARCHAR NOT NULL, b BOOLEAN NOT NULL, x INT NULL)",
        "INSERT INTO v VALUES (3, 300, 5000000000, 2.5, 1234.567, 'abc', true, NULL)",
    ]:
        list(s.execute(sql))
    return s


CASES = [
    ("to_int16(u8)", "Int16", 3), ("to_int64(d)", "Int64", 1235), ("to_uint64(f64)", "UInt64", 3),
    ("to_float64(d)", "Float64", 1234.567), ("to_string(d)", "String", "1234.567"), ("to_varchar(b)", "String", "true"),
    ("to_text(u8)", "String", "3"), ("cast(b AS VARCHAR)", "String", "true"), ("to_string(b)", "String", "true"),
    ("to_int8(x)", "Nullable(Int8)", None), ("try_to_uint8(u16)", "Nullable(UInt8)", None),
    ("try_to_int32(s)", "Nullable(Int32)", None), ("try_to_boolean(s)", "Nullable(Boolean)", None),
    ("to_boolean(u8)", "Boolean", True),
]


@pytest.mark.parametrize(("expr", "type_", "value"), CASES)
def test_types_and_values(session, expr, type_, value):
    result = session.execute(f"SELECT {expr} FROM v")
    assert ([col.type for col in result.schema], list(result)) == ([type_], [(value,)])


@pytest.mark.parametrize(("expr", "value"), [
    ("CAST(true AS VARCHAR)", "true"), ("to_varchar(false)", "false"), ("to_int32(2.5)", 3),
    ("to_int32(-2.5)", -3), ("to_int8('12')", 12), ("to_boolean('TRUE')", True), ("to_boolean(0)", False),
    ("to_varchar(2.50)", "2.50"), ("try_to_int8(300)", None), ("try_cast('abc' AS INT)", None),
    ("try_to_float64('x')", None), ("try_to_string(1)", "1"), ("to_uint8(true)", 1),
    ("to_int64(5)", 5), ("to_float64(1.5)", 1.5), ("to_string(1.50)", "1.50"),
])
def test_constants(session, expr, value):
    assert list(session.execute(f"SELECT {expr}")) == [(value,)]


@pytest.mark.parametrize(("sql", "message"), [
    ("SELECT to_int8(300)", "number overflowed while evaluating function `to_int8(300)`"),
    ("SELECT to_uint8(-1)", "number overflowed while evaluating function `to_uint8(-1)`"),
    ("SELECT cast(u64 AS INT8) FROM v", "number overflowed while evaluating function `to_int8(5000000000)`"),
    ("SELECT to_int32('abc')", "invalid digit found in string while evaluating function `to_int32('abc')`"),
    ("SELECT to_int8(' 1 2 ')", "invalid digit found in string while evaluating function `to_int8(' 1 2 ')`"),
    ("SELECT cast('1.5' AS INT)", "invalid digit found in string while evaluating function `to_int32('1.5')`"),
    ("SELECT to_boolean('yes')", "cannot parse to type `BOOLEAN` while evaluating function `to_boolean('yes')`"),
])
def test_errors(session, sql, message):
    # (current Databend reads ' 12 ' and '1e1' as 12 and 10: test_integers_with_spaces_or_exponents)
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == 1006 and info.value.message == message


def test_integers_with_spaces_or_exponents(session):
    # the suite's 02_0002_function_cast: current Databend trims the text and takes an exponent
    assert list(session.execute("SELECT CAST('  -42 ' AS INTEGER), CAST(' 42 ' AS UNSIGNED), "
                                "CAST('  1e1' AS INTEGER)")) == [(-42, 42, 10)]
