"""KILL QUERY / KILL CONNECTION (the process list is engine.processes; SHOW PROCESSLIST is a
SELECT on system.processes, as in Databend)."""

from __future__ import annotations

from engine.result import Progress, Result


def kill(session, ctx, stmt) -> Result:
    """KILL QUERY|CONNECTION '<id>': stop the statement with that query id. One statement runs
    per connection here and processes are keyed by query id, so both forms stop it. Only its
    owner or root may (else 1063); an unknown id is 1053, as Databend answers."""
    ctx.session.db.processes.kill(stmt.object_id, ctx.user)
    return Result([], iter(()), progress=Progress())
