"""Session variables (SET VARIABLE, $x, getvariable, UNSET VARIABLE, SHOW VARIABLES, identifier($t)),
with the answers of Databend's tests/sqllogictests/suites/http_handler/session/set.test, and their
exported form (Session.export_variables / import_variables)."""

import datetime
import decimal

import pytest

import engine
from engine.core.errors import BAD_ARGUMENTS, BAD_BYTES, SEMANTIC
from engine.core.limits import Limits


def rows(session, sql):
    return list(session.execute(sql))


def error_of(session, sql):
    with pytest.raises(engine.EngineError) as caught:
        rows(session, sql)
    return caught.value


@pytest.fixture
def s():
    return engine.Database().session()


def test_set_test_answers(s):
    """set.test's variable statements, in its order, with its answers."""
    rows(s, "set variable (a, b) = (select 12, 55)")
    rows(s, "set variable c = (select 32);")
    assert rows(s, "select $a + 1, $b + 1, $c") == [(13, 56, 32)]
    rows(s, "set variable a = 1")
    rows(s, "set variable (b, c) = ('yy', 'zz')")
    assert rows(s, "select $a + getvariable('a') + $a, getvariable('b'), getvariable('c'), getvariable('d')") \
        == [(3, "yy", "zz", None)]
    rows(s, "unset variable (a, b)")
    assert rows(s, "select getvariable('a'), getvariable('b'), 'xx' || 'yy' || getvariable('c') , getvariable('d')") \
        == [(None, None, "xxyyzz", None)]
    rows(s, "unset variable (a, b, c)")  # unsetting an unset variable is no error
    rows(s, "CREATE OR REPLACE TABLE monthly_sales(empid INT, amount INT, month TEXT) as select 1,2,'3'")
    rows(s, "set variable t = 'monthly_sales'")
    assert rows(s, "select * from identifier($t)") == [(1, 2, "3")]


def test_values_keep_their_type(s):
    rows(s, "SET VARIABLE n = 1")
    rows(s, "SET VARIABLE f = 1.5::DOUBLE")
    rows(s, "SET VARIABLE arr = [1, 2]")
    rows(s, "SET VARIABLE nothing = NULL")
    result = s.execute("SELECT $n, $f, $arr, $nothing, typeof($n), $N")
    assert [c.type for c in result.schema] == ["UInt8", "Float64", "Array(UInt8)", "NULL", "String", "UInt8"]
    assert list(result) == [(1, 1.5, (1, 2), None, "TINYINT UNSIGNED", 1)]


def test_a_query_without_rows_sets_null_and_more_rows_fail(s):
    rows(s, "SET VARIABLE (a, b) = (SELECT 1, 2 WHERE false)")
    assert rows(s, "SELECT $a IS NULL, $b IS NULL") == [(True, True)]
    assert error_of(s, "SET VARIABLE a = (SELECT number FROM numbers(3))").code == BAD_ARGUMENTS
    assert error_of(s, "SET VARIABLE a = (SELECT 1, 2)").code == BAD_ARGUMENTS
    assert error_of(s, "SET VARIABLE (a, b) = (1, 2, 3)").code == BAD_ARGUMENTS


def test_values_must_be_constant(s):
    rows(s, "CREATE TABLE t (a INT)")
    assert error_of(s, "SET VARIABLE a = a").code == SEMANTIC


def test_show_variables(s):
    rows(s, "SET VARIABLE (b, a) = ('it''s', 7)")
    rows(s, "SET VARIABLE d = '2024-02-29'::DATE")
    rows(s, "SET VARIABLE m = {'k': [1, 2]}")
    result = s.execute("SHOW VARIABLES")
    assert [c.name for c in result.schema] == ["name", "value", "type"]
    assert list(result) == [("a", "7", "UInt8"), ("b", "'it\\'s'", "String"), ("d", "'2024-02-29'", "Date"),
                            ("m", "{'k':[1, 2]}", "Map(String, Array(UInt8))")]
    assert rows(s, "SHOW VARIABLES LIKE 'a%'") == [("a", "7", "UInt8")]


def test_variables_belong_to_their_session(s):
    rows(s, "SET VARIABLE a = 1")
    other = s.db.session()
    assert rows(other, "SELECT getvariable('a')") == [(None,)]


def test_a_variable_is_bound_not_spliced(s):
    rows(s, "SET VARIABLE x = ''');DROP TABLE t;--'")
    assert rows(s, "SELECT $x") == [("');DROP TABLE t;--",)]


def test_export_and_import_give_every_type_back(s):
    rows(s, "SET VARIABLE (i, u, f, d, t, dt, b, v, s, m, tp, bm, big, n) = "
            "(-5, 18446744073709551615, 'nan'::DOUBLE, 3.25::DECIMAL(5, 2), '2024-02-29 13:45:06.5'::TIMESTAMP,"
            " '2024-02-29'::DATE, to_binary('ab'), parse_json('{\"k\": [1, null]}'), 'héllo',"
            " map(['a'], [[1, NULL]]), (1, 'x'), to_bitmap('1,5'), 1e300, NULL)")
    exported = s.export_variables()
    assert [name for name, _ in exported] == sorted(name for name, _ in exported)
    other = s.db.session()
    other.import_variables(exported)
    assert other.export_variables() == exported
    (row,) = rows(other, "SELECT $i, $u, $d, $t, $dt, $b, $v, $s, $m, $tp, $big, $n")
    assert row == (-5, 18446744073709551615, decimal.Decimal("3.25"), datetime.datetime(2024, 2, 29, 13, 45, 6, 500000),
                   datetime.date(2024, 2, 29), b"ab", '{"k":[1,null]}', "héllo", (("a", (1, None)),), (1, "x"),
                   1e300, None)
    assert rows(other, "SELECT $f::STRING, bitmap_count($bm)") == [("NaN", 2)]
    assert [c.type for c in other.execute("SELECT $i, $m").schema] == ["Int8", "Map(String, Array(Nullable(UInt8)))"]


@pytest.mark.parametrize("pairs", [
    [("a", "{}")],
    [("a", "not json")],
    [("a", '{"t": {"name": "Int8"}, "v": 1000}')],
    [("a", '{"t": {"name": "Int8"}, "v": "1"}')],
    [("a", '{"t": {"name": "Int8"}, "v": null}')],
    [("a", '{"t": {"name": "NoSuchType"}, "v": 1}')],
    [("a", '{"t": {"name": "Array", "args": [{"name": "Int8"}]}, "v": [1, "x"]}')],
    [("a", '{"t": {"name": "Binary"}, "v": "not base64!"}')],
    [("a", '{"t": {"name": "Decimal", "precision": 90, "scale": 1}, "v": "1"}')],
    [("a", 1)],
    [("a",)],
    ["ab"],
])
def test_import_refuses_what_export_never_gives(s, pairs):
    rows(s, "SET VARIABLE kept = 1")
    with pytest.raises(engine.EngineError) as caught:
        s.import_variables(pairs)
    assert caught.value.code == BAD_BYTES
    assert rows(s, "SELECT $kept") == [(1,)]


def test_session_variables_bytes_limit():
    limit = len("a") + len('{"t":{"name":"String"},"v":""}') + 10
    s = engine.Database(limits=Limits(session_variables_bytes=limit)).session()
    rows(s, "SET VARIABLE a = '0123456789'")  # exactly the limit
    exported = s.export_variables()
    error = error_of(s, "SET VARIABLE a = '01234567890'")
    assert error.code == BAD_ARGUMENTS and "session_variables_bytes" in error.message
    assert rows(s, "SELECT $a") == [("0123456789",)]  # the failed SET changed nothing
    other = s.db.session()
    other.import_variables(exported)
    with pytest.raises(engine.EngineError) as caught:
        other.import_variables(exported + [("b", '{"t":{"name":"UInt8"},"v":1}')])
    assert caught.value.code == BAD_ARGUMENTS
    assert other.export_variables() == exported


def test_set_variable_in_a_transaction_keeps_it_open(s):
    rows(s, "CREATE TABLE t (a INT)")
    rows(s, "BEGIN")
    rows(s, "INSERT INTO t VALUES (1)")
    rows(s, "SET VARIABLE n = (SELECT count(*) FROM t)")
    assert s.txn_state == "Active"
    rows(s, "ROLLBACK")
    assert rows(s, "SELECT $n, (SELECT count(*) FROM t)") == [(1, 0)]
