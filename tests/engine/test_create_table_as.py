"""CREATE TABLE ... AS SELECT is atomic, and CREATE TABLE in a virtual database is read-only."""

import pytest

import engine


def test_failing_create_table_as_leaves_no_table(run):
    with pytest.raises(engine.EngineError) as info:
        run("CREATE TABLE c AS SELECT 1 DIV (number - 5) AS x FROM numbers(10)")
    assert info.value.code == 1006
    with pytest.raises(engine.EngineError) as info:
        run("SELECT * FROM c")
    assert info.value.code == 1025
    assert ("c",) not in run("SHOW TABLES")
    # the name is free: the same statement that succeeds creates it
    run("CREATE TABLE c AS SELECT number AS x FROM numbers(3)")
    assert run("SELECT count(*) FROM c") == [(3,)]


def test_abandoned_create_table_as_leaves_no_table(db):
    session = db.session()
    result = session.execute("CREATE TABLE c AS SELECT number FROM numbers(100000)")
    batches = result.batches()
    next(batches)  # some steps run, then the client goes away
    result.close()
    with pytest.raises(engine.EngineError) as info:
        list(session.execute("SELECT * FROM c"))
    assert info.value.code == 1025


def test_table_appears_when_its_query_is_done(db):
    session = db.session()
    result = session.execute("CREATE TABLE c AS SELECT number FROM numbers(5)")
    assert ("c",) not in list(db.session().execute("SHOW TABLES"))
    list(result)
    assert list(session.execute("SELECT sum(number) FROM c")) == [(10,)]


def test_existing_name_is_refused_before_the_query_runs(run):
    with pytest.raises(engine.EngineError) as info:
        run("CREATE TABLE t AS SELECT 1 DIV 0")  # the name is checked first
    assert info.value.code == 2302
    assert run("CREATE TABLE IF NOT EXISTS t AS SELECT 1 DIV 0") == []


@pytest.mark.parametrize("sql", [
    "CREATE TABLE system.t (x INT)",
    "CREATE TABLE information_schema.t (x INT)",
    "CREATE TABLE system.t AS SELECT 1",
    "CREATE TABLE IF NOT EXISTS SYSTEM.numbers2 (x INT)",
])
def test_create_table_in_a_virtual_database_is_read_only(run, sql):
    with pytest.raises(engine.EngineError) as info:
        run(sql)
    assert info.value.code == 1002
    assert "read-only" in info.value.message


def test_declared_columns_are_filled_by_position_from_the_query():
    """As Databend 1.2.453: CREATE TABLE t (cols) AS SELECT keeps the declared names and types
    and casts the query's columns into them by position (the declaration was ignored)."""
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (a INT, b STRING) AS SELECT 1 AS x, 2 AS y"))
    assert list(s.execute("DESC t")) == [("a", "INT", "YES", "NULL", ""), ("b", "VARCHAR", "YES", "NULL", "")]
    assert list(s.execute("SELECT a, b FROM t")) == [(1, "2")]
    with pytest.raises(engine.EngineError) as e:
        list(s.execute("CREATE TABLE u (a INT, b STRING) AS SELECT 5"))
    assert (e.value.code, e.value.message) == (1006, "Number of columns does not match.")
    with pytest.raises(engine.EngineError) as e:
        list(s.execute("CREATE TABLE v (a INT) AS SELECT 'zz' AS c"))
    assert e.value.code == 1006
    assert [n for (n,) in s.execute("SHOW TABLES")] == ["t"]  # the failed ones left nothing
