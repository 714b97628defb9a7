"""Gaps Databend's own sqllogictest files showed (bench.dbsuite), each with the answer those files
(current Databend) or the 1.2.453 engine give, as the HTTP handler renders it."""

from __future__ import annotations

import pytest

import engine


@pytest.fixture
def s():
    return engine.Database().session()


def wire(s, sql):
    """(column names, rows as wire strings with NULL as 'NULL'); a statement runs to its end."""
    result = s.execute(sql)
    render = result.renderer(True)
    rows = [row for batch in result.batches() for row in render(batch)]
    return [c.name for c in result.schema], rows


def error_code(s, sql):
    with pytest.raises(engine.EngineError) as info:
        wire(s, sql)
    return info.value.code


def test_numbers_mt_and_numbers_local_are_numbers(s):
    # oracle: SELECT numbers_mt.number FROM numbers_mt(3) -> 0, 1, 2 (column 'number')
    assert wire(s, "SELECT numbers_mt.number FROM numbers_mt(3)") == (["number"], [("0",), ("1",), ("2",)])
    assert wire(s, "SELECT sum(number) FROM numbers_local(10)")[1] == [("45",)]


def test_count_without_argument_counts_rows(s):
    # oracle: SELECT count() FROM numbers(3) -> 3, named count()
    assert wire(s, "SELECT count() FROM numbers(3)") == (["count()"], [("3",)])
    assert wire(s, "SELECT count(), count(*) FROM numbers(3) GROUP BY number % 2 ORDER BY 1")[1] == \
        [("1", "1"), ("2", "2")]


def test_drop_table_all_purges(s):
    wire(s, "CREATE TABLE t(a INT)")
    wire(s, "DROP TABLE t ALL")
    assert error_code(s, "UNDROP TABLE t") == 2309   # nothing kept to undrop
    wire(s, "DROP TABLE IF EXISTS t ALL")           # the suite's usual first statement
    wire(s, "CREATE TABLE t(a INT)")
    wire(s, "DROP TABLE t")
    wire(s, "UNDROP TABLE t")                 # without ALL it is kept


def test_cast_with_a_comma(s):
    # oracle: SELECT cast(1, string) -> '1' named cast(1 as string); try_cast('x', int) -> NULL
    assert wire(s, "SELECT cast(1, string)") == (["cast(1 as string)"], [("1",)])
    assert wire(s, "SELECT try_cast('x', int)") == (["try_cast('x' as int32)"], [("NULL",)])


def test_settings_databend_knows_are_accepted(s):
    wire(s, "SET numeric_cast_option = 'truncating'")
    wire(s, "SET enable_strict_datetime_parser = 0")
    assert wire(s, "SHOW SETTINGS LIKE 'numeric_cast_option'")[1][0][:4] == \
        ("numeric_cast_option", "truncating", "rounding", '["rounding", "truncating"]')
    assert error_code(s, "SET data_retention_time_in_days = 91") == 2803  # Databend's range [0, 90]
    assert error_code(s, "SET no_such_setting_here = 1") == 2801


@pytest.mark.parametrize(("sql", "text"), [
    # 02_0000_function_arithmetic.test, 02_0014_function_maths.test, 11_0000_data_type_numeric.test
    ("SELECT 8 / 2", "4.0"),
    ("SELECT sqrt(0)", "0.0"),
    ("SELECT -0.0::FLOAT64", "-0.0"),
    ("SELECT 9754610558146624::FLOAT64", "9754610558146624.0"),
    ("SELECT 18178271087470620000::FLOAT64", "1.817827108747062e+19"),
    ("SELECT 10.234567899999999e80", "1.0234567899999998e+81"),
    ("SELECT 0.0000031482243104279148::FLOAT64", "3.1482243104279148e-6"),
    ("SELECT 0.00001::FLOAT64", "0.00001"),
    ("SELECT exp(1000)", "Infinity"),
    ("SELECT 1024955::FLOAT32", "1024955.0"),          # cast.test: a::real
    ("SELECT 0.1::FLOAT32", "0.1"),
    ("SELECT (202::FLOAT64, 13)", "(202.0,13)"),       # 05_0028: inside a tuple too
    ("SELECT [1::FLOAT64, 2.5]", "[1.0,2.5]"),
])
def test_float_wire_text_as_current_databend(s, sql, text):
    assert wire(s, sql)[1] == [(text,)]


@pytest.mark.parametrize(("sql", "text"), [
    # 02_0065_function_json.test and 02_0051_function_semi_structureds_get.test
    ("""SELECT parse_json('["1","2","3"]') ? '1'""", "1"),
    ("""SELECT parse_json('{"a":1,"b":2,"c":3}') ? 'd'""", "0"),
    ("""SELECT parse_json('["1","2","3"]') ?| ['1','4']""", "1"),
    ("""SELECT parse_json('{"a":1,"b":2,"c":3}') ?& ['c','d']""", "0"),
    ("""SELECT parse_json('["1","2","3"]') ?& NULL""", "NULL"),
    ("""SELECT parse_json('[1,2,[1,3]]') @> parse_json('[1,3]')""", "0"),
    ("""SELECT parse_json('[1,2,[1,3]]') @> parse_json('[[1,3]]')""", "1"),
    ("""SELECT parse_json('[{"a":1}]') @> parse_json('{"a":1}')""", "0"),
    ("""SELECT parse_json('{"a":{"c":100,"d":200},"b":2}') @> parse_json('{"a":{}}')""", "1"),
    ("""SELECT parse_json('1') <@ parse_json('[1,2,3]')""", "1"),
    ("""SELECT parse_json('[1, 2, [0, [1, 2], 3]]')#>'{2, 1}'""", "[1,2]"),
    ("""SELECT parse_json('[1, {"a": 1, "b": [100, 200, {"k1": 1, "k2": 2}]}, 3]')#>>'{1, b, 2, k1}'""", "1"),
    ("""SELECT '[1, 2, 3, null]'::json#>'{3}'""", "null"),
    ("""SELECT '[1, 2, 3, null]'::json#>>'{3}'""", "NULL"),
    ("""SELECT parse_json('{"a":1,"b":[1,2,3]}') #- '{b,-2}'""", '{"a":1,"b":[1,3]}'),
    ("""SELECT parse_json('[1,2,3]') #- '{3}'""", "[1,2,3]"),
    ("""SELECT parse_json('[1,2,3]') - -1""", "[1,2]"),
    ("""SELECT parse_json('["1","2","3",{"a":1,"b":2}]') - '1'""", '["2","3",{"a":1,"b":2}]'),
    ("""SELECT parse_json('{"a":1,"b":2}') - 'a'""", '{"b":2}'),
    ("""SELECT parse_json('{"a":1,"b":2}') || parse_json('[1,2,3]')""", '[{"a":1,"b":2},1,2,3]'),
    ("""SELECT parse_json('{"a":1,"b":2,"d":10}') || parse_json('{"a":3,"b":4}')""", '{"a":3,"b":4,"d":10}'),
    ("""SELECT parse_json('[1,2,3]') || NULL""", "NULL"),
])
def test_json_operators(s, sql, text):
    assert wire(s, sql)[1] == [(text,)]


def test_json_operator_bind_tighter_than_comparison_and_leave_placeholders_alone(s):
    assert wire(s, """SELECT parse_json('{"a":1}') ? 'a' = true""")[1] == [("1",)]
    result = s.execute("SELECT ? + 1", params=[1])
    assert list(result) == [(2,)]


def test_insert_leaving_out_a_not_null_column_without_default_fails(s):
    # oracle (1.2.453) and current Databend: 1006 "null value in column `b` of table `tn`
    # violates not-null constraint"; a DEFAULT fills it
    wire(s, "CREATE TABLE tn(a INT, b INT NOT NULL, c INT NOT NULL DEFAULT 3)")
    assert error_code(s, "INSERT INTO tn(a) VALUES (1)") == 1006
    assert error_code(s, "INSERT INTO tn(a, c) SELECT 1, 2") == 1006
    assert error_code(s, "REPLACE INTO tn(a) ON (a) VALUES (1)") == 1006
    wire(s, "INSERT INTO tn(a, b) VALUES (1, 2)")
    assert wire(s, "SELECT * FROM tn")[1] == [("1", "2", "3")]


def test_a_not_null_tuple_column_never_holds_an_empty_string(s):
    wire(s, "CREATE TABLE tt(a INT, b TUPLE(INT, INT) NOT NULL)")
    assert error_code(s, "INSERT INTO tt(a) VALUES (1)") == 1006
    wire(s, "INSERT INTO tt VALUES (1, (1, 2))")
    # a column added to rows that exist takes its type's default: a tuple of the fields' own
    wire(s, "ALTER TABLE tt ADD COLUMN c TUPLE(INT, STRING) NOT NULL")
    wire(s, "ALTER TABLE tt ADD COLUMN d ARRAY(INT) NOT NULL")
    assert wire(s, "SELECT * FROM tt")[1] == [("1", "(1,2)", "(NULL,NULL)", "[]")]


@pytest.mark.parametrize(("sql", "code"), [
    # base/05_ddl/05_0000_ddl_create_tables.test (current Databend)
    ("CREATE TABLE t(a INT) x=x", 1301),
    ("CREATE TABLE t(a INT) seed='123'", 1301),                 # a Random engine option
    ("CREATE TABLE t(a INT) database_id='xxx'", 1301),
    ("CREATE TABLE t(a INT) snapshot_location='xxx'", 3001),
    ("CREATE TABLE t(a INT) bloom_index_columns='b'", 1006),    # no such column
    ("CREATE TABLE t(a DECIMAL(4,2)) bloom_index_columns='a'", 1301),
    ("CREATE TABLE t(a INT) row_per_block = 100000000000", 1301),
    ("CREATE TABLE t(id INT) compression='xxxx'", 1075),
    ("CREATE TABLE t(name VARCHAR) STORAGE_FORMAT = 'abc'", 1074),
    ("CREATE TABLE t(a INT) ENGINE = abc", 1005),
    ("CREATE TABLE t(a INT) ENGINE = iceberg", 1302),
    ("CREATE TABLE t(a INT, b INT) ENGINE = Memory CLUSTER BY (a)", 2703),
    ("CREATE TABLE t AS SELECT number, number FROM numbers(1)", 1006),  # Duplicated column name
])
def test_table_options_refused_as_databend(s, sql, code):
    assert error_code(s, sql) == code


def test_table_engines_and_options_accepted(s):
    for sql in ["CREATE TABLE n(c1 INT) ENGINE = Null", "CREATE TABLE m(c1 INT) ENGINE = Memory",
                "CREATE TABLE r(a INT) ENGINE = RANDOM seed = '123'",
                "CREATE TABLE f(a INT, b INT) row_per_block = 10000 block_per_segment = 1000 "
                "bloom_index_columns = 'b' compression = 'zstd' storage_format = 'native' "
                "change_tracking = true",
                "ALTER TABLE f SET OPTIONS (row_per_block = 100000)",
                "ALTER TABLE f UNSET OPTIONS (row_per_block, block_per_segment)"]:
        wire(s, sql)
    assert error_code(s, "CREATE TABLE n(c1 INT) ENGINE = Null") == 2302
    assert error_code(s, "ALTER TABLE f SET OPTIONS (row_per_block = 100000000000)") == 1301
    assert error_code(s, "ALTER TABLE f SET OPTIONS (database_id = '22')") == 1301
    assert error_code(s, "ALTER TABLE nope SET OPTIONS (block_per_segment = 100)") == 1025
    wire(s, "INSERT INTO n VALUES (1)")
    assert wire(s, "SELECT count(*) FROM f")[1] == [("0",)]


@pytest.mark.parametrize(("sql", "text"), [
    # 02_0065_function_json.test
    ("""SELECT array_intersection('["A","B","B","B","C"]'::variant, '["B","B"]'::variant)""", '["B","B"]'),
    ("""SELECT array_intersection('[{"a":1,"b":2,"c":3}]'::variant, '[{"c":3,"b":2,"a":1}]'::variant)""",
     '[{"a":1,"b":2,"c":3}]'),
    ("""SELECT json_array_intersection('[{"k":"v"}, 1]'::variant, '{"k":"v"}'::variant)""", '[{"k":"v"}]'),
    ("""SELECT array_except('["A","B","B","B","C"]'::variant, '["B"]'::variant)""", '["A","B","B","C"]'),
    ("""SELECT array_except('true'::variant, 'false'::variant)""", "[true]"),
    ("""SELECT array_overlap('[1,2,null]'::variant, '[3,null,5]'::variant)""", "1"),
    ("""SELECT array_overlap('["hello","aloha"]'::variant, '["hola","bonjour"]'::variant)""", "0"),
    ("""SELECT object_insert('{"a":1,"b":2,"d":4}'::variant, 'A', 10)""", '{"A":10,"a":1,"b":2,"d":4}'),
    ("""SELECT object_insert('{"city":"San Mateo"}'::variant, 'city', 'San Jose', true)""", '{"city":"San Jose"}'),
    ("""SELECT object_insert('{"a":1}'::variant, 'zip', 94402::DOUBLE)""", '{"a":1,"zip":94402.0}'),
    ("""SELECT object_insert('{"a":1}'::variant, 'z', 'null'::variant)""", '{"a":1,"z":null}'),
    ("""SELECT object_insert('{"a":1}'::variant, 'z', null)""", '{"a":1}'),
    ("""SELECT json_object_insert('{"a":1}'::variant, 'a', null, true)""", "{}"),
    ("""SELECT object_insert('{"c":1}'::variant, to_date('2020-01-01'), 100)""", '{"2020-01-01":100,"c":1}'),
])
def test_variant_array_and_object_functions(s, sql, text):
    assert wire(s, sql)[1] == [(text,)]


def test_object_insert_refuses_what_databend_refuses(s):
    assert error_code(s, """SELECT object_insert('{"a":1}'::variant, 'a', 10)""") == 1006
    assert error_code(s, """SELECT object_insert('1234'::variant, 'a', 10)""") == 1006


def test_date_part_aliases(s):
    # current Databend registers year / quarter / month / day / dayofmonth / dayofyear / week /
    # weekofyear as aliases of to_year ... to_week_of_year (the oracle: 2024, 10, 65 for to_*)
    sql = ("SELECT year(d), quarter(d), month(d), day(d), dayofmonth(d), dayofyear(d), week(d), "
           "weekofyear(d) FROM (SELECT '2024-03-05'::DATE AS d)")
    assert wire(s, sql)[1] == [("2024", "1", "3", "5", "5", "65", "10", "10")]


def test_column_names_lose_qualifiers_through_operators(s):
    # the 1.2.453 engine's names: a qualifier goes through operators, stays inside a call,
    # CASE, CAST(.. AS ..), an array or a tuple
    wire(s, "CREATE TABLE src (day INT)")
    wire(s, "INSERT INTO src VALUES (1)")
    assert wire(s, "SELECT src.day + 1, src.day, default.src.day + 1, (src.day) FROM src")[0] == \
        ["day + 1", "day", "day + 1", "day"]
    names = wire(s, "SELECT -s.day, s.day IS NULL, s.day BETWEEN 1 AND 2, CAST(s.day AS STRING), s.day IN (1, 2), "
                    "CASE WHEN s.day > 0 THEN s.day END, abs(s.day + 1), (s.day + 1) * 2, s.day + abs(s.day), "
                    "s.day > 0 AND s.day < 5, s.day::STRING LIKE 'a', [s.day], (s.day, 1), src.day % 2 "
                    "FROM src s, src")[0]
    assert names == ["- day", "day is null", "day between 1 and 2", "cast(s.day as string)", "day in(1, 2)",
                     "case when s.day > 0 then s.day end", "abs(s.day + 1)", "(day + 1) * 2", "day + abs(s.day)",
                     "day > 0 and day < 5", "day::string like 'a'", "[s.day]", "(s.day, 1)", "day % 2"]
    assert wire(s, "SELECT s.day * 2, sum(s.day) OVER (PARTITION BY s.day), count(s.day) FROM src s GROUP BY s.day")[0] \
        == ["day * 2", "sum(s.day) over ( partition by s.day )", "count(s.day)"]
    assert wire(s, "SELECT t.x + 1 FROM (SELECT 1 x) t")[0] == ["x + 1"]


def test_substring_with_a_negative_start_before_the_beginning(s):
    # the 1.2.453 engine: a negative start past the beginning gives '' whatever the length
    sql = ("SELECT substring('c', -2, 2), substring('abc', -2, 2), substring('abc', -5, 2), substring('abc', -3, 1), "
           "substring('abc', -4, 2), substring('abc', 0, 2), substring('abc', 0), substring('abc', -4), "
           "substring('abc', -1), substring('abc', 5, 1), substr('hello', -10, 20)")
    assert wire(s, sql)[1] == [("", "bc", "", "a", "", "", "", "", "c", "", "")]


def test_materialized_cte(s):
    # the 1.2.453 engine: WITH t AS MATERIALIZED (SELECT 1 a) SELECT * FROM t -> 1, column a
    assert wire(s, "WITH t AS MATERIALIZED (SELECT 1 a) SELECT * FROM t") == (["a"], [("1",)])
    assert wire(s, "with t(a) as materialized (select 1), u AS (SELECT 2 b) select a, b from t, u") == \
        (["a", "b"], [("1", "2")])
