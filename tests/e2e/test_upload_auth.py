"""Uploads authenticate on their headers (the code review's N5): a real `twistd queryhttp` answers
401 or 403 with `Connection: close` before it reads any of the body, so unauthenticated clients
cannot make it hold their bodies; the bytes of the uploads in flight are bounded too (503)."""

from __future__ import annotations

import base64
import socket

import pytest

from tests.e2e.server import RunningServer
from tests.e2e.test_twistd import post

BODY_BYTES = 200 * 1024 * 1024
CHUNK = b"x" * (1024 * 1024)


def _basic(user: str, password: str) -> bytes:
    return b"Authorization: Basic " + base64.b64encode(f"{user}:{password}".encode()) + b"\r\n"


def _upload_headers(port: int, length: int, auth: bytes = b"", path: bytes = b"/v1/upload_to_stage",
                    method: bytes = b"PUT") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(method + b" " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth
                 + b"X-Databend-Stage-Name: ~\r\nX-Databend-Query-Id: up\r\n"
                 + b"Content-Type: multipart/form-data; boundary=b\r\n"
                 + b"Content-Length: %d\r\n\r\n" % length)
    return sock


def _read_head(sock: socket.socket) -> bytes:
    """The answer's status line and headers (and what came with them), read before any body
    was sent: the server answered on the headers alone."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _send_body_until_refused(sock: socket.socket, limit: int) -> int:
    """Send the body a MiB at a time until the closed connection refuses it; bytes sent."""
    sent = 0
    try:
        while sent < limit:
            sock.sendall(CHUNK)
            sent += len(CHUNK)
    except OSError:
        pass
    return sent


def _rss_kb(server) -> int:
    return server.memory_kb()["VmRSS"]


def test_four_unauthenticated_200_mb_uploads_get_401_before_their_bodies(server):
    before = _rss_kb(server)
    sockets = [_upload_headers(server.port, BODY_BYTES) for _ in range(4)]
    try:
        for sock in sockets:
            head = _read_head(sock)
            assert head.startswith(b"HTTP/1.1 401 "), head
            assert b"Connection: close" in head and b"WWW-Authenticate: Basic" in head
            assert b"no authorization header" in head
        sent = [_send_body_until_refused(sock, BODY_BYTES) for sock in sockets]
        assert all(n < BODY_BYTES for n in sent), sent  # each connection was closed, not read
        grown_kb = _rss_kb(server) - before
        assert grown_kb < 50 * 1024, f"server RSS grew by {grown_kb} kB"
    finally:
        for sock in sockets:
            sock.close()


def test_a_wrong_password_is_refused_before_the_body(server):
    """A SQL user's password is hashed in a thread: the connection stops reading meanwhile."""
    status, answer = post(server.url, {"sql": "CREATE USER IF NOT EXISTS uploader IDENTIFIED BY 'right'"})
    assert status == 200 and answer["error"] is None
    sock = _upload_headers(server.port, BODY_BYTES, auth=_basic("uploader", "wrong"))
    try:
        head = _read_head(sock)
        assert head.startswith(b"HTTP/1.1 401 ") and b"Connection: close" in head, head
        assert b"wrong password" in head
        assert _send_body_until_refused(sock, BODY_BYTES) < BODY_BYTES
    finally:
        sock.close()


def test_a_bad_presign_token_is_refused_before_the_body(server):
    sock = _upload_headers(server.port, BODY_BYTES, path=b"/v1/presigned/not.valid")
    try:
        head = _read_head(sock)
        assert head.startswith(b"HTTP/1.1 403 ") and b"Connection: close" in head, head
    finally:
        sock.close()


def _multipart(name: str, data: bytes) -> bytes:
    return (b"--b\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"%s\"\r\n"
            b"Content-Type: application/octet-stream\r\n\r\n" % name.encode() + data + b"\r\n--b--\r\n")


def test_an_authenticated_upload_larger_than_memory_spooling_is_stored(server):
    data = b"1\n" * (2 * 1024 * 1024)  # 4 MiB: spooled to a temporary file while it arrives
    body = _multipart("big.csv", data)
    sock = _upload_headers(server.port, len(body), auth=_basic("root", ""))
    try:
        sock.sendall(body)
        head = _read_head(sock)
        assert head.startswith(b"HTTP/1.1 200 "), head
    finally:
        sock.close()
    status, answer = post(server.url, {"sql": "LIST @~/big.csv"})
    assert status == 200 and [row[:2] for row in answer["data"]] == [["big.csv", str(len(data))]], answer


@pytest.fixture(scope="module")
def small_budget_server():
    running = RunningServer("--max_upload_inflight_bytes", "3000000")
    yield running
    running.stop()


def test_uploads_past_the_in_flight_budget_get_503_before_their_bodies(small_budget_server):
    port = small_budget_server.port
    first = _upload_headers(port, 2_000_000, auth=_basic("root", ""))  # held while its body is awaited
    try:
        second = _upload_headers(port, 2_000_000, auth=_basic("root", ""))
        try:
            head = _read_head(second)
            assert head.startswith(b"HTTP/1.1 503 ") and b"Connection: close" in head, head
            assert b"--max_upload_inflight_bytes" in head
        finally:
            second.close()
    finally:
        first.close()  # its share is released when its connection is lost
    body = _multipart("after.csv", b"7\n")
    sock = _upload_headers(port, len(body), auth=_basic("root", ""))
    try:
        sock.sendall(body)
        assert _read_head(sock).startswith(b"HTTP/1.1 200 ")
    finally:
        sock.close()
