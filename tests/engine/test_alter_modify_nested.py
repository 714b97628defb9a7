"""ALTER TABLE ... MODIFY COLUMN of a tuple or array(tuple) column to a tuple type with other
fields (Databend's suite base/05_ddl/05_0003_ddl_alter_table): fields matched by name (`1`, `2`...
when unnamed), a field the old tuple lacks filled with its type's default; and SHOW CREATE TABLE
spelling nested types with NULL / NOT NULL at every level; the table options SHOW CREATE TABLE
shows (hide_options_in_show_create_table = 0), kept through DROP / RENAME COLUMN, and the index
options that refuse a MODIFY COLUMN (1301). The expected answers are the suite's."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import error_code, q
from tests.engine.test_durability import crash


def _render(s, sql):
    result = s.execute(sql)
    render = result.renderer(True)
    return [list(row) for batch in result.batches() for row in render(batch)]


def test_a_wider_tuple_gets_null_in_the_new_field():
    s = engine.Database().session()
    q(s, "CREATE TABLE t4 (a string not null, d tuple(string, string) null)")
    q(s, "INSERT INTO t4 VALUES ('a', ('d1', 'd2')), ('b', NULL)")
    q(s, "ALTER TABLE t4 MODIFY COLUMN d tuple(binary, binary) null")
    q(s, "ALTER TABLE t4 MODIFY COLUMN d tuple(string, string, int) null")
    assert _render(s, "SELECT * FROM t4") == [["a", '("d1","d2",NULL)'], ["b", "NULL"]]
    assert q(s, "SHOW CREATE TABLE t4")[0][1] == (
        "CREATE TABLE t4 (\n  a VARCHAR NOT NULL,\n"
        "  d TUPLE(1 VARCHAR NULL, 2 VARCHAR NULL, 3 INT NULL) NULL\n) ENGINE=FUSE")


def test_an_array_of_tuples_is_widened_element_by_element():
    s = engine.Database().session()
    q(s, "CREATE TABLE t5 (a int, b array(tuple(int, int, string)))")
    q(s, "INSERT INTO t5 VALUES (1, null), (2, [(1,2,'x'),(3,4,'y')]), (3, [(5,null,null),(6,null,'z')])")
    q(s, "ALTER TABLE t5 MODIFY COLUMN b array(tuple(int, float64, string, string))")
    assert _render(s, "SELECT * FROM t5 ORDER BY a") == [
        ["1", "NULL"], ["2", '[(1,2.0,"x",NULL),(3,4.0,"y",NULL)]'],
        ["3", '[(5,NULL,NULL,NULL),(6,NULL,"z",NULL)]']]


def test_named_fields_are_matched_by_name_and_a_not_null_new_field_takes_its_default():
    s = engine.Database().session()
    q(s, "CREATE TABLE t (p tuple(a int, b string))")
    q(s, "INSERT INTO t VALUES ((1, 'x'))")
    q(s, "ALTER TABLE t MODIFY COLUMN p tuple(b string, c int not null, a int)")
    assert _render(s, "SELECT * FROM t") == [['("x",0,1)']]


def test_a_widened_tuple_survives_a_crash(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (d tuple(string, string))")
    q(s, "INSERT INTO t VALUES (('d1', 'd2'))")
    q(s, "ALTER TABLE t MODIFY COLUMN d tuple(string, string, int)")
    crash(db)
    s = engine.Database(data_dir=data_dir).session()
    assert _render(s, "SELECT * FROM t") == [['("d1","d2",NULL)']]
    assert q(s, "SHOW CREATE TABLE t")[0][1].splitlines()[1] == \
        "  d TUPLE(1 VARCHAR NULL, 2 VARCHAR NULL, 3 INT NULL) NULL"


def test_show_create_table_shows_the_options_kept_through_drop_and_rename(tmp_path):
    # the suite's 05_0003 with hide_options_in_show_create_table = 0; the options survive a crash
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t3 (a int not null, b int not null, c int not null) bloom_index_columns='a,b,c' "
         "COMPRESSION='zstd' STORAGE_FORMAT='parquet'")
    assert q(s, "SHOW CREATE TABLE t3")[0][1].endswith(") ENGINE=FUSE")  # hidden by default
    q(s, "SET hide_options_in_show_create_table = 0")
    shown = ("ENGINE=FUSE BLOOM_INDEX_COLUMNS='{}' COMPRESSION='zstd' ENABLE_AUTO_ANALYZE='1' "
             "STORAGE_FORMAT='parquet'")
    assert q(s, "SHOW CREATE TABLE t3")[0][1].endswith(shown.format("a,b,c"))
    q(s, "ALTER TABLE t3 DROP COLUMN c")
    assert q(s, "SHOW CREATE TABLE t3")[0][1].endswith(shown.format("a,b"))
    q(s, "ALTER TABLE t3 RENAME COLUMN b TO c")
    assert q(s, "SHOW CREATE TABLE t3")[0][1].endswith(shown.format("a,c"))
    crash(db)
    s = engine.Database(data_dir=data_dir).session()
    q(s, "SET hide_options_in_show_create_table = 0")
    assert q(s, "SHOW CREATE TABLE t3")[0][1].endswith(shown.format("a,c"))


def test_modify_column_to_a_type_its_index_option_does_not_take_is_refused():
    s = engine.Database().session()
    q(s, "CREATE TABLE t3 (a int not null, c int not null) bloom_index_columns='a,c'")
    assert error_code(s, "ALTER TABLE t3 MODIFY COLUMN c decimal(5,2) not null") == 1301
    q(s, "ALTER TABLE t3 MODIFY COLUMN c float not null")  # a number: the bloom index takes it
    q(s, "CREATE TABLE t6 (b string, c int) approx_distinct_columns = 'b'")
    assert error_code(s, "ALTER TABLE t6 MODIFY COLUMN b binary") == 1301
    q(s, "ALTER TABLE t6 DROP COLUMN b")
    q(s, "SET hide_options_in_show_create_table = 0")
    assert q(s, "SHOW CREATE TABLE t6")[0][1].endswith(
        ") ENGINE=FUSE APPROX_DISTINCT_COLUMNS='' ENABLE_AUTO_ANALYZE='1'")


def test_set_and_unset_options_are_kept_for_show_create_table():
    s = engine.Database().session()
    q(s, "CREATE TABLE t (a int)")
    q(s, "ALTER TABLE t SET OPTIONS (block_per_segment = 500, data_retention_period_in_hours = 24)")
    q(s, "ALTER TABLE t UNSET OPTIONS (data_retention_period_in_hours)")
    q(s, "SET hide_options_in_show_create_table = 0")
    assert q(s, "SHOW CREATE TABLE t")[0][1].endswith(
        ") ENGINE=FUSE BLOCK_PER_SEGMENT='500' ENABLE_AUTO_ANALYZE='1'")
