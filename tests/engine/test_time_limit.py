"""max_execute_time_in_seconds: checked at each step against the Database's (here fake) clock."""

import pytest

import engine
from engine.core.errors import ABORTED_QUERY

SORT = "SELECT * FROM numbers(20000) ORDER BY number DESC"
ABORTED = "Aborted query, because the execution time exceeds the maximum execution time limit"


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def db(clock):
    return engine.Database(clock=clock)


def test_max_execute_time_in_seconds_is_a_uint64_setting_shown_with_the_others(db):
    s = db.session()
    row = list(s.execute("SELECT name, value, default, description FROM system.settings "
                         "WHERE name = 'max_execute_time_in_seconds'"))
    assert row == [("max_execute_time_in_seconds", "0", "0",
                    "Sets the maximum query execution time in seconds. Setting it to 0 means no limit.")]
    list(s.execute("SET max_execute_time_in_seconds = 30"))
    assert s.setting("max_execute_time_in_seconds") == "30"
    with pytest.raises(engine.EngineError) as info:
        s.execute("SET max_execute_time_in_seconds = 'soon'")
    assert info.value.code == 1006
    list(s.execute("SET GLOBAL max_execute_time_in_seconds = 5"))
    assert db.session().setting("max_execute_time_in_seconds") == "5"
    session = db.session(settings={"max_execute_time_in_seconds": "9"})
    assert session.setting("max_execute_time_in_seconds") == "9"


def test_a_step_at_the_limit_runs_and_the_first_past_it_aborts_the_query(db, clock):
    s = db.session(settings={"max_execute_time_in_seconds": "10"})
    result = s.execute(SORT)
    batches = result.batches()
    next(batches)
    clock.now += 10  # exactly the limit: still allowed
    next(batches)
    assert db.memory.used > 0
    clock.now += 0.001
    with pytest.raises(engine.EngineError) as info:
        next(batches)
    assert (info.value.code, info.value.message) == (ABORTED_QUERY, ABORTED)
    assert db.memory.used == 0  # everything the sort held is released
    assert list(batches) == []


def test_the_deadline_starts_when_execute_starts(db, clock):
    s = db.session(settings={"max_execute_time_in_seconds": "10"})
    clock.now += 3600  # an idle session is not a running query
    result = s.execute(SORT)
    clock.now += 10
    assert len(list(result)) == 20000


def test_zero_means_no_limit(db, clock):
    result = db.session().execute(SORT)
    batches = result.batches()
    next(batches)
    clock.now += 10 ** 9
    assert sum(len(b) for b in batches) == 20000


def test_a_set_limit_applies_to_later_statements_of_the_session(db, clock):
    s = db.session()
    list(s.execute("SET max_execute_time_in_seconds = 1"))
    result = s.execute(SORT)
    clock.now += 2
    with pytest.raises(engine.EngineError) as info:
        list(result)
    assert info.value.code == ABORTED_QUERY


def test_a_timed_out_insert_changes_nothing(db, clock):
    s = db.session(settings={"max_execute_time_in_seconds": "1"})
    list(s.execute("CREATE TABLE t (x INT)"))
    result = s.execute("INSERT INTO t SELECT number FROM numbers(20000)")
    batches = result.batches()
    next(batches)
    clock.now += 2
    with pytest.raises(engine.EngineError) as info:
        list(batches)
    assert info.value.code == ABORTED_QUERY
    assert list(s.execute("SELECT count(*) FROM t")) == [(0,)]
    assert db.memory.used == 0
