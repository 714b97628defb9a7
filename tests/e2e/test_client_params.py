"""databend-driver >= 0.34 as it talks to a current server: `params` sent with every
parameterized call, and its bulk paths as `INSERT ... FROM @~/client/load/N FILE_FORMAT = (...)`.
The driver takes those paths only when the login reports a version above 1.2.900, as this
server's does (1.2.934)."""

import pytest

from tests.e2e.server import RunningServer

databend_driver = pytest.importorskip("databend_driver")


@pytest.fixture(scope="module")
def client():
    server = RunningServer()
    try:
        yield databend_driver.BlockingDatabendClient(
            f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    finally:
        server.stop()


@pytest.fixture(scope="module")
def conn(client):
    connection = client.get_conn()
    connection.exec("CREATE TABLE t (a INT, b STRING)")
    return connection


def values(rows):
    return [tuple(row.values()) for row in rows]


def test_exec_with_positional_params(conn):
    assert conn.exec("INSERT INTO t VALUES (?, ?)", (1, "'); DROP TABLE t; --")) == 1
    assert conn.query_row("SELECT b FROM t WHERE a = ?", (1,)).values() == ("'); DROP TABLE t; --",)


def test_query_row_with_named_params(conn):
    assert conn.query_row("SELECT :x + 1, :y", {"x": 41, "y": "z"}).values() == (42, "z")


def test_cursor_executemany(client, conn):
    cursor = client.cursor()
    cursor.executemany("INSERT INTO t VALUES (?, ?)", [(10, "x"), (11, "y")])
    assert values(conn.query_iter("SELECT a, b FROM t WHERE a >= 10 ORDER BY a")) == [
        (10, "x"), (11, "y")]


def test_stream_load(conn):
    conn.exec("CREATE TABLE s (a INT, b STRING)")
    conn.stream_load("INSERT INTO s VALUES", [["1", "p"], ["2", "q,r"]])
    assert values(conn.query_iter("SELECT a, b FROM s ORDER BY a")) == [(1, "p"), (2, "q,r")]


def test_load_file(conn, tmp_path):
    conn.exec("CREATE TABLE f (a INT, b STRING)")
    path = tmp_path / "rows.csv"
    path.write_text("5,e\n6,f\n")
    conn.load_file("INSERT INTO f VALUES", str(path), "stage", {"type": "CSV"})
    assert values(conn.query_iter("SELECT a, b FROM f ORDER BY a")) == [(5, "e"), (6, "f")]
