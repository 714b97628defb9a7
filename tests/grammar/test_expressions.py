"""Expressions: literals, precedence, predicates, CASE, CAST, functions, subqueries."""

import pytest

from grammar import SqlSyntaxError, parse
from grammar import ast as A
from tests.grammar.helpers import (
    FALSE,
    NULL,
    TRUE,
    bop,
    col,
    expr,
    fn,
    neg,
    num,
    s,
    select,
    typ,
)

LITERALS = [
    ("1", num(1)),
    ("0", num(0)),
    ("18446744073709551616", num(18446744073709551616)),
    ("1.5", num("1.5")),
    ("1.50", num("1.50")),
    (".5", num(".5")),
    ("7.", num("7.")),
    ("1e3", num(1000.0)),
    ("1.5E-2", num(0.015)),
    ("2e+2", num(200.0)),
    ("'abc'", s("abc")),
    ("''", s("")),
    ("'it''s'", s("it's")),
    (r"'a\nb'", s("a\nb")),
    (r"'tab\there'", s("tab\there")),
    (r"'back\\slash'", s("back\\slash")),
    (r"'q\'q'", s("q'q")),
    (r"'100\%'", s("100\\%")),
    # what databend-py's parameter escaping produces
    (r"'\b\f\r\n\t\0\a\v\\\''", s("\b\f\r\n\t\0\a\v\\'")),
    ("'multi\nline'", s("multi\nline")),
    ("x'41'", A.Literal(b"A", "binary")),
    ("TRUE", TRUE),
    ("false", FALSE),
    ("NULL", NULL),
    ("null", NULL),
]


@pytest.mark.parametrize("sql, expected", LITERALS)
def test_literals(sql, expected):
    assert expr(sql) == expected


PRECEDENCE = [
    ("1 + 2 * 3", bop("+", num(1), bop("*", num(2), num(3)))),
    ("1 * 2 + 3", bop("+", bop("*", num(1), num(2)), num(3))),
    ("1 - 2 - 3", bop("-", bop("-", num(1), num(2)), num(3))),
    ("8 / 4 / 2", bop("/", bop("/", num(8), num(4)), num(2))),
    ("7 DIV 2", bop("DIV", num(7), num(2))),
    ("7 div 2 * 3", bop("*", bop("DIV", num(7), num(2)), num(3))),
    ("7 % 2", bop("%", num(7), num(2))),
    ("7 MOD 2", bop("%", num(7), num(2))),
    ("(1 + 2) * 3", bop("*", bop("+", num(1), num(2)), num(3))),
    ("- - + 3", neg(neg(A.UnaryOp("+", num(3))))),
    ("-a * b", bop("*", neg(col("a")), col("b"))),
    ("- 3::int", neg(A.Cast(num(3), typ("INT")))),
    ("a::int::string", A.Cast(A.Cast(col("a"), typ("INT")), typ("STRING"))),
    ("'a' || 'b' || 'c'", bop("||", bop("||", s("a"), s("b")), s("c"))),
    ("a || b = c", bop("=", bop("||", col("a"), col("b")), col("c"))),
    ("a + 1 || b", bop("||", bop("+", col("a"), num(1)), col("b"))),
    ("a = 1 OR b = 2 AND c = 3",
     bop("OR", bop("=", col("a"), num(1)),
         bop("AND", bop("=", col("b"), num(2)), bop("=", col("c"), num(3))))),
    ("NOT a = b", A.UnaryOp("NOT", bop("=", col("a"), col("b")))),
    ("NOT NOT x", A.UnaryOp("NOT", A.UnaryOp("NOT", col("x")))),
    ("NOT a AND b", bop("AND", A.UnaryOp("NOT", col("a")), col("b"))),
    ("a <> b", bop("<>", col("a"), col("b"))),
    ("a != b", bop("<>", col("a"), col("b"))),
    ("a == b", bop("=", col("a"), col("b"))),
    ("a <= b", bop("<=", col("a"), col("b"))),
    ("a >= b", bop(">=", col("a"), col("b"))),
    ("a < b", bop("<", col("a"), col("b"))),
    ("a > -b", bop(">", col("a"), neg(col("b")))),
    ("1 + 2 > 2 * 1", bop(">", bop("+", num(1), num(2)), bop("*", num(2), num(1)))),
]


@pytest.mark.parametrize("sql, expected", PRECEDENCE)
def test_precedence(sql, expected):
    assert expr(sql) == expected


PREDICATES = [
    ("a IS NULL", A.IsNull(col("a"))),
    ("a IS NOT NULL", A.IsNull(col("a"), negated=True)),
    ("NOT a IS NULL", A.UnaryOp("NOT", A.IsNull(col("a")))),
    ("a + 1 IS NULL", A.IsNull(bop("+", col("a"), num(1)))),
    ("a BETWEEN 1 AND 2", A.Between(col("a"), num(1), num(2))),
    ("a NOT BETWEEN 1 AND 2", A.Between(col("a"), num(1), num(2), negated=True)),
    ("a BETWEEN 1 AND 2 AND b",
     bop("AND", A.Between(col("a"), num(1), num(2)), col("b"))),
    ("a BETWEEN b + 1 AND c * 2",
     A.Between(col("a"), bop("+", col("b"), num(1)), bop("*", col("c"), num(2)))),
    ("NOT a BETWEEN NULL AND 1", A.UnaryOp("NOT", A.Between(col("a"), NULL, num(1)))),
    ("a IN (1, 2)", A.InList(col("a"), (num(1), num(2)))),
    ("a NOT IN (1)", A.InList(col("a"), (num(1),), negated=True)),
    ("a IN (SELECT b FROM t)",
     A.InSubquery(col("a"), select(col("b"), from_=A.TableRef(("t",))))),
    ("a NOT IN (SELECT 1)", A.InSubquery(col("a"), select(num(1)), negated=True)),
    ("a LIKE 'x%'", A.Like(col("a"), s("x%"))),
    ("a NOT LIKE 'x%'", A.Like(col("a"), s("x%"), negated=True)),
    ("EXISTS (SELECT 1)", A.Exists(select(num(1)))),
    ("NOT EXISTS (SELECT 1)", A.Exists(select(num(1)), negated=True)),
    ("(SELECT 1)", A.ScalarSubquery(select(num(1)))),
    ("((SELECT 1))", A.ScalarSubquery(select(num(1)))),
    ("(SELECT 1) + 1", bop("+", A.ScalarSubquery(select(num(1))), num(1))),
    ("a = (SELECT max(b) FROM t)",
     bop("=", col("a"),
         A.ScalarSubquery(select(fn("max", col("b")), from_=A.TableRef(("t",)))))),
]


@pytest.mark.parametrize("sql, expected", PREDICATES)
def test_predicates(sql, expected):
    assert expr(sql) == expected


CASES = [
    ("CASE WHEN a THEN 1 END", A.Case(None, ((col("a"), num(1)),))),
    ("CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END",
     A.Case(None, ((col("a"), num(1)), (col("b"), num(2))), num(3))),
    ("CASE a WHEN 1 THEN 'x' ELSE 'y' END",
     A.Case(col("a"), ((num(1), s("x")),), s("y"))),
    ("CASE a + 1 WHEN 2 THEN 3 END",
     A.Case(bop("+", col("a"), num(1)), ((num(2), num(3)),))),
]


@pytest.mark.parametrize("sql, expected", CASES)
def test_case(sql, expected):
    assert expr(sql) == expected


CASTS = [
    ("CAST(a AS INT)", A.Cast(col("a"), typ("INT"))),
    ("CAST(a AS INTEGER)", A.Cast(col("a"), typ("INTEGER"))),
    ("CAST(a AS SIGNED)", A.Cast(col("a"), typ("SIGNED"))),
    ("CAST(a AS SIGNED INTEGER)", A.Cast(col("a"), typ("SIGNED"))),
    ("CAST(a AS UNSIGNED)", A.Cast(col("a"), typ("UNSIGNED"))),
    ("CAST(a AS double precision)", A.Cast(col("a"), typ("DOUBLE"))),
    ("CAST(a AS DECIMAL(10, 2))", A.Cast(col("a"), typ("DECIMAL", 10, 2))),
    ("CAST(a AS VARCHAR(20))", A.Cast(col("a"), typ("VARCHAR", 20))),
    ("CAST(a AS Nullable(Int32))",
     A.Cast(col("a"), typ("NULLABLE", args=(typ("INT32"),)))),
    ("CAST(a AS INT NULL)", A.Cast(col("a"), typ("INT", nullable=True))),
    ("CAST(a AS INT NOT NULL)", A.Cast(col("a"), typ("INT", nullable=False))),
    ("CAST(NULL AS REAL)", A.Cast(NULL, typ("REAL"))),
    ("TRY_CAST(a AS UInt8)", A.Cast(col("a"), typ("UINT8"), try_=True)),
    ("a::FLOAT64", A.Cast(col("a"), typ("FLOAT64"))),
    ("a::DATE", A.Cast(col("a"), typ("DATE"))),
    ("'2020-01-01'::timestamp", A.Cast(s("2020-01-01"), typ("TIMESTAMP"))),
    ("a::decimal(5,1)", A.Cast(col("a"), typ("DECIMAL", 5, 1))),
]


@pytest.mark.parametrize("sql, expected", CASTS)
def test_casts(sql, expected):
    assert expr(sql) == expected


@pytest.mark.parametrize(
    "type_sql",
    "INT INTEGER BIGINT SMALLINT TINYINT SIGNED UNSIGNED INT8 INT16 INT32 INT64 UINT8 UINT16 "
    "UINT32 UINT64 FLOAT REAL DOUBLE FLOAT32 FLOAT64 DECIMAL NUMERIC VARCHAR CHAR TEXT STRING "
    "BOOL BOOLEAN DATE TIMESTAMP DATETIME".split(),
)
def test_every_type_name(type_sql):
    assert expr(f"CAST(a AS {type_sql.lower()})") == A.Cast(col("a"), typ(type_sql))


TYPED_LITERALS = [
    ("DATE '2024-01-31'", A.Cast(s("2024-01-31"), typ("DATE"))),
    ("timestamp '2024-01-31 10:00:00'", A.Cast(s("2024-01-31 10:00:00"), typ("TIMESTAMP"))),
    ("date", col("date")),
    ("date + 1", bop("+", col("date"), num(1))),
]


@pytest.mark.parametrize("sql, expected", TYPED_LITERALS)
def test_typed_literals(sql, expected):
    assert expr(sql) == expected


FUNCTIONS = [
    ("count(*)", fn("count", star=True)),
    ("COUNT(*)", fn("count", star=True)),
    ("COUNT( * )", fn("count", star=True)),
    ("count(a)", fn("count", col("a"))),
    ("COUNT(DISTINCT a)", fn("count", col("a"), distinct=True)),
    ("SUM(ALL a)", fn("sum", col("a"))),
    ("Coalesce(a, NULL, 1)", fn("coalesce", col("a"), NULL, num(1))),
    ("now()", fn("now")),
    ("DATABASE()", fn("database")),
    ("currentDatabase()", fn("currentdatabase")),
    ("version()", fn("version")),
    ("CURRENT_USER()", fn("current_user")),
    ("CURRENT_TIMESTAMP", fn("current_timestamp")),
    ("current_date", fn("current_date")),
    ("if(a, 1, 2)", fn("if", col("a"), num(1), num(2))),
    ("left('abc', 1)", fn("left", s("abc"), num(1))),
    ("abs(-1) + 1", bop("+", fn("abs", neg(num(1))), num(1))),
    ("substring(a, 1, 2)", fn("substring", col("a"), num(1), num(2))),
    ("typeof(1)", fn("typeof", num(1))),
    ("round(a / 3, 2)", fn("round", bop("/", col("a"), num(3)), num(2))),
    ("SUBSTRING(a FROM 2)", fn("substring", col("a"), num(2))),
    ("substring(a FROM 2 FOR 3)", fn("substring", col("a"), num(2), num(3))),
    ("TRIM(a)", fn("trim", col("a"))),
    ("TRIM('x' FROM a)", fn("trim_both", col("a"), s("x"))),
    ("TRIM(BOTH 'x' FROM a)", fn("trim_both", col("a"), s("x"))),
    ("TRIM(LEADING 'x' FROM a)", fn("trim_leading", col("a"), s("x"))),
    ("trim(trailing FROM a)", fn("trim_trailing", col("a"), s(" "))),
]


@pytest.mark.parametrize("sql, expected", FUNCTIONS)
def test_functions(sql, expected):
    assert expr(sql) == expected


COLUMNS = [
    ("a", col("a")),
    ("A", col("a")),
    ("t.a", col("t", "a")),
    ("db.t.a", col("db", "t", "a")),
    ('"MixedCase"', col("MixedCase")),
    ("`Back Tick`", col("Back Tick")),
    ('"say ""hi"""', col('say "hi"')),
    ("`a``b`", col("a`b")),
    ('T."Col"', col("t", "Col")),
]


@pytest.mark.parametrize("sql, expected", COLUMNS)
def test_column_refs(sql, expected):
    assert expr(sql) == expected


def test_positions_of_column_refs_functions_and_literals():
    statement = expr("a +\n  foo(b, 'x')")
    assert statement.pos == (1, 8)
    assert statement.left.pos == (1, 8)
    call = statement.right
    assert call.pos == (2, 3)
    assert call.args[0].pos == (2, 7)
    assert call.args[1].pos == (2, 10)


def test_position_of_null_and_bool_literals():
    statement = expr("coalesce(NULL, TRUE)")
    assert [arg.pos for arg in statement.args] == [(1, 17), (1, 23)]


# How databend-py and databend-sqlalchemy quote string parameters (backslash escapes).
CLIENT_ESCAPES = {
    "\b": "\\b", "\f": "\\f", "\r": "\\r", "\n": "\\n", "\t": "\\t", "\0": "\\0",
    "\a": "\\a", "\v": "\\v", "\\": "\\\\", "'": "\\'",
}


def test_client_escaped_strings_round_trip():
    import random

    rng = random.Random(7)
    alphabet = "ab %_'\"\\\b\f\r\n\t\0\a\v€😀"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        quoted = "'" + "".join(CLIENT_ESCAPES.get(c, c) for c in text) + "'"
        assert expr(quoted) == s(text), quoted
        insert = parse(f"INSERT INTO t VALUES ({quoted}, {quoted})")
        assert insert.rows == ((s(text), s(text)),)


@pytest.mark.parametrize("written, value", [  # each checked against Databend 1.2.453
    (r"'caf\u00e9'", "café"), (r"'a\u00e'", "a\x0e"), (r"'a\u'", "a\x00"),
    (r"'i\x41\x42'", "iAB"), (r"'c\x4'", "c\x04"), (r"'a\x'", "a\x00"),
    (r"'j\101\102'", "jAB"), (r"'e\777'", "e\u01ff"), (r"'f\08'", "f\x008"), (r"'k\1'", "k\x01"),
    (r"'h\q'", "h\\q"), (r"'a\8'", "a\\8"), (r"'a\U00000041'", "a\\U00000041"), (r"'l\%\_'", "l\\%\\_"),
    (r"'a\"b'", 'a"b'), (r"'a\'b'", "a'b"), (r"'a\\b'", "a\\b"),
])
def test_backslash_escapes_read_as_databend_reads_them(written, value):
    assert expr(written) == s(value)


def test_a_lone_surrogate_escape_is_a_syntax_error():
    with pytest.raises(SqlSyntaxError, match="lone UTF-16 surrogate"):
        expr(r"'g\ud83d'")
