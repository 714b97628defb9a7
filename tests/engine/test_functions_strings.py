"""String functions as Databend 1.2.453 answers them: REGEXP / RLIKE / ILIKE operators,
regexp_like/replace/substr/instr (RE2: no pattern can stall a query), POSITION(a IN b),
translate, insert, quote, soundex, bin/oct/ord and friends."""

import time

import pytest

import engine
from engine import EngineError
from engine.core.limits import Limits


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE n (s VARCHAR NOT NULL, y VARCHAR NULL, u8 UINT8 NOT NULL, i8 INT8 NOT NULL)",
        "INSERT INTO n VALUES ('abc', NULL, 3, -1)",
    ]:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [c.name for c in result.schema], [c.type for c in result.schema], list(result)


# (expression over table n, Databend's type, Databend's value)
CASES = [
    ("s regexp 'b'", "Boolean", True), ("s not regexp 'b'", "Boolean", False), ("s rlike '^a'", "Boolean", True),
    ("s not rlike 'x'", "Boolean", True), ("y regexp 'a'", "Nullable(Boolean)", None),
    ("s regexp y", "Nullable(Boolean)", None), ("s ilike 'A%'", "Boolean", True),
    ("s not ilike 'A%'", "Boolean", False), ("position('b' in s)", "UInt64", 2),
    ("regexp_like(s, 'B')", "Boolean", True), ("regexp_like(s, 'B', 'c')", "Boolean", False), ("regexp_like(s, 'B', 'i')", "Boolean", True),
    ("regexp_like('a', s, 'c')", "Boolean", False), ("regexp_replace(s, 'b', 'X')", "String", "aXc"),
    ("regexp_substr(s, 'z')", "Nullable(String)", None), ("regexp_instr(s, 'z')", "UInt64", 0),
    ("translate(s, 'ab', 'x')", "String", "xc"), ("translate(y, 'a', 'b')", "Nullable(String)", None),
    ("insert(s, 2, 1, 'XYZ')", "String", "aXYZc"), ("quote(s)", "String", "abc"),
    ("quote(y)", "Nullable(String)", None), ("bin(u8)", "String", "11"),
    ("bin(i8)", "String", "1" * 64), ("ord(s)", "UInt64", 97), ("bit_length(s)", "UInt64", 24),
    ("soundex(s)", "String", "A120"),
]


@pytest.mark.parametrize(("expr", "type_", "value"), CASES)
def test_types_and_values(session, expr, type_, value):
    _, types, rows = answer(session, f"SELECT {expr} FROM n")
    assert (types, rows) == ([type_], [(value,)])


CONSTANTS = [
    ("regexp_replace('abcabc', 'b', 'X', 1, 2)", "abcaXc"),
    ("regexp_substr('abc def ghi', '[a-z]+', 1, 2)", "def"),
    ("regexp_instr('abc def', 'd')", 5), ("regexp_instr('abc def', 'd', 1, 1, 1)", 6),
    ("regexp_like('A', 'a', 'ic')", False), ("regexp_like('a\\nb', 'a.b', 'n')", True),
    ("regexp_like('a\\nb', '^b$', 'm')", True), ("regexp_like(NULL, 'a')", None),
    ("'abc' regexp '(?i)B'", True), ("'a.c' regexp 'a\\\\.c'", True), ("regexp_substr('aaa', 'a', 5)", None),
    ("regexp_instr('aaa', 'a', 2)", 2), ("regexp_instr('aaa', 'a', 1, 2, 1)", 3),
    ("regexp_replace('a1b22c', '(\\\\d+)', '<$1>')", "a<1>b<22>c"),
    ("regexp_replace('abcabc', 'B', 'x', 1, 0, 'i')", "axcaxc"), ("regexp_substr('abc', 'B', 1, 1, 'i')", "b"),
    ("'é' regexp '^.$'", True), ("regexp_instr('éa', 'a')", 2), ("regexp_substr('ab', '(a)(b)')", "ab"),
    ("regexp_replace('abc', '', 'x')", "abc"), ("regexp_replace('aaa', 'a', 'b', 2)", "abb"),
    ("regexp_replace('aaa', 'a', 'b', 2, 1)", "aba"),
    # empty source or pattern: nothing to find (MySQL's rules)
    ("regexp_substr('abc', '')", None), ("regexp_instr('abc', '')", 0), ("regexp_like('abc', '')", False),
    ("regexp_substr('', 'a*')", None), ("regexp_instr('', 'a*')", 0), ("regexp_replace('', '^', 'x')", ""),
    ("regexp_like('', '^$')", True), ("regexp_substr('abc', 'x*')", ""), ("regexp_instr('abc', 'x*')", 1),
    ("translate('abc', 'ab', 'xy')", "xyc"), ("translate('aaa', 'a', '')", ""), ("translate('abc', '', 'x')", "abc"),
    ("translate('abc', 'aa', 'xy')", "xbc"), ("translate('abc', 'abc', 'x')", "x"),
    ("insert('Quadratic', 3, 4, 'What')", "QuWhattic"), ("insert('abc', 0, 1, 'x')", "abc"),
    ("insert('abc', 4, 1, 'x')", "abc"), ("insert('abc', 3, 0, 'x')", "abxc"), ("insert('éèa', 2, 1, 'x')", "éxa"),
    ("insert('abc', 2, 10, 'x')", "ax"), ("insert('abc', 2, -1, 'x')", "axabc"),
    ("quote('a''b\\\\c')", "a\\'b\\\\c"), ("quote('a\\tb\\rc\\0d\"e')", 'a\\tb\\rc\\0d\\"e'),
    ("soundex('Robert')", "R163"), ("soundex('Tymczak')", "T520"), ("soundex('Washington')", "W25235"),
    ("soundex('Supercalifragilistic')", "S16241624232"), ("soundex('Pfister')", "P236"),
    ("soundex('héllo')", "H400"), ("soundex('')", "0000"), ("soundex(' Robert')", "R163"),
    ("bin(5)", "101"), ("oct(8)", "10"), ("oct(-8)", "1777777777777777777770"), ("ord('é')", 50089),
    ("ord('')", 0), ("bit_length('abc')", 24), ("length_utf8('é')", 1), ("substr_utf8('abc', 2)", "bc"),
    ("position('b' in 'abc')", 2),
]


@pytest.mark.parametrize(("expr", "value"), CONSTANTS)
def test_constants(session, expr, value):
    _, _, rows = answer(session, f"SELECT {expr}")
    assert rows == [(value,)]


def test_column_names(session):
    names, _, _ = answer(session, "SELECT s regexp 'b', s not rlike 'x', s ilike 'A%', position('b' in s), "
                                  "regexp_like(s, 'B') FROM n")
    assert names == ["s regexp 'b'", "s not rlike 'x'", "s ilike 'a%'", "position('b' in s)", "regexp_like(s, 'b')"]


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT regexp_like('a', '(')", 1006),  # Unable to build regex from regexp_like pattern
    ("SELECT regexp_like('ab', 'a', 'z')", 1006),  # Incorrect arguments to regexp_like match type: z
    ("SELECT regexp_instr('aaa', 'a', 0)", 1006),  # position must be positive, but got 0
    ("SELECT bin(1.5::DOUBLE)", 1065),
])
def test_errors(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_pathological_pattern_runs_in_linear_time(session):
    """(a+)+$ against 'aaa...ab' backtracks exponentially in Python's re; RE2 answers at once."""
    started = time.monotonic()
    rows = list(session.execute("SELECT repeat('a', 5000) || 'b' regexp '(a+)+$', "
                                "regexp_instr(repeat('a', 5000) || 'b', '(a|aa)+c')"))
    assert rows == [(False, 0)]
    assert time.monotonic() - started < 5


def test_pattern_longer_than_the_limit_is_refused():
    db = engine.Database(limits=Limits(regex_pattern_chars=10))
    session = db.session()
    assert list(session.execute("SELECT 'abc' regexp 'a{1,2}bc'")) == [(True,)]
    with pytest.raises(EngineError) as info:
        list(session.execute("SELECT 'abc' regexp 'aaaaaaaaaaaaaaaaaaaa'"))
    assert info.value.code == 1006 and "regex_pattern_chars" in info.value.message


def test_regexp_replace_result_is_bounded():
    db = engine.Database(limits=Limits(string_result_chars=100))
    with pytest.raises(EngineError) as info:
        list(db.session().execute("SELECT regexp_replace(repeat('a', 50), 'a', 'xyz')"))
    assert info.value.code == 1006


def test_bad_pattern_message(session):
    with pytest.raises(EngineError) as info:
        list(session.execute("SELECT regexp_like('a', '(')"))
    # Databend 1.2.453: "Unable to build regex from regexp_like pattern: regex parse error: ..."
    assert info.value.message.startswith("Unable to build regex from regexp_like pattern: regex parse error: ")
    assert "b'" not in info.value.message
