"""Named tuple fields: TUPLE(a INT, b STRING) columns, `p:a` / `p['a']` / `p.1` access, the
1065 errors, TYPEOF / DESCRIBE / SHOW CREATE TABLE spellings, CAST and CREATE TABLE AS (which
keep no names), VARIANT casts keyed by the names, and the names in the data directory.
Expected answers were checked against Databend 1.2.453."""

from __future__ import annotations

import pytest

import engine
from engine.core.errors import EngineError
from tests.engine.test_durability import crash


def run(session, sql):
    return list(session.execute(sql))


def wire(session, sql, null_as_str=True):
    """(column names, type names, wire rows)."""
    result = session.execute(sql)
    batch = list(result)
    return [c.name for c in result.schema], [t.display() for t in result.types], result.renderer(null_as_str)(batch)


def error(session, sql):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    return info.value.code, str(info.value)


@pytest.fixture
def s():
    session = engine.Database().session()
    run(session, "CREATE TABLE t (p TUPLE(a INT, b STRING), q TUPLE(INT, STRING), "
                 "r TUPLE(x TUPLE(y INT, z STRING), w INT) NOT NULL)")
    run(session, "INSERT INTO t VALUES ((1, 'x'), (2, 'y'), ((3, 'z'), 4))")
    return session


def test_fields_by_name_and_by_position(s):
    names, types, rows = wire(s, "SELECT p, p:a, p['a'], p.1, p[1], p:\"b\", t.p['b'] FROM t")
    assert names == ["p", "p:a", "p['a']", "p.1", "p[1]", "p:b", "t.p['b']"]
    assert types == ["Nullable(Tuple(Nullable(Int32), Nullable(String)))"] + ["Nullable(Int32)"] * 4 + \
        ["Nullable(String)"] * 2
    assert rows == [('(1,"x")', "1", "1", "1", "1", "x", "x")]


def test_an_unnamed_tuple_column_has_the_names_1_2(s):
    assert wire(s, "SELECT q['1'], q.2 FROM t")[1:] == (["Nullable(Int32)", "Nullable(String)"], [("2", "y")])


def test_nested_named_tuples_and_chained_positions(s):
    names, types, rows = wire(s, "SELECT r:x:y, r['x']['z'], r:w, r.1.2, r:x FROM t")
    assert names == ["r:x:y", "r['x']['z']", "r:w", "r.1.2", "r:x"]
    assert types == ["Nullable(Int32)", "Nullable(String)", "Nullable(Int32)", "Nullable(String)",
                     "Nullable(Tuple(Nullable(Int32), Nullable(String)))"]
    assert rows == [("3", "z", "4", "z", '(3,"z")')]


def test_names_work_in_where_group_by_order_by_subqueries_and_views(s):
    assert run(s, "SELECT p['b'] FROM t WHERE p:a = 1") == [("x",)]
    assert run(s, "SELECT p:a FROM t GROUP BY p:a") == [(1,)]
    assert run(s, "SELECT p:a AS z FROM t ORDER BY p:b") == [(1,)]
    assert run(s, "SELECT x.p:a FROM (SELECT p FROM t) x") == [(1,)]
    run(s, "CREATE VIEW v AS SELECT p FROM t")
    assert run(s, "SELECT p:a FROM v") == [(1,)]


@pytest.mark.parametrize("sql, message", [
    ("SELECT p['c'] FROM t", 'tuple name `c` does not exist, available names are: ["a", "b"]'),
    ("SELECT p:c FROM t", 'tuple name `c` does not exist, available names are: ["a", "b"]'),
    ("SELECT p['A'] FROM t", 'tuple name `A` does not exist, available names are: ["a", "b"]'),  # names are exact
    ("SELECT 1 FROM t WHERE p:zz = 1", 'tuple name `zz` does not exist, available names are: ["a", "b"]'),
    ("SELECT q['a'] FROM t", 'tuple name `a` does not exist, available names are: ["1", "2"]'),
    ("SELECT p[0] FROM t", "tuple index is starting from 1, but 0 is found"),
    ("SELECT p[3] FROM t", "tuple index 3 is out of bounds for length 2"),
    ("SELECT p.3 FROM t", "tuple index 3 is out of bounds for length 2"),
    # a CAST's tuple has no names of its own (Databend keeps them on table columns only)
    ("SELECT CAST((1, 'x') AS TUPLE(a INT, b STRING)):a", 'tuple name `a` does not exist, available names are: '
                                                           '["1", "2"]'),
])
def test_unknown_names_and_positions_are_1065(s, sql, message):
    assert error(s, sql) == (1065, message)


def test_typeof_describe_and_show_create_table_spell_names_as_databend(s):
    assert run(s, "SELECT typeof(p), typeof(q), typeof(r) FROM t") == [
        ("TUPLE(INT32 NULL, STRING NULL) NULL", "TUPLE(INT32 NULL, STRING NULL) NULL",
         "TUPLE(TUPLE(INT32 NULL, STRING NULL) NULL, INT32 NULL)")]
    assert [(r[0], r[1], r[2], r[3]) for r in run(s, "DESC t")] == [
        ("p", "TUPLE(A INT32, B STRING)", "YES", "NULL"), ("q", "TUPLE(1 INT32, 2 STRING)", "YES", "NULL"),
        ("r", "TUPLE(X TUPLE(Y INT32, Z STRING), W INT32)", "NO", "NULL")]  # no DEFAULT: NULL (current Databend)
    assert run(s, "SHOW CREATE TABLE t")[0][1].splitlines()[1] == "  p TUPLE(a INT NULL, b VARCHAR NULL) NULL,"


def test_a_cast_to_a_named_tuple_reads_by_position_and_is_named_as_written(s):
    names, types, rows = wire(s, "SELECT CAST(('1', 'x') AS TUPLE(a INT, b STRING)) AS c, "
                                 "CAST((1, 'x') AS TUPLE(a INT, b STRING)).2")
    assert names == ["c", "cast((1, 'x') as tuple(a int32, b string)).2"]
    assert types == ["Tuple(Int32, String)", "String"]
    assert rows == [('(1,"x")', "x")]


def test_create_table_as_keeps_no_names(s):
    run(s, "CREATE TABLE t2 AS SELECT p, r FROM t")
    assert [(r[0], r[1]) for r in run(s, "DESC t2")] == [
        ("p", "TUPLE(1 INT32, 2 STRING)"), ("r", "TUPLE(1 TUPLE(1 INT32, 2 STRING), 2 INT32)")]
    assert error(s, "SELECT p:a FROM t2")[0] == 1065


def test_a_named_tuple_becomes_an_object_keyed_by_its_names(s):
    run(s, "CREATE TABLE ta (ap ARRAY(TUPLE(a INT, b STRING)))")
    run(s, "INSERT INTO ta VALUES ([(2, 'y')])")
    # (Databend 1.2.453 writes r's keys in field order, {"x":...,"w":4}; a VARIANT here keeps
    # its object keys sorted)
    assert run(s, "SELECT p::VARIANT::STRING, r::VARIANT::STRING, to_variant(p)::STRING, "
                  "TRY_CAST(p AS VARIANT)::STRING, (1, 'x')::VARIANT::STRING FROM t") == [
        ('{"a":1,"b":"x"}', '{"w":4,"x":{"y":3,"z":"z"}}', '{"a":1,"b":"x"}', '{"a":1,"b":"x"}', '{"1":1,"2":"x"}')]
    # inside an array the names are not used
    assert run(s, "SELECT ap::VARIANT::STRING FROM ta") == [('[{"1":2,"2":"y"}]',)]


def test_wire_text_and_types_carry_no_names_with_either_null_spelling(s):
    run(s, "INSERT INTO t VALUES (NULL, NULL, ((NULL, NULL), NULL))")
    for null_as_str, null in ((True, "NULL"), (False, None)):
        _, types, rows = wire(s, "SELECT p, r FROM t ORDER BY p:a", null_as_str)
        assert types == ["Nullable(Tuple(Nullable(Int32), Nullable(String)))",
                         "Tuple(Nullable(Tuple(Nullable(Int32), Nullable(String))), Nullable(Int32))"]
        assert rows == [('(1,"x")', '((3,"z"),4)'), (null, "((NULL,NULL),NULL)")]


def _named_table(data_dir):
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    run(s, "CREATE TABLE nt (id INT, p TUPLE(a INT, b ARRAY(TUPLE(c STRING, d DATE))))")
    run(s, "INSERT INTO nt VALUES (1, (7, [('u', '2020-01-02')]))")
    return db, s


def test_names_survive_a_crash_and_a_checkpoint(tmp_path):
    data_dir = str(tmp_path / "data")
    db, s = _named_table(data_dir)
    desc = run(s, "DESC nt")
    assert desc[1][1] == "TUPLE(A INT32, B ARRAY(TUPLE(C STRING, D DATE)))"
    crash(db)  # the table and its rows only in the log
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert wire(s, "SELECT p:a, p['b'][1]:c, p:b[1]['d'] FROM nt")[2] == [("7", "u", "2020-01-02")]
    assert run(s, "DESC nt") == desc
    db.close()  # a checkpoint: the catalog image holds the names now
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert wire(s, "SELECT p:a, p['b'][1]:c FROM nt")[2] == [("7", "u")]
    assert run(s, "DESC nt") == desc
    db.close()
