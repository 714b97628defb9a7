"""Reserved words never become aliases (Databend's rule) and NATURAL joins parse as joins."""

import pytest

from grammar import SqlSyntaxError, parse
from grammar import ast as A

# Never an alias, with or without AS.
NEVER = ["natural", "left", "right", "full", "inner", "cross", "join", "using", "semi", "anti",
         "asc", "desc", "some", "then", "both"]
# Clause keywords: an alias only after AS.
ONLY_AFTER_AS = ["window", "qualify", "range", "rows", "over", "partition", "format", "to"]
# Words that start a clause of the SELECT: the error is at what follows (as Databend 1.2.453 answers)
CLAUSE_ERROR_POSITION = {"window": (1, 17), "qualify": (1, 18)}


@pytest.mark.parametrize("word", NEVER + ONLY_AFTER_AS)
def test_reserved_word_is_not_an_implicit_select_alias(word):
    with pytest.raises(SqlSyntaxError) as info:
        parse(f"SELECT a {word} FROM t")
    assert info.value.code == 1005
    assert info.value.position == CLAUSE_ERROR_POSITION.get(word, (1, 10))


@pytest.mark.parametrize("word", NEVER + ONLY_AFTER_AS)
def test_reserved_word_is_not_an_implicit_table_alias(word):
    # e.g. `FROM t natural` must not read as `FROM t AS natural` followed by a cross join
    with pytest.raises(SqlSyntaxError):
        parse(f"SELECT * FROM t {word} WHERE a = 1")


@pytest.mark.parametrize("word", NEVER)
def test_reserved_word_is_not_an_alias_after_as(word):
    with pytest.raises(SqlSyntaxError):
        parse(f"SELECT 1 AS {word}")
    with pytest.raises(SqlSyntaxError):
        parse(f"SELECT * FROM t AS {word}")


@pytest.mark.parametrize("word", ONLY_AFTER_AS + ["outer", "name", "value", "first"])
def test_clause_words_are_aliases_after_as(word):
    select = parse(f"SELECT 1 AS {word} FROM t AS {word}")
    assert select.items[0].alias == word
    assert select.from_.alias == word


@pytest.mark.parametrize("word", ["outer", "name", "count", "first", "last", "value"])
def test_ordinary_words_stay_implicit_aliases(word):
    assert parse(f"SELECT a {word} FROM t").items[0].alias == word


def test_quoted_reserved_word_is_an_alias():
    select = parse('SELECT a "left" FROM t `natural`')
    assert select.items[0].alias == "left"
    assert select.from_.alias == "natural"


@pytest.mark.parametrize(
    "sql, kind",
    [
        ("SELECT * FROM t NATURAL JOIN u", "INNER"),
        ("SELECT * FROM t natural inner join u", "INNER"),
        ("SELECT * FROM t NATURAL LEFT JOIN u", "LEFT"),
        ("SELECT * FROM t NATURAL LEFT OUTER JOIN u", "LEFT"),
        ("SELECT * FROM t NATURAL RIGHT JOIN u", "RIGHT"),
        ("SELECT * FROM t NATURAL FULL OUTER JOIN u", "FULL"),
    ],
)
def test_natural_join(sql, kind):
    join = parse(sql).from_
    assert isinstance(join, A.Join)
    assert (join.kind, join.natural, join.on, join.using) == (kind, True, None, None)
    assert join.left.name == ("t",) and join.right.name == ("u",)


def test_plain_join_is_not_natural():
    assert parse("SELECT * FROM t JOIN u USING (a)").from_.natural is False


@pytest.mark.parametrize(
    "sql", ["SELECT * FROM t NATURAL CROSS JOIN u", "SELECT * FROM t NATURAL JOIN u ON t.a = u.a",
            "SELECT * FROM t NATURAL", "SELECT * FROM t NATURAL WHERE a = 1"]
)
def test_natural_join_errors(sql):
    with pytest.raises(SqlSyntaxError):
        parse(sql)
