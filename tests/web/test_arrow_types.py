"""The Arrow types and arrays of result columns (web.arrow_types): each SQL type as Databend's
server types it, values decoded back with pyarrow equal to the engine's."""

import datetime
import struct
from decimal import Decimal

import pytest

import engine

pa = pytest.importorskip("pyarrow")
arrow_types = pytest.importorskip("web.arrow_types")
if not arrow_types.usable():
    pytest.skip("pyarrow too old for Arrow results", allow_module_level=True)


def encoded(sql, decimal64=True):
    """(fields, the columns decoded from one record batch) of `sql`'s result."""
    result = engine.Database().session().execute(sql)
    rows = [row for batch in result.batches() for row in batch]
    fields = [arrow_types.arrow_field(c.name, t, decimal64)
              for c, t in zip(result.schema, result.types, strict=True)]
    arrays = [arrow_types.arrow_array([row[i] for row in rows], f) for i, f in enumerate(fields)]
    batch = pa.RecordBatch.from_arrays(arrays, schema=pa.schema(fields))
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    table = pa.ipc.open_stream(sink.getvalue()).read_all()
    return table.schema, [column.to_pylist() for column in table.columns]


def test_integers_floats_booleans():
    schema, columns = encoded("SELECT 1::UINT8 a, (-2)::INT16 b, 3::INT32 c, (-4)::INT64 d, "
                              "18446744073709551615::UINT64 e, 1.5::FLOAT f, 0.1::DOUBLE g, "
                              "true h, NULL::INT i")
    assert [f.type for f in schema] == [pa.uint8(), pa.int16(), pa.int32(), pa.int64(),
                                        pa.uint64(), pa.float32(), pa.float64(), pa.bool_(),
                                        pa.int32()]
    assert [f.nullable for f in schema] == [False] * 8 + [True]
    assert columns == [[1], [-2], [3], [-4], [2**64 - 1], [1.5], [0.1], [True], [None]]


def test_decimals_by_precision_and_the_decimal64_feature():
    sql = "SELECT 1.25::DECIMAL(10, 2) a, 1.5::DECIMAL(38, 1) b, 7::DECIMAL(76, 0) c"
    schema, columns = encoded(sql)
    assert [f.type for f in schema] == [pa.decimal64(10, 2), pa.decimal128(38, 1),
                                        pa.decimal256(76, 0)]
    assert columns == [[Decimal("1.25")], [Decimal("1.5")], [Decimal("7")]]
    schema, columns = encoded(sql, decimal64=False)
    assert schema.field(0).type == pa.decimal128(10, 2)
    assert columns[0] == [Decimal("1.25")]


def test_a_decimal_with_more_digits_than_its_scale_is_rounded_as_its_text():
    field = pa.field("d", pa.decimal64(5, 2))
    array = arrow_types.arrow_array([Decimal("1.255"), None], field)
    assert array.to_pylist() == [Decimal("1.26"), None]


def test_strings_binary_dates_timestamps():
    schema, columns = encoded("SELECT 'x' a, 'ab'::BINARY b, '2024-02-29'::DATE c, "
                              "'2024-02-29 13:45:06.123456'::TIMESTAMP d, NULL::STRING e")
    assert [f.type for f in schema] == [pa.string_view(), pa.large_binary(), pa.date32(),
                                        pa.timestamp("us"), pa.string_view()]
    assert columns == [["x"], [b"ab"], [datetime.date(2024, 2, 29)],
                       [datetime.datetime(2024, 2, 29, 13, 45, 6, 123456)], [None]]


def test_timestamps_are_utc_instants_whatever_the_session_zone():
    session = engine.Database().session(settings={"timezone": "Asia/Shanghai"})
    result = session.execute("SELECT '2024-02-29 13:45:06'::TIMESTAMP")
    field = arrow_types.arrow_field("t", result.types[0])
    rows = [row for batch in result.batches() for row in batch]
    micros = arrow_types.arrow_array([r[0] for r in rows], field).cast(pa.int64()).to_pylist()
    expected = datetime.datetime(2024, 2, 29, 5, 45, 6, tzinfo=datetime.UTC).timestamp()
    assert micros == [int(expected) * 1_000_000]


def test_variant_is_json_text_with_the_extension_metadata():
    schema, columns = encoded("SELECT parse_json('{\"b\": 1, \"a\": [1, 2]}') v, "
                              "parse_json('null') j, NULL::VARIANT n")
    assert schema.field(0).type == pa.large_string()
    assert schema.field(0).metadata == {b"Extension": b"Variant"}
    assert columns == [['{"a":[1,2],"b":1}'], ["null"], [None]]


def test_nested_types():
    schema, columns = encoded("SELECT [1, NULL] a, {'k': 1.5} m, (1, 'x') t, [[1], [2, 3]] aa, "
                              "[('2024-01-01 00:00:00'::TIMESTAMP, 1)] at")
    a, m, t, aa, at = schema
    assert a.type == pa.large_list(pa.field("_array", pa.uint8(), nullable=True))
    assert m.type == pa.map_(pa.field("key", pa.string_view(), nullable=False),
                             pa.field("value", pa.decimal64(2, 1), nullable=False))
    assert t.type == pa.struct([pa.field("1", pa.uint8(), nullable=False),
                                pa.field("2", pa.string_view(), nullable=False)])
    assert columns == [[[1, None]], [[("k", Decimal("1.5"))]], [{"1": 1, "2": "x"}],
                       [[[1], [2, 3]]], [[{"1": datetime.datetime(2024, 1, 1), "2": 1}]]]


def test_empty_array_and_map_and_null_columns():
    schema, columns = encoded("SELECT [] a, {} m, NULL n")
    assert [f.type for f in schema] == [pa.bool_(), pa.bool_(), pa.null()]
    assert [f.metadata for f in schema] == [{b"Extension": b"EmptyArray"},
                                            {b"Extension": b"EmptyMap"}, None]
    assert schema.field(2).nullable
    assert columns == [[False], [False], [None]]


def _read_treemap(data: bytes) -> set:
    """An independent reader of the RoaringTreemap portable format (no run containers)."""
    values = set()
    (count,), at = struct.unpack_from("<Q", data), 8
    for _ in range(count):
        (high,), at = struct.unpack_from("<I", data, at), at + 4
        cookie, n = struct.unpack_from("<II", data, at)
        assert cookie == 12346
        descriptions = [struct.unpack_from("<HH", data, at + 8 + 4 * i) for i in range(n)]
        offsets = [struct.unpack_from("<I", data, at + 8 + 4 * n + 4 * i)[0] for i in range(n)]
        end = at
        for (key, card_minus_1), offset in zip(descriptions, offsets, strict=True):
            start, card = at + offset, card_minus_1 + 1
            if card <= 4096:
                lows = struct.unpack_from(f"<{card}H", data, start)
                end = start + 2 * card
            else:
                words = data[start:start + 8192]
                lows = [i for i in range(65536) if words[i >> 3] >> (i & 7) & 1]
                end = start + 8192
            values.update((high << 32) | (key << 16) | low for low in lows)
        at = end
    assert at == len(data)
    return values


@pytest.mark.parametrize("values", [
    set(), {0}, {1, 2, 70000}, {5, 2**32 + 7, 2**64 - 1},
    set(range(0, 20000, 3)),  # one container of 6667 values: a bitmap container
])
def test_bitmaps_serialize_as_roaring_treemaps(values):
    data = arrow_types.roaring_treemap(frozenset(values))
    assert _read_treemap(data) == values


def test_bitmap_columns_carry_the_extension_metadata():
    schema, columns = encoded("SELECT to_bitmap('1,2,70000') b")
    assert schema.field(0).type == pa.large_binary()
    assert schema.field(0).metadata == {b"Extension": b"Bitmap"}
    assert _read_treemap(columns[0][0]) == {1, 2, 70000}


def test_intervals_are_databends_128_bit_words_with_the_extension_metadata():
    # months << 96 | days (32 bits) << 64 | microseconds (64 bits), as Databend's months_days_micros
    schema, columns = encoded("SELECT to_interval('1 month 2 days 3 microseconds') a, "
                              "CAST(NULL AS INTERVAL) b, to_interval('-1 day') c")
    assert [f.type for f in schema] == [pa.decimal128(38, 0)] * 3
    assert schema[0].metadata == {b"Extension": b"Interval"}
    assert columns[0] == [Decimal((1 << 96) | (2 << 64) | 3)]
    assert columns[1] == [None]
    assert columns[2] == [Decimal(0xFFFFFFFF << 64)]
