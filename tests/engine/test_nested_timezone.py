"""Timestamps inside ARRAY / MAP / TUPLE values in the session `timezone`: shown in it (wire,
casts to text and VARIANT), and text or Dates cast or written into them read in it, as plain
Timestamp columns are. The instants were checked against Databend 1.2.453 (10:00 in Shanghai is
1704074400)."""

from __future__ import annotations

import pytest

import engine
from engine.catalog.stages import parse_location


def run(session, sql):
    return list(session.execute(sql))


def wire(session, sql):
    result = session.execute(sql)
    return result.renderer(True)(list(result))


@pytest.fixture
def db():
    return engine.Database()


@pytest.fixture
def s(db):
    session = db.session()
    run(session, "SET timezone = 'Asia/Shanghai'")
    run(session, "CREATE TABLE tt (a ARRAY(TIMESTAMP), m MAP(STRING, TIMESTAMP), p TUPLE(TIMESTAMP, INT), "
                 "ts TIMESTAMP, d ARRAY(DATE))")
    run(session, "INSERT INTO tt VALUES (['2024-01-01 10:00:00'], {'k': '2024-01-01 10:00:00'}, "
                 "('2024-01-01 10:00:00', 1), '2024-01-01 10:00:00', ['2024-01-01'])")
    return session


def test_literals_written_into_nested_columns_are_read_in_the_session_zone(s):
    assert wire(s, "SELECT a, m, p, ts, a[1], to_unix_timestamp(a[1]), to_unix_timestamp(m['k']), "
                   "to_unix_timestamp(p.1) FROM tt") == [
        ('["2024-01-01 10:00:00.000000"]', '{"k":"2024-01-01 10:00:00.000000"}', '("2024-01-01 10:00:00.000000",1)',
         "2024-01-01 10:00:00.000000", "2024-01-01 10:00:00.000000", "1704074400", "1704074400", "1704074400")]


def test_a_utc_session_shows_the_same_instants_in_utc(db, s):
    assert wire(db.session(), "SELECT a, p FROM tt") == [('["2024-01-01 02:00:00.000000"]',
                                                          '("2024-01-01 02:00:00.000000",1)')]


@pytest.mark.parametrize("sql, expected", [
    ("SELECT CAST(['2024-01-01 10:00:00'] AS ARRAY(TIMESTAMP)) AS x, to_unix_timestamp(x[1])",
     ('["2024-01-01 10:00:00.000000"]', "1704074400")),
    ("SELECT '[\"2024-01-01 10:00:00\"]'::ARRAY(TIMESTAMP) AS x, to_unix_timestamp(x[1])",
     ('["2024-01-01 10:00:00.000000"]', "1704074400")),
    ("SELECT ['2024-01-01 10:00:00'::TIMESTAMP] AS x, to_unix_timestamp(x[1])",
     ('["2024-01-01 10:00:00.000000"]', "1704074400")),
    ("SELECT TRY_CAST('(\\'2024-01-01 10:00:00\\', 2)' AS TUPLE(TIMESTAMP, INT)) AS x, to_unix_timestamp(x.1)",
     ('("2024-01-01 10:00:00.000000",2)', "1704074400")),
    # a Date is its midnight in the zone, a Timestamp's Date its day in the zone
    ("SELECT d::ARRAY(TIMESTAMP) AS x, to_unix_timestamp(x[1]) FROM tt",
     ('["2024-01-01 00:00:00.000000"]', "1704038400")),
    ("SELECT a::ARRAY(DATE), a::VARIANT, ts::VARIANT, a::STRING FROM tt",
     ('["2024-01-01"]', '["2024-01-01 10:00:00.000000"]', '"2024-01-01 10:00:00.000000"',
      '["2024-01-01 10:00:00.000000"]')),
])
def test_casts_read_and_show_nested_timestamps_in_the_zone(s, sql, expected):
    assert wire(s, sql) == [expected]


def test_text_inserted_into_a_nested_column_and_insert_select_are_read_in_the_zone(s):
    run(s, "INSERT INTO tt (a) VALUES ('[\"2024-01-01 11:00:00\"]')")
    run(s, "INSERT INTO tt (a, p) SELECT ['2024-01-01 12:00:00'], ('2024-01-01 12:00:00', 2)")
    assert wire(s, "SELECT a, to_unix_timestamp(a[1]) FROM tt ORDER BY a") == [
        ('["2024-01-01 10:00:00.000000"]', "1704074400"), ('["2024-01-01 11:00:00.000000"]', "1704078000"),
        ('["2024-01-01 12:00:00.000000"]', "1704081600")]


def test_copy_reads_and_unloads_nested_timestamps_in_the_zone(db, s):
    db.stages.put("root", parse_location("@~/in.csv"), b'"[\'2024-01-01 10:00:00\']"\n')
    run(s, "CREATE TABLE tc (a ARRAY(TIMESTAMP))")
    run(s, "COPY INTO tc FROM @~/in.csv FILE_FORMAT = (TYPE = CSV)")
    assert run(s, "SELECT to_unix_timestamp(a[1]) FROM tc") == [(1704074400,)]
    run(s, "COPY INTO @~/out/ FROM tc FILE_FORMAT = (TYPE = TSV)")
    (data,) = [db.stages.get("root", parse_location("@~/" + name)) for name, *_ in run(s, "LIST @~/out/")]
    assert data == b'["2024-01-01 10:00:00.000000"]\n'
