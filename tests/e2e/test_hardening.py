"""The hardened server over 127.0.0.1: long statements parse off the event loop, and SIGTERM
answers waiting polls and exits."""

import json
import signal
import socket
import threading

from tests.e2e.server import RunningServer
from tests.e2e.test_twistd import call, post


def raw_post(port: int, body: bytes, query_id: str) -> socket.socket:
    """Send a whole POST /v1/query on a fresh connection; the answer is read later."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Authorization: Basic cm9vdDo=\r\nContent-Type: application/json\r\n"
                 b"X-DATABEND-QUERY-ID: %s\r\n" % query_id.encode()
                 + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    return sock


def read_answer(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
    sock.close()
    return b"".join(chunks)


def test_select_1_is_answered_while_a_1_mib_statement_parses(server):
    items = ",".join(str(1_000_000_000 + i) for i in range(90_000))  # 990 KB of IN list
    sql = f"SELECT count(*) FROM numbers(3) WHERE number IN ({items})"
    big = raw_post(server.port, json.dumps({"sql": sql}).encode(), "big-in-list")
    order = []
    done = threading.Event()

    def wait_big():
        answer = read_answer(big)
        order.append(("big", answer))
        done.set()

    reader = threading.Thread(target=wait_big)
    reader.start()
    # the query exists once its body is read, just before its statement is parsed: parsed on
    # the event loop, the statement would delay this answer until after its own
    while call(server.url, "/v1/query/big-in-list")[0] == 404:
        pass
    status, small = post(server.url, {"sql": "SELECT 1"})
    order.append(("small", small))
    reader.join(120)
    assert done.is_set()
    assert [name for name, _ in order] == ["small", "big"]
    assert status == 200 and small["data"] == [["1"]]
    head, _, body = order[1][1].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert json.loads(body)["data"] == [["0"]]


def test_sigterm_answers_a_waiting_poll_and_exits():
    running = RunningServer()
    try:
        body = json.dumps({"sql": "SELECT count(*) FROM numbers(10000000000)",
                           "pagination": {"wait_time_secs": 30}}).encode()
        sock = socket.create_connection(("127.0.0.1", running.port), timeout=30)
        sock.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Authorization: Basic cm9vdDo=\r\nContent-Type: application/json\r\n"
                     b"X-DATABEND-QUERY-ID: long-one\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        # the event loop answers this only after it handled the POST, which then waits
        status, raw = call(running.url, "/v1/query/long-one")
        assert status == 200 and json.loads(raw)["state"] == "Running"
        running.process.send_signal(signal.SIGTERM)
        answer = read_answer(sock)
        head, _, payload = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200")
        a = json.loads(payload)
        assert a["state"] == "Failed" and a["error"]["code"] == 1043
        assert "server is shutting down" in a["error"]["message"]
        # twistd ends a SIGTERM shutdown by re-raising the signal: the status says so
        assert running.process.wait(timeout=10) in (0, -signal.SIGTERM)
        assert b"Traceback" not in running.output and b"Unhandled" not in running.output
    finally:
        running.stop()
