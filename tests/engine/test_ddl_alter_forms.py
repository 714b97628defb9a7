"""ALTER TABLE forms of Databend's suite (base/05_ddl/05_0003, 05_0028, 05_0059): ADD COLUMN IF
NOT EXISTS, MODIFY of several columns at once, table and column comments (ALTER TABLE t COMMENT,
MODIFY COLUMN c COMMENT, COMMENT ON TABLE / COLUMN), SWAP WITH, internal column names (1110)."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q


def _session():
    return engine.Database().session()


def test_add_column_if_not_exists():
    s = _session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "ALTER TABLE t ADD COLUMN IF NOT EXISTS b STRING NOT NULL DEFAULT 'b'")
    q(s, "ALTER TABLE t ADD COLUMN IF NOT EXISTS b STRING NOT NULL DEFAULT 'x'")  # there: unchanged
    assert error_code(s, "ALTER TABLE t ADD COLUMN IF NOT EXISTS b STRING AFTER missing_col") == 1006
    q(s, "INSERT INTO t (a) VALUES (1)")
    assert q(s, "SELECT * FROM t") == [(1, "b")]
    assert error_code(s, "ALTER TABLE t ADD COLUMN b STRING") == 1108


def test_modify_several_columns_in_one_statement():
    s = _session()
    q(s, "CREATE TABLE t (c1 INT, c2 INT)")
    q(s, "INSERT INTO t VALUES (1, 2)")
    q(s, "ALTER TABLE t MODIFY c1 VARCHAR, c2 VARCHAR")
    assert [r[:2] for r in q(s, "DESC t")] == [("c1", "VARCHAR"), ("c2", "VARCHAR")]
    assert q(s, "SELECT * FROM t") == [("1", "2")]
    q(s, "INSERT INTO t VALUES ('x', 'y')")
    # all or nothing: c2 cannot become an INT, so c1 stays a VARCHAR too
    assert error_code(s, "ALTER TABLE t MODIFY COLUMN c1 INT, COLUMN c2 INT") == 1006
    assert [r[:2] for r in q(s, "DESC t")] == [("c1", "VARCHAR"), ("c2", "VARCHAR")]


def test_table_and_column_comments():
    s = _session()
    q(s, "CREATE TABLE t (c1 INT, c2 INT)")
    q(s, "ALTER TABLE t MODIFY c1 VARCHAR COMMENT 'c1-column'")
    q(s, "ALTER TABLE t MODIFY c2 INT")
    q(s, "COMMENT ON COLUMN t.c2 IS 'test'")
    assert q(s, "SELECT name, comment FROM system.columns WHERE table = 't' AND database = 'default'") == [
        ("c1", "c1-column"), ("c2", "test")]
    q(s, "ALTER TABLE t COMMENT = 's1'")
    assert q(s, "SELECT comment FROM system.tables WHERE name = 't'") == [("s1",)]
    assert q(s, "SHOW CREATE TABLE t")[0][1] == (
        "CREATE TABLE t (\n  c1 VARCHAR NULL COMMENT 'c1-column',\n  c2 INT NULL COMMENT 'test'\n) ENGINE=FUSE "
        "COMMENT = 's1'")
    q(s, "COMMENT ON TABLE t IS 't-new'")
    q(s, "ALTER TABLE t MODIFY COLUMN c1 COMMENT 'middle'")
    assert q(s, "SELECT comment FROM system.tables WHERE name = 't'") == [("t-new",)]
    assert q(s, "SELECT comment FROM system.columns WHERE table = 't' AND name = 'c1'") == [("middle",)]
    assert error_code(s, "COMMENT ON COLUMN t.nope IS 'x'") == 1058


def test_swap_with_exchanges_two_tables():
    s = _session()
    q(s, "CREATE TABLE table_a (id INT, name STRING)")
    q(s, "CREATE TABLE table_b (id INT, description STRING, c3 STRING)")
    q(s, "INSERT INTO table_a VALUES (1, 'Alice')")
    q(s, "INSERT INTO table_b VALUES (10, 'd', 'x')")
    q(s, "ALTER TABLE table_a SWAP WITH table_b")
    assert q(s, "SELECT * FROM table_a") == [(10, "d", "x")]
    assert q(s, "SELECT * FROM table_b") == [(1, "Alice")]
    q(s, "INSERT INTO table_b VALUES (2, 'Bob')")
    assert q(s, "SELECT count(*) FROM table_b") == [(2,)]
    assert error_code(s, "ALTER TABLE table_a SWAP WITH nope") == 1025


def test_swapped_and_commented_tables_survive_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    for sql in ("CREATE TABLE a (x INT)", "CREATE TABLE b (y STRING)", "INSERT INTO a VALUES (1)",
                "INSERT INTO b VALUES ('z')", "ALTER TABLE a SWAP WITH b", "COMMENT ON TABLE a IS 'was b'",
                "COMMENT ON COLUMN b.x IS 'the x'"):
        q(s, sql)
    db.close()
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert q(s, "SELECT * FROM a") == [("z",)]
    assert q(s, "SELECT * FROM b") == [(1,)]
    assert q(s, "SELECT name, comment FROM system.tables WHERE database = 'default' ORDER BY name") == [
        ("a", "was b"), ("b", "")]
    assert q(s, "SELECT comment FROM system.columns WHERE table = 'b'") == [("the x",)]
    db.close()


def test_internal_column_names_are_refused():
    s = _session()
    assert error_code(s, "CREATE TABLE t (_row_id INT)") == 1110
    q(s, "CREATE TABLE t (a INT NOT NULL, c INT NOT NULL)")
    assert error_code(s, "ALTER TABLE t RENAME COLUMN a TO _row_id") == 1110
    assert error_code(s, "ALTER TABLE t ADD COLUMN _row_id INT") == 1110
    q(s, "ALTER TABLE t RENAME COLUMN a TO b")
    assert [r[0] for r in q(s, "DESC t")] == ["b", "c"]


def test_cluster_keys_guard_and_follow_their_columns():
    # base/05_ddl/05_0062_alter_column_issue_19299.test, 05_0000_ddl_create_tables.test
    s = _session()
    assert error_code(s, "CREATE TABLE t (a INT) CLUSTER BY (a + rand())") == 1081
    assert error_code(s, "CREATE TABLE t (a STRING) CLUSTER BY (a + uuid())") == 1081
    q(s, "SET hide_options_in_show_create_table = 1")
    q(s, "CREATE TABLE t0 (col1 INT, col2 STRING) CLUSTER BY (col1, to_date(col2))")
    q(s, "ALTER TABLE t0 RENAME COLUMN col2 TO col3")
    assert q(s, "SHOW CREATE TABLE t0")[0][1].endswith("ENGINE=FUSE CLUSTER BY (col1, to_date(col3))")
    assert error_code(s, "ALTER TABLE t0 DROP COLUMN col3") == 1132
    assert error_code(s, "ALTER TABLE t0 MODIFY COLUMN col1 BINARY") == 1132
    q(s, 'CREATE TABLE t1 (col1 INT, "col 2" STRING) CLUSTER BY (col1, to_date("col 2"))')
    assert q(s, "SELECT cluster_by FROM system.tables WHERE name = 't1'") == [('(col1, to_date("col 2"))',)]
    q(s, 'ALTER TABLE t1 RENAME COLUMN "col 2" TO col2')
    assert q(s, "SELECT cluster_by FROM system.tables WHERE name = 't1'") == [("(col1, to_date(col2))",)]
    q(s, 'ALTER TABLE t1 RENAME COLUMN col1 TO "col 1"')
    assert q(s, "SELECT cluster_by FROM system.tables WHERE name = 't1'") == [('("col 1", to_date(col2))',)]


def test_unknown_columns_of_insert_and_update_name_the_table():
    # base/03_common/03_0016_insert_into_values.test, 03_0035_update.test: current Databend's words
    s = _session()
    q(s, "CREATE TABLE t2 (a INT)")
    for sql, column in (("INSERT INTO t2 (a, c_no_exist) VALUES (1, 2)", "c_no_exist"),
                        ("UPDATE t2 SET a = 3, c_not_exist = 4", "c_not_exist")):
        try:
            q(s, sql)
        except engine.EngineError as exc:
            assert exc.code == 1006
            assert f'Table "default.t2" does not have a column with name "{column}"' in exc.message
        else:
            raise AssertionError(f"{sql} succeeded")


def test_update_from_with_qualified_set_and_nondeterministic_matches():
    # base/03_common/03_0048_nondeterministic_update.test
    s = _session()
    q(s, "CREATE TABLE old_products (product_id INT, price DECIMAL(10, 2), stock INT)")
    q(s, "INSERT INTO old_products VALUES (1, 299.99, 50), (4, 89.99, 40)")
    q(s, "CREATE TABLE new_products (product_id INT, new_price DECIMAL(10, 2), new_stock INT)")
    q(s, "INSERT INTO new_products VALUES (1, 279.99, 55), (4, 99.99, 50), (4, 39.99, 60)")
    update = ("UPDATE old_products o SET o.price = n.new_price, o.stock = n.new_stock FROM new_products n "
              "WHERE o.product_id = n.product_id")
    assert error_code(s, update) == 4001  # two source rows for product 4
    q(s, "SET error_on_nondeterministic_update = 0")
    q(s, update)  # the first match wins
    assert q(s, "SELECT * FROM old_products ORDER BY product_id")[0][2] == 55
    assert [r[0] for r in q(s, "SELECT product_id FROM old_products")] == [1, 4]
    assert error_code(s, "UPDATE old_products o SET n.price = 1 FROM new_products n") == 1005
    q(s, "UPDATE old_products SET old_products.stock = 7 WHERE product_id = 1")
    q(s, "MERGE INTO old_products t USING new_products s ON t.product_id = s.product_id AND s.new_stock = 55 "
         "WHEN MATCHED THEN UPDATE SET t.stock = 9")
    assert q(s, "SELECT stock FROM old_products WHERE product_id = 1") == [(9,)]


def test_table_options_and_mysql_type_widths():
    # base/05_ddl/05_0000_ddl_create_tables.test, 05_0058_ddl_alter_table_unset_options.test
    s = _session()
    q(s, "CREATE TABLE t (c INT, tiny TINYINT(10) UNSIGNED NOT NULL)")
    assert [r[:2] for r in q(s, "DESC t")] == [("c", "INT"), ("tiny", "TINYINT UNSIGNED")]
    assert error_code(s, "ALTER TABLE t SET OPTIONS (data_retention_period_in_hours = 'abc')") == 1006
    assert error_code(s, "ALTER TABLE t SET OPTIONS (data_retention_period_in_hours = 3000)") == 1301
    q(s, "ALTER TABLE t SET OPTIONS (data_retention_period_in_hours = 2)")
    q(s, "ALTER TABLE t UNSET OPTIONS data_retention_period_in_hours")  # one name: no brackets needed
    q(s, "ALTER TABLE t UNSET OPTIONS DATA_retention_period_in_hours")


def test_modify_column_refused_when_a_check_no_longer_binds():
    # base/05_ddl/05_0063: length() takes no INT (1065 at bind time, as Databend), so the
    # constraint is incompatible with b INT (2747) and the column stays a string
    s = _session()
    q(s, "CREATE TABLE t (a INT, b STRING)")
    q(s, "ALTER TABLE t ADD CONSTRAINT b_nonempty CHECK (length(b) > 0)")
    assert error_code(s, "ALTER TABLE t MODIFY COLUMN b INT") == 2747
    q(s, "INSERT INTO t VALUES (1, 'x')")
    assert q(s, "SELECT b FROM t") == [("x",)]
    assert error_code(s, "SELECT length(1)") == 1065
    assert error_code(s, "SELECT char_length(to_date(1))") == 1065
    assert q(s, "SELECT length('ab'), length([1, 2]), length(NULL)") == [(2, 2, None)]
