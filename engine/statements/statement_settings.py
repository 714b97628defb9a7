"""SETTINGS (name = value, ...) statement: the statement runs with those settings, for itself only.

The session's settings are overridden while the statement is bound and started, and again around
every step of a streamed result (a query's rows are computed step by step after `execute`
returns), then put back: other statements of the session, and the steps of other results, see
the session's own values."""

from __future__ import annotations

from engine.core import settings as S
from engine.core.errors import EngineError
from engine.plan.planner import Planner
from engine.statements.dispatch import setting_text


def statement_settings(ctx, stmt) -> dict[str, str]:
    """The prefix's settings, validated as SET validates them: an unknown name is UnknownVariable
    (2801), a bad value BadArguments (1006)."""
    planner = Planner(ctx)
    values = {}
    for name, node in zip(stmt.names, stmt.values, strict=True):
        if stmt.from_hint and name not in S.SETTINGS:
            continue  # Databend ignores a hint it does not know
        try:
            values[name] = S.validate(name, setting_text(node, planner))
        except EngineError as exc:
            exc.position = exc.position or stmt.pos
            raise
    return values


class _Overridden:
    """A context manager putting `values` in the session's settings and the previous ones back."""

    __slots__ = ("session", "values", "saved")

    def __init__(self, session, values: dict[str, str]):
        self.session = session
        self.values = values
        self.saved: dict[str, str | None] = {}

    def __enter__(self):
        settings = self.session.settings
        self.saved = {name: settings.get(name) for name in self.values}
        settings.update(self.values)

    def __exit__(self, *exc_info):
        settings = self.session.settings
        for name, value in self.saved.items():
            if value is None:
                settings.pop(name, None)
            else:
                settings[name] = value


def run_with_settings(session, ctx, stmt, run):
    """`run()` (starting stmt.statement) with stmt's settings in force; a streamed result gets
    them around each of its steps."""
    values = statement_settings(ctx, stmt)
    with _Overridden(session, values):
        result = run()
    if not result.complete:
        result._rows = _steps_with(session, values, result._rows)
    return result


def _steps_with(session, values, steps):
    try:
        while True:
            with _Overridden(session, values):
                batch = next(steps, None)
            if batch is None:
                return
            yield batch
    finally:
        close = getattr(steps, "close", None)
        if close is not None:
            close()
