"""Scalar and aggregate functions: the registry (engine.functions.registry) and the family
modules that fill it. Adding a function is one `register(...)` entry in its family module."""

from __future__ import annotations

# the family modules register their functions on import
from engine.functions import casts, conditionals, dates, numeric, strings  # noqa: F401
from engine.functions.aggregates import AGGREGATES, aggregate_type
from engine.functions.context import CONTEXT_FUNCTIONS, context_value
from engine.functions.date_operators import date_arithmetic
from engine.functions.date_units import UNIT_CALLS, interval_call, unit_call
from engine.functions.dates import (
    function_override,
    temporal_cast,
    try_call_of,
    with_timezone,
)
from engine.functions.registry import SCALARS, ScalarFunction, with_limits

__all__ = ["AGGREGATES", "CONTEXT_FUNCTIONS", "SCALARS", "ScalarFunction", "aggregate_type",
           "all_function_names", "context_value", "date_arithmetic", "function_override", "interval_call",
           "temporal_cast", "try_call_of", "unit_call", "with_limits", "with_timezone"]


def all_function_names() -> list[str]:
    return sorted(set(SCALARS) | AGGREGATES | CONTEXT_FUNCTIONS | UNIT_CALLS | {"typeof", "to_date"})
