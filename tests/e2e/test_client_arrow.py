"""databend-driver with `body_format=arrow` against a real `twistd queryhttp`: it asks for Arrow
pages (the login reports 1.2.934, above the 1.2.835 the driver asks for) and
reads every common type equal to what the same driver reads from JSON pages, in a session time
zone and across pages."""

import pytest

from bench.server_process import ServerProcess, queryhttp_command

databend_driver = pytest.importorskip("databend_driver")
arrow_pages = pytest.importorskip("web.arrow_pages")
if arrow_pages.arrow_available() is None:
    pytest.skip("Arrow results need pyarrow (the arrow extra)", allow_module_level=True)

TYPES_SQL = (
    "SELECT number::UINT8 u8, (number::INT64 - 1)::INT16 i16, number::INT32 i32, number::INT64 i64, "
    "number::UINT64 u64, number / 4 f64, (number / 4)::FLOAT f32, number * 2.5 dec, "
    "(number + 1234567890123456789012345)::DECIMAL(40, 0) dec256, "
    "concat('x', number::STRING) s, to_binary(concat('b', number::STRING)) bin, "
    "'2024-02-29'::DATE + number::INT32 d, '2024-02-29 13:45:06.123456'::TIMESTAMP ts, "
    "number % 2 = 0 b, parse_json(concat('{\"k\": [', number::STRING, ', null]}')) v, "
    "[number, NULL] arr, {'k': number} m, (number, 'y') t, "
    "[('2024-01-01 00:00:00'::TIMESTAMP, number)] nested, "
    "IF(number = 1, NULL, number) nullable_int, IF(number = 1, NULL, 'z') nullable_str, "
    "NULL n, [] empty_array, {} empty_map "
    "FROM numbers(3) ORDER BY number")


@pytest.fixture(scope="module")
def server():
    running = ServerProcess(queryhttp_command(), name="twistd queryhttp")
    try:
        yield running
    finally:
        running.stop()


def connect(server, body_format, **options):
    query = "&".join(f"{k}={v}" for k, v in options.items())
    dsn = (f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable"
           f"&body_format={body_format}" + (f"&{query}" if query else ""))
    return databend_driver.BlockingDatabendClient(dsn).get_conn()


def rows(conn, sql):
    return [row.values() for row in conn.query_iter(sql)]


def test_every_common_type_reads_as_from_json(server):
    from_json = rows(connect(server, "json"), TYPES_SQL)
    from_arrow = rows(connect(server, "arrow"), TYPES_SQL)
    assert len(from_arrow) == 3
    assert from_arrow == from_json


def test_a_session_time_zone_gives_the_same_instants(server):
    sql = ("SELECT '2024-02-29 13:45:06'::TIMESTAMP ts, "
           "[('2024-01-01 00:00:00'::TIMESTAMP, 1)] nested, to_date('2024-02-29') d")
    for zone in ("Asia/Shanghai", "America/New_York"):
        from_json = rows(connect(server, "json", timezone=zone), sql)
        from_arrow = rows(connect(server, "arrow", timezone=zone), sql)
        assert from_arrow == from_json
        assert from_arrow[0][0].hour == 13  # the wall-clock time written, in that zone
    conn = connect(server, "arrow")
    conn.exec("SET timezone = 'Asia/Shanghai'")
    assert rows(conn, sql) == rows(connect(server, "json", timezone="Asia/Shanghai"), sql)


def test_a_bitmap_reads_as_its_numbers(server):
    """Arrow carries the bitmap itself (the driver lists its numbers), JSON only a placeholder:
    which also shows the driver did read Arrow pages."""
    assert rows(connect(server, "arrow"), "SELECT to_bitmap('1,2,70000')") == [("1,2,70000",)]
    assert rows(connect(server, "json"), "SELECT to_bitmap('1,2,70000')") == [("<bitmap binary>",)]


def test_a_result_of_many_pages(server):
    sql = "SELECT number, concat('x', number::STRING) FROM numbers(25000)"
    got = rows(connect(server, "arrow"), sql)
    assert got == [(n, f"x{n}") for n in range(25000)]

