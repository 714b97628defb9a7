"""numpy for whole-column work over tables kept in columns, and the one switch that turns it off.

Column operators (filters, grouped folds, joins, sorts, windows) use numpy only where it gives
Python's answer to the bit, and each keeps a pure-Python path that answers the same: tests turn
NUMPY off to compare the two, and without numpy installed the pure-Python paths are the ones.
"""

from __future__ import annotations

try:  # imported with the engine, not by the first query that needs it (a step of the reactor)
    import numpy
except ImportError:  # pragma: no cover - numpy is a dependency; the engine still runs without it
    numpy = None

# numpy's column kernels on (tests turn it off to check the pure-Python paths give the same answers)
NUMPY = True


def vectorised():
    """The numpy module when NUMPY is on and numpy is installed, else None."""
    return numpy if NUMPY else None
