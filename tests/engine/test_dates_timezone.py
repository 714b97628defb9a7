"""The session time zone: Timestamps are held in UTC, text and Dates are read as wall-clock time
in the session zone, and Timestamps are shown and taken apart in it (as Databend 1.2.453 does).
Databend's own embedded client shows Timestamps in UTC; the values below are its UTC instants
and its to_string() texts."""

import datetime
import zoneinfo

import pytest

import engine


@pytest.fixture
def db():
    return engine.Database()


def shown(session, sql):
    result = session.execute(sql)
    return result.renderer(False)(list(result))


def test_text_is_read_in_the_session_zone_and_shown_back_in_it(db):
    tokyo = db.session(settings={"timezone": "Asia/Tokyo"})
    rows = list(tokyo.execute("SELECT to_timestamp('2024-01-01 10:00:00'), '2024-01-01 10:00:00'::timestamp, "
                              "to_date('2024-01-01')::timestamp, to_timestamp(0)"))
    # the UTC instants Databend holds
    assert rows == [(datetime.datetime(2024, 1, 1, 1), datetime.datetime(2024, 1, 1, 1),
                     datetime.datetime(2023, 12, 31, 15), datetime.datetime(1970, 1, 1))]
    assert shown(tokyo, "SELECT to_timestamp('2024-01-01 10:00:00'), to_timestamp(0), timezone()") == [
        ("2024-01-01 10:00:00.000000", "1970-01-01 09:00:00.000000", "Asia/Tokyo")]


def test_to_string_date_and_unix_time_in_the_zone(db):
    tokyo = db.session(settings={"timezone": "Asia/Tokyo"})
    assert shown(tokyo, "SELECT to_unix_timestamp('2024-01-01 10:00:00'::timestamp), "
                        "to_date('2024-01-01 23:30:00'::timestamp), '2024-01-01 23:30:00'::timestamp::date, "
                        "to_string('2024-01-01 10:00:00'::timestamp), '2024-01-01 10:00:00'::timestamp::varchar") == [
        ("1704070800", "2024-01-01", "2024-01-01", "2024-01-01 10:00:00.000000", "2024-01-01 10:00:00.000000")]


def test_stored_timestamp_reads_in_the_zone_of_the_reader(db):
    tokyo = db.session(settings={"timezone": "Asia/Tokyo"})
    list(tokyo.execute("CREATE TABLE t (ts TIMESTAMP, d DATE)"))
    list(tokyo.execute("INSERT INTO t VALUES ('2024-01-01 10:00:00', '2024-01-01')"))
    utc = db.session()
    assert shown(utc, "SELECT ts, d, ts::date, d::timestamp FROM t") == [
        ("2024-01-01 01:00:00.000000", "2024-01-01", "2024-01-01", "2024-01-01 00:00:00.000000")]
    assert shown(tokyo, "SELECT ts, to_hour(ts), to_string(ts) FROM t") == [
        ("2024-01-01 10:00:00.000000", "10", "2024-01-01 10:00:00.000000")]
    list(utc.execute("SET timezone = 'Asia/Tokyo'"))
    assert shown(utc, "SELECT ts FROM t") == [("2024-01-01 10:00:00.000000",)]


def test_date_functions_work_on_wall_clock_time(db):
    ny = db.session(settings={"timezone": "America/New_York"})
    # Databend 1.2.453 answers to_start_of_month(to_timestamp(0)) = 1969-12-02 here, a bug in it;
    # the first of the month is the answer kept
    assert shown(ny, "SELECT timezone(), to_string(to_timestamp(0)), "
                     "date_format(to_timestamp(0), '%Y-%m-%d %H:%M:%S %Z %z'), to_date(to_timestamp(0)), "
                     "to_hour(to_timestamp(0)), to_start_of_day(to_timestamp(0)), to_start_of_month(to_timestamp(0)), "
                     "to_unix_timestamp('1970-01-01 00:00:00'::timestamp), to_yyyymmddhhmmss(to_timestamp(0)), "
                     "add_months(to_timestamp(0), 1), date_trunc(day, to_timestamp(0))") == [
        ("America/New_York", "1969-12-31 19:00:00.000000", "1969-12-31 19:00:00 EST -0500", "1969-12-31", "19",
         "1969-12-31 00:00:00.000000", "1969-12-01", "18000", "19691231190000", "1970-01-31 19:00:00.000000",
         "1969-12-31 00:00:00.000000")]


def test_dates_meet_timestamps_at_local_midnight(db):
    tokyo = db.session(settings={"timezone": "Asia/Tokyo"})
    assert shown(tokyo, "SELECT to_start_of_day(to_timestamp('2024-01-01 05:00:00')), "
                        "to_start_of_month(to_timestamp('2024-02-01 05:00:00')), "
                        "to_day_of_month(to_timestamp('2024-02-01 05:00:00')), to_unix_timestamp(to_date('2024-01-01')), "
                        "to_date('2024-01-01') = to_timestamp('2024-01-01 00:00:00'), "
                        "to_date('2024-01-02') - to_timestamp('2024-01-01 00:00:00')") == [
        ("2024-01-01 00:00:00.000000", "2024-02-01", "1", "1704034800", "1", "86400000000")]
    # add_hours of a Date counts from its UTC midnight (Databend: 2024-01-01 01:00 UTC)
    assert list(tokyo.execute("SELECT add_hours(to_date('2024-01-01'), 1)")) == [
        (datetime.datetime(2024, 1, 1, 1),)]


def test_today_follows_the_session_zone(db):
    days = []
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):  # UTC+14 and UTC-11: always a day apart
        (today,), = list(db.session(settings={"timezone": zone}).execute("SELECT today()"))
        assert today == datetime.datetime.now(zoneinfo.ZoneInfo(zone)).date()
        days.append(today)
    assert 1 <= (days[0] - days[1]).days <= 2
