"""EXECUTE IMMEDIATE scripts and stored procedures: the script language (LET, RESULTSET, IF,
FOR, WHILE, REPEAT, LOOP, BREAK / CONTINUE, RETURN [TABLE], cursors, :var in statements), the
step budget, bounded steps, Databend's codes (base/15_procedure), and procedures surviving a
restart."""

from __future__ import annotations

import os

import pytest

import engine


def q(session, sql):
    return list(session.execute(sql))


def error_of(session, sql) -> engine.EngineError:
    with pytest.raises(engine.EngineError) as info:
        q(session, sql)
    return info.value


@pytest.fixture
def s():
    return engine.Database().session()


def script(body: str) -> str:
    return f"EXECUTE IMMEDIATE $$\nBEGIN\n{body}\nEND;\n$$"


def test_variables_loops_and_statements_with_variables(s):
    assert q(s, script("""
        LET RES RESULTSET := select number % 3 a, number % 4 b from numbers(10);
        LET SUM := 0;
        CREATE OR REPLACE TABLE abc(a int, b int);
        for x in RES do
            LET A := x.a;
            LET B := x.b;
            INSERT INTO abc VALUES (:A, :B);
            SUM := SUM + A;
            SUM := SUM + B;
        end for;
        return SUM;""")) == [("22",)]
    assert q(s, "SELECT count(*), sum(a + b) FROM abc") == [(10, 22)]
    assert q(s, script("""LET x := -1; LET sum := 0;
        FOR x IN x TO x + 3 DO sum := sum + x; END FOR; RETURN sum;""")) == [("2",)]
    assert q(s, script("""LET sum := 0;
        FOR x IN SELECT * FROM numbers(100) DO sum := sum + x.number; END FOR; RETURN sum;""")) == [("4950",)]
    assert q(s, script("RETURN NULL;")) == [(None,)]


def test_control_flow(s):
    assert q(s, script("""LET s := '';
        FOR i IN REVERSE 1 TO 3 DO s := s || i::string; END FOR;
        LET n := 0;
        WHILE true DO n := n + 1; IF n = 5 THEN BREAK; END IF; END WHILE;
        LET odd := 0;
        FOR i IN 1 TO 10 DO IF i % 2 = 0 THEN CONTINUE; ELSEIF i > 7 THEN odd := odd + 100;
            ELSE odd := odd + i; END IF; END FOR;
        LET r := 0;
        REPEAT r := r + 2; UNTIL r >= 7 END REPEAT;
        LET l := 0;
        LOOP l := l + 1; IF l > 2 THEN BREAK; END IF; END LOOP;
        RETURN s || '-' || n::string || '-' || odd::string || '-' || r::string || '-' || l::string;""")) \
        == [("321-5-116-8-3",)]


def test_return_table_and_cursors(s):
    result = s.execute(script("""CREATE OR REPLACE TABLE t1 (a INT, c STRING);
        INSERT INTO t1 VALUES (1, '3'); RETURN TABLE(select * from t1);"""))
    assert list(result) == [("1", "3")]
    assert [c.name for c in result.schema] == ["a", "c"]
    assert q(s, script("LET x := 1; LET y := x + 1; LET z RESULTSET := SELECT :y + 1; RETURN TABLE(z);")) \
        == [("3",)]
    assert q(s, script("""LET c1 CURSOR FOR SELECT number + 10 FROM numbers(10);
        OPEN c1; FETCH c1 INTO v; FETCH c1 INTO v; CLOSE c1; RETURN v;""")) == [("11",)]
    assert q(s, "EXECUTE IMMEDIATE 'select 42'") == [("42",)]


def test_errors(s):
    assert error_of(s, script("FOR x IN 1 TO -1 DO RETURN x; END FOR;")).code == 3129
    assert error_of(s, script("SELECT 0 / 0;")).code == 1006
    missing = error_of(s, script("LET m := (SELECT :fallback); RETURN m;"))
    assert missing.code == 3128 and "`fallback` is not defined" in missing.message
    assert error_of(s, script("THROW 'no';")).code == 3129
    assert error_of(s, "EXECUTE IMMEDIATE $$ BEGIN LET x = 1; END; $$").code == 1005


def test_the_step_budget_stops_an_endless_loop(s):
    q(s, "SET script_max_steps = 100")
    error = error_of(s, script("LET sum := 0; WHILE sum < 100 DO sum := sum + 1; END WHILE; RETURN sum;"))
    assert error.code == 3129 and "exceeded the limit" in error.message
    q(s, "SET script_max_steps = 1000")
    assert q(s, script("LET sum := 0; WHILE sum < 100 DO sum := sum + 1; END WHILE; RETURN sum;")) == [("100",)]
    limits = engine.Limits(script_max_steps=50)  # the server's cap wins over the setting
    capped = engine.Database(limits=limits).session()
    assert error_of(capped, script("WHILE true DO LET x := 1; END WHILE;")).code == 3129


def test_a_script_runs_in_steps(s):
    """WHILE true yields to the caller between statements: each pull of the Result is bounded work."""
    result = s.execute(script("LET n := 0; WHILE n < 50 DO n := n + 1; END WHILE; RETURN n;"))
    batches = list(result.batches())
    assert len(batches) > 100 and batches[-1] == [("50",)] and all(b == [] for b in batches[:-1])


def test_procedures(s):
    q(s, """CREATE PROCEDURE IF NOT EXISTS p1(x int) RETURNS int not null LANGUAGE SQL COMMENT='test' AS $$
        BEGIN
            RETURN x;
        END;
        $$""")
    assert q(s, "DESC PROCEDURE p1(int)") == [("signature", "(x)"), ("returns", "(Int32)"), ("language", "SQL"),
                                              ("body", "BEGIN RETURN x; END;")]
    q(s, """CREATE PROCEDURE p1(x UInt8, sum UInt8) RETURNS int not null LANGUAGE SQL AS $$
        BEGIN FOR x IN x TO x + 3 DO sum := sum + x; END FOR; RETURN sum; END; $$""")
    assert error_of(s, "CREATE PROCEDURE p1(x UInt8, s UInt8) RETURNS int LANGUAGE SQL AS $$ RETURN 1; $$").code \
        == 3131
    assert q(s, "CALL PROCEDURE p1(7)") == [("7",)]
    assert q(s, "CALL PROCEDURE p1(1, 10)") == [("20",)]
    assert q(s, "SELECT name, arguments FROM system.procedures WHERE name = 'p1'") == [
        ("p1", "p1(Int32) RETURN (Int32)"), ("p1", "p1(UInt8,UInt8) RETURN (Int32)")]
    assert [r[0] for r in q(s, "SHOW PROCEDURES")] == ["p1", "p1"]
    q(s, "DROP PROCEDURE p1(UInt8, UInt8)")
    q(s, "DROP PROCEDURE IF EXISTS p1(UInt8, UInt8)")
    assert error_of(s, "DROP PROCEDURE p1(UInt8, UInt8)").code == 3130
    assert error_of(s, "CALL PROCEDURE nope()").code == 3130


def test_scripts_and_procedures_need_super():
    db = engine.Database()
    root = db.session()
    q(root, "CREATE USER u IDENTIFIED BY 'p'")
    q(root, "CREATE PROCEDURE p() RETURNS int LANGUAGE SQL AS $$ BEGIN RETURN 1; END; $$")
    user = db.session(user="u")
    for sql in ["EXECUTE IMMEDIATE $$ BEGIN RETURN 1; END; $$", "CALL PROCEDURE p()", "DROP PROCEDURE p()",
                "CREATE PROCEDURE p2() RETURNS int LANGUAGE SQL AS $$ RETURN 1; $$"]:
        assert error_of(user, sql).code == 1063


def test_procedures_survive_a_crash(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, """CREATE PROCEDURE sum_even(a Int, b Int) RETURNS UInt8 NOT NULL LANGUAGE SQL AS $$
        BEGIN LET sum := 0; FOR i IN a TO b DO IF i % 2 = 0 THEN sum := sum + i; END IF; END FOR;
        RETURN sum; END; $$""")
    q(s, "EXECUTE IMMEDIATE $$ BEGIN CREATE TABLE t (a INT); INSERT INTO t VALUES (1); END; $$")
    db.durability.writer.close()
    os.close(db.durability._lock_file)
    db.durability = None
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert q(s, "CALL PROCEDURE sum_even(1, 6)") == [("12",)]
    assert q(s, "SELECT * FROM t") == [(1,)]
    db.close()
