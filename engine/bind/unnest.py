"""The binder's rewrite of unnest(range(a, b)) into a lazily spread range (engine.plan.unnest plans unnest)."""

from __future__ import annotations

from dataclasses import replace

from engine.functions.arrays import RANGE_ROWS
from grammar import ast as A


def spread_lazily(call: A.FunctionCall) -> A.FunctionCall:
    """unnest(range(a, b)) as unnest(_range_rows(a, b)): the elements are spread a step's budget
    at a time from a lazy range, so they may exceed Limits.array_elements (no array is built)."""
    arg = call.args[0] if len(call.args) == 1 else None
    if isinstance(arg, A.FunctionCall) and arg.name.lower() == "range" and len(arg.args) == 2 \
            and arg.operator is None and not arg.distinct and arg.filter is None:
        return replace(call, args=(replace(arg, name=RANGE_ROWS),))
    return call
