"""XOR, and_filters / or_filters, equal_null, char / chr / unicode, LIKE ... ESCAPE, SOUNDS LIKE,
instr with a position and an occurrence, lpad / rpad with an empty pad, the case-insensitive
default of the regexp functions and is_error / is_not_error / error_or, with the answers of
Databend's own test files (query/functions/02_0046_function_logic.test, 02_0043_function_char.test,
02_0005_function_compare.test, 02_0039_function_strings_sounds_like.test,
02_0025_function_strings_locate.test, 02_0035_function_strings_pad.test,
02_0047_function_string_regexp_like.test, 02_0072_error.test)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.test_nested_values import error, wire


@pytest.fixture
def s():
    return engine.Database().session()


def rows(session, sql):
    return wire(session, sql)[2]


def test_xor_filters_and_equal_null(s):
    assert rows(s, "SELECT true XOR true, true XOR false, null XOR true") == [("0", "1", "NULL")]
    assert rows(s, "SELECT or_filters(false, false, null), or_filters(true, false, null), "
                   "and_filters(true, null)") == [("0", "1", "0")]
    assert rows(s, "SELECT equal_null(1, 1), equal_null(1, null), equal_null(null, null), equal_null(1, 0)") == [
        ("1", "0", "1", "0")]
    assert rows(s, "SELECT 1 AS xor_free, 2 sounds") == [("1", "2")]  # `sounds` stays a name


def test_char_chr_unicode(s):
    assert rows(s, "SELECT CHAR(77,121,83,81,76)::STRING, CHR(8364), CHAR(97, NULL), unicode(char(97)::String)") == [
        ("MySQL", "€", "NULL", "97")]
    assert error(s, "SELECT char(23232223)")[0] == 1006


def test_like_escape_and_sounds_like(s):
    assert rows(s, "SELECT '100%' like '100!%' escape '!', 'hello_world' like 'hello!_world' escape '!', "
                   "'hello-world' like 'hello!_world' escape '!', 'a%b_c\\d' like 'a!%b!_c!\\\\d' escape '!', "
                   "NULL like 'abc' escape '!'") == [("1", "1", "0", "1", "NULL")]
    assert rows(s, "SELECT 'two' SOUNDS LIKE 'too', 'A' SOUNDS LIKE 'B', CONCAT('A', 'B') SOUNDS LIKE 'AB'") == [
        ("1", "0", "1")]


def test_instr_positions_and_pads(s):
    assert rows(s, "SELECT INSTR('CORPORATE FLOOR','OR', 3, 2), INSTR('CORPORATE FLOOR','OR', -3, 2), "
                   "INSTR('你你好你', '你', -1, 2), INSTR('你你好你', '你', 1, 2), instr('foobarbar', '')") == [
        ("14", "2", "2", "2", "1")]
    assert rows(s, "SELECT LPAD('', 0, ''), LPAD('12345', 3, '')") == [("", "123")]
    assert error(s, "SELECT LPAD('123', 10, '')")[0] == 1006
    assert error(s, "SELECT RPAD('', 10, '')")[0] == 1006


def test_regexp_is_case_insensitive_by_default(s):
    assert rows(s, "SELECT 'foo' regexp 'FOO', regexp_like('foo', 'FOO', 'c'), "
                   "REGEXP_INSTR('dog cat dog', 'DOG', 1, 2, 1), regexp_replace('Abc abc', 'abc', 'x'), "
                   "regexp_replace('Abc abc', 'abc', 'x', 1, 0, 'c')") == [("1", "0", "12", "x x", "Abc x")]
    assert rows(s, "SELECT regexp_split_to_array('helloTworld', 't')") == [('["helloTworld"]',)]


def test_is_error_and_error_or(s):
    assert rows(s, "SELECT is_error(from_base64('aj')), is_not_error(from_base64('ac')), is_error(3)") == [
        ("1", "0", "0")]
    assert rows(s, "SELECT number FROM numbers(3) WHERE is_not_error(1 / (number - 1)) ORDER BY number") == [
        ("0",), ("2",)]
    assert rows(s, "SELECT error_or(1 / (number - 1), 42) FROM numbers(3) ORDER BY number") == [
        ("-1.0",), ("42.0",), ("1.0",)]
    assert rows(s, "SELECT is_not_error(if(number = 3, 1 % 0, 1)) FROM numbers(4) ORDER BY number") == [
        ("1",), ("1",), ("1",), ("0",)]


def test_multi_branch_if_decode_and_argument_counts(s):
    assert rows(s, "SELECT if(number = 4, 3::VARIANT, number = 5, null, number = 6, '\"a\"'::VARIANT, null) "
                   "FROM numbers(7) WHERE number >= 4 ORDER BY number") == [("3",), ("NULL",), ('"a"',)]
    assert error(s, "SELECT if(number = 4, 3, number = 2, 4) FROM numbers(1)")[0] == 1065
    assert error(s, "SELECT if(number = 4, 3) FROM numbers(1)")[0] == 1065
    assert error(s, "SELECT parse_json()")[0] == 1065  # no overload for that many arguments
    s.execute("CREATE TABLE t (a int)")
    s.execute("INSERT INTO t VALUES (1), (2), (NULL), (4)")
    assert rows(s, "SELECT a, decode(a, 1, 'one', 2, 'two', NULL, '-NULL-', 'other') FROM t ORDER BY a") == [
        ("1", "one"), ("2", "two"), ("4", "other"), ("NULL", "-NULL-")]


def test_trims_splits_space_and_hex(s):
    assert rows(s, "SELECT ltrim('aaabbaaa', 'aa'), rtrim('aaabbaaa', 'aa'), trim('abcab', 'ab')") == [
        ("bbaaa", "aaabb", "c")]
    assert rows(s, "SELECT split('|', '|'), split('ab', ''), split_part('ab', '', 0), "
                   "split_part('127.0.0.1', '.', 0), split_part('127.0.0.1', '.', -4)") == [
        ('[""]', '["ab"]', "ab", "127", "127")]
    assert error(s, "SELECT SPACE(2000000)")[0] == 1006
    assert rows(s, "SELECT hex(-100), to_hex(-100), hex('abc'), HEX_DECODE_STRING(TO_HEX('abc')), "
                   "BASE64_DECODE_STRING(TO_BASE64('abc')), try_hex_decode_string('zz')") == [
        ("FFFFFFFFFFFFFF9C", "ffffffffffffff9c", "616263", "abc", "abc", "NULL")]


def test_comparisons_of_numbers_with_booleans_and_texts(s):
    assert rows(s, "SELECT 10 > true, 10 >= true, 10 = true, 10 != true, 10 < true, 10 <= true") == [
        ("0", "1", "1", "0", "0", "1")]
    assert rows(s, "SELECT count(*) FROM numbers(3) WHERE number = true") == [("2",)]
    assert rows(s, "SELECT '3.1' = 3, '3.0' = 3, 3 = '3.0' = 3") == [("0", "1", "1")]


def test_soundex_keeps_a_first_character_beyond_ascii(s):
    assert rows(s, "SELECT SOUNDEX('你好中国'), SOUNDEX('##🐑hello'), SOUNDEX('hello'), SOUNDEX('')") == [
        ("你000", "🐑400", "H400", "0000")]


def test_time_slice(s):
    assert rows(s, "SELECT TIME_SLICE('2019-02-28'::DATE, 4, 'year', 'START'), TIME_SLICE('2019-02-28'::DATE, 4, 'week'), "
                   "TIME_SLICE('2019-02-28'::DATE, 4, 'MONTH', 'END'), "
                   "TIME_SLICE('2019-02-28T01:23:45.678'::timestamp, 8, 'second', 'end')") == [
        ("2018-01-01", "2019-02-18", "2019-05-01", "2019-02-28 01:23:52.000000")]
    assert error(s, "SELECT time_slice('2022-02-02'::date, 0, 'week')")[0] == 1006
    assert error(s, "SELECT time_slice('2022-02-02'::date, 1, 'week', 'err_string')")[0] == 1006


def test_ifnull_of_one_argument(s):
    assert rows(s, "SELECT IFNULL(1, 2), IFNULL(null), NVL(NULL), IFNULL(3)") == [("1", "NULL", "NULL", "3")]
