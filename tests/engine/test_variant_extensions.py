"""VARIANT values that keep a BINARY, DATE, TIMESTAMP, TIMESTAMP_TZ or INTERVAL type
(engine.types.variant_extension), with the answers of Databend's own test file
query/functions/02_0056_function_semi_structureds_as.test: their text, is_* / as_*, the casts
back, and their type surviving the log, a checkpoint and the row codec."""

from __future__ import annotations

import datetime
import json
import os

import pytest

import engine
from engine.storage.row_codec import decode_rows, encode_rows
from engine.types import sqltype as T
from engine.types.intervals import Interval
from engine.types.variant_extension import ExtensionVariant
from tests.engine.sql_helpers import error_code, q, wire

_TZ8 = datetime.timezone(datetime.timedelta(hours=8))


@pytest.fixture
def session():
    return engine.Database().session()


@pytest.mark.parametrize(("sql", "expected"), [
    ("select to_binary('abc')::variant, to_binary(to_binary('abc')::variant), to_binary(parse_json('\"abc\"')), "
     "as_binary(to_binary('abc')::variant)", ['"616263"', "616263", "616263", "616263"]),
    ("select to_date('2025-01-01')::variant, to_date(to_date('2025-01-01')::variant), "
     "as_date(to_date('2025-01-01')::variant)", ['"2025-01-01"', "2025-01-01", "2025-01-01"]),
    ("select to_timestamp('2025-01-01 10:00:00')::variant, as_timestamp(to_timestamp('2025-01-01 10:00:00')::variant)",
     ['"2025-01-01 10:00:00.000000"', "2025-01-01 10:00:00.000000"]),
    ("select to_timestamp_tz('2025-01-01 10:00:00 +0830')::variant, "
     "as_timestamp_tz(to_timestamp_tz('2025-01-01 10:00:00 +0830')::variant)",
     ['"2025-01-01 10:00:00.000000 +0830"', "2025-01-01 10:00:00.000000 +0830"]),
    ("select to_interval('-10 months -2 days')::variant, to_interval(to_interval('-10 months -2 days')::variant), "
     "as_interval(to_interval('-10 months -2 days')::variant)",
     ['"-10 months -2 days"', "-10 months -2 days", "-10 months -2 days"]),
    # to_variant(x) keeps the type as the cast does
    ("select is_date(to_variant(to_date('2025-01-01'))), is_binary(to_variant(to_binary('a'))), "
     "is_interval(to_variant(to_interval('1 day')))", ["1", "1", "1"]),
])
def test_extension_values_answer_as_databend(session, sql, expected):
    assert wire(session, sql) == expected


def test_is_and_as_see_only_their_own_kind(session):
    assert q(session, "select is_date(to_date('2025-01-01')::variant), is_timestamp(to_date('2025-01-01')::variant), "
                      "is_date(parse_json('\"2025-01-01\"')), is_date(NULL), as_date(parse_json('\"2025-01-01\"')), "
                      "as_timestamp(to_date('2025-01-01')::variant)") == [(True, False, False, None, None, None)]
    # shown as a JSON string, but none: is_string / as_string say so, as Databend's JSONB does
    assert q(session, "select is_string(to_date('2025-01-01')::variant), as_string(to_binary('a')::variant), "
                      "to_date('2025-01-01')::variant::string") == [(False, None, "2025-01-01")]
    # inside an array or object the value is its string
    assert q(session, "select array_construct(to_date('2025-01-01')::variant)") == [('["2025-01-01"]',)]
    assert q(session, "select to_binary(parse_json('null')), to_binary(NULL::variant)") == [(None, None)]
    assert error_code(session, "select to_binary(parse_json('1'))") == 1006
    assert q(session, "select try_to_binary(parse_json('\"a\"')), try_to_binary(to_binary('ab')::variant), "
                      "try_to_binary(parse_json('1'))") == [(b"a", b"ab", None)]


def test_stored_extension_values_keep_their_type_across_a_crash_and_a_checkpoint(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE v (id INT, x VARIANT, xs ARRAY(VARIANT))")
    q(s, "INSERT INTO v VALUES (1, to_date('2025-01-01')::variant, [to_binary('ab')::variant]), "
         "(2, parse_json('\"2025-01-01\"'), []), "
         "(3, to_timestamp_tz('2025-01-01 10:00:00 +0800')::variant, [to_interval('1 day')::variant])")
    check = ("SELECT id, x, is_date(x), is_timestamp_tz(x), as_timestamp_tz(x), is_binary(xs[1]), "
             "as_interval(xs[1]) FROM v ORDER BY id")
    expected = [(1, '"2025-01-01"', True, False, None, True, None),
                (2, '"2025-01-01"', False, False, None, None, None),
                (3, '"2025-01-01 10:00:00.000000 +0800"', False, True,
                 datetime.datetime(2025, 1, 1, 10, tzinfo=_TZ8), False, Interval(0, 1, 0))]
    assert q(s, check) == expected
    durability = db.durability  # a crash: the log as written, no checkpoint
    durability.writer.close()
    os.close(durability._lock_file)
    db.durability = None
    db = engine.Database(data_dir=data_dir)  # replays the log
    assert q(db.session(), check) == expected
    db.close()  # a checkpoint
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), check) == expected
    db.close()


def test_the_row_codec_writes_the_kind_value_and_text():
    variant = T.SqlType("Variant", True)
    value = ExtensionVariant('"616263"', "Binary", b"abc")
    encoded = json.loads(json.dumps(encode_rows([variant], [(value,), ('"x"',), (None,)])))
    assert encoded["columns"][0] == [{"extension": "Binary", "value": "YWJj", "text": '"616263"'}, '"x"', None]
    back = decode_rows([variant], encoded)
    assert back == [(value,), ('"x"',), (None,)] and back[0][0].kind == "Binary" and back[0][0].value == b"abc"
    encoded["columns"][0][0] = {"extension": "Float64", "value": 1, "text": "1"}
    with pytest.raises(ValueError):
        decode_rows([variant], encoded)


def test_to_jsonb_binary_writes_databend_jsonb(session):
    # Databend's 02_0002_function_cast.test
    assert wire(session, "select to_jsonb_binary(parse_json('{\"data\":\"bend\",\"test\":100}')), "
                         "to_jsonb_binary(parse_json('[1,2,3]')), to_jsonb_binary(parse_json('100'))") == [
        "4000000210000004100000041000000420000002646174617465737462656E645064",
        "80000003200000022000000220000002500150025003", "20000000200000025064"]
    # nested containers, negative and two-byte integers, null and true, f64; extension values
    assert wire(session, "select to_jsonb_binary(parse_json('[-1, 300, {\"a\":[null,true]}, 1.5]')), "
                         "to_jsonb_binary(to_date('1970-01-02')::variant), "
                         "to_jsonb_binary(to_timestamp_tz('1970-01-01 08:00:00 +0800')::variant)") == [
        "800000042000000220000003500000192000000940FF50012C"  # header, 4 entries, -1, 300
        "40000001100000015000000C61800000020000000040000000"  # {"a": [null, true]}
        "603FF8000000000000",  # 1.5
        "20000000600000051000000001", "200000006000000D30000000000000000000007080"]


def test_extension_values_compare_and_sort_before_json_values(session):
    # jsonb's order: extension values first (by kind, then value); a DATE is not the JSON string
    assert q(session, "select to_date('2025-01-01')::variant = parse_json('\"2025-01-01\"'), "
                      "to_date('2025-01-01')::variant = to_date('2025-01-01'), "
                      "to_date('2025-01-01')::variant < parse_json('false'), "
                      "to_date('2025-01-02')::variant > to_date('2025-01-01')::variant") == [(False, True, True, True)]
    assert q(session, "select v from (select to_date('2025-01-01')::variant v union all select parse_json('1') "
                      "union all select to_binary('a')::variant union all select to_interval('1 day')::variant) "
                      "order by v") == [('"61"',), ('"2025-01-01"',), ('"1 day"',), ('1',)]
