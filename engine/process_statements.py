"""SHOW PROCESSLIST and KILL QUERY / KILL CONNECTION (the process list is engine.processes)."""

from __future__ import annotations

from engine.result import Column, Progress, Result
from engine.system import PROCESSES_COLUMNS, processes_rows


def show_processlist(ctx) -> Result:
    """SHOW PROCESSLIST: system.processes, as Databend answers it."""
    rows = processes_rows(ctx)
    return Result([Column(name, t.display()) for name, t in PROCESSES_COLUMNS], iter([rows]),
                  progress=Progress(), types=[t for _, t in PROCESSES_COLUMNS])


def kill(session, ctx, stmt) -> Result:
    """KILL QUERY|CONNECTION '<id>': stop the statement with that query id. One statement runs
    per connection here and processes are keyed by query id, so both forms stop it. Only its
    owner or root may (else 1063); an unknown id is 1053, as Databend answers."""
    ctx.session.db.processes.kill(stmt.object_id, ctx.user)
    return Result([], iter(()), progress=Progress())
