"""Start and stop a real `twistd -n queryhttp` on a free 127.0.0.1 port for end-to-end tests."""

from __future__ import annotations

from bench.server_process import ServerProcess, queryhttp_command


class RunningServer(ServerProcess):
    """`twistd -n queryhttp` with `extra_args`; `port`, `url` and `output` once it listens."""

    def __init__(self, *extra_args: str, timeout: float = 30.0, env=None):
        super().__init__(queryhttp_command(*extra_args), name="twistd queryhttp", timeout=timeout,
                         env=env)
