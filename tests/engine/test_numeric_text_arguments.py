"""Numeric functions and operators as current Databend answers them (the suite's 02_0014_function_maths
and 02_0000_function_arithmetic files): PostgreSQL's operators ^ |/ ||/ @ !,
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


def test_postgres_operators(session):
    # the suite's 02_0000_function_arithmetic: ^, |/, ||/, @ and the postfix !
    result = session.execute("SELECT 2 ^ -1, |/ 25.0, ||/ 125.0, @ -3.3, 5!, 3 !")
    assert result.renderer(True)(list(result)) == [("0.5", "5.0", "5.0", "3.3", "120", "6")]


def test_text_beside_an_integer_is_an_unsigned_integer(session):
    result = session.execute("SELECT '333' + 4, typeof('333' + 4), '3' + 4.5")
    assert result.renderer(True)(list(result)) == [("337", "SMALLINT UNSIGNED", "7.5")]
    with pytest.raises(EngineError) as info:
        list(session.execute("SELECT '-3' + 4"))
    assert info.value.code == 1006


def test_not_on_the_right_of_a_comparison(session):
    # the suite's 02_0002_function_cast: `a = NOT b` is a = (NOT b)
    assert list(session.execute("SELECT 'false'::boolean = not 'true'::boolean, 1 < not 0")) == [(True, False)]


def test_variant_strings_holding_numbers_and_timestamps(session):
    # the suite's 02_0002_function_cast: a number in a JSON string is read and rounded, a
    # timestamp in one read as text
    result = session.execute("SELECT parse_json('\"-123.1\"')::int64, parse_json('\"123.6\"')::int64, "
                             "parse_json('\"2022-01-01 01:01:01\"')::datetime")
    assert result.renderer(True)(list(result)) == [("-123", "124", "2022-01-01 01:01:01.000000")]


def test_an_alias_naming_an_earlier_alias(session):
    # the suite's 02_0002_function_cast: `a::Map(String, String) b, b::Variant = a`
    assert list(session.execute("SELECT '{\"k\":\"v\"}'::Variant a, a::Map(String, String) b, b::Variant = a")) \
        == [('{"k":"v"}', (("k", "v"),), True)]


def test_a_bitmap_to_binary_is_current_databends_hybrid_bitmap(session):
    # the suite's 02_0002_function_cast / try_cast: 'HB', version 1, kind 0, count, u64 numbers
    result = session.execute("SELECT to_binary(to_bitmap('100,200,300')), try_to_binary(to_bitmap('1,2'))")
    assert result.renderer(True)(list(result)) == [
        ("48420100036400000000000000C8000000000000002C01000000000000",
         "484201000201000000000000000200000000000000")]


@pytest.mark.parametrize("sql", ["SELECT try_cast(now() AS BOOLEAN)", "SELECT try_cast(today() AS DOUBLE)",
                                 "SELECT cast(now() AS DECIMAL(20, 0))"])
def test_casts_without_a_conversion_are_refused_even_as_try(session, sql):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == 1006
