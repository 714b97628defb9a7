"""A server child process (e.g. `twistd queryhttp`) on 127.0.0.1, found by its listening log line.

Shared by the HTTP benchmark and the end-to-end tests."""

from __future__ import annotations

import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

LISTENING = re.compile(rb"listening on (https?)://127\.0\.0\.1:(\d+)/")


def twistd_command() -> list[str]:
    """twistd of this interpreter's environment (its bin/ first, then PATH, then -m twisted)."""
    exe = Path(sys.executable).with_name("twistd")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("twistd")
    return [found] if found else [sys.executable, "-m", "twisted"]


def queryhttp_command(*extra_args: str) -> list[str]:
    """`twistd -n queryhttp` on a free 127.0.0.1 port, without a pid file."""
    return [*twistd_command(), "-n", "--pidfile=", "queryhttp",
            "--http_handler_host", "127.0.0.1", "--http_handler_port", "0", *extra_args]


class ServerProcess:
    """A child process that logs 'listening on http[s]://127.0.0.1:PORT/...'; `port` and `url`
    once it does. Its output is drained by a thread (a chatty server never blocks on a full
    pipe); the last `keep_lines` lines are kept in `output`."""

    def __init__(self, command: list[str], name: str = "server", timeout: float = 30.0,
                 env=None, preexec_fn=None, keep_lines: int = 10_000):
        self.name = name
        self.port = None
        self.url = None
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        env=env if env is not None else dict(os.environ),
                                        preexec_fn=preexec_fn, start_new_session=True)
        self._lines: collections.deque[bytes] = collections.deque(maxlen=keep_lines)
        self._listening = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        try:
            listening = self._listening.wait(timeout)
        except BaseException:  # e.g. a caller's time limit fired: leave no orphan behind
            self.stop(grace=1.0)
            raise
        if not listening or self.port is None:  # timed out, or it exited before listening
            self.stop()
            raise RuntimeError(f"{name} did not start:\n" + self.output.decode(errors="replace"))

    def _drain(self):
        for line in self.process.stdout:
            self._lines.append(line)
            m = LISTENING.search(line)
            if m and not self._listening.is_set():
                self.port = int(m.group(2))
                self.url = f"{m.group(1).decode()}://127.0.0.1:{self.port}"
                self._listening.set()
        self.process.stdout.close()
        self._listening.set()  # the output ended: it exited, whether it listened or not

    @property
    def output(self) -> bytes:
        return b"".join(self._lines)

    def wait_for_output(self, needle: bytes, timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.output:
                return True
            time.sleep(0.05)
        return False

    def memory_kb(self) -> dict[str, int]:
        """{'VmRSS': kB, 'VmHWM': kB} from /proc/<pid>/status (empty if unavailable)."""
        out = {}
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith(("VmRSS:", "VmHWM:")):
                        key, value = line.split(":", 1)
                        out[key] = int(value.split()[0])
        except OSError:
            pass
        return out

    def cpu_seconds(self) -> float | None:
        """User + system CPU time the process used so far (/proc/<pid>/stat), None if unavailable:
        a measure the other processes of a busy machine disturb less than wall-clock rates."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        # after the command name: state is field 3, utime and stime fields 14 and 15
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, grace: float = 10.0):
        """SIGTERM, then SIGKILL after `grace` seconds (a server busy in one long computation
        only handles the signal once the computation ends)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
