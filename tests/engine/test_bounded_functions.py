"""String builders and ROUND are bounded by the database's Limits, at N accepted and N + 1 refused."""

from decimal import Decimal

import pytest

import engine
from engine.core.limits import Limits

N = 30


@pytest.fixture
def session():
    db = engine.Database(limits=Limits(string_result_chars=N, round_digits=N))
    s = db.session()
    list(s.execute("CREATE TABLE s (x VARCHAR, k INT)"))
    list(s.execute("INSERT INTO s VALUES ('abc', 10)"))
    return s


def one(session, sql):
    (row,) = list(session.execute(sql))
    return row[0]


# (SQL building exactly `n` characters; the same with n + 1), each as a constant and over a column
BUILDERS = {
    "repeat": lambda n: f"SELECT repeat('ab', {n // 2}) || repeat('c', {n % 2})",
    "repeat_column": lambda n: f"SELECT repeat(x, {n // 3}) || repeat('c', {n % 3}) FROM s",
    "lpad": lambda n: f"SELECT lpad('x', {n}, 'ab')",
    "rpad": lambda n: f"SELECT rpad(x, {n}, '-') FROM s",
    "space": lambda n: f"SELECT space({n})",
    "replace": lambda n: f"SELECT replace('{'a' * (n - 11)}b', 'b', '{'c' * 11}')",
    "replace_column": lambda n: f"SELECT replace(x, 'b', '{'b' * (n - 2)}') FROM s",
    "concat": lambda n: f"SELECT concat('{'a' * (n - 5)}', 12345)",
    "concat_column": lambda n: f"SELECT concat(x, '{'a' * (n - 3)}') FROM s",
    "pipes": lambda n: f"SELECT '{'a' * (n - 4)}' || 'bcde'",
    "pipes_column": lambda n: f"SELECT x || '{'a' * (n - 3)}' FROM s",
    "pipes_number": lambda n: f"SELECT k || '{'a' * (n - 2)}' FROM s",
    "concat_ws": lambda n: f"SELECT concat_ws('--', '{'a' * (n - 9)}', 'abc', NULL, 'xx')",
    "concat_ws_column": lambda n: f"SELECT concat_ws(',', x, '{'a' * (n - 4)}') FROM s",
}


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_string_builder_at_the_limit(session, name):
    assert len(one(session, BUILDERS[name](N))) == N


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_string_builder_over_the_limit(session, name):
    with pytest.raises(engine.EngineError) as info:
        one(session, BUILDERS[name](N + 1))
    assert info.value.code == 1006
    assert info.value.message == (f"string result of {N + 1} characters exceeds the limit "
                                  f"string_result_chars = {N}")


def test_limit_is_per_database(session):
    """Another database with the default limit builds what this one refuses."""
    other = engine.Database().session()
    assert len(one(other, f"SELECT space({N + 1})")) == N + 1
    with pytest.raises(engine.EngineError):
        one(session, f"SELECT space({N + 1})")


def test_replace_refuses_before_building():
    """REPLACE's result size is computed from count * growth: 10**4 matches growing by 10**4
    would build 10**8 characters, and are refused at once with the default limit lowered."""
    s = engine.Database(limits=Limits(string_result_chars=1_000_000)).session()
    with pytest.raises(engine.EngineError) as info:
        one(s, "SELECT replace(repeat('a', 10000), 'a', repeat('b', 10000))")
    assert "100000000 characters" in info.value.message


@pytest.mark.parametrize("digits", [N, -N])
def test_round_digits_at_the_limit(session, digits):
    assert one(session, f"SELECT round(1234.5, {digits})") == (Decimal("1234.5") if digits > 0 else 0)
    assert one(session, f"SELECT round(1234, {digits})") == (1234 if digits > 0 else 0)
    assert one(session, f"SELECT round(k, {digits}) FROM s") == (10 if digits > 0 else 0)
    assert one(session, f"SELECT round(2.5e0, {digits})") == (2.5 if digits > 0 else 0.0)


@pytest.mark.parametrize("digits", [N, -N])
def test_truncate_digits_at_the_limit(session, digits):
    assert one(session, f"SELECT truncate(1234.5, {digits})") == (Decimal("1234.5") if digits > 0 else 0)
    assert one(session, f"SELECT truncate(k, {digits}) FROM s") == (10 if digits > 0 else 0)


@pytest.mark.parametrize("fn", ["round", "truncate"])
@pytest.mark.parametrize("digits", [N + 1, -N - 1])
def test_round_digits_over_the_limit(session, fn, digits):
    for sql in (f"SELECT {fn}(1234.5, {digits})", f"SELECT {fn}(k, {digits}) FROM s"):
        with pytest.raises(engine.EngineError) as info:
            one(session, sql)
        assert info.value.code == 1006
        assert info.value.message == (f"{fn.upper()} digits {digits} is out of range: |digits| may be "
                                      f"at most round_digits = {N}")


def test_round_with_default_limit_and_huge_digits_is_quick():
    s = engine.Database().session()
    assert one(s, "SELECT round(123, -1000)") == 0
    assert one(s, "SELECT round(1.5e300, -1000)") == 0.0
    with pytest.raises(engine.EngineError) as info:
        one(s, "SELECT round(123, -10000000)")
    assert info.value.code == 1006


@pytest.mark.parametrize(("sql", "expected"), [
    # Databend: ROUND(1234.5, -2) = 1200 (half away from zero, also for negative digits)
    ("SELECT round(1234.5, -2)", Decimal(1200)),
    ("SELECT round(1250, -2)", 1300),
    ("SELECT round(-1250, -2)", -1300),
    ("SELECT round(1249, -2)", 1200),
    ("SELECT round(499, -3)", 0),
    ("SELECT round(500, -3)", 1000),
    ("SELECT round(2.345, 2)", Decimal("2.35")),
    ("SELECT round(-2.5, 0)", Decimal("-3")),
    ("SELECT round(2.5e0)", 3.0),
    ("SELECT round(1.5e0, 30)", 1.5),
    ("SELECT round(1e300, -5)", 1e300),
    ("SELECT round(1234.5678::DECIMAL(10,4), 2)", Decimal("1234.57")),
    # exact for integers beyond 2**53 (the former code divided through a float)
    ("SELECT round(123456789012345678901, -1)", 123456789012345678900),
    # TRUNCATE: toward zero (values as Databend answers them; its result types differ)
    ("SELECT truncate(1234.5678, 2)", Decimal("1234.56")),
    ("SELECT truncate(1234, -2)", 1200),
    ("SELECT truncate(-1255, -1)", -1250),
    ("SELECT truncate(-1.99e0, 0)", -1.0),
    ("SELECT truncate(1.5, 30)", Decimal("1.5")),
    ("SELECT truncate(1234.5, -2)", Decimal(1200)),
])
def test_round_values(sql, expected):
    assert one(engine.Database().session(), sql) == expected
