"""One real `twistd queryhttp` server shared by the end-to-end tests of a module."""

import pytest

from tests.e2e.server import RunningServer


@pytest.fixture(scope="module")
def server():
    running = RunningServer()
    yield running
    running.stop()
