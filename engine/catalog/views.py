"""Views as the planner sees them: a FROM item naming a view reads the view's query, planned
afresh each time (so it reads the tables' current rows)."""

from __future__ import annotations

from engine.catalog.catalog import View
from engine.core.errors import VIEW_DEPENDENCY, EngineError
from grammar import ast as A


def expand_view(planner, view: View, ref: A.TableRef):
    """The relation a FROM item naming `view` reads: its query planned now, names in it resolved
    in the view's database; a view reached again while expanding itself is an error."""
    ctx = planner.ctx
    expanding = ctx.views_expanding
    if expanding is None:
        expanding = ctx.views_expanding = []
    key = (view.database, view.name)
    if key in expanding:
        raise EngineError(f"View dependency loop detected (view: {view.database}.{view.name})",
                          code=VIEW_DEPENDENCY, position=ref.pos)
    expanding.append(key)
    database = ctx.database
    ctx.database = view.database
    try:  # planned as a derived table: no outer scope, no CTEs of the query naming it
        return planner._derived(view.query, ref.alias or view.name, None, None, {}, ref.pos)
    except EngineError as exc:
        if not getattr(exc, "in_view", False):
            exc.message = f"{exc.message} (in view `{view.database}`.`{view.name}`)"
            exc.args = (exc.message,)
            exc.in_view = True
            exc.position = ref.pos
        raise
    finally:
        ctx.database = database
        expanding.pop()
