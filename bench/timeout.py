"""A hard time limit for one call of the benchmark runners (SIGALRM, main thread only)."""

from __future__ import annotations

import contextlib
import signal
import threading


class HardTimeout(BaseException):
    """The time limit fired: a BaseException so that code under test cannot swallow it."""


def _on_alarm(signum, frame):
    raise HardTimeout()


def available() -> bool:
    """Timers work only on the main thread (and where the platform has setitimer)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def alarm_handler():
    """Install the handler that turns the timer into HardTimeout, for the run's duration."""
    if not available():
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def hard_timeout(seconds: float):
    """Raise HardTimeout in the block after `seconds` (no limit when 0 or unavailable)."""
    armed = seconds > 0 and available()
    if armed:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
