"""Date and Timestamp arithmetic and comparison, as Databend 1.2.453 answers: Date ± integer days,
Timestamp ± integer microseconds, differences of instants in microseconds, INTERVAL beside + and -."""

import pytest

import engine
from engine import EngineError


@pytest.fixture
def session():
    s = engine.Database().session()
    for sql in ["CREATE TABLE t (d DATE, t TIMESTAMP, n INT)",
                "INSERT INTO t VALUES ('2024-01-01', '2024-01-02 00:00:00', 3)"]:
        list(s.execute(sql))
    return s


def answer(session, sql):
    result = session.execute(sql)
    return [c.type for c in result.schema], result.renderer(False)(list(result))


def test_operators_on_columns(session):
    types, rows = answer(session, "SELECT d - d, t - t, d - t, t - d, d + n, t + n, d - n, t - n, d = t, d < t, "
                                  "d + t FROM t")
    assert types == ["Nullable(Int32)", "Nullable(Int64)", "Nullable(Int64)", "Nullable(Int64)", "Nullable(Date)",
                     "Nullable(Timestamp)", "Nullable(Date)", "Nullable(Timestamp)", "Nullable(Boolean)",
                     "Nullable(Boolean)", "Nullable(Int64)"]
    assert rows == [("0", "0", "-86400000000", "86400000000", "2024-01-04", "2024-01-02 00:00:00.000003",
                     "2023-12-29", "2024-01-01 23:59:59.999997", "0", "1", "3408220800000000")]


def test_constants_and_text_comparisons(session):
    types, rows = answer(session, "SELECT to_date('2024-01-01') + 1, to_date('2024-01-01') - to_date('2023-01-01'), "
                                  "to_timestamp('2024-01-01 00:00:00') - to_timestamp('2023-01-01 00:00:00'), "
                                  "to_date('2024-01-01') = '2024-01-01', "
                                  "to_timestamp('2024-01-01 00:00:00') > '2023-12-31', "
                                  "to_date('2024-01-01') BETWEEN '2023-01-01' AND '2025-01-01', "
                                  "to_timestamp('2024-01-01 00:00:00') - 1")
    assert rows == [("2024-01-02", "365", "31536000000000", "1", "1", "1", "2023-12-31 23:59:59.999999")]


def test_intervals(session):
    types, rows = answer(session, "SELECT to_date('2024-01-31') + INTERVAL 1 MONTH, "
                                  "to_date('2024-01-31') + INTERVAL '1' MONTH, "
                                  "to_timestamp('2024-01-31 10:00:00') - INTERVAL 2 HOUR, "
                                  "to_date('2024-03-01') - INTERVAL 1 DAY, INTERVAL 3 DAY + to_date('2024-01-01'), "
                                  "d + INTERVAL -1 YEAR, t + INTERVAL n MINUTE FROM t")
    assert types == ["Date", "Date", "Timestamp", "Date", "Date", "Nullable(Date)", "Nullable(Timestamp)"]
    assert rows == [("2024-02-29", "2024-02-29", "2024-01-31 08:00:00.000000", "2024-02-29", "2024-01-04",
                     "2023-01-01", "2024-01-02 00:03:00.000000")]


def test_null_operands(session):
    types, rows = answer(session, "SELECT to_date('2024-01-01') + NULL, d + NULL FROM t")
    assert rows == [(None, None)]


@pytest.mark.parametrize(("sql", "code"), [
    ("SELECT to_date('2024-01-01') + 1.5", 1065), ("SELECT 1 + to_date('2024-01-01')", 1065),
    ("SELECT t + 1.5 FROM t", 1065), ("SELECT d * 2 FROM t", 1065),
    ("SELECT INTERVAL 1 DAY - d FROM t", 1065),
    # not a unit keyword: Databend reads `INTERVAL 1` (CAST(1 AS INTERVAL), refused) and the alias FORTNIGHT
    ("SELECT d + INTERVAL 1 FORTNIGHT FROM t", 1006),
])
def test_bad_arithmetic(session, sql, code):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    assert info.value.code == code


def test_filters_and_grouping_on_dates(session):
    list(session.execute("INSERT INTO t VALUES ('2024-02-10', '2024-02-10 12:00:00', 1), "
                         "('2024-02-20', '2024-02-20 23:59:59', 2), (NULL, NULL, NULL)"))
    assert answer(session, "SELECT count(*) FROM t WHERE d >= '2024-02-01' AND d < to_date('2024-03-01')")[1] == [("2",)]
    assert answer(session, "SELECT to_start_of_month(t) AS m, count(*) FROM t GROUP BY to_start_of_month(t) "
                           "ORDER BY m")[1] == [("2024-01-01", "1"), ("2024-02-01", "2"), (None, "1")]
