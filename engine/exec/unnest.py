"""unnest(array) in a SELECT list, alone or inside an expression (`unnest(a) + 1`): a projection
computes the arrays beside the input columns, `UnnestRows` turns each row into one row per
element (several arrays go side by side, the shorter padded with NULL; a NULL or empty array
gives no row), then the select expressions read the elements, as Databend's set-returning unnest."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.functions.arrays import RANGE_ROWS
from engine.functions.json_sets import SET_RETURNING
from engine.ir.expr import Col, Expr, Func
from engine.ir.plan import Plan, Project
from engine.types import nested as N
from grammar import ast as A


@dataclass(eq=False)
class UnnestRows(Plan):
    """positions: the columns of `child` that hold the arrays to spread over rows."""

    child: Plan = None
    positions: list = field(default_factory=list)

    def children(self):
        return [self.child]


def spread_lazily(call: A.FunctionCall) -> A.FunctionCall:
    """unnest(range(a, b)) as unnest(_range_rows(a, b)): the elements are spread a step's budget
    at a time from a lazy range, so they may exceed Limits.array_elements (no array is built)."""
    arg = call.args[0] if len(call.args) == 1 else None
    if isinstance(arg, A.FunctionCall) and arg.name.lower() == "range" and len(arg.args) == 2 \
            and arg.operator is None and not arg.distinct and arg.filter is None:
        return replace(call, args=(replace(arg, name=RANGE_ROWS),))
    return call


def is_unnest(e: Expr) -> bool:
    """unnest, or another set-returning call spread the same way (engine.functions.json_sets)."""
    return isinstance(e, Func) and e.fn.name in SET_RETURNING


def _spread_list(call: Func) -> Expr:
    """The list a set-returning call spreads: unnest's argument, else the call itself (its value
    is the list of what it returns)."""
    if call.fn.name == "unnest":
        return call.args[0]
    return replace(call, type=N.array_type(call.type))


def has_unnest(e: Expr) -> bool:
    return is_unnest(e) or any(has_unnest(a) for a in e.args if isinstance(a, Expr))


def _calls(e: Expr, found: list) -> None:
    if is_unnest(e):
        found.append(e)
        return
    for a in e.args:
        if isinstance(a, Expr):
            _calls(a, found)


def _replaced(e: Expr, columns: dict) -> Expr:
    if id(e) in columns:
        return columns[id(e)]
    if not e.args:
        return e
    return replace(e, args=tuple(_replaced(a, columns) if isinstance(a, Expr) else a for a in e.args))


def spread_arrays(child: Plan, exprs: list, new_cid) -> tuple[Plan, list]:
    """(plan giving one row per element, `exprs` reading the elements) for select expressions
    with unnest calls; new_cid() makes column ids."""
    calls: list = []
    for e in exprs:
        _calls(e, calls)
    passed = [Col(t, column=c) for c, t in zip(child.layout, child.types, strict=True)]
    arrays = [_spread_list(call) for call in calls]
    array_cids = [new_cid() for _ in calls]
    layout = [new_cid() for _ in passed] + array_cids
    computed = Project(layout, [e.type for e in passed + arrays], child=child, exprs=passed + arrays)
    elements = [call.type for call in calls]
    spread = UnnestRows(layout, [e.type for e in passed] + elements, child=computed,
                       positions=list(range(len(passed), len(layout))))
    # the input columns keep their meaning under their new ids; each call reads its element column
    columns = {id(call): Col(call.type, column=cid) for call, cid in zip(calls, array_cids, strict=True)}
    renamed = {old.column: Col(old.type, column=cid) for old, cid in zip(passed, layout, strict=False)}
    return spread, [_renamed(_replaced(e, columns), renamed) for e in exprs]


def _renamed(e: Expr, renamed: dict) -> Expr:
    if isinstance(e, Col):
        return renamed.get(e.column, e)
    if not e.args:
        return e
    return replace(e, args=tuple(_renamed(a, renamed) if isinstance(a, Expr) else a for a in e.args))


def build_unnest_rows(plan: UnnestRows, rt):
    child_run = rt.build(plan.child)
    positions = plan.positions
    budget = rt.step_rows

    def run(p):
        for batch in child_run(p):
            out = []
            for row in batch:
                arrays = [row[i] for i in positions]
                count = max([len(a) for a in arrays if a is not None], default=0)
                for k in range(count):
                    values = list(row)
                    for i, a in zip(positions, arrays, strict=True):
                        values[i] = a[k] if a is not None and k < len(a) else None
                    out.append(tuple(values))
                    if len(out) >= budget:  # within a row too: one array may hold a million elements
                        yield out
                        out = []
            yield out

    return run
