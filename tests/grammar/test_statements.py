"""Statements other than queries: DDL, INSERT, SET/UNSET, SHOW, DESCRIBE, EXPLAIN, USE."""

import pytest

import grammar
from grammar import ast as A
from grammar import parse
from tests.grammar.helpers import NULL, bop, col, neg, num, s, select, table, typ

STAR = A.Star()

STATEMENTS = [
    ("SHOW PROCESSLIST", select(STAR, from_=table("system", "processes"))),
    ("SHOW PROCESSLIST WHERE user = 'a'",
     select(STAR, from_=table("system", "processes"),
            where=bop("=", col("user"), s("a")))),
    ("KILL QUERY 'a-1'", A.Kill("QUERY", "a-1")),
    ("kill connection AbC", A.Kill("CONNECTION", "AbC")),  # a bare id keeps its case
    ("KILL QUERY 42;", A.Kill("QUERY", "42")),
    ("CREATE DATABASE db", A.CreateDatabase("db")),
    ("create database if not exists Db", A.CreateDatabase("db", if_not_exists=True)),
    ("DROP DATABASE db", A.DropDatabase("db")),
    ("DROP DATABASE IF EXISTS db;", A.DropDatabase("db", if_exists=True)),
    ("USE db", A.UseDatabase("db")),
    ('USE "MyDb"', A.UseDatabase("MyDb")),
    ("CREATE TABLE t (a INT)", A.CreateTable(("t",), (A.ColumnDef("a", typ("INT")),))),
    ("CREATE TABLE IF NOT EXISTS db.t (a INT NOT NULL, b VARCHAR(10) NULL DEFAULT 'x')",
     A.CreateTable(("db", "t"), (
         A.ColumnDef("a", typ("INT", nullable=False)),
         A.ColumnDef("b", typ("VARCHAR", 10, nullable=True), s("x")),
     ), if_not_exists=True)),
    ("CREATE TABLE t (a DECIMAL(10, 2) DEFAULT 1.5, b Nullable(String), c double precision)",
     A.CreateTable(("t",), (
         A.ColumnDef("a", typ("DECIMAL", 10, 2), num("1.5")),
         A.ColumnDef("b", typ("NULLABLE", args=(typ("STRING"),))),
         A.ColumnDef("c", typ("DOUBLE")),
     ))),
    ("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE, PRIMARY KEY (a), UNIQUE (b(1)))",
     A.CreateTable(("t",), (A.ColumnDef("a", typ("INTEGER")), A.ColumnDef("b", typ("TEXT"))))),
    ("CREATE TABLE t (a INT DEFAULT -1 COMMENT 'c') ENGINE = FUSE",
     A.CreateTable(("t",), (A.ColumnDef("a", typ("INT"), neg(num(1)), "c"),), engine="fuse")),
    ("CREATE TABLE t (a INT COMMENT 'it''s', b INT) COMMENT = 'x' ENGINE = FUSE COMMENT 'y'",
     A.CreateTable(("t",), (A.ColumnDef("a", typ("INT"), comment="it's"), A.ColumnDef("b", typ("INT"))),
                   comment="y", engine="fuse")),
    ("CREATE TABLE t (a INT) ENGINE = Null row_per_block = 10 compression = 'zstd'",
     A.CreateTable(("t",), (A.ColumnDef("a", typ("INT")),), engine="null",
                   options=(("row_per_block", "10"), ("compression", "zstd")))),
    ("CREATE TABLE t COMMENT = 'c' AS SELECT 1", A.CreateTable(("t",), as_query=select(num(1)), comment="c")),
    ("CREATE TABLE t (a INT) COMMENT 'c' AS SELECT 1",
     A.CreateTable(("t",), (A.ColumnDef("a", typ("INT")),), as_query=select(num(1)), comment="c")),
    ("CREATE TABLE t (name STRING, value INT, type INT, key INT, date DATE, timestamp TIMESTAMP)",
     A.CreateTable(("t",), (
         A.ColumnDef("name", typ("STRING")),
         A.ColumnDef("value", typ("INT")),
         A.ColumnDef("type", typ("INT")),
         A.ColumnDef("key", typ("INT")),
         A.ColumnDef("date", typ("DATE")),
         A.ColumnDef("timestamp", typ("TIMESTAMP")),
     ))),
    ("CREATE TABLE t AS SELECT 1",
     A.CreateTable(("t",), as_query=select(num(1)))),
    ("CREATE TABLE t AS SELECT a FROM u UNION SELECT 2",
     A.CreateTable(("t",), as_query=A.SetOperation(
         "UNION", select(col("a"), from_=table("u")), select(num(2))))),
    ("DROP TABLE t", A.DropTable(("t",))),
    ("DROP TABLE IF EXISTS db.t", A.DropTable(("db", "t"), if_exists=True)),
    ("TRUNCATE TABLE t", A.TruncateTable(("t",))),
    ("TRUNCATE t", A.TruncateTable(("t",))),
    ("INSERT INTO t VALUES (1, 'a')", A.Insert(("t",), rows=((num(1), s("a")),))),
    ("INSERT INTO db.t (a, b) VALUES (1, NULL), (-2, 1 + 1)",
     A.Insert(("db", "t"), ("a", "b"),
              rows=((num(1), NULL), (neg(num(2)), bop("+", num(1), num(1)))))),
    ("INSERT INTO t SELECT * FROM u", A.Insert(("t",), query=select(STAR, from_=table("u")))),
    ("INSERT INTO t (a) SELECT 1 UNION ALL SELECT 2",
     A.Insert(("t",), ("a",), query=A.SetOperation("UNION", select(num(1)), select(num(2)),
                                                   all_=True))),
    ("INSERT INTO t (SELECT 1)", A.Insert(("t",), query=select(num(1)))),
    ("UPDATE t SET a = 1", A.Update(("t",), (A.Assignment("a", num(1)),))),
    ("update db.t set a = a + 1, B = NULL where a > 2",
     A.Update(("db", "t"), (A.Assignment("a", bop("+", col("a"), num(1))), A.Assignment("b", NULL)),
              where=bop(">", col("a"), num(2)))),
    ("UPDATE t AS u SET a = 1 WHERE u.a IN (SELECT 1)",
     A.Update(("t",), (A.Assignment("a", num(1)),), alias="u",
              where=A.InSubquery(col("u", "a"), select(num(1))))),
    ('UPDATE t SET "Set" = 1', A.Update(("t",), (A.Assignment("Set", num(1)),))),
    ("DELETE FROM t", A.Delete(("t",))),
    ("delete from db.t where a = 1;", A.Delete(("db", "t"), where=bop("=", col("a"), num(1)))),
    ("DELETE FROM t AS x WHERE x.a IS NULL", A.Delete(("t",), where=A.IsNull(col("x", "a")), alias="x")),
    ("DELETE FROM t x", A.Delete(("t",), alias="x")),
    ("SELECT update, delete FROM t", select(col("update"), col("delete"), from_=table("t"))),
    ("SET max_threads = 4", A.SetVariable("max_threads", num(4))),
    ("SET GLOBAL Timezone = 'UTC'", A.SetVariable("timezone", s("UTC"), is_global=True)),
    ("UNSET max_threads", A.UnsetVariable(("max_threads",))),
    ("UNSET a, b", A.UnsetVariable(("a", "b"))),
    ("UNSET (a, b)", A.UnsetVariable(("a", "b"))),
    ("SHOW DATABASES", A.Show("DATABASES")),
    ("SHOW DATABASES LIKE 'd%'", A.Show("DATABASES", like="d%")),
    ("SHOW TABLES", A.Show("TABLES")),
    ("SHOW FULL TABLES FROM db", A.Show("TABLES", database="db", full=True)),
    ("SHOW TABLES IN db LIKE 't%'", A.Show("TABLES", database="db", like="t%")),
    ("SHOW SETTINGS", A.Show("SETTINGS")),
    ("SHOW SETTINGS LIKE 'max%'", A.Show("SETTINGS", like="max%")),
    ("SHOW FUNCTIONS LIKE 'a%'", A.Show("FUNCTIONS", like="a%")),
    ("SHOW CREATE TABLE db.t", A.Show("CREATE_TABLE", table=("db", "t"))),
    ("DESCRIBE t", A.Describe(("t",))),
    ("DESC db.t", A.Describe(("db", "t"))),
    ("EXPLAIN SELECT 1", A.Explain(select(num(1)))),
    ("EXPLAIN INSERT INTO t SELECT 1", A.Explain(A.Insert(("t",), query=select(num(1))))),
]


@pytest.mark.parametrize("sql, expected", STATEMENTS)
def test_statements(sql, expected):
    assert parse(sql) == expected


def test_insert_and_table_positions():
    statement = parse("INSERT INTO\n  db.t (a) VALUES (1)")
    assert statement.pos == (2, 3)
    assert statement.rows[0][0].pos == (2, 20)
    assert parse("CREATE TABLE t (a INT)").columns[0].pos == (1, 17)


def test_update_and_delete_positions():
    update = parse("UPDATE\n  t SET a = 1,\n b = 2")
    assert update.pos == (2, 3)
    assert [a.pos for a in update.assignments] == [(2, 9), (3, 2)]
    assert parse("DELETE FROM db.t").pos == (1, 13)


@pytest.mark.parametrize("sql", ["KILL 'id'", "KILL QUERY", "KILL QUERY 'a' 'b'"])
def test_kill_needs_a_target_and_one_id(sql):
    with pytest.raises(grammar.SqlSyntaxError, match="expecting|unexpected"):
        parse(sql)


@pytest.mark.parametrize("sql, action", [
    ("BEGIN", "BEGIN"), ("begin transaction;", "BEGIN"), ("COMMIT", "COMMIT"),
    ("ROLLBACK", "ABORT"), ("abort;", "ABORT"),  # ROLLBACK is ABORT, as Databend parses it
])
def test_transaction_statements(sql, action):
    assert parse(sql) == A.TransactionStatement(action)


@pytest.mark.parametrize("sql", ["BEGIN WORK", "COMMIT TRANSACTION", "ROLLBACK TRANSACTION"])
def test_transaction_statements_take_no_other_words(sql):
    with pytest.raises(grammar.SqlSyntaxError, match="unexpected"):
        parse(sql)


def test_transaction_words_stay_names_elsewhere():
    assert parse("SELECT begin, commit, rollback, abort FROM transaction") == select(
        col("begin"), col("commit"), col("rollback"), col("abort"), from_=table("transaction"))
