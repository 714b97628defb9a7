"""Binding scopes and the helpers the binder and the planner share: FROM items, scopes,
conjunct splitting, grouped-column checks and aggregate detection."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import functions as F
from engine.core.errors import (
    SEMANTIC,
    EngineError,
)
from engine.ir.expr import And, Case, Cast, Col, Const, Expr, Func, Neg, SubqueryExpr
from engine.ir.plan import Plan
from engine.types import sqltype as T
from grammar import ast as A

TRUE = Const(T.BOOLEAN, value=True)


@dataclass(eq=False)
class Rel:
    """A FROM item: its plan and its visible columns (table alias, column name, column id, type)."""

    plan: Plan
    columns: list  # [(alias, name, cid, type)]


@dataclass(eq=False)
class Scope:
    columns: list  # [(alias, name, cid, type)]
    parent: Scope | None = None
    params: list = field(default_factory=list)  # outer expressions passed into this query
    param_keys: dict = field(default_factory=dict)
    # set while binding select items of an aggregating query: maps a raw column to its output
    group_hook: object = None
    ctes: dict = field(default_factory=dict)


def split_and(e: Expr) -> list[Expr]:
    """The conjuncts of `e` (none for TRUE)."""
    match e:
        case And():
            out = []
            for a in e.args:
                out.extend(split_and(a))
            return out
        case Const(value=True):
            return []
    return [e]


def and_all(conds: list[Expr]) -> Expr | None:
    if not conds:
        return None
    if len(conds) == 1:
        return conds[0]
    return And(T.BOOLEAN.as_nullable(any(c.type.can_be_null for c in conds)), args=tuple(conds))


def folds_to_value(e: Expr) -> bool:
    """Whether constant folding makes `e` a non-NULL constant: a literal, or a COALESCE whose first
    argument that is not a NULL literal folds so (`COALESCE(NULL, COALESCE(3, x), y)`)."""
    match e:
        case Const(value=value):
            return value is not None
        case Neg() | Cast():
            return folds_to_value(e.args[0])
        case Func(fn=fn) if fn.name in ("coalesce", "ifnull"):
            for a in e.args:
                if not _is_null_literal(a):
                    return folds_to_value(a)
    return False


def _is_null_literal(e: Expr) -> bool:
    return isinstance(e, Const) and e.value is None


class AliasesFirst(dict):
    """Select aliases that take precedence over input columns of the same name (in HAVING)."""


def check_grouped(e: Expr, ungrouped: dict) -> None:
    """Databend's rule: a column outside aggregates must be a GROUP BY expression. Like Databend, a
    branch constant folding drops needs no check: `COALESCE(3, x)` and `CASE 1 WHEN 2 THEN x END`
    (but not `COALESCE(y, 3, x)` nor `CASE 1 WHEN 2 THEN x ELSE 3 END`, which Databend rejects)."""
    args = e.args
    match e:
        case Col(column=column):
            node = ungrouped.get(column)
            if node is not None:
                raise EngineError(f'column "{node.parts[-1]}" must appear in the GROUP BY clause '
                                  "or be used in an aggregate function", code=SEMANTIC,
                                  position=getattr(node, "pos", None))
            return
        case Func(fn=fn) if fn.name in ("coalesce", "ifnull"):
            if folds_to_value(e):
                return
        case Case() if _is_null_literal(args[-1]):
            # ELSE NULL (or none): a WHEN whose condition folded to FALSE or NULL drops its result
            args = [a for i, a in enumerate(args[:-1])
                    if i % 2 == 0 or not (isinstance(args[i - 1], Const) and not args[i - 1].value)]
        case SubqueryExpr(subquery=sq):
            for p in sq.params:
                check_grouped(p, ungrouped)
    for a in args:
        check_grouped(a, ungrouped)


@dataclass(frozen=True, slots=True)
class StarColumn(A.ColumnRef):
    """A column SELECT * expanded to, bound by its column id: its name alone may be ambiguous
    (`SELECT * FROM (SELECT 1 AS a, 2 AS a) s` is valid)."""

    cid: int = 0
    type: T.SqlType | None = None


def has_aggregate(node) -> bool:
    if type(node) is A.Literal:  # the common leaf, e.g. each item of a long IN list
        return False
    if isinstance(node, A.FunctionCall) and node.name in F.AGGREGATES:
        return True
    if isinstance(node, (A.ScalarSubquery, A.Exists)):
        return False
    if isinstance(node, A.WindowCall):  # a window aggregate: only what it reads may aggregate
        spec = node.window
        parts = [*node.func.args, *(o.expr for o in node.func.within_group)]
        if isinstance(spec, A.WindowSpec):
            parts += [*spec.partition_by, *(o.expr for o in spec.order_by)]
        return any(has_aggregate(p) for p in parts)
    if isinstance(node, A.InSubquery):
        return has_aggregate(node.operand)
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos":
            continue
        v = getattr(node, name)
        if isinstance(v, A.Node) and has_aggregate(v):
            return True
        if isinstance(v, tuple):
            for x in v:
                if isinstance(x, A.Node) and has_aggregate(x):
                    return True
                if isinstance(x, tuple) and any(isinstance(y, A.Node) and has_aggregate(y) for y in x):
                    return True
    return False
