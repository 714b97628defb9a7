"""Start and stop a real `twistd -n queryhttp` on a free 127.0.0.1 port for end-to-end tests."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
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
    """A twistd child process; `port` and `url` once it listens."""

    def __init__(self, *extra_args: str, timeout: float = 30.0):
        self.process = subprocess.Popen(
            [*twistd_command(), "-n", "--pidfile=", "queryhttp",
             "--http_handler_host", "127.0.0.1", "--http_handler_port", "0", *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ),
        )
        self.output = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output += line
            m = LISTENING.search(line)
            if m:
                self.port = int(m.group(1))
                self.url = f"http://127.0.0.1:{self.port}"
                return
        self.stop()
        raise RuntimeError("twistd queryhttp did not start:\n" + self.output.decode(errors="replace"))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        rest = self.process.stdout.read() if self.process.stdout else b""
        self.output += rest or b""
        if self.process.stdout:
            self.process.stdout.close()
