"""64-bit integer overflow as Databend has it: `+ - *` of Int64 / UInt64 results wrap around
(two's complement), integer DIV goes through Float64 and saturates, `%` computes in the operands'
common type, a unary minus leaving Int64 is error 1006, and SUM / AVG totals of integers wrap
(grouped, global, DISTINCT, grouping sets, windows, sum_if / avg_if, array_sum / array_avg).

Every expected answer (values and types) was checked against Databend 1.2.453, running the same
statements on the same tables."""

import pytest

import engine
from engine.types import integer_wrap as W

SETUP = [
    "CREATE TABLE w (k INT, i8 INT8, u8 UINT8, i16 INT16, u16 UINT16, i32 INT32, u32 UINT32, i64 INT64, "
    "u64 UINT64, f32 FLOAT32, f64 FLOAT64)",
    "INSERT INTO w VALUES (1, -128, 255, -32768, 65535, -2147483648, 4294967295, -9223372036854775808, "
    "18446744073709551615, -7.5, 1e300), (2, 127, 0, 32767, 0, 2147483647, 0, 9223372036854775807, 0, 3e38, -2.5), "
    "(3, -1, 1, -1, 1, -1, 1, -1, 1, 0.1, 0.1), (4, 5, 200, 7, 9, 11, 13, 9223372036854775806, "
    "9223372036854775808, 1e10, -1e19), (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)",
    "CREATE TABLE s (g INT, x INT64, u UINT64, i INT32, b BOOLEAN)",
    "INSERT INTO s VALUES (1, 9223372036854775807, 18446744073709551615, 2147483647, true), (1, 1, 1, 1, true), "
    "(2, -9223372036854775808, 9223372036854775808, -2147483648, false), (2, -1, 9223372036854775808, -1, true), "
    "(2, NULL, NULL, NULL, NULL), (3, 5, 5, 5, false)",
    "CREATE TABLE a (k INT, x ARRAY(INT64), y ARRAY(UINT64), z ARRAY(INT32))",
    "INSERT INTO a VALUES (1, [9223372036854775807, 1], [18446744073709551615, 2], [2147483647, 2147483647]), "
    "(2, [-9223372036854775808, -1, NULL], [9223372036854775808, 9223372036854775808], [-5]), (3, [], [], [])",
]


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in SETUP:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [str(c.type) for c in result.schema], [tuple(row) for row in result]


# ---------------------------------------------------------------- operators (Databend 1.2.453)

ARITH_CASES = [
    ('SELECT k, i64 + i64, i64 - u64, u64 - i64, u64 + u64, i64 * i64, u64 * u64, i64 * u32, u64 * i8, i32 * u32, u32 * u32 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, 0, -9223372036854775807, 9223372036854775807, 18446744073709551614, 0, 1, -9223372036854775808, 128, -9223372034707292160, 18446744065119617025), (2, -2, 9223372036854775807, -9223372036854775807, 0, 1, 0, 0, 0, 0, 0), (3, -2, -2, 2, 2, 1, 1, -1, -1, -1, 1), (4, -4, -2, 2, 0, 4, 0, 9223372036854775782, -9223372036854775808, 143, 169), (5, None, None, None, None, None, None, None, None, None, None)]),
    ('SELECT k, typeof(i64 + i64), typeof(i64 - u64), typeof(u64 - i64), typeof(u64 + u64), typeof(u64 * i8), typeof(i32 * u32) FROM w WHERE k = 1',
     ['Nullable(Int32)', 'String', 'String', 'String', 'String', 'String', 'String'],
     [(1, 'BIGINT NULL', 'BIGINT NULL', 'BIGINT NULL', 'BIGINT UNSIGNED NULL', 'BIGINT NULL', 'BIGINT NULL')]),
    ('SELECT k, i64 + 1, 1 + i64, i64 - 1, 1 - i64, u64 + 1, 1 - u64, u64 * 2, 2 * i64, i64 * -1, -1 * u64 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)'],
     [(1, -9223372036854775807, -9223372036854775807, 9223372036854775807, -9223372036854775807, 0, 2, 18446744073709551614, 0, -9223372036854775808, 1), (2, -9223372036854775808, -9223372036854775808, 9223372036854775806, -9223372036854775806, 1, 1, 0, -2, -9223372036854775807, 0), (3, 0, 0, -2, 2, 2, 0, 2, -2, 1, -1), (4, 9223372036854775807, 9223372036854775807, 9223372036854775805, -9223372036854775805, 9223372036854775809, -9223372036854775807, 0, -4, -9223372036854775806, -9223372036854775808), (5, None, None, None, None, None, None, None, None, None, None)]),
    ('SELECT k, i64 + 1::INT64, u64 + 1::UINT64, i64 + 9223372036854775807, u64 + 18446744073709551615 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, -9223372036854775807, 0, -1, 18446744073709551614), (2, -9223372036854775808, 1, -2, 18446744073709551615), (3, 0, 2, 9223372036854775806, 0), (4, 9223372036854775807, 9223372036854775809, -3, 9223372036854775807), (5, None, None, None, None)]),
    ('SELECT k, i8 + i8, i8 * i8, u8 * i8, i16 * i16, i32 + i32, i32 * i32, u32 * u32 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int16)', 'Nullable(Int16)', 'Nullable(Int16)', 'Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, -256, 16384, -32640, 1073741824, -4294967296, 4611686018427387904, 18446744065119617025), (2, 254, 16129, 0, 1073676289, 4294967294, 4611686014132420609, 0), (3, -2, 1, -1, 1, -2, 1, 1), (4, 10, 25, 1000, 49, 22, 121, 169), (5, None, None, None, None, None, None, None)]),
    ('SELECT k, (i64 + 1) - 1, (u64 + 1) * 2, i64 * 2 + i64, (i64 + u64) * (i64 - u64) FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Int64)'],
     [(1, -9223372036854775808, 0, -9223372036854775808, -1), (2, 9223372036854775807, 2, 9223372036854775805, 1), (3, -1, 4, -3, 0), (4, 9223372036854775806, 2, 9223372036854775802, 4), (5, None, None, None, None)]),
    ('SELECT k, i64 DIV 2, i64 DIV -2, u64 DIV 3, i64 DIV i64, u64 DIV u8, i32 DIV -1, i16 DIV -1, i8 DIV -1, u8 DIV i8, u64 DIV i8 FROM w WHERE k <> 2 ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int32)', 'Nullable(Int16)', 'Nullable(Int8)', 'Nullable(Int8)', 'Nullable(Int64)'],
     [(1, -4611686018427387904, 4611686018427387904, 6148914691236516864, 1, 72340172838076672, 2147483647, 32767, 127, -1, -144115188075855872), (3, 0, 0, 0, 1, 1, 1, 1, 1, -1, -1), (4, 4611686018427387904, -4611686018427387904, 3074457345618258432, 1, 46116860184273880, -11, -7, -5, 40, 1844674407370955264), (5, None, None, None, None, None, None, None, None, None, None)]),
    ('SELECT k, typeof(u8 DIV i8), typeof(u64 DIV i8), typeof(i32 DIV -1), typeof(u32 DIV i64) FROM w WHERE k = 1',
     ['Nullable(Int32)', 'String', 'String', 'String', 'String'],
     [(1, 'TINYINT NULL', 'BIGINT NULL', 'INT NULL', 'BIGINT NULL')]),
    ('SELECT k, f32 DIV i8, typeof(f32 DIV i8), f64 DIV i8, typeof(f64 DIV i8), f32 DIV f32, f64 DIV 1, f32 DIV u64, typeof(f32 DIV u64), i8 DIV f32 FROM w WHERE k <> 2 ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int32)', 'String', 'Nullable(Int64)', 'String', 'Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'String', 'Nullable(Int32)'],
     [(1, 0, 'INT NULL', -9223372036854775808, 'BIGINT NULL', 1, 9223372036854775807, 0, 'BIGINT NULL', 17), (3, 0, 'INT NULL', 0, 'BIGINT NULL', 1, 0, 0, 'BIGINT NULL', -9), (4, 2000000000, 'INT NULL', -2000000000000000000, 'BIGINT NULL', 1, -9223372036854775808, 0, 'BIGINT NULL', 0), (5, None, 'INT NULL', None, 'BIGINT NULL', None, None, None, 'BIGINT NULL', None)]),
    ('SELECT k, f32 DIV 1, f64 DIV 3 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int32)', 'Nullable(Int64)'],
     [(1, -7, 9223372036854775807), (2, 2147483647, 0), (3, 0, 0), (4, 2147483647, -3333333333333333504), (5, None, None)]),
    ('SELECT k, i64 % 7, i64 % -7, u64 % 7, u64 % -7, i8 % u8, u8 % i8, i64 % u64, u64 % i64, i32 % u64, u32 % i32, typeof(u32 % i32) FROM w WHERE k IN (1, 3, 4, 5) ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int16)', 'Nullable(Int16)', 'Nullable(UInt8)', 'Nullable(UInt8)', 'Nullable(Int16)', 'Nullable(UInt8)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt32)', 'String'],
     [(1, -1, -1, 1, 255, -1, 255, -1, 18446744073709551615, -2147483648, 4294967295, 'INT UNSIGNED NULL'), (3, -1, -1, 1, 1, 0, 0, 0, 0, 0, 0, 'INT UNSIGNED NULL'), (4, 6, 6, 1, 255, 5, 255, 9223372036854775806, 18446744073709551615, 11, 2, 'INT UNSIGNED NULL'), (5, None, None, None, None, None, None, None, None, None, None, 'INT UNSIGNED NULL')]),
    ('SELECT k, i64 % 9007199254740993, u64 % 9007199254740993, i64 % 18446744073709551615 FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)'],
     [(1, 0, 9007199254738944, -1), (2, 9007199254740991, 0, 0), (3, -1, 1, -1), (4, 9007199254740990, 9007199254739969, 9223372036854775806), (5, None, None, None)]),
    ('SELECT k, -i8, -u8, -i16, -u16, -i32, -u32, typeof(-u32), -u64 FROM w WHERE k IN (2, 3) ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int16)', 'Nullable(Int16)', 'Nullable(Int32)', 'Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'String', 'Nullable(Int64)'],
     [(2, -127, 0, -32767, 0, -2147483647, 0, 'BIGINT NULL', 0), (3, 1, -1, 1, -1, 1, -1, 'BIGINT NULL', -1)]),
    ('SELECT k, -i64 FROM w WHERE k <> 1 ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)'],
     [(2, -9223372036854775807), (3, 1), (4, -9223372036854775806), (5, None)]),
    ('SELECT -u64 FROM w WHERE k = 4',
     ['Nullable(Int64)'],
     [(-9223372036854775808,)]),
    ('SELECT k, f32 % 2, f64 % 2, typeof(f32 % 2) FROM w ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Float64)', 'Nullable(Float64)', 'String'],
     [(1, -1.5, 0.0, 'DOUBLE NULL'), (2, 0.0, -0.5, 'DOUBLE NULL'), (3, 0.10000000149011612, 0.1, 'DOUBLE NULL'), (4, 0.0, -0.0, 'DOUBLE NULL'), (5, None, None, 'DOUBLE NULL')]),
    ('SELECT plus(i64, 1), minus(u64, 1), multiply(i64, 2), intdiv(u64, 2), modulo(i64, 5), neg(i32) FROM w ORDER BY k',
     ['Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int16)', 'Nullable(Int64)'],
     [(-9223372036854775807, -2, 0, 9223372036854775808, -3, 2147483648), (-9223372036854775808, -1, -2, 0, 2, -2147483647), (0, 0, -2, 0, -1, 1), (9223372036854775807, 9223372036854775807, -4, 4611686018427387904, 1, -11), (None, None, None, None, None, None)]),
    ('SELECT 9223372036854775807 * 2, typeof(9223372036854775807 * 2), -9223372036854775808 * -1, 18446744073709551615 * 18446744073709551615, 9223372036854775807 DIV -1, 18446744073709551615 DIV 1, 9007199254740993 DIV 1',
     ['UInt64', 'String', 'Int64', 'UInt8', 'Int64', 'UInt64', 'UInt64'],
     [(18446744073709551614, 'BIGINT UNSIGNED', -9223372036854775808, 1, -9223372036854775808, 18446744073709551615, 9007199254740992)]),
    ('SELECT -9223372036854775808 DIV -1, typeof(-9223372036854775808 DIV -1)',
     ['UInt64', 'String'],
     [(9223372036854775807, 'BIGINT UNSIGNED')]),
    ('SELECT 18446744073709551615 % -3, 255::UINT8 % (-128)::INT8, (-128)::INT8 % 255::UINT8',
     ['UInt8', 'UInt8', 'Int8'],
     [(255, 255, -1)]),
    ('SELECT (-128)::INT8 DIV -1, typeof((-128)::INT8 DIV -1), 255::UINT8 DIV 1::INT8',
     ['UInt8', 'String', 'UInt8'],
     [(127, 'TINYINT UNSIGNED', 255)]),
    ("SELECT 1e30::FLOAT32 DIV 1::INT8, 'nan'::FLOAT64 DIV 1, 'inf'::FLOAT64 DIV 1, -1e30 DIV 1, 7.5 DIV 2, 7 DIV 2.5",
     ['UInt32', 'UInt8', 'UInt64', 'Int64', 'UInt8', 'UInt8'],
     [(2147483647, 0, 9223372036854775807, -9223372036854775808, 3, 2)]),
    ('SELECT 9223372036854775807::INT64 + 1, 18446744073709551615::UINT64 + 1, (-9223372036854775807 - 1)::INT64 * -1',
     ['UInt64', 'UInt8', 'Int64'],
     [(9223372036854775808, 0, -9223372036854775808)]),
    ('SELECT 9007199254740993.5 DIV 1, 9007199254740993.0 DIV 1, -1e30 DIV 1, typeof(-1e30 DIV 1), 12.3 DIV 0.5',
     ['UInt64', 'UInt64', 'Int64', 'String', 'UInt8'],
     [(9007199254740994, 9007199254740994, -9223372036854775808, 'BIGINT', 24)]),
    ('SELECT -(9223372036854775808), typeof(-(9223372036854775808)), -(255::UINT8), typeof(-(255::UINT8))',
     ['Int64', 'String', 'Int16', 'String'],
     [(-9223372036854775808, 'BIGINT', -255, 'SMALLINT')]),
    ('SELECT typeof(u8 + 1::INT64), typeof(u8 + 300::INT64), typeof(i64 + 1::UINT64), u8 * 9223372036854775807::INT64, typeof(u8 * 9223372036854775807::INT64) FROM w WHERE k = 1',
     ['String', 'String', 'String', 'Nullable(UInt64)', 'String'],
     [('SMALLINT UNSIGNED NULL', 'INT UNSIGNED NULL', 'BIGINT NULL', 9223372036854775553, 'BIGINT UNSIGNED NULL')]),
    ('SELECT typeof(f32 DIV i16), typeof(f32 DIV i32), typeof(f32 DIV i64), typeof(f32 DIV f64), typeof(u8 DIV f32), typeof(f64 DIV u8), typeof(f32 + i8), typeof(f32 % i8) FROM w WHERE k = 1',
     ['String', 'String', 'String', 'String', 'String', 'String', 'String', 'String'],
     [('INT NULL', 'INT NULL', 'BIGINT NULL', 'BIGINT NULL', 'INT NULL', 'BIGINT NULL', 'DOUBLE NULL', 'DOUBLE NULL')]),
]

ARITH_ERRORS = [
    ('SELECT -i64 FROM w WHERE k = 1', 1006, 'number overflowed while evaluating function `minus(-9223372036854775808)`'),
    ('SELECT -u64 FROM w WHERE k = 1', 1006, 'number overflowed while evaluating function `minus(18446744073709551615)`'),
    ('SELECT k, i64 DIV 0 FROM w WHERE k = 3', 1006, 'divided by zero while evaluating function `div(-1, 0)`'),
    ('SELECT k, i64 % 0 FROM w WHERE k = 3', 1006, 'divided by zero while evaluating function `modulo(-1, 0)`'),
    ('SELECT -(-9223372036854775808)::INT64', 1006, 'number overflowed while evaluating function `minus(-9223372036854775808)`'),
    ('SELECT -18446744073709551615', 1006, 'number overflowed while evaluating function `minus(18446744073709551615)`'),
    ('SELECT - -9223372036854775808', 1006, 'number overflowed while evaluating function `minus(-9223372036854775808)`'),
    ('SELECT -CAST(-9223372036854775808 AS INT64)', 1006, 'number overflowed while evaluating function `minus(-9223372036854775808)`'),
    ('SELECT 1 DIV 0.0', 1006, 'divided by zero while evaluating function `div(1, 0)`'),
]

@pytest.mark.parametrize(("sql", "types", "rows"), ARITH_CASES)
def test_operators_as_databend(session, sql, types, rows):
    assert answer(session, sql) == (types, rows)


@pytest.mark.parametrize(("sql", "code", "message"), ARITH_ERRORS)
def test_operator_errors_as_databend(session, sql, code, message):
    with pytest.raises(engine.EngineError) as info:
        answer(session, sql)
    assert info.value.code == code
    if "overflowed" in message:  # worded as Databend words it
        assert info.value.message == message
    else:
        assert "divided by zero" in info.value.message


# ---------------------------------------------------------------- SUM / AVG totals (Databend 1.2.453)

TOTAL_CASES = [
    ('SELECT g, sum(x), sum(u), sum(i), avg(x), avg(u) FROM s GROUP BY g ORDER BY g',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Float64)', 'Nullable(Float64)'],
     [(1, -9223372036854775808, 0, 2147483648, -4.611686018427388e+18, 0.0), (2, 9223372036854775807, 0, -2147483649, 4.611686018427388e+18, 0.0), (3, 5, 5, 5, 5.0, 5.0)]),
    ('SELECT sum(x), sum(u), sum(i), avg(x), avg(u) FROM s',
     ['Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Float64)', 'Nullable(Float64)'],
     [(4, 5, 4, 0.8, 1.0)]),
    ('SELECT sum(DISTINCT x), sum(DISTINCT u), avg(DISTINCT x), avg(DISTINCT u) FROM s',
     ['Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Float64)', 'Nullable(Float64)'],
     [(4, 9223372036854775813, 0.8, 2.305843009213694e+18)]),
    ('SELECT g, sum(DISTINCT u), avg(DISTINCT u) FROM s GROUP BY g ORDER BY g',
     ['Nullable(Int32)', 'Nullable(UInt64)', 'Nullable(Float64)'],
     [(1, 0, 0.0), (2, 9223372036854775808, 9.223372036854776e+18), (3, 5, 5.0)]),
    ('SELECT g, sum_if(x, x > 0), sum_if(u, u > 1), avg_if(u, u > 1), avg_if(x, x > 0) FROM s GROUP BY g ORDER BY g',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Float64)', 'Nullable(Float64)'],
     [(1, -9223372036854775808, 18446744073709551615, 1.8446744073709552e+19, -4.611686018427388e+18), (2, None, 0, 0.0, None), (3, 5, 5, 5.0, 5.0)]),
    ('SELECT sum_if(x, x > 0), sum_if(u, u > 1), avg_if(u, u > 1) FROM s',
     ['Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Float64)'],
     [(-9223372036854775803, 4, 1.0)]),
    ('SELECT g, sum(x), sum(u) FROM s GROUP BY GROUPING SETS ((g), ()) ORDER BY g NULLS LAST',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, -9223372036854775808, 0), (2, 9223372036854775807, 0), (3, 5, 5), (None, 4, 5)]),
    ('SELECT g, x, sum(x) OVER (ORDER BY g, x), sum(u) OVER (ORDER BY g, x) FROM s ORDER BY g, x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, 1, 1, 1), (1, 9223372036854775807, -9223372036854775808, 0), (2, -9223372036854775808, 0, 9223372036854775808), (2, -1, -1, 0), (2, None, -1, 0), (3, 5, 4, 5)]),
    ('SELECT g, x, sum(x) OVER (PARTITION BY g), sum(u) OVER (PARTITION BY g), avg(u) OVER (PARTITION BY g) FROM s ORDER BY g, x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Float64)'],
     [(1, 1, -9223372036854775808, 0, 0.0), (1, 9223372036854775807, -9223372036854775808, 0, 0.0), (2, -9223372036854775808, 9223372036854775807, 0, 0.0), (2, -1, 9223372036854775807, 0, 0.0), (2, None, 9223372036854775807, 0, 0.0), (3, 5, 5, 5, 5.0)]),
    ('SELECT g, x, sum(u) OVER (ORDER BY g, x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), avg(u) OVER (ORDER BY g, x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM s ORDER BY g, x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Float64)'],
     [(1, 1, 1, 0.0), (1, 9223372036854775807, 0, 3.0744573456182584e+18), (2, -9223372036854775808, 9223372036854775807, 6.148914691236517e+18), (2, -1, 0, 0.0), (2, None, 9223372036854775808, 4.611686018427388e+18), (3, 5, 5, 5.0)]),
    ('SELECT g, x, sum(x) OVER (ORDER BY g RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM s ORDER BY g, x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)'],
     [(1, 1, -9223372036854775808), (1, 9223372036854775807, -9223372036854775808), (2, -9223372036854775808, -1), (2, -1, -1), (2, None, -1), (3, 5, 4)]),
    ('SELECT typeof(sum(x)), typeof(sum(u)), typeof(sum(i)), typeof(avg(u)) FROM s',
     ['String', 'String', 'String', 'String'],
     [('BIGINT NULL', 'BIGINT UNSIGNED NULL', 'BIGINT NULL', 'DOUBLE NULL')]),
    ('SELECT sum(x + 1), sum(u * 2), sum(x * x) FROM s WHERE x IS NOT NULL',
     ['Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)'],
     [(9, 10, 28)]),
    ('SELECT g, x + 1, x - 1, x * 2, u + 1, u - 1, u * 3, -x FROM s WHERE g = 1 ORDER BY x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)'],
     [(1, 2, 0, 2, 2, 0, 3, -1), (1, -9223372036854775808, 9223372036854775806, -2, 0, -2, 18446744073709551613, -9223372036854775807)]),
    ('SELECT g, x DIV 3, u DIV 3, x % 7, u % 7, x DIV -1 FROM s WHERE x IS NOT NULL ORDER BY g, x',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int16)', 'Nullable(UInt8)', 'Nullable(Int64)'],
     [(1, 0, 0, 1, 1, -1), (1, 3074457345618258432, 6148914691236516864, 0, 1, -9223372036854775808), (2, -3074457345618258432, 3074457345618258432, -1, 1, 9223372036854775807), (2, 0, 3074457345618258432, -1, 1, 1), (3, 1, 1, 5, 5, -5)]),
    ('SELECT i + i, i * i, i - i, typeof(i * i), i DIV -1, typeof(i DIV -1), -i FROM s WHERE g = 2 ORDER BY i',
     ['Nullable(Int64)', 'Nullable(Int64)', 'Nullable(Int64)', 'String', 'Nullable(Int32)', 'String', 'Nullable(Int64)'],
     [(-4294967296, 4611686018427387904, 0, 'BIGINT NULL', 2147483647, 'INT NULL', 2147483648), (-2, 1, 0, 'BIGINT NULL', 1, 'INT NULL', 1), (None, None, None, 'BIGINT NULL', None, 'INT NULL', None)]),
    ('SELECT i * 9223372036854775807, typeof(i * 9223372036854775807) FROM s WHERE g=1 ORDER BY i',
     ['Nullable(Int64)', 'String'],
     [(9223372036854775807, 'BIGINT NULL'), (9223372034707292161, 'BIGINT NULL')]),
    ('SELECT g, sum(x), sum(u) FROM s GROUP BY ROLLUP (g) ORDER BY g NULLS LAST',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)'],
     [(1, -9223372036854775808, 0), (2, 9223372036854775807, 0), (3, 5, 5), (None, 4, 5)]),
    ('SELECT array_sum([9223372036854775807, 1]), typeof(array_sum([9223372036854775807, 1]))',
     ['UInt64', 'String'],
     [(9223372036854775808, 'BIGINT UNSIGNED')]),
    ('SELECT g, max(x) + min(x), sum(x) * 2 FROM s GROUP BY g ORDER BY g',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(Int64)'],
     [(1, -9223372036854775808, 0), (2, 9223372036854775807, -2), (3, 10, 10)]),
    ('SELECT k, array_sum(x), array_sum(y), array_sum(z), array_avg(x), array_avg(y), array_avg(z) FROM a ORDER BY k',
     ['Nullable(Int32)', 'Nullable(Int64)', 'Nullable(UInt64)', 'Nullable(Int64)', 'Nullable(Float64)', 'Nullable(Float64)', 'Nullable(Float64)'],
     [(1, -9223372036854775808, 1, 4294967294, -4.611686018427388e+18, 0.5, 2147483647.0), (2, 9223372036854775807, 0, -5, 4.611686018427388e+18, 0.0, -5.0), (3, None, None, None, None, None, None)]),
    ('SELECT typeof(array_sum(x)), typeof(array_sum(y)), typeof(array_sum(z)) FROM a WHERE k = 1',
     ['String', 'String', 'String'],
     [('BIGINT NULL', 'BIGINT UNSIGNED NULL', 'BIGINT NULL')]),
]


@pytest.mark.parametrize(("sql", "types", "rows"), TOTAL_CASES)
def test_totals_as_databend(session, sql, types, rows):
    assert answer(session, sql) == (types, rows)


# ---------------------------------------------------------------- helpers and generated code


def test_wrappers_are_twos_complement():
    assert W.wrap_int64(2 ** 63) == -2 ** 63
    assert W.wrap_int64(-2 ** 63 - 1) == 2 ** 63 - 1
    assert W.wrap_uint64(-1) == 2 ** 64 - 1
    assert W.WRAPPERS["Int8"](128) == -128
    assert W.WRAPPERS["UInt16"](65536 + 5) == 5


def test_integer_division_saturates_and_reads_nan_as_zero():
    div = W.integer_division("Int32")
    assert div(1e30, 1) == 2 ** 31 - 1
    assert div(-1e30, 1) == -2 ** 31
    assert div(float("nan"), 1) == 0
    assert div(-7, 2) == -3
    with pytest.raises(ZeroDivisionError):
        div(1, 0)


def test_minimum_modulo_minus_one_is_zero():
    """Databend 1.2.453 panics on Int64's minimum % -1 (error 1104); the remainder is 0 here."""
    s = engine.Database().session()
    list(s.execute("CREATE TABLE m (x INT64)"))
    list(s.execute("INSERT INTO m VALUES (-9223372036854775808)"))
    assert answer(s, "SELECT x % -1 FROM m") == (["Nullable(Int16)"], [(0,)])


@pytest.mark.parametrize(("sql", "checked"), [
    # narrow operands whose exact result fits the wider type: plain Python arithmetic
    ("SELECT i32 + i32, i32 * i32, u32 * u32, i8 - i8, i32 * 1000 FROM w", False),
    ("SELECT i64 + 1 FROM w", True),
    ("SELECT u64 * 2 FROM w", True),
    ("SELECT -i64 FROM w WHERE k = 2", True),
    ("SELECT -i32 FROM w", False),
])
def test_overflow_checks_only_where_the_ranges_need_them(session, captured_sources, sql, checked):
    """The generated source holds a comparison against a 64-bit bound only where the operand
    ranges (from types and constants) allow an overflow."""
    answer(session, sql)
    text = "".join(captured_sources)
    assert ("9223372036854775807" in text or "9223372036854775808" in text
            or "18446744073709551615" in text) is checked


def test_double_slash_is_div_and_keeps_its_spelling_in_the_column_name(session):
    # checked against Databend 1.2.453: `a // b` is `a DIV b`, named as written
    assert answer(session, "SELECT 7 // 2, -7 // 2, 7.5 // 2") == (
        ["UInt8", "Int8", "UInt8"], [(3, -3, 3)])
    assert [c.name for c in session.execute("SELECT 7 // 2, 7 DIV 2").schema] == ["7 // 2", "7 div 2"]
    assert answer(session, "SELECT k, i64 // 7, f64 // 2, i64 // -2 FROM w WHERE k <= 3 ORDER BY k") == (
        ["Nullable(Int32)", "Nullable(Int64)", "Nullable(Int64)", "Nullable(Int64)"],
        [(1, -1317624576693539328, 9223372036854775807, 4611686018427387904),
         (2, 1317624576693539328, -1, -4611686018427387904), (3, 0, 0, 0)])
