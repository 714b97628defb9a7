"""What the engine's statement tests share: run SQL to a list, the code of a refusal, and an
answer as the wire shows it."""

import pytest

import engine


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
