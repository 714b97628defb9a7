"""Window planning: window function calls of a SELECT (select list, QUALIFY, ORDER BY) into
Window plan nodes over rows sorted by (partition, order) (functions the Planner calls, given the planner)."""

from __future__ import annotations

import decimal
from contextlib import contextmanager
from dataclasses import replace

from engine import functions as F
from engine.bind.collected_specs import collected_spec, unfiltered
from engine.bind.names import column_name
from engine.bind.ordered_aggregates import check_within_group
from engine.bind.scope import Scope
from engine.bind.window_calls import window_calls
from engine.core.errors import (
    SEMANTIC,
    SYNTAX,
    BadArguments,
    EngineError,
    InvalidArgument,
    Unimplemented,
)
from engine.functions.collected import COLLECTED
from engine.functions.combinators import state_call
from engine.functions.windows import RANKING, VALUE
from engine.ir.expr import Col, Const, Expr, may_be_null
from engine.ir.plan import Plan, Project, Sort, Window, WindowFunc
from engine.plan.aggregate import agg_spec_of
from engine.types import sqltype as T
from grammar import ast as A
from grammar.ast_base import map_children

# the default frames: with ORDER BY, from the partition's start to the current row's last peer;
# without, the whole partition
RUNNING_FRAME = ("RANGE", ("UNBOUNDED PRECEDING", None), ("CURRENT ROW", None))
WHOLE_FRAME = ("ROWS", ("UNBOUNDED PRECEDING", None), ("UNBOUNDED FOLLOWING", None))


def window_parts(call: A.WindowCall, named: dict) -> list:
    """The expression ASTs a window call reads (arguments, partition and order keys)."""
    spec = resolve_window(call, named)
    return [*call.func.args, *spec.partition_by, *(o.expr for o in spec.order_by)]


def resolve_window(call: A.WindowCall, named: dict) -> A.WindowSpec:
    """The call's window with a named base window merged in (WINDOW w AS (...), OVER (w ...))."""
    spec = call.window
    if isinstance(spec, str):
        return _named(spec, named, call.pos)
    if spec.base is None:
        return spec
    base = _named(spec.base, named, call.pos)
    return A.WindowSpec(None, base.partition_by or spec.partition_by, spec.order_by or base.order_by,
                        spec.frame or base.frame)


def _named(name: str, named: dict, pos) -> A.WindowSpec:
    found = named.get(name.lower())
    if found is None:
        raise EngineError(f"Window definition {name} not found", code=SYNTAX, position=pos)
    if found.base is not None:
        return A.WindowSpec(None, *_merge(_named(found.base, named, pos), found))
    return found


def _merge(base: A.WindowSpec, spec: A.WindowSpec):
    return base.partition_by or spec.partition_by, spec.order_by or base.order_by, spec.frame or base.frame


def bind_window_call(planner, n: A.WindowCall, scope: Scope, aliases):
    columns = planner.window_columns or {}
    found = columns.get(n)
    if found is not None:
        return found
    if planner.window_prebind:
        # only registering the aggregates the window reads (GROUP BY planning)
        for part in window_parts(n, planner.named_windows):
            planner.bind(part, scope, aliases)
        return Const(T.NULL, value=None)
    raise EngineError("window functions are not allowed here", code=SEMANTIC, position=n.pos)


@contextmanager
def windows_of(planner, q: A.Select):
    """While planning `q`: its named windows, and the window calls planned for it (not those
    of its subqueries, planned with their own)."""
    outer = planner.named_windows, planner.window_columns
    planner.named_windows = {w.name.lower(): w.spec for w in q.windows}
    planner.window_columns = {}
    try:
        yield
    finally:
        planner.named_windows, planner.window_columns = outer


def plan_windows(planner, plan: Plan, q: A.Select, select_asts, bind) -> Plan:
    """Window nodes computing the window calls of the select list, QUALIFY and ORDER BY
    over `plan` (one per distinct PARTITION BY / ORDER BY); afterwards each call binds to
    its output column."""
    calls: list = []
    for node in [*select_asts, q.qualify, *(o.expr for o in q.order_by)]:
        if node is not None:
            window_calls(node, calls)
    groups: dict = {}
    for call in calls:
        spec = resolve_window(call, planner.named_windows)
        groups.setdefault((spec.partition_by, spec.order_by), []).append((call, spec))
    for (partition_by, order_by), members in groups.items():
        plan = _window_node(planner, plan, partition_by, order_by, members, bind)
    return plan


def _window_node(planner, plan: Plan, partition_by, order_by, members, bind) -> Plan:
    layout = list(plan.layout)
    types = list(plan.types)
    position = {cid: i for i, cid in enumerate(layout)}
    extra: list[Expr] = []

    def place(e: Expr) -> int:
        if isinstance(e, Col) and e.column in position:
            return position[e.column]
        cid = planner.cid()
        position[cid] = len(layout) + len(extra)
        extra.append(e)
        if not may_be_null(e, planner.nonnull):
            planner.nonnull.add(cid)
        return position[cid]

    partition = [place(bind(e)) for e in partition_by]
    order = [(place(bind(o.expr)), o.desc, o.nulls_first) for o in order_by]
    funcs = [_window_func(planner, call, spec, bind, place) for call, spec in members]
    if extra:
        new = [c for c, i in position.items() if i >= len(layout)]
        exprs = [Col(t, column=c) for c, t in zip(layout, types, strict=False)] + extra
        layout = layout + new
        types = types + [e.type for e in extra]
        plan = Project(layout, types, child=plan, exprs=exprs)
    # Databend 1.2.453 sorts the partition keys ascending with NULLs first
    keys = [(p, False, True) for p in partition] + order
    if keys:
        plan = Sort(layout, types, child=plan, keys=keys)
    out_cids = [planner.cid() for _ in funcs]
    node = Window(layout + out_cids, types + [f.type for f in funcs], child=plan, partition=partition,
                  order=order, funcs=funcs)
    for (call, _), cid, f in zip(members, out_cids, funcs, strict=False):
        planner.window_columns[call] = Col(f.type, column=cid)
        if not f.type.can_be_null:
            planner.nonnull.add(cid)
    return node


def _window_func(planner, call: A.WindowCall, spec: A.WindowSpec, bind, place) -> WindowFunc:
    check_within_group(call.func, aggregate=call.func.name in F.AGGREGATES)
    func = unfiltered(call.func)
    name = func.name
    frame = _frame(planner, spec, bind)
    if name in RANKING:
        params = ()
        if name == "ntile":
            params = (_window_constant(planner, func, 0, "ntile", positive=True),)
        t = T.FLOAT64 if name in ("percent_rank", "cume_dist") else T.UINT64
        return WindowFunc(name, [], params, frame, t)
    if name in VALUE:
        if not func.args:
            raise BadArguments(f"{name} expects at least one argument", position=func.pos)
        arg = bind(func.args[0])
        if has_window(func.args[0]):
            raise EngineError("window function calls cannot be nested", code=SEMANTIC, position=func.pos)
        t = arg.type if arg.type.name != "Null" else T.NULL
        params: tuple = ()
        if name in ("lag", "lead"):
            offset = _window_constant(planner, func, 1, name) if len(func.args) > 1 else 1
            default = None
            nullable = True
            if len(func.args) > 2:
                d = bind(func.args[2])
                if not isinstance(d, Const):
                    raise InvalidArgument(f'The third argument to the function "{name}" must be a constant',
                                          position=func.pos)
                d = planner.binder.cast(d, t, False) if d.value is not None and t.name != "Null" else d
                default = d.value
                nullable = arg.type.can_be_null or default is None
            params = (offset, default)
            return WindowFunc(name, [place(arg)], params, frame, t.as_nullable(nullable))
        if name == "nth_value":
            params = (_window_constant(planner, func, 1, name, positive=True),)
        return WindowFunc(name, [place(arg)], params, frame, t.as_nullable(True))
    if name not in F.AGGREGATES:
        raise EngineError(f"function {name} is not a window or aggregate function", code=SEMANTIC,
                          position=func.pos)
    if state_call(F.AGGREGATES, name) is not None:
        raise Unimplemented(f"{name} is not supported as a window function", position=func.pos)
    if name in F.BITMAP_AGGREGATES:  # folded over each frame's values
        spec_ = F.bitmap_aggregate_spec(func, bind, lambda p: planner.bind(p, Scope([])))
        positions = [place(spec_.arg), *(place(x) for x in spec_.extra)]
        return WindowFunc(name, positions, spec_.params, frame, spec_.type, distinct=func.distinct,
                          collected=spec_.folded.collected())
    if name in COLLECTED:
        spec_ = collected_spec(planner, func, bind)
        positions = [place(spec_.arg), *(place(x) for x in spec_.extra)]
        return WindowFunc(name, positions, spec_.params, frame, spec_.type, distinct=func.distinct,
                          collected=spec_.collected)
    if func.star or (name == "count" and not func.distinct):
        # Databend 1.2.453 counts every row of the frame for a window COUNT(x), NULLs too
        return WindowFunc("count", [], (), frame, T.UINT64)
    if len(func.args) != 1:
        raise BadArguments(f"{name} expects one argument, got {len(func.args)}", position=func.pos)
    arg = bind(func.args[0])
    if name in ("sum", "avg") and arg.type.is_string:
        arg = planner.binder.cast(arg, T.FLOAT64.as_nullable(True), True)
    spec_ = agg_spec_of(planner, func, arg)
    if spec_.folded is not None:  # MIN / MAX of bitmaps
        return WindowFunc(name, [place(arg)], (), frame, spec_.type, distinct=func.distinct,
                          collected=spec_.folded.collected())
    t = spec_.type if name == "count" else spec_.type.as_nullable(True)
    if name == "avg" and arg.type.name == "Decimal":
        # Databend 1.2.453: a window AVG of a Decimal keeps at least 4 decimal places
        t = T.SqlType("Decimal", True, 38 if arg.type.precision <= 38 else 76, max(arg.type.scale, 4))
    return WindowFunc(name, [place(arg)], (), frame, t, distinct=func.distinct, arg_type=arg.type)


def _window_constant(planner, func: A.FunctionCall, index: int, name: str, positive=False) -> int:
    if len(func.args) <= index:
        raise BadArguments(f"{name} expects {index + 1} argument(s)", position=func.pos)
    try:
        e = planner.bind(func.args[index], Scope([]))
    except EngineError:
        e = None  # reads a column: not a constant
    if e is None or not isinstance(e, Const) or not isinstance(e.value, int) or isinstance(e.value, bool):
        if name == "ntile":
            raise InvalidArgument("The argument of `ntile` must be constant.", position=func.pos)
        which = "second" if index == 1 else "first"
        raise InvalidArgument(f'The {which} argument to the function "{name}" must be a constant',
                              position=func.pos)
    if positive and e.value <= 0:
        what = "ntile buckets" if name == "ntile" else f"the {name} position"
        raise InvalidArgument(f"{what} must be greater than 0", position=func.pos)
    return e.value


def _frame(planner, spec: A.WindowSpec, bind) -> tuple:
    f = spec.frame
    if f is None:
        return RUNNING_FRAME if spec.order_by else WHOLE_FRAME
    bounds = []
    for b in (f.start, f.end):
        offset = None
        if b.offset is not None:
            e = planner.bind(b.offset, Scope([]))
            if not isinstance(e, Const) or not isinstance(e.value, (int, float, decimal.Decimal)) \
                    or isinstance(e.value, bool) or e.value < 0:
                raise EngineError("a window frame offset must be a non-negative number", code=SEMANTIC,
                                  position=b.pos)
            offset = e.value
            if f.units == "RANGE":
                if len(spec.order_by) != 1:
                    raise EngineError("a RANGE frame with an offset needs exactly one ORDER BY key",
                                      code=SEMANTIC, position=b.pos)
                key_type = bind(spec.order_by[0].expr).type
                if not key_type.is_numeric:
                    raise EngineError(f"a RANGE frame with an offset needs a numeric ORDER BY key, not "
                                      f"{key_type.display()}", code=SEMANTIC, position=b.pos)
                # the offset in the key's arithmetic
                if key_type.name == "Decimal":
                    offset = decimal.Decimal(str(offset))
                elif key_type.is_float:
                    offset = float(offset)
        bounds.append((b.kind, offset))
    if bounds[0][0] == "UNBOUNDED FOLLOWING" or bounds[1][0] == "UNBOUNDED PRECEDING":
        raise EngineError("invalid window frame bounds", code=SEMANTIC, position=f.pos)
    return (f.units, bounds[0], bounds[1])


def has_window(node) -> bool:
    return bool(window_calls(node, []))


__all__ = ["bind_window_call", "has_window", "plan_windows", "windows_of", "resolve_window", "window_calls", "window_parts"]


def running_differences(q: A.Select) -> A.Select:
    """`q` with running_difference(x) in its select list written as the window it is: each row's
    x less the previous row's, 0 on the first (Databend's function over the rows as they come);
    `x + 0` so that a text argument is refused as Databend does (1006). The item keeps its name."""
    items = []
    for item in q.items:
        rewritten = _running_difference(item.expr)
        if rewritten is not item.expr and item.alias is None:
            item = A.SelectItem(rewritten, column_name(item.expr), pos=item.pos)
        elif rewritten is not item.expr:
            item = A.SelectItem(rewritten, item.alias, pos=item.pos)
        items.append(item)
    return q if all(a is b for a, b in zip(items, q.items, strict=True)) else replace(q, items=tuple(items))


def _running_difference(node):
    if isinstance(node, A.FunctionCall) and node.name == "running_difference" and len(node.args) == 1:
        pos = node.pos
        value = A.BinaryOp("+", node.args[0], A.Literal(0, "int", pos=pos), pos=pos)
        previous = A.WindowCall(A.FunctionCall("lag", (value,), pos=pos), A.WindowSpec(pos=pos), pos=pos)
        return A.FunctionCall("coalesce", (A.BinaryOp("-", value, previous, pos=pos),
                                           A.Literal(0, "int", pos=pos)), pos=pos)
    if isinstance(node, tuple) or (isinstance(node, A.Node) and not isinstance(
            node, A.Select | A.ScalarSubquery | A.Exists | A.InSubquery)):
        return map_children(node, _running_difference)
    return node
