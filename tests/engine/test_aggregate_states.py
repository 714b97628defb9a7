"""Aggregate states (engine.functions.aggregate_states): the -State / -Merge combinators with the
answers of Databend's query/functions/02_0000_function_aggregate_state.test, their types, a state
column kept across a restart, and the refusals."""

import decimal

import pytest

import engine
from engine.storage.row_codec import type_from_json, type_to_json
from engine.types import sqltype as T
from tests.engine.sql_helpers import error_code, q


@pytest.fixture(scope="module")
def session():
    return engine.Database().session()


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT typeof(max_state(number)) FROM numbers(100)", "AGGREGATESTATE(MAX, UINT64)"),
    ("SELECT typeof(sum_state(number)) FROM numbers(100)", "AGGREGATESTATE(SUM, UINT64)"),
    ("SELECT typeof(quantile_tdigest_state(0.5)(number)) FROM numbers(100)",
     "AGGREGATESTATE(QUANTILE_TDIGEST(0.5), UINT64)"),
    ("SELECT typeof(arg_min_state(number, 100 - number)) FROM numbers(100)",
     "AGGREGATESTATE(ARG_MIN, UINT64, INT64)"),
    ("SELECT typeof(sum_state(number).1) FROM numbers(100)", "BIGINT UNSIGNED"),
])
def test_state_types(session, sql, expected):
    assert q(session, sql) == [(expected,)]


def test_fields_merges_and_merged_states(session):
    assert q(session, "SELECT sum_state(number).1, max_state(number).2 FROM numbers(100)") == [(4950, 99)]
    grouped = "(SELECT number % 4 AS g, sum_state(number) AS s, min_state(number) AS lo, max_state(number) AS hi," \
              " count_state(number) AS c, avg_state(number) AS a, arg_min_state(number, 100 - number) AS am," \
              " quantile_tdigest_state(0.5)(number) AS qt FROM numbers(100) GROUP BY g)"
    assert q(session, f"SELECT sum_merge(s), min_merge(lo), max_merge(hi), count_merge(c), avg_merge(a),"
                      f" arg_min_merge(am), quantile_tdigest_merge(0.5)(qt) FROM {grouped}") == [
        (4950, 0, 99, 100, 49.5, 99, 50.0)]
    assert q(session, f"SELECT sum_merge(m) FROM (SELECT sum_merge_state(s) AS m FROM {grouped})") == [(4950,)]
    assert q(session, f"SELECT typeof(sum_merge_state(s)) FROM {grouped}") == [("AGGREGATESTATE(SUM, UINT64)",)]
    # states group, sort and count as values
    assert q(session, f"SELECT count(DISTINCT s), count() FROM (SELECT s FROM {grouped} ORDER BY s)") == [(4, 4)]


def test_a_plain_tuple_of_the_fields_merges(session):
    assert q(session, "SELECT sum_merge(t), arg_min_merge(u) FROM (SELECT tuple(s.1, s.2) AS t,"
                      " tuple(a.1, a.2, a.3, a.4) AS u FROM (SELECT sum_state(number) AS s,"
                      " arg_min_state(number, 100 - number) AS a FROM numbers(100)))") == [(4950, 99)]


@pytest.mark.parametrize(("sql", "code"), [
    # another level than the state's
    ("SELECT quantile_tdigest_merge(0.9)(s) FROM (SELECT quantile_tdigest_state(0.5)(number) AS s FROM numbers(9))",
     1006),
    ("SELECT sum_merge(s) FROM (SELECT max_state(number) AS s FROM numbers(9))", 1010),  # another aggregate
    ("SELECT sum_merge(number) FROM numbers(9)", 1010),  # not a state
])
def test_refusals(session, sql, code):
    assert error_code(session, sql) == code


def test_a_state_column_survives_a_restart(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    q(db.session(), "CREATE TABLE st AS SELECT number % 2 AS g, sum_state(number) AS s FROM numbers(10) GROUP BY g")
    db.close()
    s = engine.Database(data_dir=data_dir).session()
    assert q(s, "SELECT typeof(s), sum_merge(s) FROM st GROUP BY typeof(s)") == [("AGGREGATESTATE(SUM, UINT64)", 45)]


def test_the_state_type_round_trips_through_its_json():
    t = T.SqlType("Tuple", True, args=(T.UINT64, T.BOOLEAN), state=("sum", (), (T.UINT64,)))
    assert type_from_json(type_to_json(t)) == t


def test_decimal_states(session):
    assert q(session, "SELECT sum_merge(s), typeof(sum_merge(s)) FROM (SELECT number % 2 AS g,"
                      " sum_state(to_decimal(number, 10, 2)) AS s FROM numbers(10) GROUP BY g)") == [
        (decimal.Decimal("45.00"), "DECIMAL(18, 2) NULL")]
    # a plain tuple's Decimal total does not say the argument's scale
    assert error_code(session, "SELECT sum_merge(tuple(to_decimal(4500, 38, 0), true))") == 1010
    assert error_code(session, "SELECT avg_merge(tuple(to_decimal(4500, 38, 0), 10::uint64, true))") == 1010
