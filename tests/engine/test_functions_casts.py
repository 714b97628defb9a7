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


def test_text_with_a_fraction_to_an_integer_rounds_or_truncates():
    # the suite's query/functions/cast.test (issue 14156): current Databend reads '29.55' as a
    # Decimal and rounds it half away from zero, or drops the fraction under 'truncating'
    s = engine.Database().session()
    rounded = "SELECT CAST(10249.5500000000000000 * POW(10, 2) AS UNSIGNED), '29.55'::Int, '29.155'::Int, '-1.5'::Int"
    assert list(s.execute(rounded)) == [(1024955, 30, 29, -2)]
    list(s.execute("SET numeric_cast_option = 'truncating'"))
    assert list(s.execute(rounded)) == [(1024954, 29, 29, -1)]
    assert list(s.execute("SELECT try_cast('abc' AS INT), try_cast('1.5x' AS INT)")) == [(None, None)]


def test_bare_numeric_is_decimal_18_3():
    s = engine.Database().session()
    got = s.execute("SELECT to_uint64(1024954.98046875::double) a, a::numeric, a::real")
    assert [col.type for col in got.schema][1] == "Decimal(18, 3)"
    assert [str(v) for v in list(got)[0]] == ["1024955", "1024955.000", "1024955.0"]


def test_invalid_utf8_binary_to_text_under_lossy_output_format():
    s = engine.Database().session()
    with pytest.raises(EngineError):
        list(s.execute("SELECT to_string(unhex('C328'))"))
    list(s.execute("SET binary_output_format = 'utf-8-lossy'"))
    assert list(s.execute("SELECT to_string(unhex('C328')), unhex('C328')::String")) == [("\ufffd(", "\ufffd(")]


def test_to_binary_with_a_format_and_binary_input_format():
    # the suite's base/03_common/03_0041_insert_into_binary and query/functions/binary_format
    s = engine.Database().session()
    assert list(s.execute("SELECT to_binary('aaa', 'utf-8'), to_binary('616161', 'hex'), to_binary('YWFh', 'base64'), "
                          "try_to_binary('zz', 'hex')")) == [(b"aaa", b"aaa", b"aaa", None)]
    with pytest.raises(EngineError):
        list(s.execute("SELECT to_binary('aaa', 'ascii')"))
    list(s.execute("CREATE TABLE fb (id INT, v BINARY)"))
    for sql in ["SET binary_input_format = 'hex'", "INSERT INTO fb VALUES (4, '616263')",
                "SET binary_input_format = 'base64'", "INSERT INTO fb VALUES (5, 'YWJjZA==')",
                "SET binary_input_format = 'utf-8'", "INSERT INTO fb VALUES (6, 'abc')"]:
        list(s.execute(sql))
    assert list(s.execute("SELECT id, to_hex(v) FROM fb ORDER BY id")) == [
        (4, "616263"), (5, "61626364"), (6, "616263")]
    list(s.execute("SET binary_input_format = 'hex'"))
    assert list(s.execute("SELECT '6162'::BINARY")) == [(b"ab",)]


def test_hex_literal_is_binary():
    s = engine.Database().session()
    got = s.execute("SELECT X'ABCD', to_hex(X'ABCD'), length(X'ABCD')")
    assert [col.type for col in got.schema][0] == "Binary"
    assert list(got) == [(b"\xab\xcd", "abcd", 2)]
