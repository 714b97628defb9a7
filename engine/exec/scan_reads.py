"""Which columns of each table scan a plan reads: one pass from the root down (issue 24), so a scan
over column storage zips only those into its rows (the others come as None, no value boxed).

Each node is given the column ids its parent reads of its output rows (None: any of them) and
works out what it reads of its children's: its own expressions' columns and the ones it passes
on. A node kind this pass does not know reads every column of its children, so a new operator
is safe before it is taught here."""

from __future__ import annotations

from engine.exec.aggregate import aggregate_reads
from engine.ir import plan as P
from engine.ir.expr import Expr, column_ids

ALL = None  # every column of a node's output is read


class ScanReads:
    """What the passes over a query's plans found: id(Scan) -> the column ids read of it (ALL
    for every one), and the ids of the nodes visited (a plan built later that no pass has seen,
    say a subquery's or one an operator makes up, gets its own pass)."""

    __slots__ = ("columns", "visited", "_pending")

    def __init__(self):
        self.columns: dict = {}
        # id -> node: holding the nodes keeps their ids from being reused by new ones
        self.visited: dict = {}
        self._pending: dict = {}  # id -> plan built whose pass is not made yet, in build order

    def cover(self, plan: P.Plan) -> None:
        """Note `plan` (whose output is read whole) for a pass unless one saw it already. The
        passes are made when a scan over columns first asks (`of`), so a query over row
        storage never pays for them; plans are built from the root down, so a parent's pass
        comes first and covers its children."""
        key = id(plan)
        if key not in self.visited:
            self._pending[key] = plan

    def of(self, scan: P.Scan, default=ALL):
        """The column ids read of `scan` (ALL: every one; `default` when no pass saw it)."""
        if self._pending:
            pending, self._pending = self._pending, {}
            for key, plan in pending.items():
                if key not in self.visited:
                    self._visit(plan, ALL)
        return self.columns.get(id(scan), default)

    def _visit(self, plan, needed) -> None:
        self.visited[id(plan)] = plan
        kind = type(plan)
        if kind is P.Scan:
            key = id(plan)
            if key in self.columns:  # seen from two roots: what either reads
                before = self.columns[key]
                needed = ALL if before is ALL or needed is ALL else before | needed
            self.columns[key] = needed
            return
        visit = _CHILD_READS.get(kind)
        if visit is None:
            for child in plan.children():
                self._visit(child, ALL)
            return
        for child, reads in visit(plan, needed):
            self._visit(child, reads)


def _with(needed, more: set, layout):
    """What a pass-through node reads of its child: what is read of it, and `more`."""
    if needed is ALL:
        return ALL
    return (needed & set(layout)) | more


def _expr_columns(exprs) -> set | None:
    used: set = set()
    for e in exprs:
        if e is None:
            continue
        if not isinstance(e, Expr):
            return None
        column_ids(e, used)
    return used


def _filter(plan: P.Filter, needed):
    used = _expr_columns([plan.predicate])
    return [(plan.child, ALL if used is None else _with(needed, used, plan.child.layout))]


def _project(plan: P.Project, needed):
    return [(plan.child, _expr_columns(plan.exprs))]


def _join(plan: P.Join, needed):
    used = _expr_columns([*plan.left_keys, *plan.right_keys, plan.residual])
    if used is None:
        return [(plan.left, ALL), (plan.right, ALL)]
    return [(plan.left, _with(needed, used, plan.left.layout)),
            (plan.right, _with(needed, used, plan.right.layout))]


def _aggregate(plan: P.Aggregate, needed):
    return [(plan.child, aggregate_reads(plan))]


def _sort(plan: P.Sort, needed):
    layout = plan.child.layout
    return [(plan.child, _with(needed, {layout[k[0]] for k in plan.keys}, layout))]


def _limit(plan: P.Limit, needed):
    return [(plan.child, needed)]


def _window(plan: P.Window, needed):
    layout = plan.child.layout
    if plan.layout[:len(layout)] != layout:
        return [(plan.child, ALL)]
    positions = set(plan.partition) | {o[0] for o in plan.order}
    for f in plan.funcs:
        positions.update(f.args)
    return [(plan.child, _with(needed, {layout[i] for i in positions}, layout))]


def _lateral(plan: P.LateralJoin, needed):
    used = _expr_columns([*plan.params, plan.condition])
    left = ALL if used is None else _with(needed, used, plan.left.layout)
    return [(plan.left, left), (plan.sub, ALL)]


# node kind -> (node, what is read of its output) -> [(child, what is read of the child's)]
_CHILD_READS = {
    P.Filter: _filter,
    P.Project: _project,
    P.Join: _join,
    P.Aggregate: _aggregate,
    P.Sort: _sort,
    P.Limit: _limit,
    P.Window: _window,
    P.LateralJoin: _lateral,
}
