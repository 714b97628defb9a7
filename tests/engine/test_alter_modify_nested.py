"""ALTER TABLE ... MODIFY COLUMN of a tuple or array(tuple) column to a tuple type with other
fields (Databend's suite base/05_ddl/05_0003_ddl_alter_table): fields matched by name (`1`, `2`...
when unnamed), a field the old tuple lacks filled with its type's default; and SHOW CREATE TABLE
spelling nested types with NULL / NOT NULL at every level. The expected answers are the suite's."""

from __future__ import annotations

import engine
from tests.engine.sql_helpers import q
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
