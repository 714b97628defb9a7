"""Parsing of the bitwise operators (Databend's precedence), REGEXP / RLIKE / ILIKE and
POSITION(a IN b)."""

import pytest

from grammar import ast as A
from grammar.parser import parse


def expr(sql):
    return parse("SELECT " + sql).items[0].expr


def shape(node):
    """A compact nested form: ('op', left, right) / ('fn', args...) / literal value / column."""
    if isinstance(node, A.BinaryOp):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, A.UnaryOp):
        return (node.op, shape(node.operand))
    if isinstance(node, A.FunctionCall):
        return (("not " if node.negated else "") + (node.operator or node.name), *map(shape, node.args))
    if isinstance(node, A.ColumnRef):
        return node.parts[-1]
    return node.value


@pytest.mark.parametrize(("sql", "tree"), [
    ("1 + 2 & 3", ("&", ("+", 1, 2), 3)),  # + binds tighter than &
    ("6 | 3 & 8", ("&", ("|", 6, 3), 8)),  # & | # share one level, left to right
    ("6 # 3 & 1", ("&", ("#", 6, 3), 1)),
    ("1 << 2 & 3", ("&", ("<<", 1, 2), 3)),  # shifts bind tighter than & | #
    ("3 | 1 << 2", ("|", 3, ("<<", 1, 2))),
    ("1 << 2 + 1", ("<<", 1, ("+", 2, 1))),
    ("'a' || 'b' << 1", ("<<", ("||", "a", "b"), 1)),  # || binds tighter than the shifts
    ("5 & 3 = 1", ("=", ("&", 5, 3), 1)),
    ("~1 + 1", ("+", ("~", 1), 1)),
    ("a < b", ("<", "a", "b")), ("a <= b", ("<=", "a", "b")), ("a <> b", ("<>", "a", "b")),
    ("a || b", ("||", "a", "b")),
    ("a REGEXP 'x'", ("regexp", "a", "x")), ("a NOT RLIKE 'x'", ("not rlike", "a", "x")),
    ("a ILIKE 'x%'", ("ilike", "a", "x%")), ("a NOT ILIKE b", ("not ilike", "a", "b")),
    ("position('b' IN s)", ("in", "b", "s")),
])
def test_operator_trees(sql, tree):
    assert shape(expr(sql)) == tree


@pytest.mark.parametrize("sql", [
    "SELECT position, regexp, rlike, ilike FROM t",  # not reserved: Databend accepts these names
    "SELECT position + 1 FROM t",
    "CREATE TABLE p (position INT, regexp INT, ilike INT)",
    "SELECT a AS regexp FROM t",
])
def test_operator_words_stay_usable_as_names(sql):
    parse(sql)


def test_words_that_merely_start_like_operators_are_aliases():
    assert parse("SELECT a regexpx FROM t").items[0].alias == "regexpx"
    assert parse("SELECT a ilike_x FROM t").items[0].alias == "ilike_x"


def test_an_exponent_number_beyond_76_exact_digits_is_a_float64():
    # the suite's 11_0000_data_type_numeric: Databend reads 70 digits .1e-80 exactly (81 places)
    literal = expr("1234567890123456789012345678901234567890123456789012345678901234567890.1e-80")
    assert literal.kind == "float64"
    assert expr("1.5e-3").kind == "float"


@pytest.mark.parametrize(("sql", "name"), [("2 ^ 3", None), ("|/ 25.0", "sqrt"), ("||/ 8.0", "cbrt"),
                                           ("@ -3.0", "abs"), ("5!", "factorial")])
def test_postgres_operators(sql, name):
    tree = expr(sql)
    if name is None:
        assert isinstance(tree, A.BinaryOp) and tree.op == "^"
    else:
        assert isinstance(tree, A.FunctionCall) and tree.name == name
