"""Source fragments shared by the operators' generated batch loops (no engine state)."""

from __future__ import annotations


def column_refs(layout, var="r"):
    """Column id -> the source reading it from row variable `var` (`r[0]`, `r[1]`...)."""
    return {cid: f"{var}[{i}]" for i, cid in enumerate(layout)}


def map_source(cg, child_layout, pred, exprs, var="r", cols=None):
    """(projection, condition) source of a comprehension over rows of `child_layout`: the row
    itself when `exprs` are its columns in order, and an empty condition without `pred`."""
    cols = cols if cols is not None else column_refs(child_layout, var)
    if exprs is not None and [e.value if e.kind == "col" else None for e in exprs] == list(child_layout):
        exprs = None
    proj = var if exprs is None else "(" + "".join(cg.expr(e, cols) + ", " for e in exprs) + ")"
    cond = "" if pred is None else " if " + cg.pred(pred, cols)
    return proj, cond
