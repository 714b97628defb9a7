"""The real Databend clients (databend-driver, databend-py) against `twistd queryhttp`."""

import pytest

databend_driver = pytest.importorskip("databend_driver")
databend_py = pytest.importorskip("databend_py")


@pytest.fixture(scope="module")
def conn(server):
    client = databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    return client.get_conn()


def values(rows):
    return [tuple(row.values()) for row in rows]


def test_driver_connects_and_reads_the_version(conn):
    assert "v1.2.934-" in conn.version()


def test_driver_database_table_insert_select(conn):
    conn.exec("CREATE DATABASE drv")
    conn.exec("USE drv")  # persists through the session the server echoes
    conn.exec("CREATE TABLE t (x INT, y VARCHAR)")
    assert conn.exec("INSERT INTO t VALUES (1, 'a'), (2, NULL), (3, 'c')") == 3
    assert values(conn.query_iter("SELECT x, y FROM t ORDER BY x")) == [
        (1, "a"), (2, None), (3, "c")]
    assert conn.query_row("SELECT currentDatabase()").values() == ("drv",)


def test_driver_pages_every_row_once_in_order(conn):
    numbers = [row.values()[0] for row in conn.query_iter("SELECT * FROM numbers(35000)")]
    assert numbers == list(range(35000))  # four pages of at most 10,000 rows


def test_driver_keeps_its_session_over_pages_that_carry_none(conn):
    conn.exec("CREATE DATABASE IF NOT EXISTS drv_pages")
    conn.exec("USE drv_pages")
    # pages after the first answer carry `session: null` (unchanged): the driver keeps its own
    assert sum(1 for _ in conn.query_iter("SELECT * FROM numbers(25000)")) == 25000
    assert conn.query_row("SELECT currentDatabase()").values() == ("drv_pages",)


def test_driver_set_persists_to_the_next_statement(conn):
    conn.exec("SET max_threads = 7")
    row = conn.query_row("SELECT value FROM system.settings WHERE name = 'max_threads'")
    assert row.values() == ("7",)


def test_driver_failing_query_raises_its_error_with_code_1025(conn):
    with pytest.raises(databend_driver.ProgrammingError, match=r"\[1025\]"):
        conn.query_row("SELECT * FROM no_such_table")


@pytest.fixture(scope="module")
def py_client(server):
    return databend_py.Client("127.0.0.1", port=server.port, database="default",
                              session_settings={"database": "default",
                                                "settings": {"format_null_as_str": "1"}},
                              result_config={"null_to_none": True})


def test_py_database_table_insert_select_with_nulls(py_client):
    c = py_client
    c.execute("CREATE DATABASE pyc")
    c.execute("USE pyc")
    c.execute("CREATE TABLE t (x INT, y VARCHAR)")
    assert c.execute("INSERT INTO t VALUES (1, 'a'), (2, NULL)") == ([], [(2,)])
    assert c.execute("SELECT x, y FROM t ORDER BY x") == ([], [(1, "a"), (2, None)])
    assert c.execute("SELECT NULL AS n")[1] == [(None,)]


def test_py_pages_every_row_once_in_order(server):
    client = databend_py.Client.from_url(
        f"databend://root:@127.0.0.1:{server.port}/default?secure=false")
    _, rows = client.execute("SELECT * FROM numbers(25000)")
    assert rows == [(i,) for i in range(25000)]


def test_py_set_persists_to_the_next_statement(py_client):
    py_client.execute("SET max_threads = 5")
    _, rows = py_client.execute("SELECT value FROM system.settings WHERE name = 'max_threads'")
    assert rows == [("5",)]


def test_py_failing_query_raises_its_error_with_code_1025(py_client):
    with pytest.raises(databend_py.errors.UnexpectedException, match='"code":1025'):
        py_client.execute("SELECT * FROM no_such_table")


def test_driver_stream_load_uploads_to_the_stage_and_inserts(conn):
    conn.exec("CREATE TABLE loaded (x INT, y VARCHAR)")
    written = conn.stream_load("INSERT INTO loaded VALUES", [["1", "a"], ["2", "b,c"], ["3", "d"]])
    assert written is not None
    assert values(conn.query_iter("SELECT x, y FROM loaded ORDER BY x")) == [
        (1, "a"), (2, "b,c"), (3, "d")]


def test_driver_load_file_reads_a_local_csv(conn, tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("10,ten\n20,twenty\n")
    conn.exec("CREATE TABLE from_file (x INT, y VARCHAR)")
    conn.load_file("INSERT INTO from_file VALUES", str(path), format_options={"type": "CSV"})
    assert values(conn.query_iter("SELECT x, y FROM from_file ORDER BY x")) == [
        (10, "ten"), (20, "twenty")]


def test_driver_cursor_executemany_inserts_every_row(server):
    client = databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    cursor = client.cursor()
    cursor.execute("CREATE TABLE many (x INT, y VARCHAR)")
    cursor.executemany("INSERT INTO many VALUES (?, ?)", [(i, f"v{i}") for i in range(500)])
    cursor.execute("SELECT count(*), sum(x), max(y) FROM many")
    assert cursor.fetchall()[0].values() == (500, sum(range(500)), "v99")


def test_py_insert_with_rows_goes_through_presign_and_the_stage_attachment(py_client):
    py_client.execute("CREATE TABLE default.py_rows (x INT, y VARCHAR)")
    py_client.execute("INSERT INTO default.py_rows (x, y) VALUES", [(1, "a"), (2, "b,c")])
    _, rows = py_client.execute("SELECT x, y FROM default.py_rows ORDER BY x")
    assert rows == [(1, "a"), (2, "b,c")]


def test_py_client_insert_uses_copy_into(py_client):
    py_client.execute("CREATE TABLE default.py_copy (x INT, y VARCHAR)")
    py_client.insert("default", "py_copy", [(5, "five"), (6, "six")])
    _, rows = py_client.execute("SELECT x, y FROM default.py_copy ORDER BY x")
    assert rows == [(5, "five"), (6, "six")]


def test_py_upload_to_stage_then_list(py_client):
    path = py_client.upload_to_stage("@~", "uploaded.csv", [(1, "x")])
    assert path == "@~/uploaded.csv"
    _, rows = py_client.execute("LIST @~/uploaded.csv")
    assert rows[0][:2] == ("uploaded.csv", 5)


def test_py_replace_goes_through_presign_and_a_replace_into_attachment(py_client):
    py_client.execute("CREATE TABLE default.py_replace (k INT, v VARCHAR)")
    py_client.execute("INSERT INTO default.py_replace VALUES (1, 'old'), (2, 'keep')")
    py_client.replace("default", "py_replace", ["k"], [(1, "new"), (3, "added")])
    _, rows = py_client.execute("SELECT k, v FROM default.py_replace ORDER BY k")
    assert rows == [(1, "new"), (2, "keep"), (3, "added")]


def test_driver_logs_in_as_a_user_sql_made_and_meets_its_grants(conn, server):
    conn.exec("CREATE TABLE IF NOT EXISTS default.secrets (x INT)")
    conn.exec("INSERT INTO default.secrets VALUES (42)")
    conn.exec("CREATE USER IF NOT EXISTS carol IDENTIFIED BY 'pw'")
    carol = databend_driver.BlockingDatabendClient(
        f"databend://carol:pw@127.0.0.1:{server.port}/default?sslmode=disable").get_conn()
    assert carol.query_row("SELECT current_user(), current_role()").values() == ("'carol'@'%'", "public")
    with pytest.raises(databend_driver.OperationalError, match=r"\[1063\]Permission denied"):
        carol.query_row("SELECT x FROM default.secrets")
    conn.exec("GRANT SELECT ON default.secrets TO carol")
    assert carol.query_row("SELECT x FROM default.secrets").values() == (42,)
    wrong = databend_driver.BlockingDatabendClient(
        f"databend://carol:nope@127.0.0.1:{server.port}/default?sslmode=disable")
    with pytest.raises(Exception, match="(?i)auth|401|password"):
        wrong.get_conn().query_row("SELECT 1")


def test_driver_reads_timestamps_at_their_instant_in_a_session_time_zone(server):
    """The driver reads Timestamp text in the answer's settings.timezone: with a session zone
    (SET or the DSN's timezone=) the instants it returns are the stored ones, not hours off."""
    import datetime

    stored = datetime.datetime(2024, 2, 29, 13, 45, 6, 123456, tzinfo=datetime.UTC)
    for dsn_zone, set_zone in (("", "America/New_York"), ("&timezone=Asia/Shanghai", None)):
        client = databend_driver.BlockingDatabendClient(
            f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable{dsn_zone}")
        c = client.get_conn()
        if set_zone:
            c.exec(f"SET timezone = '{set_zone}'")
        c.exec("CREATE OR REPLACE TABLE tz_instants (ts TIMESTAMP)")
        c.exec("INSERT INTO tz_instants SELECT to_timestamp(1709214306123456)")  # microseconds
        (value,) = c.query_row("SELECT ts FROM tz_instants").values()
        assert value.astimezone(datetime.UTC) == stored
        (now,) = c.query_row("SELECT now()").values()
        assert abs((now - datetime.datetime.now(datetime.UTC)).total_seconds()) < 60


def test_driver_temporary_tables_belong_to_one_connection_and_go_with_it(server):
    client = databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    first, second = client.get_conn(), client.get_conn()
    first.exec("CREATE TEMP TABLE scratch (x INT)")
    first.exec("INSERT INTO scratch VALUES (1), (2)")
    assert first.query_row("SELECT sum(x) FROM scratch").values() == (3,)
    with pytest.raises(databend_driver.ProgrammingError, match=r"\[1025\]"):
        second.query_row("SELECT * FROM scratch")
    first.exec("SET VARIABLE answer = 42")
    assert first.query_row("SELECT $answer, last_query_id() != ''").values() == (42, True)
    first.close()  # logs out: the session's temporary tables are dropped
    third = client.get_conn()
    with pytest.raises(databend_driver.ProgrammingError, match=r"\[1025\]"):
        third.query_row("SELECT * FROM scratch")
