"""CHECK constraints as Databend's suite (base/05_ddl/05_0038, 05_0063) has them: declared with
a column, with the table or by ALTER TABLE ... ADD CONSTRAINT, verified on every write's commit
(1133), listed by system.constraints, guarding DROP / MODIFY COLUMN (2747), kept by a data
directory."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q


def _session():
    return engine.Database().session()


def test_column_and_table_checks_refuse_rows_that_fail():
    s = _session()
    q(s, "CREATE TABLE t1 (a INT, b INT CHECK (b > 0))")
    q(s, "INSERT INTO t1 VALUES (1, 10)")
    assert error_code(s, "INSERT INTO t1 VALUES (2, 0)") == 1133
    assert error_code(s, "INSERT INTO t1 VALUES (3, NULL)") == 1133  # only TRUE passes, as Databend
    assert error_code(s, "INSERT INTO t1 VALUES (4, 5), (5, -5)") == 1133  # the whole statement
    q(s, "CREATE TABLE t2 (x INT, y INT, CHECK (x < y))")
    q(s, "INSERT INTO t2 VALUES (1, 2)")
    assert error_code(s, "INSERT INTO t2 VALUES (5, 5)") == 1133
    assert error_code(s, "UPDATE t2 SET y = 0") == 1133
    q(s, "UPDATE t2 SET y = 7")
    assert q(s, "SELECT * FROM t1") == [(1, 10)]
    assert q(s, "SELECT * FROM t2") == [(1, 7)]
    assert error_code(s, "INSERT INTO t2 SELECT 9, 1") == 1133
    assert error_code(s, "REPLACE INTO t2 ON (x) VALUES (1, 0)") == 1133
    assert error_code(s, "INSERT ALL INTO t1 INTO t2 SELECT 3, 2") == 1133  # t2 refuses: neither written
    assert q(s, "SELECT count(*) FROM t1") == [(1,)]


def test_add_and_drop_constraint_and_system_constraints():
    s = _session()
    q(s, "CREATE TABLE t5 (a INT)")
    q(s, "INSERT INTO t5 VALUES (2)")
    q(s, "ALTER TABLE t5 ADD CONSTRAINT a_lt_5 CHECK (a > 5)")  # stored rows are not verified
    q(s, "ALTER TABLE t5 ADD CONSTRAINT a_lt_1 CHECK (a > 1)")
    assert error_code(s, "INSERT INTO t5 VALUES (2)") == 1133
    q(s, "DELETE FROM t5 WHERE a = 3")  # the rows it keeps are not checked again
    q(s, "ALTER TABLE t5 DROP CONSTRAINT a_lt_5")
    q(s, "INSERT INTO t5 VALUES (2)")
    assert error_code(s, "ALTER TABLE t5 ADD CONSTRAINT bad CHECK (b != 1)") == 1065
    assert error_code(s, "CREATE TABLE t6 (a INT CHECK (a != b))") == 1065
    q(s, "CREATE TABLE t7 (c0 INT, c1 INT CHECK (c1 > 10), CHECK (c1 != 11))")
    assert q(s, "SELECT name, type, expression, constraint_column_indexes, constraint_column_names, database, "
                "table FROM system.constraints") == [
        ("a_lt_1", "check", "a > 1", "0", "a", "default", "t5"),
        ("t7_c1_check", "check", "c1 > 10", "1", "c1", "default", "t7"),
        ("t7_c1_check1", "check", "c1 <> 11", "1", "c1", "default", "t7")]


def test_a_constraint_guards_the_columns_it_uses():
    s = _session()
    q(s, "CREATE TABLE t_drop (a INT, b INT, c INT)")
    q(s, "ALTER TABLE t_drop ADD CONSTRAINT c_positive CHECK (c > 0)")
    assert error_code(s, "ALTER TABLE t_drop DROP COLUMN c") == 2747
    assert error_code(s, "ALTER TABLE t_drop RENAME COLUMN c TO d") == 2747
    q(s, "ALTER TABLE t_drop DROP COLUMN b")
    q(s, "INSERT INTO t_drop VALUES (1, 1)")
    assert q(s, "SELECT * FROM t_drop") == [(1, 1)]


def test_constraints_survive_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT CHECK (a > 0))")
    q(s, "ALTER TABLE t ADD CONSTRAINT small CHECK (a < 100)")
    q(s, "INSERT INTO t VALUES (5)")
    db.close()
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert error_code(s, "INSERT INTO t VALUES (0)") == 1133
    assert error_code(s, "INSERT INTO t VALUES (500)") == 1133
    assert q(s, "SELECT name FROM system.constraints") == [("small",), ("t_a_check",)]
    db.close()
