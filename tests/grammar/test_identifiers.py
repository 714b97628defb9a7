"""Identifiers and keywords: case rules, quoting, common words usable as names."""

import pytest

from grammar import SqlSyntaxError, parse
from tests.grammar.helpers import col, item, select, table

COMMON_WORDS = (
    "name value type key number date timestamp text count sum first last database databases "
    "tables settings full global format comment min max avg string int integer boolean "
    "engine schema show use set unset desc asc nulls offset left right if transient "
    "precision default primary unique recursive"
).split()


@pytest.mark.parametrize("word", COMMON_WORDS)
def test_common_words_are_column_names(word):
    assert parse(f"SELECT {word} FROM t") == select(col(word), from_=table("t"))


@pytest.mark.parametrize("word", COMMON_WORDS)
def test_common_words_in_where_and_order_by(word):
    statement = parse(f"SELECT a FROM t WHERE {word} = 1 ORDER BY {word}")
    assert statement.where.left == col(word)
    assert statement.order_by[0].expr == col(word)


@pytest.mark.parametrize("word", ["name", "value", "count", "date", "tables", "settings"])
def test_common_words_are_table_and_database_names(word):
    assert parse(f"SELECT * FROM {word}.{word}").from_ == table(word, word)
    assert parse(f"CREATE TABLE {word} ({word} INT)").name == (word,)
    assert parse(f"DROP DATABASE {word}").name == word
    assert parse(f"INSERT INTO {word} ({word}) VALUES (1)").columns == (word,)


@pytest.mark.parametrize("word", ["name", "value", "count", "first", "number"])
def test_common_words_are_aliases(word):
    assert parse(f"SELECT 1 AS {word}").items[0] == item(parse("SELECT 1").items[0].expr, word)
    assert parse(f"SELECT a {word} FROM t").items[0].alias == word


@pytest.mark.parametrize(
    "sql",
    ["SELECT FROM FROM t", "SELECT * FROM where", "SELECT a FROM t AS select",
     "CREATE TABLE select (a INT)", "SELECT a.from FROM t", "INSERT INTO t (order) VALUES (1)"],
)
def test_reserved_words_are_not_names(sql):
    with pytest.raises(SqlSyntaxError):
        parse(sql)


@pytest.mark.parametrize(
    "sql, name",
    [('SELECT "from" FROM t', "from"), ("SELECT `select` FROM t", "select"),
     ('SELECT "Order" FROM t', "Order")],
)
def test_quoted_reserved_words_are_names(sql, name):
    assert parse(sql).items[0].expr == col(name)


def test_unquoted_names_are_lower_cased_quoted_kept():
    statement = parse('SELECT MyCol, "MyCol", `MyCol` FROM MyDb.MyTable')
    assert [i.expr for i in statement.items] == [col("mycol"), col("MyCol"), col("MyCol")]
    assert statement.from_ == table("mydb", "mytable")


@pytest.mark.parametrize(
    "sql",
    ["select 1", "SELECT 1", "SeLeCt 1", "sElEcT 1 fRoM t wHeRe 1 = 1 OrDeR bY 1 LiMiT 1"],
)
def test_keywords_are_case_insensitive(sql):
    assert parse(sql).items == parse("SELECT 1").items


def test_names_with_digits_underscores_and_dollars():
    assert parse("SELECT _a1$, a_b_2 FROM t_1").items[0].expr == col("_a1$")


def test_names_in_other_scripts():
    statement = parse("SELECT Straße, ü FROM Données")
    assert [i.expr for i in statement.items] == [col("straße"), col("ü")]
    assert statement.from_ == table("données")
