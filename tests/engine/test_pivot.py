"""PIVOT and UNPIVOT in FROM: column names, types, rows and errors as Databend 1.2.453 answers
them (checked against it), or as its current documentation and binder have them where 1.2.453
lacks a form (a subquery source, UNPIVOT labels) or answers with a bug (noted per case)."""

import datetime

import pytest

import engine
from engine.core.errors import EngineError
from engine.core.limits import Limits
from grammar import parse

SETUP = [
    "CREATE TABLE monthly_sales (empid INT, amount INT, month VARCHAR)",
    "INSERT INTO monthly_sales VALUES (1, 10000, 'JAN'), (1, 400, 'JAN'), (2, 4500, 'JAN'), (2, 35000, 'JAN'), "
    "(1, 5000, 'FEB'), (1, 3000, 'FEB'), (2, 200, 'FEB'), (2, 90500, 'FEB'), (1, 6000, 'MAR'), (1, 5000, 'MAR'), "
    "(2, 2500, 'MAR'), (2, 9500, 'MAR'), (1, 8000, 'APR'), (1, 10000, 'APR'), (2, 800, 'APR'), (2, 4500, 'APR')",
    # NULLs in the key (no pivot column takes them) and in the value (aggregates skip them)
    "CREATE TABLE readings (site VARCHAR, slot INT, reading INT)",
    "INSERT INTO readings VALUES ('a', 1, 10), ('a', 1, NULL), ('a', 2, 20), ('a', NULL, 30), ('b', 2, 5), "
    "('b', 2, 5), ('b', 3, 7), (NULL, 1, 4), ('c', NULL, 9)",
    "CREATE TABLE quarterly (id INT NOT NULL, name VARCHAR, q1 INT, q2 INT, note VARCHAR, q3 BIGINT NOT NULL, "
    "day DATE)",
    "INSERT INTO quarterly VALUES (1, 'x', 10, NULL, 'p', 5, '2024-01-01'), (2, NULL, NULL, 20, NULL, 6, NULL), "
    "(3, 'z', 30, 40, '12', 7, '2024-03-01')",
    "CREATE TABLE kv (k VARCHAR, x INT)",
    "INSERT INTO kv VALUES ('A', 1)",
]

I32, I64, U64, F64, STR = "Nullable(Int32)", "Nullable(Int64)", "UInt64", "Nullable(Float64)", "Nullable(String)"
D1, D3 = datetime.date(2024, 1, 1), datetime.date(2024, 3, 1)


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in SETUP:
        list(s.execute(sql))
    return s


def answer(session, sql):
    """([(name, type)], rows) of a query."""
    result = session.execute(sql)
    rows = list(result)
    return [(c.name, c.type) for c in result.schema], rows


def error(session, sql):
    with pytest.raises(EngineError) as caught:
        list(session.execute(sql))
    return caught.value.code, caught.value.message


# ---------------------------------------------------------------- PIVOT

# (query, columns, rows), as Databend 1.2.453 answers
PIVOTS = [
    # the Databend docs' example: keys become lower-case column names, SUM of Int32 is Int64
    ("SELECT * FROM monthly_sales PIVOT(SUM(amount) FOR MONTH IN ('JAN', 'FEB', 'MAR', 'APR')) ORDER BY EMPID",
     [("empid", I32), ("jan", I64), ("feb", I64), ("mar", I64), ("apr", I64)],
     [(1, 10400, 8000, 11000, 18000), (2, 39500, 90700, 12000, 5300)]),
    # COUNT is never NULL: 0 for a key no row has
    ("SELECT * FROM monthly_sales PIVOT(count(amount) FOR month IN ('JAN', 'FEB', 'MAY')) ORDER BY empid",
     [("empid", I32), ("jan", U64), ("feb", U64), ("may", U64)], [(1, 2, 2, 0), (2, 2, 2, 0)]),
    ("SELECT * FROM monthly_sales PIVOT(max(amount) FOR month IN ('JAN', 'FEB')) ORDER BY empid",
     [("empid", I32), ("jan", I32), ("feb", I32)], [(1, 10000, 5000), (2, 35000, 90500)]),
    ("SELECT * FROM monthly_sales PIVOT(min(amount) FOR month IN ('MAR', 'APR')) ORDER BY empid",
     [("empid", I32), ("mar", I32), ("apr", I32)], [(1, 5000, 8000), (2, 2500, 800)]),
    # Databend 1.2.453 refuses AVG here ("Aggregate function is required", a parser quirk that
    # current Databend no longer has); the answer is its avg_if(amount, month = 'JAN') query's
    ("SELECT * FROM monthly_sales PIVOT(avg(amount) FOR month IN ('JAN', 'FEB')) ORDER BY empid",
     [("empid", I32), ("jan", F64), ("feb", F64)], [(1, 5200.0, 4000.0), (2, 19750.0, 45350.0)]),
    # integer keys name their columns by the number; a NULL key is in no column, a NULL value
    # is skipped, a group whose rows all miss the keys still has its row
    ("SELECT * FROM readings PIVOT(sum(reading) FOR slot IN (1, 2, 3)) ORDER BY site",
     [("site", STR), ("1", I64), ("2", I64), ("3", I64)],
     [("a", 10, 20, None), ("b", None, 10, 7), ("c", None, None, None), (None, 4, None, None)]),
    ("SELECT * FROM readings PIVOT(count(reading) FOR slot IN (1, 2, 3)) ORDER BY site",
     [("site", STR), ("1", U64), ("2", U64), ("3", U64)],
     [("a", 1, 1, 0), ("b", 0, 2, 1), ("c", 0, 0, 0), (None, 1, 0, 0)]),
    # Databend's agg_if call drops DISTINCT: the two 5s of site b both count
    ("SELECT * FROM readings PIVOT(sum(DISTINCT reading) FOR slot IN (2)) ORDER BY site",
     [("site", STR), ("2", I64)], [("a", 20), ("b", 10), ("c", None), (None, None)]),
    # a literal's text names its column (2.50 as written, 1e0 as the number it is)
    ("SELECT * FROM readings PIVOT(max(reading) FOR slot IN (2.50, 1e0, '2')) ORDER BY site",
     [("site", STR), ("2.50", I32), ("1", I32), ("2", I32)],
     [("a", None, 10, 20), ("b", None, None, 5), ("c", None, None, None), (None, None, 4, None)]),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('Jan Feb', 'JAN')) ORDER BY 1 DESC",
     [("empid", I32), ("jan feb", I64), ("jan", I64)], [(2, None, 39500), (1, None, 10400)]),
    # WHERE, ORDER BY and LIMIT around it; the source's alias names the pivoted rows
    ("SELECT * FROM monthly_sales AS m PIVOT(sum(amount) FOR month IN ('JAN')) WHERE m.empid = 2",
     [("empid", I32), ("jan", I64)], [(2, 39500)]),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB')) WHERE empid = 1",
     [("empid", I32), ("jan", I64), ("feb", I64)], [(1, 10400, 8000)]),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB')) ORDER BY jan DESC",
     [("empid", I32), ("jan", I64), ("feb", I64)], [(2, 39500, 90700), (1, 10400, 8000)]),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB')) ORDER BY empid LIMIT 1 OFFSET 1",
     [("empid", I32), ("jan", I64), ("feb", I64)], [(2, 39500, 90700)]),
    # a CTE as the source
    ("WITH s AS (SELECT empid, amount, month FROM monthly_sales WHERE amount > 1000) "
     "SELECT * FROM s PIVOT(max(amount) FOR month IN ('JAN', 'MAR')) ORDER BY empid",
     [("empid", I32), ("jan", I32), ("mar", I32)], [(1, 10000, 6000), (2, 35000, 9500)]),
]


@pytest.mark.parametrize("sql, columns, rows", PIVOTS)
def test_pivot(session, sql, columns, rows):
    assert answer(session, sql) == (columns, rows)


def test_pivot_of_a_subquery_as_current_databend(session):
    # Databend 1.2.453 reads PIVOT after a table only; its current binder (and docs) take a
    # subquery too, with the answer of the same query over a CTE (checked against 1.2.453)
    subquery = ("SELECT * FROM (SELECT empid, amount, month FROM monthly_sales WHERE amount > 1000) AS s "
                "PIVOT(max(amount) FOR month IN ('JAN', 'MAR')) ORDER BY s.empid")
    assert answer(session, subquery) == PIVOTS[-1][1:]
    unaliased = "SELECT * FROM (SELECT * FROM monthly_sales) PIVOT(sum(amount) FOR month IN ('FEB')) ORDER BY 1"
    assert answer(session, unaliased) == ([("empid", I32), ("feb", I64)], [(1, 8000), (2, 90700)])


def test_pivot_groups_by_every_other_column_wherever_it_is(session):
    # current Databend groups by all the other columns (GROUP BY ALL); Databend 1.2.453 grouped
    # by their ordinals, wrong when they do not come first (it answers error 1065 here)
    columns, rows = answer(session, "SELECT * FROM readings PIVOT(sum(reading) FOR site IN ('a', 'b')) ORDER BY slot")
    assert columns == [("slot", I32), ("a", I64), ("b", I64)]
    assert rows == [(1, 10, None), (2, 20, 10), (3, None, 7), (None, 30, None)]


def test_pivot_select_list_reads_the_pivoted_columns(session):
    # current Databend: PIVOT is a derived table, so a select list picks its columns (Databend
    # 1.2.453 appended the pivot columns to any select list instead)
    sql = "SELECT m.jan, empid FROM monthly_sales m PIVOT(sum(amount) FOR month IN ('JAN')) ORDER BY empid"
    assert answer(session, sql) == ([("jan", I64), ("empid", I32)], [(10400, 1), (39500, 2)])
    grouped = "SELECT count(*), sum(feb) FROM monthly_sales PIVOT(sum(amount) FOR month IN ('FEB'))"
    assert answer(session, grouped)[1] == [(2, 98700)]


def test_alias_after_pivot_is_read_as_its_explain_syntax_prints_it(session):
    # Databend 1.2.453 writes the alias before PIVOT and prints it after (EXPLAIN SYNTAX); both read
    before = "SELECT p.empid FROM monthly_sales AS p PIVOT(sum(amount) FOR month IN ('JAN')) ORDER BY 1"
    after = "SELECT p.empid FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN')) AS p ORDER BY 1"
    assert answer(session, before) == answer(session, after) == ([("empid", I32)], [(1,), (2,)])
    assert error(session, "SELECT * FROM kv AS a PIVOT(sum(x) FOR k IN ('A')) AS b")[0] == 1005


def test_pivot_inside_a_join_is_pivoted(session):
    # (Databend, 1.2.453 and current, silently drops a PIVOT that is not the whole FROM)
    sql = ("SELECT p.empid, p.jan, q.id FROM monthly_sales p PIVOT(sum(amount) FOR month IN ('JAN')) "
           "JOIN quarterly q ON q.id = p.empid ORDER BY 1")
    assert answer(session, sql)[1] == [(1, 10400, 1), (2, 39500, 2)]


# (query, code, message), as Databend 1.2.453 answers
PIVOT_ERRORS = [
    ("SELECT * FROM monthly_sales PIVOT(upper(amount) FOR month IN ('JAN'))",
     1008, "no function matches the given name: 'upper_if', do you mean 'upper'?"),
    ("SELECT * FROM monthly_sales PIVOT(foo(amount) FOR month IN ('JAN'))",
     1008, "no function matches the given name: foo_if"),
    ("SELECT * FROM monthly_sales PIVOT(amount FOR month IN ('JAN'))", 1005, "Aggregate function is required"),
    ("SELECT * FROM monthly_sales PIVOT(count(*) FOR month IN ('JAN'))", 1005, "Aggregate function is required"),
    ("SELECT * FROM monthly_sales PIVOT(sum(1) FOR month IN ('JAN'))", 1005, "Aggregate column not found"),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN (lower('JAN')))", 1005,
     "Pivot value should be literal"),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN (-1))", 1005, "Pivot value should be literal"),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', NULL))", 1006,
     "The type of the last argument for IfCombinator(sum) must be boolean type, but got Null"),
    ("SELECT * FROM monthly_sales PIVOT(sum(total) FOR month IN ('JAN'))", 1065,
     "Column `total` in EXCLUDE list not found in FROM clause"),
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR mon IN ('JAN'))", 1065,
     "Column `mon` in EXCLUDE list not found in FROM clause"),
    ("SELECT * FROM nope PIVOT(sum(amount) FOR month IN ('JAN'))", 1025,
     "Unknown table `default`.`nope` in catalog 'default'"),
    ("SELECT * FROM kv PIVOT(sum(x) FOR k IN ('A'))", 1065, "SELECT with no columns"),  # nothing to group by
    # current Databend's error (1.2.453 does not parse FILTER there)
    ("SELECT * FROM kv PIVOT(sum(x) FILTER (WHERE x > 0) FOR k IN ('A'))", 1002,
     "PIVOT aggregate FILTER is not supported yet"),
]


@pytest.mark.parametrize("sql, code, message", PIVOT_ERRORS)
def test_pivot_errors(session, sql, code, message):
    assert error(session, sql) == (code, message)


def test_pivot_values_are_bounded_like_an_in_list():
    s = engine.Database(limits=Limits(in_list_items=3)).session()
    list(s.execute("CREATE TABLE t (g INT, k INT, v INT)"))
    assert answer(s, "SELECT * FROM t PIVOT(sum(v) FOR k IN (1, 2, 3))")[0][1:] == [("1", I64), ("2", I64),
                                                                                     ("3", I64)]
    code, message = error(s, "SELECT * FROM t PIVOT(sum(v) FOR k IN (1, 2, 3, 4))")
    assert code == 1006 and "in_list_items = 3" in message


# ---------------------------------------------------------------- UNPIVOT

Q_REST = [("id", "Int32"), ("name", STR), ("note", STR), ("q3", "Int64"), ("day", "Nullable(Date)")]
KV = [("k", STR), ("v", I32)]

# (query, columns, rows), as Databend 1.2.453 answers
UNPIVOTS = [
    # Int columns: one row per column of each row, NULL values kept, labels the column names
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) ORDER BY id",
     Q_REST + KV,
     [(1, "x", "p", 5, D1, "q1", 10), (1, "x", "p", 5, D1, "q2", None), (2, None, None, 6, None, "q1", None),
      (2, None, None, 6, None, "q2", 20), (3, "z", "12", 7, D3, "q1", 30), (3, "z", "12", 7, D3, "q2", 40)]),
    # String columns
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (name, note)) ORDER BY id",
     [("id", "Int32"), ("q1", I32), ("q2", I32), ("q3", "Int64"), ("day", "Nullable(Date)"), ("k", STR), ("v", STR)],
     [(1, 10, None, 5, D1, "name", "x"), (1, 10, None, 5, D1, "note", "p"), (2, None, 20, 6, None, "name", None),
      (2, None, 20, 6, None, "note", None), (3, 30, 40, 7, D3, "name", "z"), (3, 30, 40, 7, D3, "note", "12")]),
    # Int32 beside BIGINT NOT NULL: nullable Int64; the name and value columns are appended to
    # any select list, after its other items
    ("SELECT id FROM quarterly UNPIVOT(v FOR k IN (q1, q3)) ORDER BY id, k",
     [("id", "Int32"), ("k", STR), ("v", I64)],
     [(1, "q1", 10), (1, "q3", 5), (2, "q1", None), (2, "q3", 6), (3, "q1", 30), (3, "q3", 7)]),
    ("SELECT id FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) ORDER BY id",
     [("id", "Int32")] + KV,
     [(1, "q1", 10), (1, "q2", None), (2, "q1", None), (2, "q2", 20), (3, "q1", 30), (3, "q2", 40)]),
    ("SELECT *, 1 AS one FROM quarterly UNPIVOT(v FOR k IN (q1, q2, q3)) ORDER BY id, k LIMIT 4",
     [("id", "Int32"), ("name", STR), ("note", STR), ("day", "Nullable(Date)"), ("one", "UInt8"), ("k", STR),
      ("v", I64)],
     [(1, "x", "p", D1, 1, "q1", 10), (1, "x", "p", D1, 1, "q2", None), (1, "x", "p", D1, 1, "q3", 5),
      (2, None, None, None, 1, "q1", None)]),
    # WHERE and ORDER BY read the unpivoted rows
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) WHERE v > 10 ORDER BY id",
     Q_REST + KV,
     [(2, None, None, 6, None, "q2", 20), (3, "z", "12", 7, D3, "q1", 30), (3, "z", "12", 7, D3, "q2", 40)]),
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) WHERE k = 'q2' ORDER BY id",
     Q_REST + KV,
     [(1, "x", "p", 5, D1, "q2", None), (2, None, None, 6, None, "q2", 20), (3, "z", "12", 7, D3, "q2", 40)]),
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) ORDER BY v DESC NULLS LAST LIMIT 3",
     Q_REST + KV,
     [(3, "z", "12", 7, D3, "q2", 40), (3, "z", "12", 7, D3, "q1", 30), (2, None, None, 6, None, "q2", 20)]),
    # labels keep the case the columns are written in; names of new columns as written
    ("SELECT * FROM quarterly UNPIVOT(V FOR K IN (Q1, \"q2\")) ORDER BY id LIMIT 2",
     Q_REST + KV, [(1, "x", "p", 5, D1, "Q1", 10), (1, "x", "p", 5, D1, "q2", None)]),
    ("SELECT * FROM quarterly UNPIVOT(\"V\" FOR k IN (q1, q2)) ORDER BY id LIMIT 2",
     Q_REST + [("k", STR), ("V", I32)], [(1, "x", "p", 5, D1, "q1", 10), (1, "x", "p", 5, D1, "q2", None)]),
    # the source's alias
    ("SELECT t.* FROM quarterly AS t UNPIVOT(v FOR k IN (q1, q2)) ORDER BY t.id, k LIMIT 2",
     Q_REST + KV, [(1, "x", "p", 5, D1, "q1", 10), (1, "x", "p", 5, D1, "q2", None)]),
    ("WITH c AS (SELECT id, q1, q2 FROM quarterly WHERE id > 1) SELECT * FROM c UNPIVOT(v FOR k IN (q1, q2)) "
     "ORDER BY id, k",
     [("id", "Int32")] + KV, [(2, "q1", None), (2, "q2", 20), (3, "q1", 30), (3, "q2", 40)]),
]


@pytest.mark.parametrize("sql, columns, rows", UNPIVOTS)
def test_unpivot(session, sql, columns, rows):
    assert answer(session, sql) == (columns, rows)


def test_unpivot_columns_named_as_source_columns_are_both_kept(session):
    # Databend 1.2.453: the source's q3 (not listed) and the value column q3 both answered
    columns, rows = answer(session, "SELECT * FROM quarterly UNPIVOT(q3 FOR k IN (q1, q2)) ORDER BY id, k LIMIT 2")
    assert columns == Q_REST + [("k", STR), ("q3", I32)]
    assert rows == [(1, "x", "p", 5, D1, "q1", 10), (1, "x", "p", 5, D1, "q2", None)]
    # in the WHERE a source column's name means the source column, before the new column's
    columns, rows = answer(session, "SELECT * FROM quarterly UNPIVOT(q1 FOR k IN (q1, q2)) WHERE q1 = 30 ORDER BY k")
    assert columns == Q_REST + [("k", STR), ("q1", I32)]
    assert rows == [(3, "z", "12", 7, D3, "q1", 30), (3, "z", "12", 7, D3, "q2", 40)]
    sql = "SELECT id FROM quarterly UNPIVOT(q1 FOR k IN (q1, q2)) WHERE q1 = 30 OR k = 'q2' ORDER BY id, k"
    assert [(r[0], r[-1]) for r in answer(session, sql)[1]] == [(1, None), (2, 20), (3, 30), (3, 40)]


def test_unpivot_of_a_subquery_and_labels_as_current_databend(session):
    # not in Databend 1.2.453: a subquery source (answered as the CTE form above), and labels
    # `c AS 'label'` / `c 'label'` (the current Databend docs' example)
    sql = "SELECT * FROM (SELECT id, q1, q2 FROM quarterly WHERE id > 1) UNPIVOT(v FOR k IN (q1, q2)) ORDER BY id, k"
    assert answer(session, sql) == UNPIVOTS[-1][1:]
    labelled = "SELECT id FROM quarterly UNPIVOT(v FOR k IN (q1 AS 'First', q2 'it''s')) WHERE id = 3"
    assert answer(session, labelled)[1] == [(3, "First", 30), (3, "it's", 40)]
    assert error(session, "SELECT * FROM (SELECT q1, q2 FROM quarterly) UNPIVOT(v FOR k IN (q1, q2))") == (
        1065, "SELECT with no columns")


def test_unpivot_in_a_subquery_then_grouped(session):
    sql = "SELECT k, sum(v) FROM (SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2))) GROUP BY k ORDER BY k"
    assert answer(session, sql) == ([("k", STR), ("sum(v)", I64)], [("q1", 40), ("q2", 60)])


# (query, code, message), as Databend 1.2.453 answers
UNPIVOT_ERRORS = [
    # a String beside numbers converts to Int64: text that is no number fails the query
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, note)) ORDER BY id", 1006,
     "invalid digit found in string while evaluating function `to_int64('p')`"),
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2, day))", 1065,
     "no overload satisfies `array(Int32 NULL, Int32 NULL, Date NULL)`\n\nhas tried possible overloads:\n"
     "  array(T0, T0, T0) :: Array(T0)  : unable to find a common super type for `Int32 NULL` and `Date NULL`"),
    # every column listed: the `*` adds none
    ("SELECT * FROM kv UNPIVOT(v FOR k2 IN (k, x))", 1065, "SELECT with no columns"),
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, nope))", 1065, "column nope doesn't exist"),
]


@pytest.mark.parametrize("sql, code, message", UNPIVOT_ERRORS)
def test_unpivot_errors(session, sql, code, message):
    assert error(session, sql) == (code, message)


def test_unpivot_of_strings_that_are_numbers_converts_them(session):
    # Databend 1.2.453: ['12', 30] unnests as Int64; the WHERE on source columns filters the rows
    # before their values are converted, so row 1's 'p' is never read as a number
    sql = "SELECT id FROM quarterly UNPIVOT(v FOR k IN (note, q1)) WHERE id = 3"
    assert answer(session, sql) == ([("id", "Int32"), ("k", STR), ("v", I64)], [(3, "note", 12), (3, "q1", 30)])
    sql = "SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, note)) WHERE id > 1 AND (v > 20 OR k = 'q1') ORDER BY id"
    assert answer(session, sql)[1] == [(2, None, 20, 6, None, "q1", None), (3, "z", 40, 7, D3, "q1", 30)]


# ---------------------------------------------------------------- EXPLAIN SYNTAX and views

# as Databend 1.2.453 prints them (the alias after the operator)
EXPLAINS = [
    ("SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB')) ORDER BY empid",
     ["SELECT *", "FROM", "    monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB'))", "ORDER BY empid"]),
    ("SELECT * FROM monthly_sales AS m PIVOT(count(DISTINCT amount) FOR month IN (1, 2.5)) WHERE m.empid > 1",
     ["SELECT *", "FROM", "    monthly_sales PIVOT(count(DISTINCT amount) FOR month IN (1, 2.5)) AS m", "WHERE",
      "    (m.empid > 1)"]),
    ("SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) WHERE v > 1",
     ["SELECT *", "FROM", "    quarterly UNPIVOT(v FOR k IN (q1, q2))", "WHERE", "    (v > 1)"]),
    ("SELECT * FROM default.quarterly t UNPIVOT(v FOR k IN (q1, q2))",
     ["SELECT *", "FROM", "    default.quarterly UNPIVOT(v FOR k IN (q1, q2)) AS t"]),
    # forms 1.2.453 lacks, printed alike
    ("SELECT * FROM (SELECT 1 AS a, 2 AS b) AS s UNPIVOT(v FOR k IN (a AS 'A', B 'x'))",
     ["SELECT *", "FROM", "    (", "        SELECT", "            1 AS a,", "            2 AS b",
      "    ) UNPIVOT(v FOR k IN (a AS 'A', B AS 'x')) AS s"]),
]


@pytest.mark.parametrize("sql, lines", EXPLAINS)
def test_explain_syntax_prints_them_back_and_reads_again(session, sql, lines):
    assert [r[0] for r in session.execute("EXPLAIN SYNTAX " + sql)] == lines
    assert parse("\n".join(lines)) == parse(sql)


def test_views_keep_their_pivot_text_and_answer_as_the_query(session):
    pivot = "SELECT * FROM monthly_sales PIVOT(sum(amount) FOR month IN ('JAN', 'FEB'))"
    list(session.execute(f"CREATE VIEW pivoted AS {pivot}"))
    unpivot = "SELECT * FROM quarterly UNPIVOT(v FOR k IN (q1, q2)) WHERE v IS NOT NULL"
    list(session.execute(f"CREATE VIEW unpivoted AS {unpivot}"))
    try:
        assert answer(session, "SELECT * FROM pivoted ORDER BY empid") == answer(session, pivot + " ORDER BY empid")
        assert answer(session, "DESCRIBE pivoted")[1] == [("empid", "INT", "YES", "NULL", ""),
                                                          ("jan", "BIGINT", "YES", "NULL", ""),
                                                          ("feb", "BIGINT", "YES", "NULL", "")]
        # the view's text as Databend 1.2.453 keeps it: the table qualified by the database
        assert answer(session, "SHOW CREATE VIEW pivoted")[1] == [
            ("pivoted", "CREATE VIEW `default`.`pivoted` AS SELECT * FROM default.monthly_sales "
                        "PIVOT(sum(amount) FOR month IN ('JAN', 'FEB'))")]
        assert answer(session, "SHOW CREATE VIEW unpivoted")[1] == [
            ("unpivoted", "CREATE VIEW `default`.`unpivoted` AS SELECT * FROM default.quarterly "
                          "UNPIVOT(v FOR k IN (q1, q2)) WHERE v IS NOT NULL")]
        assert answer(session, "SELECT id, k, v FROM unpivoted ORDER BY id, k") == (
            [("id", "Int32")] + KV, [(1, "q1", 10), (2, "q2", 20), (3, "q1", 30), (3, "q2", 40)])
        assert answer(session, "SELECT k, sum(v) FROM unpivoted GROUP BY k ORDER BY k")[1] == [("q1", 40), ("q2", 60)]
    finally:
        list(session.execute("DROP VIEW pivoted"))
        list(session.execute("DROP VIEW unpivoted"))


def test_explain_syntax_of_quoted_unpivot_names_reads_again(session):
    sql = "SELECT * FROM quarterly UNPIVOT(v FOR k IN (Q1, \"Q2\" 'x', \"q3\"))"
    lines = [r[0] for r in session.execute("EXPLAIN SYNTAX " + sql)]
    assert lines[2] == "    quarterly UNPIVOT(v FOR k IN (Q1, \"Q2\" AS 'x', q3))"
    assert parse("\n".join(lines)) == parse(sql)
