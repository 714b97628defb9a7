"""Planning of WITH RECURSIVE (functions the Planner calls, given the planner): a CTE that reads itself becomes a
RecursiveUnion of its anchor and its step, the step reading a WorkTable. The column types are the
anchor's, integers widened to 64 bits (a counter that starts as `SELECT 1` must be able to grow
past 255)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.bind.scope import Rel
from engine.core.errors import SEMANTIC, EngineError
from engine.ir.plan import RecursiveUnion, WorkTable, WorkTableScan
from engine.types import sqltype as T
from grammar import ast as A


@dataclass(eq=False)
class RecursiveCte:
    """A CTE of WITH RECURSIVE that reads itself."""

    cte: A.CommonTableExpr


def reads_itself(node, name: str) -> bool:
    """Whether an AST mentions a one-part table name `name` (the CTE reading itself)."""
    if isinstance(node, A.TableRef):
        return len(node.name) == 1 and node.name[0].lower() == name
    if isinstance(node, A.Node):
        return any(reads_itself(getattr(node, f), name) for f in node.__dataclass_fields__ if f != "pos")
    if isinstance(node, tuple):
        return any(reads_itself(x, name) for x in node)
    return False


def _widened(t: T.SqlType) -> T.SqlType:
    if t.is_int:
        return (T.UINT64 if t.name.startswith("U") else T.INT64).as_nullable(t.nullable)
    return t


def cte_entry(planner, cte: A.CommonTableExpr, recursive: bool):
    """What the CTE name stands for while planning: the CTE, or a RecursiveCte."""
    if recursive and reads_itself(cte.query, cte.name.lower()):
        return RecursiveCte(cte)
    return cte


def recursive_relation(planner, entry, node: A.TableRef, parent, ctes) -> Rel:
    cte = entry.cte
    name = cte.name.lower()
    q = cte.query
    if not (isinstance(q, A.SetOperation) and q.op == "UNION" and not q.order_by and q.limit is None
            and not reads_itself(q.left, name)):
        raise EngineError(f"recursive CTE `{cte.name}` must be `anchor UNION [ALL] step`, the anchor not "
                          "reading the CTE", code=SEMANTIC, position=cte.pos)
    outer = {k: v for k, v in ctes.items() if k != name}
    anchor, names = planner.plan_query(q.left, parent, outer)
    if cte.columns:
        if len(cte.columns) != len(names):
            raise EngineError(f"table has {len(names)} columns available but {len(cte.columns)} columns "
                              "specified", code=SEMANTIC, position=cte.pos)
        names = list(cte.columns)
    types = [_widened(t).as_nullable(True) if t.name == "Null" else _widened(t) for t in anchor.types]
    for _ in range(2):  # planned again when the step turns out to make NULLs the anchor does not
        work = WorkTable(name, names, types)
        step, _ = planner.plan_query(q.right, parent, {**outer, name: work})
        if len(step.layout) != len(types):
            raise EngineError(f"UNION requires both sides to have the same number of columns "
                              f"({len(types)} vs {len(step.layout)})", code=SEMANTIC, position=q.pos)
        wider = [a.as_nullable(a.nullable or b.can_be_null) for a, b in zip(types, step.types, strict=False)]
        if wider == types:
            break
        types = wider
    anchor, step = planner._coerce(anchor, types), planner._coerce(step, types)
    layout = [planner.cid() for _ in types]
    plan = RecursiveUnion(layout, types, anchor=anchor, step=step, work=work, all=q.all_, name=cte.name)
    alias = node.alias or cte.name
    return Rel(plan, [(alias, n, c, t) for n, c, t in zip(names, layout, types, strict=False)])


def work_table_relation(planner, work: WorkTable, node: A.TableRef) -> Rel:
    layout = [planner.cid() for _ in work.types]
    plan = WorkTableScan(layout, list(work.types), work=work)
    alias = node.alias or work.name
    return Rel(plan, [(alias, n, c, t) for n, c, t in zip(work.names, layout, work.types, strict=False)])
