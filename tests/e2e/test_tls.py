"""A real `twistd queryhttp` serving HTTPS on 127.0.0.1: queries over TLS (urllib and
databend-driver trusting the test CA), plain HTTP refused, PRESIGN's https:// URLs, mutual TLS,
failed logins logged, and the TLS start-up errors."""

import base64
import http.client
import json
import ssl
import subprocess
import urllib.error
import urllib.request

import databend_driver
import pytest

from bench.server_process import queryhttp_command
from tests.e2e.server import RunningServer
from tests.tls_certs import make_pki


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("pki"))


def tls_args(pki):
    return ["--http_handler_tls_server_cert", str(pki.server_cert),
            "--http_handler_tls_server_key", str(pki.server_key)]


@pytest.fixture(scope="module")
def tls_server(pki):
    running = RunningServer(*tls_args(pki))
    yield running
    running.stop()


def query(url, sql, context, auth=("root", "")):
    req = urllib.request.Request(url + "/v1/query", data=json.dumps({"sql": sql}).encode(),
                                 method="POST")
    req.add_header("Content-Type", "application/json")
    token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
    req.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(req, timeout=10, context=context) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        body = e.read()
        return e.code, json.loads(body) if body.startswith(b"{") else body.decode()


def trusting(pki, client_cert=False):
    context = ssl.create_default_context(cafile=str(pki.ca_cert))
    if client_cert:
        context.load_cert_chain(str(pki.client_cert), str(pki.client_key))
    return context


def test_https_query_with_the_test_ca(tls_server, pki):
    assert tls_server.url.startswith("https://127.0.0.1:")
    assert f"listening on https://127.0.0.1:{tls_server.port}/".encode() in tls_server.output
    status, answer = query(tls_server.url, "SELECT 1 + 1", trusting(pki))
    assert status == 200 and answer["data"] == [["2"]]


def test_an_untrusted_client_refuses_the_certificate(tls_server):
    with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
        query(tls_server.url, "SELECT 1", ssl.create_default_context())


def test_plain_http_to_the_tls_port_gets_no_answer(tls_server):
    plain = tls_server.url.replace("https://", "http://")
    with pytest.raises((http.client.HTTPException, ConnectionError, urllib.error.URLError)):
        query(plain, "SELECT 1", None)


def test_databend_driver_with_sslmode_require_and_the_test_ca(tls_server, pki):
    dsn = (f"databend://root:@127.0.0.1:{tls_server.port}/default"
           f"?sslmode=require&tls_ca_file={pki.ca_cert}")
    conn = databend_driver.BlockingDatabendClient(dsn).get_conn()
    assert conn.query_row("SELECT 40 + 2").values() == (42,)


def test_presigned_urls_are_https(tls_server, pki):
    context = trusting(pki)
    assert query(tls_server.url, "CREATE STAGE s", context)[1]["state"] == "Succeeded"
    status, answer = query(tls_server.url, "PRESIGN UPLOAD @s/a.csv", context)
    assert status == 200, answer
    url = answer["data"][0][2]
    assert url.startswith(f"https://127.0.0.1:{tls_server.port}/v1/presigned/")
    put = urllib.request.Request(url, data=b"1\n", method="PUT")
    with urllib.request.urlopen(put, timeout=10, context=context) as resp:
        assert resp.status == 200


def test_failed_logins_are_logged_with_the_client_address(tls_server, pki):
    status, answer = query(tls_server.url, "SELECT 1", trusting(pki), auth=("mallory", "guess"))
    assert status == 401
    assert answer == "Authentication error: unknown user or wrong password"
    assert tls_server.wait_for_output(
        b"login refused: user 'mallory' from 127.0.0.1: unknown user")
    assert b"guess" not in tls_server.output


def test_mutual_tls_requires_a_client_certificate_signed_by_the_ca(pki):
    running = RunningServer(*tls_args(pki),
                            "--http_handler_tls_server_root_ca_cert", str(pki.ca_cert))
    try:
        status, answer = query(running.url, "SELECT 1", trusting(pki, client_cert=True))
        assert status == 200 and answer["data"] == [["1"]]
        with pytest.raises((ssl.SSLError, urllib.error.URLError, ConnectionError,
                            http.client.HTTPException)):
            query(running.url, "SELECT 1", trusting(pki))
    finally:
        running.stop()


@pytest.mark.parametrize("args, message", [
    (lambda p: ["--http_handler_tls_server_cert", str(p.server_cert)],
     b"--http_handler_tls_server_cert needs --http_handler_tls_server_key"),
    (lambda p: ["--http_handler_tls_server_cert", str(p.server_cert),
                "--http_handler_tls_server_key", str(p.server_cert) + ".missing"],
     b"--http_handler_tls_server_key: cannot read"),
    (lambda p: ["--http_handler_tls_server_cert", str(p.server_key),
                "--http_handler_tls_server_key", str(p.server_key)],
     b"is not a PEM certificate"),
])
def test_tls_start_up_errors_are_one_line_without_a_traceback(pki, args, message):
    done = subprocess.run(queryhttp_command(*args(pki)), capture_output=True, timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and message in output, output
    assert b"Traceback" not in output


def test_a_non_loopback_host_with_roots_empty_password_does_not_start():
    command = queryhttp_command()
    command[command.index("127.0.0.1")] = "0.0.0.0"
    done = subprocess.run(command, capture_output=True, timeout=60)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and b"--allow_empty_root_password" in output, output
    assert b"Traceback" not in output
