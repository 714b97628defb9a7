"""A real `twistd queryhttp --data_dir` over a log with a record that does not fit (code review
N10): the start stops with "cannot open --data_dir ...: <file> offset <n>: <why>" and exit
status 1, never a traceback; --recover_to_last_good starts without the bad record and says what
it dropped; a data directory open to others is refused (N11)."""

from __future__ import annotations

import glob
import json
import os
import signal
import stat
import subprocess

import pytest

from bench.server_process import queryhttp_command
from engine.storage import checkpoint_files, journal
from tests.e2e.server import RunningServer
from tests.e2e.test_durability import ok
from tests.engine.test_recovery import append, write_records


def failed_start(data_dir: str, *extra: str) -> tuple[int, str]:
    """(exit status, output) of a server start that is expected to stop."""
    done = subprocess.run(queryhttp_command("--data_dir", data_dir, *extra), capture_output=True,
                          timeout=60, env=dict(os.environ))
    return done.returncode, (done.stdout + done.stderr).decode(errors="replace")


def table_id(data_dir: str, name: str) -> int:
    """The id the log's newest catalog image gives table `name`."""
    found = None
    for segment in sorted(glob.glob(os.path.join(data_dir, "wal-*.log"))):
        with open(segment, "rb") as f:
            for payload in journal.read_records(f.read(), len(journal.MAGIC))[0]:
                for change in json.loads(payload)["changes"]:
                    if change["op"] == "catalog":
                        found = {t["name"]: t["id"] for t in change["image"]["tables"]}.get(name, found)
    return found


@pytest.fixture(scope="module")
def crashed(tmp_path_factory):
    """A data directory holding t (a INT, b VARCHAR) = (1, 'one'), (2, 'two'), left by SIGKILL."""
    data_dir = str(tmp_path_factory.mktemp("recovery") / "data")
    server = RunningServer("--data_dir", data_dir)
    try:
        ok(server.url, "CREATE TABLE t (a INT, b VARCHAR)")
        ok(server.url, "INSERT INTO t VALUES (1, 'one'), (2, 'two')")
    finally:
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    return data_dir


def copy_of(data_dir: str, tmp_path) -> str:
    target = str(tmp_path / "data")
    os.mkdir(target, 0o700)
    for name in os.listdir(data_dir):
        if name != "LOCK":
            with open(os.path.join(data_dir, name), "rb") as f, open(os.path.join(target, name), "wb") as out:
                out.write(f.read())
    return target


@pytest.mark.parametrize("case", ["column count", "unknown table", "value type"])
def test_a_record_that_does_not_fit_stops_the_start_with_a_clear_message(crashed, tmp_path, case):
    data_dir = copy_of(crashed, tmp_path)
    tid = table_id(data_dir, "t")
    change, why = {"column count": (append(tid, [3]), "1 columns where the table has 2"),
                   "unknown table": (append(tid + 100, [3], ["x"]), "which the catalog never had"),
                   "value type": (append(tid, [3], [3]), "column 2 holds a JSON number where a String")}[case]
    (name, offset), = write_records(data_dir, [change])
    status, output = failed_start(data_dir)
    assert status == 1, output
    assert f"cannot open --data_dir {data_dir}: {name} offset {offset}: " in output and why in output
    assert "Traceback" not in output and "--recover_to_last_good" in output


def test_recover_to_last_good_starts_without_the_bad_record_and_says_so(crashed, tmp_path):
    data_dir = copy_of(crashed, tmp_path)
    tid = table_id(data_dir, "t")
    (name, bad), _ = write_records(data_dir, [append(tid, [3])], [append(tid, [4], ["four"])])
    assert failed_start(data_dir)[0] == 1
    server = RunningServer("--data_dir", data_dir, "--recover_to_last_good")
    try:
        said = server.output.decode(errors="replace")
        assert f"recover_to_last_good: {name} offset {bad}: append to table default.t" in said
        assert "dropped 2 log records" in said and f"{name}.dropped" in said
        assert ok(server.url, "SELECT a, b FROM t ORDER BY a") == [["1", "one"], ["2", "two"]]
        ok(server.url, "INSERT INTO t VALUES (5, 'five')")
    finally:
        server.stop()
    server = RunningServer("--data_dir", data_dir)  # a plain start works again, nothing lost since
    try:
        assert ok(server.url, "SELECT a FROM t ORDER BY a") == [["1"], ["2"], ["5"]]
    finally:
        server.stop()


def test_a_checkpoint_that_does_not_parse_stops_the_start_with_a_clear_message(crashed, tmp_path):
    data_dir = copy_of(crashed, tmp_path)
    server = RunningServer("--data_dir", data_dir)
    server.stop()  # a clean stop writes a checkpoint
    path, = glob.glob(os.path.join(data_dir, "checkpoint-*.qhc"))
    magic = checkpoint_files.CHECKPOINT_MAGIC
    with open(path, "rb") as f:
        payloads = journal.read_records(f.read(), len(magic))[0]
    with open(path, "wb") as f:
        f.write(magic)
        journal.write_record(f, [payloads[0]])
        second = f.tell()
        journal.write_record(f, [b'{"op":"append","table":1,"rows":{"n":'])  # not JSON
        for payload in payloads[2:]:
            journal.write_record(f, [payload])
    for extra in ((), ("--recover_to_last_good",)):
        status, output = failed_start(data_dir, *extra)
        assert status == 1 and "Traceback" not in output, output
        assert f"{os.path.basename(path)} offset {second}: not JSON" in output


def test_a_data_directory_open_to_others_is_refused(tmp_path):
    data_dir = str(tmp_path / "data")
    os.mkdir(data_dir)
    os.chmod(data_dir, 0o755)
    status, output = failed_start(data_dir)
    assert status == 1 and f"chmod 700 {data_dir}" in output and "Traceback" not in output
    os.chmod(data_dir, 0o700)
    server = RunningServer("--data_dir", data_dir)
    server.stop()
    modes = {n: stat.S_IMODE(os.stat(os.path.join(data_dir, n)).st_mode) for n in os.listdir(data_dir)}
    assert modes and set(modes.values()) == {0o600}, modes
