"""A transaction through the real Databend driver against `twistd queryhttp`: its session
carries txn_state back and forth, and other connections see the rows only after COMMIT."""

import pytest

databend_driver = pytest.importorskip("databend_driver")


def connect(server):
    client = databend_driver.BlockingDatabendClient(
        f"databend://root:@127.0.0.1:{server.port}/default?sslmode=disable")
    return client.get_conn()


def count(conn, table):
    return conn.query_row(f"SELECT count(*) FROM {table}").values()[0]


def test_driver_transaction_commit_and_rollback(server):
    conn, other = connect(server), connect(server)
    conn.exec("CREATE TABLE txn_t (x INT)")
    conn.exec("BEGIN")
    conn.exec("INSERT INTO txn_t VALUES (1), (2)")
    assert count(conn, "txn_t") == 2  # its own writes
    assert count(other, "txn_t") == 0
    conn.exec("COMMIT")
    assert count(other, "txn_t") == 2
    conn.exec("BEGIN")
    conn.exec("DELETE FROM txn_t")
    assert count(conn, "txn_t") == 0
    conn.exec("ROLLBACK")
    assert count(conn, "txn_t") == 2 and count(other, "txn_t") == 2


def test_driver_failed_transaction_refuses_statements_until_rollback(server):
    conn = connect(server)
    conn.exec("CREATE TABLE txn_f (x INT)")
    conn.exec("BEGIN")
    conn.exec("INSERT INTO txn_f VALUES (1)")
    with pytest.raises(Exception, match="1065"):
        conn.exec("SELECT nope FROM txn_f")
    with pytest.raises(Exception, match="4002"):
        conn.exec("INSERT INTO txn_f VALUES (2)")
    conn.exec("ROLLBACK")
    assert count(conn, "txn_f") == 0
