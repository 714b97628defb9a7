"""How the real `twistd -n queryhttp` starts and fails: each start-up failure is one line on
stderr, exit status 1, and leaves nothing behind (no data directory, no new log segment, no
twistd.pid); --version; the start log's console URL and sign-in hint; failed logins in the log;
/metrics' process and build series."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bench.server_process import twistd_command
from tests.e2e.server import RunningServer
from tests.e2e.test_twistd import call, post


def start(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`twistd -n queryhttp ARGS` in `cwd`, to its end (as a user types it: no --pidfile)."""
    return subprocess.run([*twistd_command(), "-n", "queryhttp", *args], cwd=cwd,
                          capture_output=True, timeout=60)


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and directory under `root`: (size, mtime in ns) by relative path."""
    found = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(directory, name)
            st = path.lstat()
            found[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return found


def refused(result: subprocess.CompletedProcess, *fragments: str) -> str:
    """The one line a refused start printed, checked: exit status 1, nothing on stdout (no
    help text, no log), one line on stderr that holds each fragment."""
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert result.stdout == b""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("queryhttp: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


@pytest.fixture
def listening_socket():
    """A port another program listens on."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def test_a_busy_port_is_refused_before_the_data_directory_is_opened(tmp_path, listening_socket):
    data = tmp_path / "data"
    engine.Database(data_dir=str(data)).close()  # a data directory a server left
    before = tree(tmp_path)
    assert any(name.startswith("data/wal-") for name in before)
    result = start(tmp_path, "--http_handler_port", str(listening_socket), "--data_dir", "data")
    refused(result, f"cannot listen on 127.0.0.1:{listening_socket}", "already in use",
            "--http_handler_port")
    assert tree(tmp_path) == before  # not recovered: no new log segment, no twistd.pid


def test_a_busy_port_creates_no_data_directory(tmp_path, listening_socket):
    result = start(tmp_path, "--http_handler_port", str(listening_socket), "--data_dir", "new")
    refused(result, "already in use")
    assert tree(tmp_path) == {}


@pytest.mark.parametrize("args, reason", [
    (["--port", "8000"], "option --port not recognized"),
    (["--http_handler_port", "99999"], "--http_handler_port must be between 0 and 65535"),
    (["--wire_format", "json"], "--wire_format must be one of auto, spec, databend"),
])
def test_a_bad_option_gives_its_reason_alone(tmp_path, args, reason):
    line = refused(start(tmp_path, *args, "--data_dir", "data"), reason, "--help")
    assert line.index(reason) < 40  # the reason first, then where the options are listed
    assert tree(tmp_path) == {}


def test_a_data_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "afile").write_text("x")
    before = tree(tmp_path)
    refused(start(tmp_path, "--data_dir", "afile"), "--data_dir afile", "is not a directory")
    refused(start(tmp_path, "--data_dir", "afile/sub"), "cannot be created",
            f"{tmp_path / 'afile'} is not a directory")
    assert tree(tmp_path) == before


@pytest.fixture
def unwritable_dir(tmp_path):
    """A directory this process cannot write in: mode 0500, or for root (whom modes do not
    stop) the immutable attribute."""
    path = tmp_path / "locked"
    path.mkdir(mode=0o700)
    if os.geteuid() != 0:
        path.chmod(0o500)
        yield path
        path.chmod(0o700)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root, and chattr +i is not available to make a directory "
                    "unwritable")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_unwritable_data_dir_is_refused(tmp_path, unwritable_dir):
    before = tree(tmp_path)
    refused(start(tmp_path, "--data_dir", "locked"), "--data_dir locked", "is not writable")
    refused(start(tmp_path, "--data_dir", "locked/sub"), "cannot be created",
            f"{unwritable_dir} is not writable")
    assert tree(tmp_path) == before


def test_version_names_queryhttp_and_the_databend_version(tmp_path):
    from web.build import queryhttp_version

    result = start(tmp_path, "--version")
    assert result.returncode == 0 and result.stderr == b""
    line = result.stdout.decode().strip()
    assert line.startswith(f"queryhttp {queryhttp_version()}, answering as Databend "
                           f"{engine.VERSION} (Twisted ")
    assert tree(tmp_path) == {}


@pytest.fixture(scope="module")
def data_server(tmp_path_factory):
    """One server with a data directory, for the tests that need it running."""
    data = tmp_path_factory.mktemp("served") / "data"
    running = RunningServer("--data_dir", str(data))
    running.data = data
    yield running
    running.stop()


def test_a_second_server_on_the_data_directory_names_the_first(data_server, tmp_path):
    before = tree(data_server.data)
    result = start(tmp_path, "--http_handler_port", "0", "--data_dir", str(data_server.data))
    refused(result, f"data directory {data_server.data} is in use by another process "
                    f"(pid {data_server.process.pid})")
    assert tree(data_server.data) == before
    assert tree(tmp_path) == {}


def test_the_start_log_gives_the_console_url_and_who_signs_in(data_server):
    port = data_server.port
    assert data_server.wait_for_output(
        f"queryhttp console at http://127.0.0.1:{port}/ : sign in as root with an empty "
        "password (no --users_file given)".encode())


def test_a_failed_login_is_logged_once_per_window(data_server):
    for _ in range(2):
        assert call(data_server.url, "/v1/query", {"sql": "SELECT 1"},
                    auth=("mallory", "guess"))[0] == 401
    # a third, distinct failure: once its line is out, the second's would be too
    assert call(data_server.url, "/v1/query", {"sql": "SELECT 1"}, auth=("eve", "x"))[0] == 401
    assert data_server.wait_for_output(b"login refused: user 'eve' from 127.0.0.1: unknown user")
    assert data_server.output.count(
        b"login refused: user 'mallory' from 127.0.0.1: unknown user") == 1


def test_metrics_have_process_and_build_series(data_server):
    status, body = call(data_server.url, "/metrics")
    assert status == 200
    text = body.decode()
    for series in ("process_resident_memory_bytes ", "process_cpu_seconds_total ",
                   "process_start_time_seconds ", "process_open_fds "):
        assert f"\n{series}" in text, series
    build = [line for line in text.splitlines() if line.startswith("queryhttp_build_info{")]
    assert len(build) == 1 and f'databend_version="{engine.VERSION}"' in build[0]
    assert build[0].endswith(" 1.0")
    assert post(data_server.url, {"sql": "SELECT 1"})[0] == 200  # still serving


def test_web_auth_help_prints_help_and_makes_no_user(tmp_path):
    result = subprocess.run([sys.executable, "-m", "web.auth", "--help"], cwd=tmp_path,
                            capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert result.returncode == 0
    assert result.stdout.startswith(b"usage: python -m web.auth [-h] NAME")
    assert b"--help:" not in result.stdout  # no users-file line for a user named --help
