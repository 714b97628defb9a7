"""Fixtures of the in-memory web tests: the harness, and failing on any logged Twisted error."""

import gc

import pytest
from twisted.logger import globalLogPublisher

from tests.web.harness import Harness


@pytest.fixture(autouse=True)
def no_logged_errors():
    """Fail the test if Twisted logged an error (e.g. "Unhandled error in Deferred")."""
    errors = []

    def observer(event):
        if event.get("isError") or "log_failure" in event:
            errors.append(event)

    globalLogPublisher.addObserver(observer)
    try:
        yield errors
        gc.collect()
    finally:
        globalLogPublisher.removeObserver(observer)
    if errors:
        from twisted.logger import formatEvent

        details = "\n".join(formatEvent(e) + "\n" + str(e.get("log_failure", "")) for e in errors)
        pytest.fail(f"Twisted logged {len(errors)} error(s):\n{details}")


@pytest.fixture
def h():
    return Harness()
