"""Which bounded step of engine work the reactor is running: a serial number that changes at the
start of every outermost step (engine.core.memory.enter_step marks them), so that a budget of
one step (jq's time, engine.functions.json_jq) can start again at each step; and how many rows a
step over code calling costly functions takes (rows_for_cost)."""

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


# The work, in microseconds, the declared costs of one step's calls may add up to
# (engine.functions.registry.ScalarFunction.row_cost): a quarter of the ~20 ms a step may hold
# the reactor, leaving room for the rows' ordinary work and for a loaded machine. Code calling
# nothing costly keeps its rows per step: 2,048 rows of a 2-microsecond call fit.
STEP_WORK_MICROS = 5_000


def rows_for_cost(row_cost: int, rows: int) -> int:
    """The rows a step takes (at most `rows`) when each costs `row_cost` declared microseconds:
    as many as STEP_WORK_MICROS allows, at least one."""
    if row_cost <= 0:
        return rows
    return max(1, min(rows, STEP_WORK_MICROS // row_cost))
