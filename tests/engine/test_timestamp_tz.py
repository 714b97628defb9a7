"""TIMESTAMP_TZ: an instant with the offset it was written in (engine.types.timestamp_tz) —
casts, functions, comparison and storage, as current Databend answers
(base/11_data_type/11_0001_data_type_date_time.test, query/functions/02_0002_function_cast.test,
02_0012_function_datetimes.test)."""

import pytest

import engine
from engine import EngineError
from tests.engine.sql_helpers import wire
from tests.engine.test_durability import crash

RECORDS = [
    ("select '2044-05-06 03:25:02.868894'::TIMESTAMP_TZ", ["2044-05-06 03:25:02.868894 +0000"]),
    ("select '2044-05-06T03:25:02.868894-07:00'::TIMESTAMP_TZ::STRING", ["2044-05-06 03:25:02.868894 -0700"]),
    ("select '2044-05-06 03:25:02.868894-0700'::TIMESTAMP_TZ::STRING", ["2044-05-06 03:25:02.868894 -0700"]),
    ("select '9999-12-12'::TIMESTAMP_TZ::STRING", ["9999-12-12 00:00:00.000000 +0000"]),
    # compared by instant
    ("select '2021-01-01 00:00:00+0000'::timestamp_tz = '2021-01-01 01:00:00+0100'::timestamp_tz", ["1"]),
    ("select '2021-01-01 00:00:00+0100'::timestamp_tz < '2021-01-01 01:00:00+0100'::timestamp_tz", ["1"]),
    ("select to_timestamp_tz('2024-04-16 12:34:56.789 +0600')", ["2024-04-16 12:34:56.789000 +0600"]),
    # no offset written: the session zone's
    ("settings(timezone='Asia/Shanghai') select to_timestamp_tz('2024-04-16 12:34:56.789')",
     ["2024-04-16 12:34:56.789000 +0800"]),
    ("settings (timezone='America/New_York') select try_to_timestamp_tz('2024-11-03 05:30:00')",
     ["2024-11-03 05:30:00.000000 -0500"]),
    ("select try_to_timestamp_tz('not a time')", [None]),
    # to and from Timestamp and Date
    ("settings(timezone='Asia/Shanghai') select to_timestamp(to_timestamp_tz('2021-12-20 17:01:01.000000 +0000'))",
     ["2021-12-21 01:01:01.000000"]),
    ("select to_timestamp(to_timestamp_tz('2021-12-20 17:01:01.000000 +0800'))", ["2021-12-20 09:01:01.000000"]),
    ("settings(timezone='Asia/Shanghai') select to_timestamp_tz(to_timestamp('2021-12-20 17:01:01.000000'))::STRING",
     ["2021-12-20 09:01:01.000000 +0800"]),
    ("SELECT to_date(to_timestamp_tz('2021-12-20T10:00:00+09:00')) = to_date('2021-12-20')", ["1"]),
    ("SELECT parse_json('\"2022-01-01 01:01:01 +0800\"')::timestamp_tz", ["2022-01-01 01:01:01.000000 +0800"]),
    ("SELECT parse_json('null')::timestamp_tz", [None]),
    # timestamp_tz_from_parts: in the zone named, with its offset at that time
    ("select timestamp_tz_from_parts(2013, 4, 5, 12, 0, 0, 'Asia/Shanghai')", ["2013-04-05 12:00:00.000000 +0800"]),
    ("select timestamp_tz_from_parts(2013, 4, 5, 12, 0, 0, 123456789, 'UTC')", ["2013-04-05 12:00:00.123456 +0000"]),
    ("select timestamp_tz_from_parts(2023, 7, 1, 12, 0, 0, 'America/Los_Angeles')",
     ["2023-07-01 12:00:00.000000 -0700"]),
    ("select typeof(to_timestamp_tz('2024-01-01'))", ["TIMESTAMP_TZ"]),
]


@pytest.mark.parametrize(("sql", "row"), RECORDS)
def test_timestamp_tz_records(session, sql, row):
    assert wire(session, sql) == row


def test_timestamp_tz_sorts_by_instant(session):
    result = session.execute(
        "SELECT tag FROM (SELECT to_timestamp_tz('2021-12-20 09:00:01 +00:00') AS v, 'A' AS tag UNION ALL "
        "SELECT to_timestamp_tz('2021-12-20 17:00:00 +08:00'), 'B' UNION ALL "
        "SELECT to_timestamp_tz('2021-12-20 09:30:00 +00:00'), 'C') ORDER BY v")
    assert [r[0] for r in result] == ["B", "A", "C"]


def test_bad_text_is_refused_with_1006(session):
    with pytest.raises(EngineError) as info:
        list(session.execute("SELECT parse_json('\"test\"')::timestamp_tz"))
    assert info.value.code == 1006


@pytest.mark.parametrize("ending", ["crash", "close"])
def test_a_timestamp_tz_column_survives_a_restart_with_its_offsets(tmp_path, ending):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    list(s.execute("CREATE TABLE t (id INT, v TIMESTAMP_TZ)"))
    list(s.execute("INSERT INTO t VALUES (0, '2024-10-22 12:00:00+0900'), (1, '2024-10-22 12:00:00'), (2, NULL)"))
    if ending == "crash":
        crash(db)  # replayed from the log
    else:
        db.close()  # read back from the checkpoint
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    result = s.execute("SELECT id, v, v::STRING FROM t ORDER BY id")
    rows = result.renderer(False)(list(result))
    assert [list(r) for r in rows] == [
        ["0", "2024-10-22 12:00:00.000000 +0900", "2024-10-22 12:00:00.000000 +0900"],
        ["1", "2024-10-22 12:00:00.000000 +0000", "2024-10-22 12:00:00.000000 +0000"],
        ["2", None, None]]
    db.close()


def test_timestamp_with_time_zone_is_timestamp_tz(session):
    list(session.execute("create table tz1 (c1 int, c2 timestamp with time zone not null)"))
    list(session.execute("insert into tz1 values (0, '2024-10-22 12:00:00+0900'), (1, '2024-10-22 12:00:00')"))
    result = session.execute("select c1, c2::STRING from tz1 order by c1")
    assert [list(r) for r in result.renderer(False)(list(result))] == [
        ["0", "2024-10-22 12:00:00.000000 +0900"], ["1", "2024-10-22 12:00:00.000000 +0000"]]


def test_date_differences_keep_their_types_when_folded(session):
    assert wire(session, "select typeof(today() - today()), typeof(now() - now())") == ["INT", "BIGINT"]


@pytest.mark.parametrize("sql, expected", [
    # a TIMESTAMP (UTC) or a DATE meets a TIMESTAMP_TZ as the same instant
    ("SELECT to_timestamp_tz('2021-12-20T10:00:00+09:00') = to_timestamp('2021-12-20 01:00:00')", True),
    ("SELECT to_timestamp_tz('2021-12-20T10:00:00+09:00') < to_timestamp('2021-12-20 01:00:01')", True),
    ("SELECT to_timestamp_tz('2021-12-20T10:00:00+09:00') > to_date('2021-12-19')", True),
    ("SELECT to_timestamp('2021-12-20 01:00:00') IN (to_timestamp_tz('2021-12-20T10:00:00+09:00'))", True),
    ("SELECT to_timestamp_tz('2021-12-20T10:00:00+09:00') = '2021-12-20 01:00:00 +0000'", True),
])
def test_timestamp_tz_compares_with_timestamps_and_dates_as_instants(sql, expected):
    s = engine.Database().session()
    assert list(s.execute(sql)) == [(expected,)]


def test_a_union_of_timestamp_and_timestamp_tz_is_timestamp_tz():
    s = engine.Database().session()
    result = s.execute("SELECT to_timestamp('2021-12-20 01:00:00') x UNION ALL "
                       "SELECT to_timestamp_tz('2021-12-20T10:00:00+09:00')")
    assert [c.type for c in result.schema] == ["TimestampTz"]
