"""Which bounded step of engine work the reactor is running: a serial number that changes at the
start of every outermost step (engine.core.memory.enter_step marks them), so that a budget of
one step (jq's time, engine.functions.json_jq) can start again at each step."""

from __future__ import annotations

_depth = 0  # steps entered and not left (a statement's step may run others inside it)
_serial = 0  # counts outermost steps entered


def enter() -> None:
    """A step begins: an outermost one gets a new serial number."""
    global _depth, _serial
    if _depth == 0:
        _serial += 1
    _depth += 1


def leave() -> None:
    """The step `enter` began has ended."""
    global _depth
    _depth = max(_depth - 1, 0)


def current() -> int | None:
    """The serial number of the running step; None between steps (code called outside one)."""
    return _serial if _depth else None
