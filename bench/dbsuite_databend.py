"""The embedded Databend engine as a backend of bench.dbsuite (``--engine databend``).

Each file runs in a worker process of the oracle's Python (``--databend-python``, default the
``DATABEND_PYTHON`` environment variable): bench/dbsuite_databend_worker.py with one fresh
``databend.SessionContext`` in its own scratch directory under a temporary directory. The worker
answers one SQL text at a time; this side enforces the per-record time limit (the engine runs
in Rust, where no Python signal reaches it) and survives the worker's death (a Rust panic that
aborts, a crash): the record fails, and so do the file's remaining records, since the session
they need is gone.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PYTHON_ENV = "DATABEND_PYTHON"
STARTUP_SECONDS = 120.0
INTERNAL = 1001


def default_python():
    """The oracle's interpreter named by the environment, or None."""
    return os.environ.get(PYTHON_ENV) or None


class DatabendBackend:
    """One worker process (one SessionContext) for a file; ``run`` as bench.dbsuite.Backend."""

    def __init__(self, timeout, python, failed_class):
        self.timeout = timeout
        self.Failed = failed_class
        self.dead = None                  # why the worker is gone, once it is
        self.scratch = tempfile.mkdtemp(prefix="dbsuite-databend-")
        env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
        self.process = subprocess.Popen(
            [python, "-m", "bench.dbsuite_databend_worker", self.scratch],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=self.scratch, env=env)
        self.pending = b""                # read from the worker, not yet a whole line
        self._read(STARTUP_SECONDS)

    def run(self, sql):
        """The rendered rows (lists of strings) of one SQL text; raises Failed."""
        if self.dead:
            raise self.Failed(INTERNAL, self.dead, "runner: databend worker gone (earlier record)")
        try:
            self.process.stdin.write(json.dumps({"sql": sql}).encode() + b"\n")
            self.process.stdin.flush()
        except OSError:
            self._kill("the databend worker died")
            raise self.Failed(INTERNAL, self.dead, "runner: databend worker died") from None
        answer = self._read(self.timeout)
        if "rows" in answer:
            return [["(empty)" if v == "" else v for v in row] for row in answer["rows"]]
        if "error" in answer:
            code, message = answer["error"]
            from bench.dbsuite import error_cause  # noqa: PLC0415 - avoids an import cycle

            raise self.Failed(code, message, error_cause(code, message))
        raise self.Failed(INTERNAL, f"panic: {answer.get('panic', '')}", "databend panic")

    def _read(self, limit):
        """The worker's next JSON answer within `limit` seconds (other output is skipped)."""
        deadline = time.monotonic() + limit
        fd = self.process.stdout.fileno()
        while True:
            line, sep, rest = self.pending.partition(b"\n")
            if sep:
                self.pending = rest
                try:
                    answer = json.loads(line)
                except ValueError:
                    continue              # the engine's own output, not an answer
                if isinstance(answer, dict):
                    return answer
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._kill(f"timeout after {limit}s")
                raise self.Failed(INTERNAL, "timeout", f"timeout after {limit}s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._kill("the databend worker died")
                raise self.Failed(INTERNAL, self.dead, "runner: databend worker died")
            self.pending += chunk

    def _kill(self, why):
        self.dead = why
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)
