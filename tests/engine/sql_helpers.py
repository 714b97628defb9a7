"""What the engine's statement tests share: run SQL to a list, the code of a refusal, and an
answer as the wire shows it."""

import math

import pytest

import engine
from engine.catalog import table_storage
from engine.core.limits import Limits


def q(session, sql):
    return list(session.execute(sql))


def error_code(session, sql) -> int:
    """The EngineError code `sql` fails with (the test fails if it succeeds)."""
    with pytest.raises(engine.EngineError) as info:
        q(session, sql)
    return info.value.code


def wire(session, sql) -> list:
    """The first row of the answer, as the wire shows it (Result.renderer)."""
    result = session.execute(sql)
    return list(result.renderer(False)(list(result))[0])


def typed_answer(session, sql):
    """(the column types, the rows as the wire shows them)."""
    result = session.execute(sql)
    return [c.type for c in result.schema], result.renderer(False)(list(result))


def answer_or_code(session, sql):
    """The rows, or ("error", code) of the EngineError, a statement gives."""
    try:
        return q(session, sql)
    except engine.EngineError as e:
        return ("error", e.code)


def same_answer(a, b) -> bool:
    """Equal answers, value by value: a NaN equals a NaN, -0.0 does not equal 0.0, and each
    value has the same type."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same_answer, a, b))
    return a == b and type(a) is type(b)


def sessions_in_both_storages(monkeypatch, setup, step_rows=None, settings=None):
    """(False, a session over row storage), then (True, one over columns): each of a new
    database (steps of `step_rows` rows when given) after `setup`."""
    for columns in (False, True):
        monkeypatch.setattr(table_storage, "COLUMNS", columns)
        limits = Limits(step_rows=step_rows) if step_rows else Limits()
        s = engine.Database(limits=limits).session(settings=settings)
        for sql in setup:
            q(s, sql)
        yield columns, s


def answers_in_both_storages(monkeypatch, setup, queries, step_rows=None, settings=None):
    """(over row storage, over columns): the answers (`answer_or_code`) of `queries` after
    `setup`, in a new database of each storage (steps of `step_rows` rows when given)."""
    answers = {columns: [answer_or_code(s, sql) for sql in queries]
               for columns, s in sessions_in_both_storages(monkeypatch, setup, step_rows, settings)}
    return answers[False], answers[True]


def paths_taken(monkeypatch, owner, name) -> list:
    """Replaces `owner.name` (a function that answers None where its path does not apply) by one
    recording, a call at a time, whether it applied (the list returned)."""
    taken = []
    original = getattr(owner, name)

    def spy(*args, **kwargs):
        found = original(*args, **kwargs)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(owner, name, spy)
    return taken
