"""What the engine's statement tests share: run SQL to a list, and the code of a refusal."""

import pytest

import engine


def q(session, sql):
    return list(session.execute(sql))


def error_code(session, sql) -> int:
    """The EngineError code `sql` fails with (the test fails if it succeeds)."""
    with pytest.raises(engine.EngineError) as info:
        q(session, sql)
    return info.value.code
