"""Numeric functions and arithmetic result types, as Databend 1.2.453 answers them: integer
widening, %, unary minus, abs, rounding (DECIMAL scales), logarithms, trigonometry, factorial,
greatest/least, rand, bitwise operators, exponent literals."""

import math
from decimal import Decimal

import pytest

import engine
from engine import EngineError


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE n (i8 INT8 NOT NULL, i16 INT16 NOT NULL, i32 INT32 NOT NULL, i64 INT64 NOT NULL,"
        " u8 UINT8 NOT NULL, u16 UINT16 NOT NULL, u32 UINT32 NOT NULL, u64 UINT64 NOT NULL,"
        " f64 DOUBLE NOT NULL, d DECIMAL(10, 3) NOT NULL, s VARCHAR NOT NULL, x INT NULL)",
        "INSERT INTO n VALUES (-3, -300, -70000, -5000000000, 3, 300, 70000, 5000000000, 2.5, 1234.567,"
        " 'abc', NULL)",
    ]:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [c.type for c in result.schema], list(result)


# (expression over table n, Databend's type, Databend's value)
CASES = [
    # integer + - * widen to the next size (signed when either side is), DIV keeps the wider
    ("i8 + i8", "Int16", -6), ("i16 + i16", "Int32", -600), ("i32 + i32", "Int64", -140000),
    ("i64 + i64", "Int64", -10000000000), ("u8 + u8", "UInt16", 6), ("u32 + u32", "UInt64", 140000),
    ("i8 + u8", "Int16", 0), ("i32 + u8", "Int64", -69997), ("u8 - u8", "Int16", 0),
    ("u32 - u32", "Int64", 0), ("u8 * u8", "UInt16", 9), ("i32 * i32", "Int64", 4900000000),
    ("i8 DIV 2", "Int8", -1), ("i32 DIV i8", "Int32", 23333), ("u8 DIV i64", "Int64", 0),
    # % takes the divisor's width (doubled for a signed dividend) and the dividend's sign
    ("i8 % 2", "Int16", -1), ("i32 % 2", "Int16", 0), ("i64 % 2", "Int16", 0), ("u8 % 2", "UInt8", 1),
    ("u32 % 2", "UInt8", 0), ("i32 % i32", "Int64", 0), ("u64 % u8", "UInt8", 2), ("i32 % u8", "Int16", -1),
    ("i8 % i64", "Int64", -3), ("u8 % i32", "UInt32", 3), ("x % 2", "Nullable(Int16)", None),
    # unary minus widens integers to the next signed type
    ("-i8", "Int16", 3), ("-i16", "Int32", 300), ("-i32", "Int64", 70000), ("-i64", "Int64", 5000000000),
    ("-u8", "Int16", -3), ("-u16", "Int32", -300), ("-u32", "Int64", -70000), ("-u64", "Int64", -5000000000),
    ("-d", "Decimal(10, 3)", Decimal("-1234.567")),
    # abs: any integer is a UInt64
    ("abs(i8)", "UInt64", 3), ("abs(i32)", "UInt64", 70000), ("abs(u8)", "UInt64", 3),
    ("abs(f64)", "Float64", 2.5), ("abs(d)", "Decimal(10, 3)", Decimal("1234.567")),
    ("abs(x)", "Nullable(UInt64)", None),
    # rounding a DECIMAL keeps its precision, the scale becomes the digits kept
    ("round(d)", "Decimal(10, 0)", Decimal("1235")), ("round(d, 1)", "Decimal(10, 1)", Decimal("1234.6")),
    ("round(d, -2)", "Decimal(10, 0)", Decimal("1200")), ("round(d, 5)", "Decimal(10, 3)", Decimal("1234.567")),
    ("round(d, -12)", "Decimal(10, 0)", Decimal("0")), ("truncate(d, 1)", "Decimal(10, 1)", Decimal("1234.5")),
    ("truncate(d, -1)", "Decimal(10, 0)", Decimal("1230")), ("floor(d)", "Decimal(10, 0)", Decimal("1234")),
    ("ceil(d)", "Decimal(10, 0)", Decimal("1235")),
    # of integers and floats: Float64, except CEIL of an integer which keeps its type
    ("round(i8)", "Float64", -3.0), ("round(u64)", "Float64", 5000000000.0), ("floor(i8)", "Float64", -3.0),
    ("floor(u8)", "Float64", 3.0), ("ceil(i32)", "Int32", -70000), ("ceil(u64)", "UInt64", 5000000000),
    ("truncate(u8, 1)", "Float64", 3.0), ("round(f64, 1)", "Float64", 2.5), ("round(u8, -1)", "Float64", 0.0),
    ("round(f64)", "Float64", 3.0), ("floor(f64)", "Float64", 2.0),
    # sign is an Int8; logarithms, roots and trigonometry Float64
    ("sign(u8)", "Int8", 1), ("sign(i8)", "Int8", -1), ("sign(f64)", "Int8", 1), ("sign(x)", "Nullable(Int8)", None),
    ("ln(u8)", "Float64", math.log(3)), ("log(u8)", "Float64", math.log(3)), ("log2(u8)", "Float64", math.log2(3)),
    ("log10(u8)", "Float64", math.log10(3)), ("exp(u8)", "Float64", math.exp(3)),
    ("log(2, u8)", "Float64", math.log(3) / math.log(2)), ("sin(u8)", "Float64", math.sin(3)),
    ("degrees(u8)", "Float64", math.degrees(3)), ("cbrt(u8)", "Float64", 3 ** (1 / 3)),
    ("factorial(u8)", "Int64", 6),
    # greatest/least: the common type, always nullable, NULLs skipped
    ("greatest(i8, u8)", "Nullable(Int16)", 3), ("least(u64, i8)", "Nullable(Int64)", -3),
    ("greatest(u8, f64)", "Nullable(Float64)", 3.0), ("greatest(x, 1)", "Nullable(Int32)", 1),
    ("least(x, i32)", "Nullable(Int32)", -70000), ("greatest(d, 1)", "Nullable(Decimal(10, 3))", Decimal("1234.567")),
    # bitwise operators: Int64
    ("i8 & i8", "Int64", -3), ("i32 & u8", "Int64", 0), ("u8 | u8", "Int64", 3), ("u64 # i32", "Int64", -4999930736),
    # operators written as functions
    ("plus(i32, u8)", "Int64", -69997), ("negate(i32)", "Int64", 70000), ("intdiv(i32, u8)", "Int32", -23333),
    ("modulo(i32, 2)", "Int16", 0), ("div0(i32, 0)", "Float64", 0.0), ("divnull(i32, 0)", "Nullable(Float64)", None),
    ("u8 << 2", "Int64", 12), ("i32 >> 1", "Int64", -35000), ("~i8", "Int64", 2), ("~u8", "Int64", -4),
    ("~u64", "Int64", -5000000001), ("u8 << u8", "Int64", 24), ("i32 & x", "Nullable(Int64)", None),
]


@pytest.mark.parametrize(("expr", "type_", "value"), CASES)
def test_types_and_values(session, expr, type_, value):
    types, rows = answer(session, f"SELECT {expr} FROM n")
    assert types == [type_]
    got = rows[0][0]
    if isinstance(value, float):
        assert got == pytest.approx(value)
    else:
        assert got == value and type(got) is type(value)


# constant expressions: Databend folds them and types the answer by its value
CONSTANTS = [
    ("round(1234.5, -2)", "UInt16", 1200), ("floor(1.5)", "UInt8", 1), ("ceil(1.5)", "UInt8", 2),
    ("round(1.2345, 2)", "Decimal(3, 2)", Decimal("1.23")), ("truncate(1.567, 1)", "Decimal(2, 1)", Decimal("1.5")),
    ("round(1.567::DECIMAL(10, 3), 1)", "Decimal(2, 1)", Decimal("1.6")),
    ("round(2.5::DOUBLE)", "Float64", 3.0), ("1e3", "UInt16", 1000), ("1.5e3", "UInt16", 1500),
    ("1e-3", "Decimal(3, 3)", Decimal("0.001")), ("1e100", "Float64", 1e100), ("1E0", "UInt8", 1),
    ("1 + 2 & 3", "UInt8", 3), ("1 | 2 * 3", "UInt8", 7), ("1 << 2 + 1", "UInt8", 8), ("5 & 3 = 1", "Boolean", True),
    ("1 # 2 | 3", "UInt8", 3), ("~1 + 1", "Int8", -1), ("6 | 3 & 8", "UInt8", 0), ("6 # 3 & 1", "UInt8", 1),
    ("1 << 2 & 3", "UInt8", 0), ("2 & 3 << 1", "UInt8", 2), ("3 | 1 << 2", "UInt8", 7), ("~2 * 3", "Int8", -9),
    ("1 << 70", "UInt8", 64), ("-8 >> 1", "Int8", -4),
    ("length('abc')", "UInt8", 3), ("abs(-3)", "UInt8", 3), ("factorial(5)", "UInt8", 120),
    ("factorial(0)", "UInt8", 1),
    ("ln(0)", "Float64", -math.inf), ("log10(-1)", "Float64", math.nan), ("log(1, 10)", "Float64", math.inf),
    ("exp(1000)", "Float64", math.inf), ("cbrt(-8)", "Float64", -2.0), ("atan2(1, 2)", "Float64", math.atan2(1, 2)),
    ("cot(0)", "Float64", math.inf), ("asin(2)", "Float64", math.nan), ("pi()", "Float64", math.pi),
    ("radians(180)", "Float64", math.pi), ("greatest(1, 2.5)", "Decimal(2, 1)", Decimal("2.5")),
    ("plus(1, 2)", "UInt8", 3), ("minus(3, 1)", "UInt8", 2), ("multiply(2, 3)", "UInt8", 6),
    ("divide(4, 2)", "Float64", 2.0), ("modulo(5, 3)", "UInt8", 2), ("neg(1)", "Int8", -1),
    ("intdiv(7, 2)", "UInt8", 3), ("div0(1, 0)", "Float64", 0.0), ("divnull(1, 0)", "NULL", None),
    ("humanize_number(1234567)", "String", "1.23 million"), ("humanize_number(0)", "String", "0"),
    ("humanize_number(0.5)", "String", "0.50"), ("humanize_number(-1234)", "String", "-1.23 thousand"),
    ("humanize_number(1000)", "String", "1 thousand"), ("humanize_number(1e20)", "String", "100000 quadrillion"),
    ("humanize_number(1999.999)", "String", "2 thousand"), ("humanize_number(1.5)", "String", "1.5"),
    ("humanize_size(1024)", "String", "1.00 KiB"), ("humanize_size(123456789)", "String", "117.74 MiB"),
    ("humanize_size(0)", "String", "0.00 B"), ("humanize_size(-2048)", "String", "-2.00 KiB"),
]


@pytest.mark.parametrize(("expr", "type_", "value"), CONSTANTS)
def test_constants(session, expr, type_, value):
    types, rows = answer(session, f"SELECT {expr}")
    assert types == [type_]
    got = rows[0][0]
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(got)
    elif isinstance(value, float):
        assert got == pytest.approx(value)
    else:
        assert got == value


def test_rand(session):
    types, rows = answer(session, "SELECT rand(), rand(1), rand(1) = rand(1), rand(u8) FROM n")
    assert types == ["Float64", "Float64", "Boolean", "Float64"]
    first, seeded, same, _ = rows[0]
    assert 0 <= first < 1 and 0 <= seeded < 1 and same is True


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT factorial(21)", 1006),  # factorial number is out of range, max is: 20
    ("SELECT i32 << i32 FROM n", 1065),  # shifts take an unsigned count
    ("SELECT f64 & 1 FROM n", 1065),
    ("SELECT d & 1 FROM n", 1065),
    ("SELECT -true", 1065),  # no overload satisfies `minus(Boolean)`
])
def test_errors(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_column_names(session):
    result = session.execute("SELECT 1 << 2 & 3, ~1 + 1, -8 >> 1, (1 | 2) + 1 FROM n")
    assert [c.name for c in result.schema] == ["1 << 2 & 3", "~ 1 + 1", "- 8 >> 1", "(1 | 2) + 1"]
