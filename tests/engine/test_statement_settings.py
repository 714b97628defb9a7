"""SETTINGS (name = value, ...) statement: settings for one statement only (Databend's docs:
sql-commands/query-syntax/settings; the sqllogictest files use it before datetime queries)."""

from __future__ import annotations

import pytest

import engine
from engine.core.limits import Limits


@pytest.fixture
def s():
    return engine.Database(limits=Limits(step_rows=2)).session()


def rows(s, sql):
    result = s.execute(sql)
    render = result.renderer(True)
    return [row for batch in result.batches() for row in render(batch)]


def test_settings_apply_to_the_statement_only(s):
    assert rows(s, "SETTINGS (timezone = 'Asia/Shanghai') SELECT timezone()") == [("Asia/Shanghai",)]
    assert rows(s, "SELECT timezone()") == [("UTC",)]
    # 02_0012_function_datetimes_tz.test: the prefix's zone shows a timestamp in Shanghai time
    assert rows(s, "settings(timezone='Asia/Shanghai') SELECT to_timestamp(0)") == [("1970-01-01 08:00:00.000000",)]
    assert rows(s, "SELECT to_timestamp(0)") == [("1970-01-01 00:00:00.000000",)]


def test_settings_keep_the_sessions_own_values(s):
    rows(s, "SET timezone = 'Europe/Paris'")
    assert rows(s, "settings (timezone = 'Asia/Tokyo', max_threads = 2) SELECT timezone()") == [("Asia/Tokyo",)]
    assert rows(s, "SELECT timezone()") == [("Europe/Paris",)]
    assert "max_threads" not in s.settings


def test_settings_hold_for_every_step_of_a_streamed_result(s):
    streamed = s.execute("SETTINGS (timezone = 'Asia/Shanghai') SELECT to_timestamp(number * 3600)::string "
                         "FROM numbers(6)")
    assert not streamed.complete
    batches = streamed.batches()
    first = next(batches)
    # another statement of the session between two steps sees the session's zone
    assert rows(s, "SELECT timezone()") == [("UTC",)]
    later = [row for batch in batches for row in batch]
    assert [r[0] for r in first + later][:2] == ["1970-01-01 08:00:00.000000", "1970-01-01 09:00:00.000000"]
    assert len(first + later) == 6
    assert rows(s, "SELECT timezone()") == [("UTC",)]


def test_settings_prefix_a_write(s):
    rows(s, "CREATE TABLE t (a STRING)")
    rows(s, "SETTINGS (timezone = 'Asia/Shanghai') INSERT INTO t SELECT to_timestamp(0)::string")
    assert rows(s, "SELECT a FROM t") == [("1970-01-01 08:00:00.000000",)]


@pytest.mark.parametrize(("sql", "code"), [
    ("SETTINGS (no_such_setting = 1) SELECT 1", 2801),      # UnknownVariable, as SET answers
    ("SETTINGS (max_threads = 'x') SELECT 1", 1006),        # BadArguments
    ("SETTINGS (timezone = 'Nowhere/Zone') SELECT 1", 1078),  # Databend's InvalidTimezone
])
def test_bad_settings_are_refused_and_change_nothing(s, sql, code):
    with pytest.raises(engine.EngineError) as info:
        rows(s, sql)
    assert info.value.code == code
    assert rows(s, "SELECT timezone()") == [("UTC",)]


def test_set_var_hints(s):
    # oracle: SELECT /*+ SET_VAR(timezone='Asia/Shanghai') */ timezone() -> Asia/Shanghai, then UTC;
    # SELECT /*+ SET_VAR(foo=1) */ 1 -> 1 (an unknown name is ignored)
    assert rows(s, "SELECT /*+ SET_VAR(timezone='Asia/Shanghai') */ timezone()") == [("Asia/Shanghai",)]
    assert rows(s, "SELECT timezone()") == [("UTC",)]
    # the plan cache keeps no hinted plan (it would run later without its settings)
    assert rows(s, "SELECT /*+ SET_VAR(timezone='Asia/Shanghai') */ timezone()") == [("Asia/Shanghai",)]
    assert rows(s, "select /*+ SET_VAR(foo=1) SET_VAR(timezone='Asia/Tokyo') */ timezone()") == [("Asia/Tokyo",)]
    assert rows(s, "SELECT /* SET_VAR(timezone='Asia/Tokyo') */ timezone()") == [("UTC",)]  # not a hint
