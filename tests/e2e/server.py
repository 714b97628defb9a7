"""Start and stop a real `twistd -n queryhttp` on a free 127.0.0.1 port for end-to-end tests."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

LISTENING = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)/")


def twistd_command() -> list[str]:
    exe = Path(sys.executable).with_name("twistd")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("twistd")
    return [found] if found else [sys.executable, "-m", "twisted"]


class RunningServer:
    """A twistd child process; `port` and `url` once it listens. Its output is drained by a
    thread (so a chatty server never blocks on a full pipe) and kept in `output`."""

    def __init__(self, *extra_args: str, timeout: float = 30.0):
        self.process = subprocess.Popen(
            [*twistd_command(), "-n", "--pidfile=", "queryhttp",
             "--http_handler_host", "127.0.0.1", "--http_handler_port", "0", *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ),
        )
        self._lines: list[bytes] = []
        self._listening = threading.Event()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        if not self._listening.wait(timeout):
            self.stop()
            raise RuntimeError("twistd queryhttp did not start:\n"
                               + self.output.decode(errors="replace"))

    def _drain(self):
        for line in self.process.stdout:
            self._lines.append(line)
            m = LISTENING.search(line)
            if m and not self._listening.is_set():
                self.port = int(m.group(1))
                self.url = f"http://127.0.0.1:{self.port}"
                self._listening.set()
        self.process.stdout.close()

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

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
