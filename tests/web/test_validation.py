"""Strict request validation: UTF-8 JSON bodies, typed fields, clamped client durations, and
page numbers too long to be pages."""

import codecs
import json

import pytest

from tests.web.harness import DATABEND_HEADERS, Harness
from web.config import ServiceConfig


def rows(start, stop):
    return [(i,) for i in range(start, stop)]


def bad(h, body: bytes, reason: str):
    spec = h.request("POST", "/v1/query", body)
    assert spec.status == 400 and reason in spec.body.decode(), spec.body
    databend = h.request("POST", "/v1/query", body, headers=DATABEND_HEADERS)
    assert databend.status == 400 and databend.json["error"]["code"] == 400
    assert reason in databend.json["error"]["message"]


@pytest.mark.parametrize("doc, reason", [
    ({"sql": None}, "`sql` must be a string, not null"),
    ({"sql": ["SELECT 1"]}, "`sql` must be a string"),
    ({"sql": "SELECT 1", "session_id": 5}, "`session_id` must be a string, not 5"),
    ({"sql": "SELECT 1", "session": []}, "`session` must be an object, not []"),
    ({"sql": "SELECT 1", "session": {"database": 1}}, "`session.database` must be a string"),
    ({"sql": "SELECT 1", "session": {"db": True}}, "`session.db` must be a string"),
    ({"sql": "SELECT 1", "session": {"id": 7}}, "`session.id` must be a string"),
    ({"sql": "SELECT 1", "session": {"role": {}}}, "`session.role` must be a string"),
    ({"sql": "SELECT 1", "session": {"need_sticky": "yes"}},
     "`session.need_sticky` must be true or false"),
    ({"sql": "SELECT 1", "session": {"need_keep_alive": 1}},
     "`session.need_keep_alive` must be true or false"),
    ({"sql": "SELECT 1", "session": {"secondary_roles": "a"}},
     "`session.secondary_roles` must be a list of strings"),
    ({"sql": "SELECT 1", "session": {"secondary_roles": [1]}},
     "`session.secondary_roles[]` must be a string"),
    ({"sql": "SELECT 1", "session": {"txn_state": 0}}, "`session.txn_state` must be a string"),
    ({"sql": "SELECT 1", "session": {"settings": []}},
     "`session.settings` must be an object"),
    ({"sql": "SELECT 1", "session": {"settings": {"max_threads": None}}},
     "setting `max_threads` must be a string, not null"),
    ({"sql": "SELECT 1", "session": {"keep_server_session_secs": "10"}},
     "`session.keep_server_session_secs` must be a non-negative integer"),
    ({"sql": "SELECT 1", "pagination": "fast"}, "`pagination` must be an object"),
    ({"sql": "SELECT 1", "pagination": {"max_rows_in_buffer": -1}},
     "`pagination.max_rows_in_buffer` must be a non-negative integer"),
    ({"sql": "SELECT 1", "pagination": {"max_rows_per_page": "10"}},
     "`pagination.max_rows_per_page` must be a positive integer"),
    ({"sql": "SELECT 1", "string_fields": "yes"}, "`string_fields` must be true or false"),
    # null where Databend's HttpQueryRequest field is not an Option (serde refuses it)
    ({"sql": "SELECT 1", "string_fields": None}, "`string_fields` must be true or false, not null"),
    ({"sql": "SELECT 1", "pagination": None}, "`pagination` must be an object, not null"),
    ({"sql": "SELECT 1", "pagination": {"wait_time_secs": None}},
     "`pagination.wait_time_secs` must be a non-negative integer"),
    ({"sql": "SELECT 1", "pagination": {"max_rows_per_page": None}},
     "`pagination.max_rows_per_page` must be a positive integer"),
    ({"sql": "SELECT 1", "pagination": {"max_rows_in_buffer": None}},
     "`pagination.max_rows_in_buffer` must be a non-negative integer"),
    ({"sql": "SELECT 1", "session": {"need_sticky": None}},
     "`session.need_sticky` must be true or false, not null"),
    ({"sql": "SELECT 1", "session": {"need_keep_alive": None}},
     "`session.need_keep_alive` must be true or false, not null"),
    # integers past Databend's types (wait_time_secs: u32; the row counts: u64)
    ({"sql": "SELECT 1", "pagination": {"wait_time_secs": 2**32}},
     "`pagination.wait_time_secs` must be a non-negative integer up to 4294967295"),
    ({"sql": "SELECT 1", "pagination": {"max_rows_per_page": 2**64}},
     "`pagination.max_rows_per_page` must be a positive integer up to 18446744073709551615"),
    ({"sql": "SELECT 1", "stage_attachment": {"location": 5}},
     "`stage_attachment.location` must be a string"),
    ({"sql": "SELECT 1", "stage_attachment": {}}, "missing field `stage_attachment.location`"),
    ({"sql": "SELECT 1", "stage_attachment": {"location": "@~/f", "copy_options": []}},
     "`stage_attachment.copy_options` must be an object"),
    ({"sql": "SELECT 1", "stage_attachment": {"location": "@~/f",
                                              "file_format_options": {"type": None}}},
     "`stage_attachment.file_format_options.type` must be a string"),
    ({"sql": "SELECT 1", "session": {"settings": {"max_threads": 8}}},
     "setting `max_threads` must be a string, not 8"),
])
def test_every_field_of_the_wrong_type_is_400_naming_it(h, doc, reason):
    bad(h, json.dumps(doc).encode(), reason)


@pytest.mark.parametrize("value, shown", [
    (b"-1", "-1"), (b"1.5", "1.5"), (b"1e400", "Infinity"), (b"NaN", "NaN"),
    (b'"5"', '"5"'), (b"true", "true"), (b"[]", "[]"),
])
def test_wait_time_secs_that_is_not_a_non_negative_integer_is_400(h, value, shown):
    body = b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": ' + value + b"}}"
    bad(h, body, f"`pagination.wait_time_secs` must be a non-negative integer, not {shown}")


def test_a_huge_wait_time_is_clamped_to_max_wait_secs():
    h = Harness(ServiceConfig(max_wait_secs=7), inline_steps=1)
    h.db.script("q", [("number", "UInt64")], [[]] * 50 + [rows(0, 1)])
    for wait in (7, 8, 2**32 - 1):  # the largest u32 (larger: 400)
        post = h.start("POST", "/v1/query",
                       b'{"sql": "q", "pagination": {"wait_time_secs": %d}}' % wait)
        assert not post.done
        h.clock.advance(6.9)
        assert not post.done
        h.clock.advance(0.2)  # 7 s: the clamped wait is over
        a = post.reply().json
        assert a["state"] == "Running" and a["data"] == []
        query = h.app.queries.find(a["id"])
        assert query.wait_secs == 7 and query.buffer.waiting == 0
        query.kill()


def test_result_timeout_is_clamped_to_max_result_timeout_secs():
    h = Harness(ServiceConfig(max_result_timeout_secs=100), inline_steps=1)
    h.db.script("q", [("number", "UInt64")], [[]] * 50)
    ids = {}
    for timeout in (100, 101, 10 ** 15):
        a = h.post("q", pagination={"wait_time_secs": 0}, headers=DATABEND_HEADERS,
                   session={"settings": {"http_handler_result_timeout_secs": str(timeout)}}).json
        assert a["result_timeout_secs"] == 100
        ids[timeout] = a["id"]
    h.clock.advance(99.5)
    h.app.sweep()
    assert all(h.app.queries.find(i) is not None for i in ids.values())
    h.clock.advance(1)
    h.app.sweep()
    assert all(h.app.queries.find(i) is None for i in ids.values())


def test_a_utf8_byte_order_mark_is_400_as_databends_decoder_refuses_it(h):
    bad(h, codecs.BOM_UTF8 + b'{"sql": "SELECT 1"}', "starts with a byte order mark")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_bodies_are_400(h, encoding):
    bad(h, '{"sql": "SELECT 1"}'.encode(encoding), "must be UTF-8 JSON")


def test_a_body_that_is_not_utf8_is_400_naming_the_byte(h):
    bad(h, b'{"sql": "SELECT \'\xff\'"}', "not valid UTF-8 (byte 0xff at offset 17)")


def test_sql_with_a_lone_surrogate_is_400(h):
    bad(h, b'{"sql": "SELECT \'\\ud800\'"}', "`sql` is not valid UTF-8: a lone surrogate \\ud800")
    bad(h, b'{"sql": "SELECT 1", "session": {"settings": {"timezone": "\\udfff"}}}',
        "`session.settings.timezone` is not valid UTF-8")


def test_a_page_number_of_more_than_18_digits_is_404(h):
    h.db.script("q", [("number", "UInt64")], [[]] * 5)
    a = h.post("q", pagination={"wait_time_secs": 0}).json
    assert h.get(a["stats_uri"] + "/page/" + "9" * 18).status == 404  # a number, not the page
    for digits in (19, 5000):
        reply = h.get(a["stats_uri"] + "/page/" + "1" * digits)
        assert reply.status == 404 and b"Invalid page number" in reply.body


def test_sql_longer_than_max_sql_bytes_is_refused_before_parsing():
    from engine.core.limits import Limits

    h = Harness(ServiceConfig(limits=Limits(sql_bytes=20)))
    accepted = h.post("SELECT '" + "\u00e9" * 5 + "'")  # 9 + 10 = 19 bytes
    assert accepted.json["state"] == "Succeeded"
    accepted = h.post("SELECT '" + "\u00e9" * 5 + "x'")  # 20 bytes: at the limit
    assert accepted.json["state"] == "Succeeded"
    refused = h.post("SELECT '" + "\u00e9" * 5 + "xy'").json  # 21 bytes
    assert refused["state"] == "Failed" and refused["error"]["code"] == 1005  # as the engine's
    assert refused["error"]["message"] == (
        "SQL text is 21 bytes, larger than the max_sql_bytes limit (20 bytes)")


@pytest.mark.parametrize("path", ["/v1/query/%ff/page/0", "/v1/query/%ff", "/v1/%ff",
                                  "/v1/query/abc/page/%ff"])
def test_a_path_that_is_not_utf8_is_400_with_the_reason_and_no_log(h, path, no_logged_errors):
    reply = h.get(path)
    assert reply.status == 400 and b"the URL path is not valid UTF-8" in reply.body
    databend = h.get(path, headers=DATABEND_HEADERS)
    assert databend.status == 400 and databend.json["error"]["code"] == 400


@pytest.mark.parametrize("body, reason", [
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": 1}} ', None),
    (b' {"sql": "SELECT 1"}', None),
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": 1}}x', b"Extra data"),
    (b'{"sql": "SELECT 1", "pagination": {"wait_time_secs": 1.5}}', b"wait_time_secs"),
    (b'{"sql": "SELECT 1", "pagination": {}, "params": 5}', b"params"),
    (b'{"sql": "SELECT 1", "session": null}', None),
    (b'{"sql": "SELECT 1", "session": []}', b"session"),
    (b'{"sql": "SELECT 1",}', b"invalid JSON"),
])
def test_bodies_read_by_the_quick_path_are_checked_as_every_other(body, reason):
    from web.errors import BadRequest
    from web.query_request import parse_query_request

    if reason is None:
        assert parse_query_request(body).sql == "SELECT 1"
    else:
        with pytest.raises(BadRequest) as refused:
            parse_query_request(body)
        assert reason.decode() in refused.value.message
