"""Records of Databend's suite the 1.2.453 engine passes and queryhttp failed (bench.dbsuite
--compare), each with the answer the suite's file gives (which the embedded engine gave too)."""

from __future__ import annotations

import pytest

import engine
from tests.engine.sql_helpers import error_code, q, typed_answer, wire


def test_an_integer_branch_of_a_float_result_is_a_float(session):
    # 02_0010_function_if.test:61, :117
    assert typed_answer(session, "select if(number<4, number, number / 0) from numbers(3) "
                                 "order by number")[1] == [("0.0",), ("1.0",), ("2.0",)]
    assert wire(session, "select if(number = 1, number, number = 0, number, number / 0) "
                         "from numbers(1)") == ["0.0"]
    assert wire(session, "select case when number > 0 then number else 0.5::double end "
                         "from numbers(1)") == ["0.5"]


def test_binary_inside_arrays_and_tuples_is_hex_unquoted(session):
    # 05_0003_ddl_alter_table.test:182: 61 62 [6331,6332] (6431,6432)
    q(session, "create table t(a binary, b array(binary), c tuple(binary, binary))")
    q(session, "insert into t values ('a', ['c1', 'c2'], ('d1', 'd2'))")
    assert wire(session, "select a, b, c from t") == ["61", "[6331,6332]", "(6431,6432)"]


def test_a_float_columns_default_shows_in_single_precision(session):
    # 05_0028_ddl_alter_table_add_drop_column.test:204: a FLOAT NOT NULL DEFAULT 0.1 COMMENT 'first'
    q(session, "create table t(c int not null)")
    q(session, "alter table t add column a float not null default 0.1 comment 'first' first")
    q(session, "alter table t add column d double default 0.1")
    shown = wire(session, "show create table t")[1]
    assert "a FLOAT NOT NULL DEFAULT 0.1 COMMENT 'first'" in shown
    assert "d DOUBLE NULL DEFAULT 0.1" in shown
    defaults = [row[3] for row in typed_answer(session, "desc t")[1]]
    assert (defaults[0], defaults[2]) == ("0.1", "0.1")


def test_a_variant_beside_a_number_is_read_as_one(session):
    # auto_parse.test
    assert wire(session, "SELECT parse_json('1') + 1") == ["2"]
    assert wire(session, "SELECT parse_json('\"1\"') + 1") == ["2"]
    assert wire(session, "SELECT parse_json('\"foo\"') + 1") == [None]
    assert wire(session, "SELECT parse_json('10') / 4") == ["2.5"]


def test_where_may_name_a_select_alias(session):
    # 03_0000_select_aliases.test:67
    assert typed_answer(session, "select number * 2 as a from numbers(3) "
                                 "where (a + 1) % 3 = 0")[1] == [("2",)]
    # an input column of the same name comes first
    assert typed_answer(session, "select number + 10 as number from numbers(3) "
                                 "where number = 1")[1] == [("11",)]


def test_an_unparsable_date_names_its_conversion(session):
    # 03_0023_insert_into_array.test:260: (?s).*cannot parse to type `DATE`.
    q(session, "create table t12(id int, arr array(date))")
    assert error_code(session, "INSERT INTO t12 (id, arr) VALUES(3, ['1000000-01-01'])") == 1006
    with pytest.raises(engine.EngineError) as info:
        q(session, "select '1000000-01-01 01:01:01'::timestamp")
    assert str(info.value).endswith("cannot parse to type `TIMESTAMP` while evaluating function "
                                    "`to_timestamp('1000000-01-01 01:01:01')`")


def test_values_for_a_one_field_tuple_column_read_the_parentheses_as_the_tuple(session):
    # 11_0006_data_type_decimal.test:1067: ([NULL,NULL]) and ([[1.0000000000,3.0000000000]])
    q(session, "CREATE TABLE t (c1 TUPLE(ARRAY(ARRAY(DECIMAL(20, 10)) NULL)))")
    q(session, "insert into t values (([NULL,NULL])), (([[1, 3]]))")
    assert typed_answer(session, "select * from t")[1] == [
        ("([NULL,NULL])",), ("([[1.0000000000,3.0000000000]])",)]


def test_running_difference_is_each_row_less_the_previous(session):
    # 02_0013_function_running_difference.test
    q(session, "create table r (a Int8, d varchar, e Float32)")
    q(session, "insert into r values (1, 'a', 1), (3, 'b', 3), (5, 'c', 5), (10, 'd', 10)")
    assert typed_answer(session, "select running_difference(a), running_difference(e), "
                                 "running_difference(10) from r")[1] == [
        ("0", "0.0", "0"), ("2", "2.0", "0"), ("2", "2.0", "0"), ("5", "5.0", "0")]
    assert [c.name for c in session.execute("select running_difference(a) from r").schema] == \
        ["running_difference(a)"]
    assert error_code(session, "select d, running_difference(d) from r") == 1006


def test_hive_substr_reads_position_zero_as_one(session):
    # 02_0005_function_substring.test:184 (after set sql_dialect = 'hive')
    assert wire(session, "SELECT SUBSTR('12345', 0, 1)") == [""]
    q(session, "set sql_dialect = 'hive'")
    assert wire(session, "SELECT SUBSTR('12345', 0, 1), SUBSTRING('12345', 0, 1)") == ["1", "1"]
    assert typed_answer(session, "select substr('12345', number, 2) from numbers(2)")[1] == \
        [("12",), ("12",)]
    q(session, "set sql_dialect = 'PostgreSQL'")
    assert wire(session, "SELECT SUBSTR('12345', 0, 1)") == [""]


def test_alter_table_rename_to_takes_a_bare_name(session):
    # 05_0003_ddl_alter_table.test:47 (Databend's grammar: RENAME ~ TO ~ #ident)
    q(session, "create table t1(a int)")
    assert error_code(session, "ALTER TABLE t1 RENAME TO system.t1") == 1005
    assert error_code(session, "ALTER TABLE t1 RENAME TO default.t2") == 1005
    q(session, "ALTER TABLE t1 RENAME TO t2")
    assert typed_answer(session, "select count(*) from t2")[1] == [("0",)]


def test_an_aggregate_may_name_a_select_alias(session):
    # 03_0043_agg_hashtable.test:17
    assert typed_answer(session, "SELECT number%3 as c1, sum(c1) FROM numbers_mt(10) where number > 2 "
                                 "group by number%3 order by c1")[1] == [("0", "0"), ("1", "2"), ("2", "4")]
    # an input column of the same name comes first; an aggregate's alias is not a row value
    assert typed_answer(session, "SELECT number as a, sum(number) as number from numbers(3) "
                                 "group by a order by a")[1] == [("0", "0"), ("1", "1"), ("2", "2")]
    assert error_code(session, "select count(x), sum(number) as x from numbers(3)") == 1065


def test_a_map_key_is_a_scalar_type(session):
    # 03_0037_insert_into_map.test:94 (Databend's resolve_type_name: "Invalid Map key type")
    assert error_code(session, "CREATE TABLE t3(id Int, m Map(Array(Date), String))") == 1006
    assert error_code(session, "CREATE TABLE t4(m Map(Variant, String))") == 1006
    q(session, "create table t5(a map(date, string), b map(string, int), c map(decimal(10,2), int), "
               "d map(bool, int), e map(float, int), f map(timestamp, int))")


def test_array_sort_orders_variants_as_databend(session):
    # 02_0000_function_aggregate_mix.test:270: [true,10,"abcd",{"k":"v"},[1,2,3],null]
    assert wire(session, "select array_sort([parse_json('\"abcd\"'), parse_json('10'), parse_json('[1,2,3]'), "
                         "parse_json('null'), parse_json('true'), parse_json('{\"k\":\"v\"}')], 'asc')") == \
        ['[true,10,"abcd",{"k":"v"},[1,2,3],null]']
    assert wire(session, "select array_sort([parse_json('2'), parse_json('10'), parse_json('1.5')])") == \
        ["[1.5,2,10]"]


def test_group_by_an_unnest_groups_its_elements(session):
    # 03_0003_select_group_by.test:277
    q(session, "CREATE TABLE t_str (col1 string, col2 string)")
    q(session, "INSERT INTO t_str VALUES ('test', 'a1,a2'),('test', 'a1,a2,a3')")
    assert typed_answer(session, "SELECT t.col1 AS col1, unnest(split(t.col2, ',')) AS col3 FROM t_str AS t "
                                 "GROUP BY col1, col3 ORDER BY col3")[1] == [
        ("test", "a1"), ("test", "a2"), ("test", "a3")]
    assert typed_answer(session, "SELECT unnest(split(col2, ',')) AS c, count(*) FROM t_str "
                                 "GROUP BY c ORDER BY c")[1] == [("a1", "2"), ("a2", "2"), ("a3", "1")]


def test_a_double_quoted_unknown_name_gets_databends_hint(session):
    # 03_0040_select_string_literal.test:26, :34, :42
    q(session, "create table t(t string)")
    for sql, message in [('SELECT "x" FROM t', "column x doesn't exist, do you mean 'x'?"),
                         ('SELECT "t"', "column t doesn't exist, do you mean 't'?"),
                         ("SELECT x FROM t", "column x doesn't exist"),
                         ('insert into t (t) values ("1")', "invalid identifier 1, do you mean '1'?")]:
        with pytest.raises(engine.EngineError) as info:
            q(session, sql)
        assert info.value.code == 1065 and info.value.message == message
