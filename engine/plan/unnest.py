"""Planning of unnest (and the other set-returning calls) in a SELECT list: a projection computes the
arrays beside the input columns, an `UnnestRows` (engine.ir.plan) spreads them over rows, and the
select expressions are rewritten to read the elements (run loop: engine.exec.unnest)."""

from __future__ import annotations

from dataclasses import replace

from engine.bind.scope import has_aggregate
from engine.bind.window_calls import window_calls
from engine.core.errors import SemanticError
from engine.functions.json_sets import SET_RETURNING
from engine.ir.expr import Col, Expr, Func
from engine.ir.plan import Plan, Project, UnnestRows
from engine.types import nested as N
from grammar import ast as A


def is_unnest(e: Expr) -> bool:
    """unnest, or another set-returning call spread the same way (engine.functions.json_sets)."""
    return isinstance(e, Func) and e.fn.name in SET_RETURNING


def refuse_set_returning(node, clause: str) -> None:
    """Databend's 1065 for a set-returning call (unnest, json_each...) in WHERE or HAVING (an
    expression AST; subqueries are their own queries)."""
    if isinstance(node, A.FunctionCall) and (node.name or "").lower() in SET_RETURNING:
        wording = "are not allowed in WHERE clause" if clause == "WHERE" else "cannot be used in HAVING clause"
        raise SemanticError(f"set-returning functions {wording}", position=node.pos)
    if not isinstance(node, A.Node) or isinstance(node, A.ScalarSubquery | A.Exists | A.InSubquery):
        return
    for name in node.__dataclass_fields__:
        value = getattr(node, name)
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, A.Node):
                refuse_set_returning(child, clause)


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


def spread_aggregated_unnest(child: Plan, keys: list, aggs: list, new_cid) -> tuple[Plan, list]:
    """max(unnest(a)), count(regexp_split_to_table(s, ',')), GROUP BY unnest(a): when an
    aggregate's argument or a group key calls a set-returning function, its elements are spread
    over rows below the aggregation (the keys and the other arguments read the same rows,
    renamed). Returns (child, keys); the specs' arguments
    are rewritten in place."""
    spreading = [a for a in aggs if isinstance(a.arg, Expr) and has_unnest(a.arg)]
    # GROUP BY unnest(a) (or a select alias of it) groups the elements, spread the same way
    if not spreading and not any(has_unnest(k) for k in keys):
        return child, keys
    with_args = [a for a in aggs if isinstance(a.arg, Expr)]
    spread, exprs = spread_arrays(child, [*keys, *(a.arg for a in with_args)], new_cid)
    for spec, e in zip(with_args, exprs[len(keys):], strict=True):
        spec.arg = e
    return spread, exprs[:len(keys)]


def row_aliases(items) -> dict:
    """The select aliases a WHERE may name: those of row expressions (no aggregate, window or
    set-returning call, which WHERE cannot evaluate)."""
    aliases = {}
    for item in items:
        alias = getattr(item, "alias", None)
        if alias is None or has_aggregate(item.expr) or window_calls(item.expr, []):
            continue
        try:
            refuse_set_returning(item.expr, "WHERE")
        except SemanticError:
            continue
        aliases[alias.lower()] = item.expr
    return aliases
