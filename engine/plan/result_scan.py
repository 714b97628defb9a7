"""RESULT_SCAN(query_id) in FROM: the rows, column names and types of a query the session kept
(engine.catalog.result_cache), with Databend's errors."""

from __future__ import annotations

from engine.bind.scope import Rel, Scope
from engine.core.errors import INVALID_ARGUMENT, BadArguments, EngineError
from engine.ir.expr import Const
from engine.ir.plan import Materialized

EMPTY_DATA = 1016  # Databend's EmptyData: no kept result for that query id


def result_scan_relation(planner, node) -> Rel:
    if len(node.args) != 1:
        raise BadArguments(f"RESULT_SCAN takes 1 argument, got {len(node.args)}", position=node.pos)
    e = planner.bind(node.args[0], Scope([]))
    value = e.value if isinstance(e, Const) else e
    if not isinstance(value, str):
        shown = "NULL" if value is None else str(value)
        raise BadArguments(f"RESULT_SCAN(<query_id>) expected a string for <query_id>, but found {shown}.",
                           position=node.pos)
    if not value:
        raise EngineError("The `RESULT_SCAN` function requires a 'query_id' parameter. Please specify a valid "
                          "query ID.", code=INVALID_ARGUMENT, position=node.pos)
    if getattr(planner.ctx, "plan_record", None) is not None:
        planner.ctx.plan_record.cacheable = False  # the session's kept rows: planned each time
    cache = planner.ctx.session.result_cache
    kept = cache.get(value) if cache is not None else None
    if kept is None:
        raise EngineError(f"`RESULT_SCAN` failed: No cache key found in current session for query ID '{value}'.",
                          code=EMPTY_DATA, position=node.pos)
    layout = [planner.cid() for _ in kept.types]
    rows = kept.rows
    plan = Materialized(layout, list(kept.types), produce=lambda ctx: rows, label="result_scan")
    alias = node.alias or "result_scan"
    return Rel(plan, [(alias, name, cid, t) for name, cid, t in zip(kept.names, layout, kept.types, strict=True)])
