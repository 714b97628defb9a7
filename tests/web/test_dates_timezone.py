"""Time zones over HTTP: a stored Timestamp is shown in the session's `timezone` (UTC inside),
and text written in a zone is read in that zone, as Databend 1.2.453 does."""

from tests.web.harness import DATABEND_HEADERS


def test_stored_timestamp_is_shown_in_the_session_zone(h):
    h.post("CREATE TABLE ev (ts TIMESTAMP, d DATE)")
    h.post("INSERT INTO ev VALUES ('2024-01-01 10:00:00', '2024-01-01')")  # a UTC session
    utc = h.post("SELECT ts, to_hour(ts), d FROM ev", headers=DATABEND_HEADERS).json
    assert utc["data"] == [["2024-01-01 10:00:00.000000", "10", "2024-01-01"]]
    tokyo = h.post("SELECT ts, to_hour(ts), to_string(ts), ts::date FROM ev", headers=DATABEND_HEADERS,
                   session={"settings": {"timezone": "Asia/Tokyo"}}).json
    assert tokyo["schema"][0] == {"name": "ts", "type": "Nullable(Timestamp)"}
    assert tokyo["data"] == [["2024-01-01 19:00:00.000000", "19", "2024-01-01 19:00:00.000000", "2024-01-01"]]


def test_set_timezone_then_select_over_the_returned_session(h):
    a = h.post("SET timezone = 'America/New_York'", headers=DATABEND_HEADERS).json
    assert a["state"] == "Succeeded"
    b = h.post("SELECT to_timestamp(0), timezone(), to_date(to_timestamp(0))", headers=DATABEND_HEADERS,
               session=a["session"]).json
    assert b["data"] == [["1969-12-31 19:00:00.000000", "America/New_York", "1969-12-31"]]


def test_text_is_read_in_the_session_zone(h):
    tokyo = {"settings": {"timezone": "Asia/Tokyo"}}
    h.post("CREATE TABLE ev (ts TIMESTAMP)")
    h.post("INSERT INTO ev VALUES ('2024-01-01 10:00:00')", session=tokyo)
    a = h.post("SELECT ts, to_unix_timestamp(ts) FROM ev", headers=DATABEND_HEADERS).json
    assert a["data"] == [["2024-01-01 01:00:00.000000", "1704070800"]]
    b = h.post("SELECT count(*) FROM ev WHERE ts = '2024-01-01 10:00:00'::timestamp", headers=DATABEND_HEADERS,
               session=tokyo).json
    assert b["data"] == [["1"]]
