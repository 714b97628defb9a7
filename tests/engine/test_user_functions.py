"""Lambda and SQL user functions (CREATE / ALTER / DROP FUNCTION, SHOW USER FUNCTIONS,
system.user_functions): expansion at the call, Databend's errors and codes, privileges, and the
definitions surviving a restart. Expected answers are the 1.2.453 engine's or Databend's
suite's (base/05_ddl/05_0010..0013, base/03_common/03_0013)."""

from __future__ import annotations

import json
import os

import pytest

import engine
from tests.engine.sql_helpers import error_code, q


@pytest.fixture
def s():
    return engine.Database().session()


def test_lambda_udf_is_expanded_where_it_is_called(s):
    q(s, "CREATE FUNCTION f1 AS (x) -> x * x")
    assert q(s, "SELECT f1(3)") == [(9,)]
    assert q(s, "SELECT f1(number) FROM numbers(3)") == [(0,), (1,), (4,)]
    q(s, "CREATE FUNCTION f3 AS (x) -> f1(x) + 1")  # a UDF calling another
    assert q(s, "SELECT f3(2), f1(f1(2))") == [(5, 16)]
    result = s.execute("SELECT f1(3)")
    assert [c.name for c in result.schema] == ["f1(3)"]
    q(s, "CREATE FUNCTION cal AS (a,b,c,d,e) -> a + c * (e / b) - d")
    assert q(s, "SELECT cal(1, 2, 3, 4, 6)") == [(6.0,)]


def test_lambda_inside_the_body_binds_its_own_names(s):
    q(s, "CREATE FUNCTION g7 AS (x) -> array_filter(x, x -> x > 1)")
    assert q(s, "SELECT g7([1, 2, 3])") == [((2, 3),)]
    q(s, "CREATE FUNCTION array_except_fn AS (x, y) -> array_filter(x, el -> not contains(y, el))")
    assert q(s, "SELECT array_except_fn([1,2], [2,3])") == [((1,),)]


def test_create_function_errors_as_databend(s):
    q(s, "CREATE FUNCTION isnotempty AS(p) -> not(is_null(p))")
    q(s, "CREATE FUNCTION IF NOT EXISTS isnotempty AS(p) -> not(is_null(p))")
    assert error_code(s, "CREATE FUNCTION isnotempty AS(p) -> not(is_null(p))") == 2603
    assert error_code(s, "CREATE FUNCTION abs AS (x) -> x") == 2603  # a builtin's name
    assert error_code(s, "CREATE FUNCTION nextval AS (x) -> x") == 2603
    with pytest.raises(engine.EngineError) as info:
        q(s, "CREATE FUNCTION g AS (a, b) -> a")
    assert (info.value.code, info.value.message) == (1005, 'Parameters are not used: {"b"}')
    with pytest.raises(engine.EngineError) as info:
        q(s, "CREATE FUNCTION g AS (a) -> a + number")
    assert info.value.message == 'Parameters are not declared: {"number"}'
    assert error_code(s, "CREATE FUNCTION w AS (list) -> array_filter(list, x -> y > 2)") == 1005
    assert error_code(s, "CREATE FUNCTION amb AS () -> concat('', doc -> 'key')") == 1005
    assert error_code(s, "CREATE FUNCTION rec AS (x) -> rec(x)") == 1005
    assert error_code(s, "CREATE OR REPLACE FUNCTION IF NOT EXISTS z AS (p) -> p") == 1005


def test_calls_with_the_wrong_argument_count_or_an_unknown_name(s):
    q(s, "CREATE FUNCTION f1 AS (x) -> x * x")
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT f1(3, 4)")
    assert (info.value.code, info.value.message) == (1005, "Require 1 parameters, but got: 2")
    assert error_code(s, "SELECT f1()") == 1005
    assert error_code(s, "SELECT f2(1)") == 1008


def test_quoted_names_keep_their_case(s):
    q(s, "CREATE OR REPLACE FUNCTION SOME_NAME AS (x) -> x * x")
    assert q(s, "SELECT SOME_NAME(2), some_name(2)") == [(4, 4)]
    q(s, "ALTER FUNCTION SOME_NAME AS (x) -> x * x + 1")
    assert q(s, "SELECT some_name(2)") == [(5,)]
    q(s, "DROP FUNCTION SOME_NAME")
    q(s, "CREATE OR REPLACE FUNCTION `SOME_NAME` AS (x) -> x * x")
    assert q(s, "SELECT `SOME_NAME`(2)") == [(4,)]
    assert error_code(s, "SELECT SOME_NAME(2)") == 1008
    assert error_code(s, "SELECT `some_name`(2)") == 1008


def test_alter_and_drop(s):
    q(s, "CREATE FUNCTION test_alter_udf AS (p) -> not(is_null(p))")
    q(s, "ALTER FUNCTION test_alter_udf AS (d) -> not(is_not_null(d)) DESC = 'This is a new description'")
    assert q(s, "SELECT test_alter_udf(NULL)") == [(True,)]
    assert error_code(s, "ALTER FUNCTION test_alter_udf_unknown AS (d) -> not(is_not_null(d))") == 2602
    assert error_code(s, "ALTER FUNCTION is_not_null AS (d) -> not(is_null(d))") == 2603
    q(s, "DROP FUNCTION test_alter_udf")
    q(s, "DROP FUNCTION IF EXISTS test_alter_udf")
    assert error_code(s, "DROP FUNCTION test_alter_udf") == 2602


def test_typed_parameters_and_sql_bodies(s):
    q(s, "CREATE FUNCTION isnotempty AS (p INT) -> not(is_null(p))")
    assert q(s, "SELECT isnotempty(NULL), isnotempty('1')") == [(False, True)]
    q(s, "CREATE OR REPLACE FUNCTION reverse_str(s STRING) RETURNS STRING AS $$ REVERSE(s) $$")
    assert q(s, "SELECT reverse_str('he' || 'llo')") == [("olleh",)]
    q(s, "CREATE OR REPLACE FUNCTION str_to_int(s STRING) RETURNS INT32 AS $$ s $$")
    assert q(s, "SELECT str_to_int('10')") == [(10,)]
    assert error_code(s, "SELECT str_to_int('hello')") == 1006
    q(s, "CREATE OR REPLACE FUNCTION substring_index(str STRING, delim STRING, count INT) RETURNS STRING "
         "AS $$ ARRAY_TO_STRING(ARRAY_SLICE(SPLIT(str, delim), 1, count), delim) $$")
    assert q(s, "SELECT substring_index('a-b-c-d', '-', 2)") == [("a-b",)]


def test_a_function_in_another_language_is_kept_but_not_run(s):
    q(s, "CREATE FUNCTION gcd (a INT, b INT) RETURNS BIGINT LANGUAGE javascript HANDLER = 'gcd_js' "
         "AS $$ export function gcd_js(a, b) { return a; } $$")
    assert error_code(s, "SELECT gcd(1, 2)") == 1002
    q(s, "DROP FUNCTION gcd")


def test_show_user_functions_and_the_system_table(s):
    q(s, "CREATE FUNCTION a_plus_3 AS (a) -> a+3")
    q(s, "CREATE FUNCTION notnull1 AS (p) -> not(is_null(p)) DESC = 'not null'")
    result = s.execute("SHOW USER FUNCTIONS")
    assert [c.name for c in result.schema] == ["name", "is_aggregate", "description", "arguments", "language",
                                               "created_on"]
    rows = list(result)
    assert [r[:3] + r[4:5] for r in rows] == [("a_plus_3", None, "", "SQL"), ("notnull1", None, "not null", "SQL")]
    assert json.loads(rows[0][3]) == {"parameters": ["a"]}
    assert q(s, "SHOW USER FUNCTIONS LIKE 'not%'")[0][0] == "notnull1"
    assert q(s, "SELECT definition FROM system.user_functions ORDER BY name") == [
        (" (a) -> a+3",), (" (p) -> not(is_null(p))",)]


def test_privileges_follow_databend():
    db = engine.Database()
    root = db.session()
    q(root, "CREATE USER u IDENTIFIED BY 'p'")
    q(root, "CREATE FUNCTION f AS (x) -> x + 1")
    user = db.session(user="u")
    assert q(user, "SELECT f(1)") == [(2,)]
    assert error_code(user, "CREATE FUNCTION g AS (x) -> x") == 1063  # SUPER
    assert error_code(user, "ALTER FUNCTION f AS (x) -> x") == 1063  # ALTER
    assert error_code(user, "DROP FUNCTION f") == 1063  # DROP
    q(user, "DROP FUNCTION IF EXISTS missing")
    q(root, "GRANT SUPER, DROP ON *.* TO u")
    q(user, "CREATE FUNCTION g AS (x) -> x")
    q(user, "DROP FUNCTION g")


def test_functions_survive_a_crash_and_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE FUNCTION f1 AS (x) -> x * x DESC = 'square'")
    q(s, "CREATE FUNCTION `Quoted` AS (a, b) -> a || b")
    q(s, "CREATE FUNCTION dropped AS (x) -> x")
    q(s, "ALTER FUNCTION f1 AS (x) -> x * x + 1")
    q(s, "DROP FUNCTION dropped")
    q(s, "CREATE FUNCTION rev(s STRING) RETURNS STRING AS $$ reverse(s) $$")
    # a crash: the process gone, no checkpoint
    db.durability.writer.close()
    os.close(db.durability._lock_file)
    db.durability = None
    for _ in range(2):  # after recovery, then after a clean close (a checkpoint)
        db = engine.Database(data_dir=data_dir)
        s = db.session()
        assert q(s, "SELECT f1(3), `Quoted`('a', 'b'), rev('abc')") == [(10, "ab", "cba")]
        assert error_code(s, "SELECT dropped(1)") == 1008
        assert [r[0] for r in q(s, "SHOW USER FUNCTIONS")] == ["Quoted", "f1", "rev"]
        db.close()


def test_sql_table_functions_read_in_from(s):
    # base/03_common/03_0013_select_udf.test
    q(s, "CREATE OR REPLACE TABLE t1 (c1 INT)")
    q(s, "INSERT INTO t1 VALUES (0), (1)")
    q(s, "CREATE OR REPLACE FUNCTION scan_t1 () RETURNS TABLE (c1_string STRING) AS $$ SELECT * FROM t1 $$")
    result = s.execute("SELECT * FROM scan_t1() ORDER BY 1")
    assert [c.name for c in result.schema] == ["c1_string"] and list(result) == [("0",), ("1",)]
    q(s, "CREATE OR REPLACE FUNCTION filter_t1 (arg0 INT) RETURNS TABLE (c1_string STRING) AS "
         "$$ SELECT * FROM t1 WHERE c1 = arg0 $$")
    assert q(s, "SELECT * FROM filter_t1(1)") == [("1",)]
    assert error_code(s, "SELECT * FROM filter_t1()") == 1028
    q(s, "CREATE OR REPLACE FUNCTION two () RETURNS TABLE (a STRING, b INT) AS $$ SELECT * FROM t1 $$")
    assert error_code(s, "SELECT * FROM two()") == 1065  # one column for two declared


def test_typed_functions_with_unnamed_parameters_and_unit_words(s):
    # base/03_common/03_0013_select_udf.test, base/05_ddl/05_0010_ddl_create_udf.test
    q(s, "CREATE FUNCTION gcd (INT, INT) RETURNS BIGINT LANGUAGE javascript HANDLER = 'gcd_js' AS $$ "
         "export function gcd_js(a, b) { return a } $$")
    q(s, "CREATE OR REPLACE FUNCTION d128 (DECIMAL(19, 5), DECIMAL(19, 5)) RETURNS DECIMAL(19, 5) "
         "LANGUAGE javascript HANDLER = 'f' AS $$ export function f(a, b) { return a } $$")
    q(s, "DROP FUNCTION gcd")
    q(s, "DROP FUNCTION d128")
    q(s, "CREATE OR REPLACE FUNCTION some_name AS (d) -> date_diff(year, d, to_date('2030-01-01'))")
    assert q(s, "SELECT some_name(to_date('2020-06-01'))") == [(10,)]
