"""KILL QUERY / KILL CONNECTION (the process list is engine.catalog.processes; SHOW PROCESSLIST is a
SELECT on system.processes, as in Databend)."""

from __future__ import annotations

from engine.catalog.users import SUPER
from engine.exec.result import Progress, Result


def kill(session, ctx, stmt) -> Result:
    """KILL QUERY|CONNECTION '<id>': stop the statement with that query id. One statement runs
    per connection here and processes are keyed by query id, so both forms stop it. Only its
    owner, an administrator or a holder of SUPER may (else 1063); an unknown id is 1053, as
    Databend answers."""
    access = ctx.access
    ctx.session.db.processes.kill(stmt.object_id, ctx.user, any_user=access is None or access.allows(SUPER))
    return Result([], iter(()), progress=Progress())
