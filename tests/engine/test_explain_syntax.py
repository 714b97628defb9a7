"""EXPLAIN SYNTAX: statements pretty-printed as Databend 1.2.453 prints them, one row per line."""

import pytest

from engine.core.errors import EngineError

# as Databend 1.2.453 answers (each statement's rows of EXPLAIN SYNTAX)
CASES = [
    ("select a from t where 1=1", ["SELECT a", "FROM", "    t", "WHERE", "    (1 = 1)"]),
    ("select t.a, u.label as l, count(*) from t join u on t.a = u.id left join u as v on v.id = t.a "
     "where a > 1 and b like 'x%' group by t.a, l having count(*) > 1 order by 1 desc, l limit 10 offset 2",
     ["SELECT", "    t.a,", "    u.label AS l,", "    COUNT(*)", "FROM", "    t",
      "    INNER JOIN u ON (t.a = u.id)", "    LEFT OUTER JOIN u AS v ON (v.id = t.a)", "WHERE", "    (",
      "        (a > 1)", "        AND (b LIKE 'x%')", "    )", "GROUP BY", "    t.a, l", "HAVING",
      "    (COUNT(*) > 1)", "ORDER BY", "    1 DESC,", "    l", "LIMIT 10", "OFFSET 2"]),
    ("select case when a > 1 then 'x' else 'y' end, case a when 1 then 2 end, cast(a as varchar), a::int, "
     "a in (1,2,3), a between 1 and 2, a is null, not a, -a, substr(b, 1, 2) from t",
     ["SELECT", "    CASE", "        WHEN (a > 1) THEN 'x'", "        ELSE 'y'", "    END,", "    CASE a",
      "        WHEN 1 THEN 2", "    END,", "    CAST(a AS STRING),", "    a::Int32,", "    a IN (1, 2, 3),",
      "    a BETWEEN 1 AND 2,", "    a IS NULL,", "    (NOT a),", "    (- a),", "    SUBSTRING(b FROM 1 FOR 2)",
      "FROM", "    t"]),
    ("select * from (select a from t) as s where a in (select id from u) and exists "
     "(select 1 from u where u.id = s.a)",
     ["SELECT *", "FROM", "    (", "        SELECT a", "        FROM", "            t", "    ) AS s", "WHERE",
      "    (", "        a IN (SELECT id", "        FROM", "            u)", "        AND EXISTS (",
      "            SELECT 1", "            FROM", "                u", "            WHERE",
      "                (u.id = s.a)", "        )", "    )"]),
    ("select distinct a, sum(a) over (partition by b order by a) from t union all select 1, 2",
     ["SELECT DISTINCT", "    a,", "    sum(a) OVER (( PARTITION BY b ORDER BY a ))", "FROM", "    t",
      "UNION ALL", "SELECT", "    1, 2"]),
    ("insert into t values (1, 'x'), (2, 'y')",
     ["INSERT INTO", "    t", "VALUES", "    (1, 'x'),", "    (2, 'y')"]),
    ("insert into t (a, b) select id, label from u",
     ["INSERT INTO", "    t (a, b)", "SELECT", "    id,", "    label", "FROM", "    u"]),
    ("update t set a = a + 1, b = 'z' where a = 1",
     ["UPDATE", "    t", "SET", "    a = (a + 1),", "    b = 'z'", "WHERE", "    (a = 1)"]),
    ("delete from t where a = 1", ["DELETE FROM", "    t", "WHERE", "    (a = 1)"]),
    ("create table x (a int not null, b varchar null default 'q', c decimal(10,2))",
     ["CREATE TABLE x (", "    a Int32 NOT NULL,", "    b STRING NULL DEFAULT 'q',", "    c Decimal(10, 2)", ")"]),
    ("with c as (select 1 as x) select x from c, t",
     ["WITH", "    c AS ", "    (", "        SELECT 1 AS x", "    )", "SELECT x", "FROM", "    c, t"]),
    ("select 1", ["SELECT 1"]),
    ("select a from t where a not in (1, 2) and b is not null and b not like 'x' or a not between 1 and 3",
     ["SELECT a", "FROM", "    t", "WHERE", "    (", "        (", "            (", "                a NOT IN (1, 2)",
      "                AND b IS NOT NULL", "            )", "            AND (b NOT LIKE 'x')", "        )",
      "        OR a NOT BETWEEN 1 AND 3", "    )"]),
    ("select count(distinct a), avg(c), -1, 1e3, 1.50, date '2020-01-01', a % 2, a <> 1, a != 2 from t",
     ["SELECT", "    count(DISTINCT a),", "    avg(c),", "    (- 1),", "    1000,", "    1.50,",
      "    CAST('2020-01-01' AS DATE),", "    (a % 2),", "    (a <> 1),", "    (a <> 2)", "FROM", "    t"]),
    ("select a from t cross join u order by a nulls first, b limit 3",
     ["SELECT a", "FROM", "    t", "    CROSS JOIN u", "ORDER BY", "    a NULLS FIRST,", "    b", "LIMIT 3"]),
    ("select a from t group by a", ["SELECT a", "FROM", "    t", "GROUP BY a"]),
    ("insert overwrite t values (1, 'x', 1.0)", ["INSERT OVERWRITE", "    t", "VALUES", "    (1, 'x', 1.0)"]),
    ("create table x as select 1", ["CREATE TABLE x", "AS", "    SELECT 1"]),
    ("select a from t union select id from u order by 1",
     ["SELECT a", "FROM", "    t", "UNION", "SELECT id", "FROM", "    u", "ORDER BY 1"]),
    ("select (select max(id) from u) as m, now() + interval 1 day, try_cast(a as bigint) from t",
     ["SELECT", "    (", "        SELECT max(id)", "        FROM", "            u", "    ) AS m,",
      "    (now() + INTERVAL 1 DAY),", "    TRY_CAST(a AS Int64)", "FROM", "    t"]),
    ("select t.*, 'a' || b, a::varchar, coalesce(a, 0), if(a > 1, 1, 0) from t",
     ["SELECT", "    t.*,", "    ('a' || b),", "    a::STRING,", "    coalesce(a, 0),", "    if((a > 1), 1, 0)",
      "FROM", "    t"]),
    ("select * from t left join u using (id) right join u v on true full outer join u w on false",
     ["SELECT *", "FROM", "    t", "    LEFT OUTER JOIN u USING(id)", "    RIGHT OUTER JOIN u AS v ON TRUE",
      "    FULL OUTER JOIN u AS w ON FALSE"]),
    ("select 1.5e-3, 2.5e10, -a from t", ["SELECT", "    0.0015,", "    25000000000,", "    (- a)", "FROM", "    t"]),
    ("create table if not exists x (a int)", ["CREATE TABLE IF NOT EXISTS x (", "    a Int32", ")"]),
    ("drop table if exists db1.t", ["DROP TABLE IF EXISTS db1.t"]),
    ("create database if not exists d", ["CREATE DATABASE IF NOT EXISTS d"]),
    ("drop database d", ["DROP DATABASE d"]),
    ("truncate table t", ["TRUNCATE TABLE t"]),
    ("use d", ["USE d"]),
    ("describe t", ["DESCRIBE t"]),
    ("set max_threads = 2", ["SET max_threads = 2"]),
    ("select sum(a) over (order by a desc rows between 1 preceding and current row), count(*) over (), "
     "row_number() over (partition by a, b), first_value(a) over w from t window w as (order by a)",
     ["SELECT", "    sum(a) OVER (( ORDER BY a DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW )),",
      "    COUNT(*) OVER (( )),", "    row_number() OVER (( PARTITION BY a, b )),", "    first_value(a) OVER (w)",
      "FROM", "    t", "WINDOW", "    w AS (( ORDER BY a ))"]),
    ("select a, count(*) from t group by rollup(a)",
     ["SELECT", "    a,", "    COUNT(*)", "FROM", "    t", "GROUP BY ROLLUP (", "    a", ")"]),
    ("select a from t group by grouping sets ((a), (b), ())",
     ["SELECT a", "FROM", "    t", "GROUP BY GROUPING SETS (", "    (a),", "    (b),", "    ()", ")"]),
    ("select * from (values (1, 'a'), (2, 'b')) as v",
     ["SELECT *", "FROM", "    (", "        VALUES(1, 'a'), (2, 'b')", "    ) AS v"]),
    ("values (1), (2)", ["VALUES(1), (2)"]),
    ("select 1 union all (select 2 union select 3)", ["SELECT 1", "UNION ALL", "SELECT 2", "UNION", "SELECT 3"]),
    ("select 1 union all (select 2 order by 1)",
     ["SELECT 1", "UNION ALL", "(", "    SELECT 2", "    ORDER BY 1", ")"]),
    # Databend 1.2.453 leaves QUALIFY out
    ("select a from t qualify row_number() over (order by a) = 1", ["SELECT a", "FROM", "    t"]),
    ("select 'it''s', 1.5, true, null, a from t",
     ["SELECT", "    'it\\'s',", "    1.5,", "    TRUE,", "    NULL,", "    a", "FROM", "    t"]),
]


@pytest.mark.parametrize("sql, lines", CASES, ids=[c[0][:40] for c in CASES])
def test_explain_syntax_layout(db, sql, lines):
    r = db.session().execute("EXPLAIN SYNTAX " + sql)
    assert [(c.name, c.type) for c in r.schema] == [("explain", "String")]
    assert [row[0] for row in r] == lines


def test_explain_syntax_does_not_run_or_resolve_the_statement(db):
    s = db.session()
    # the statement is only formatted: unknown tables are fine and nothing is deleted
    assert [r[0] for r in s.execute("EXPLAIN SYNTAX delete from missing")] == ["DELETE FROM", "    missing"]
    list(s.execute("EXPLAIN SYNTAX delete from t"))
    assert len(list(s.execute("SELECT * FROM t"))) == 4


def test_explain_keyword_words_still_name_columns(db):
    s = db.session()
    list(s.execute("CREATE TABLE w (syntax INT, analyze INT)"))
    assert list(s.execute("SELECT syntax, analyze FROM w")) == []


def test_statement_it_cannot_show_is_unimplemented(db):
    with pytest.raises(EngineError) as e:
        db.session().execute("EXPLAIN SYNTAX KILL QUERY '1'")
    assert e.value.code == 1002
