"""The window-only functions by family: ranking (row_number, rank...) and value (lag, lead...).

The planner (engine.plan.window) types and checks their calls; the operators
(engine.exec.window_functions) compute them."""

from __future__ import annotations

RANKING = frozenset({"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile"})
VALUE = frozenset({"lag", "lead", "first_value", "last_value", "nth_value"})
WINDOW_ONLY = RANKING | VALUE
