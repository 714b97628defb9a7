"""The memory guard: max_memory_usage per query, the server budget, and release on every end."""

import tracemalloc

import pytest

import engine
from engine.core.errors import MEMORY_EXCEEDS_LIMIT
from engine.core.limits import Limits
from engine.core.memory import ServerMemory

SORT = "SELECT number, number * 3, to_string(number) FROM numbers(20000) ORDER BY number DESC"
CROSS_JOIN = ("SELECT a.number + b.number FROM numbers(100000) a CROSS JOIN numbers(100000) b "
              "ORDER BY 1")


def _peak(db, sql, settings=None):
    """The most memory `sql` held (its tracker's peak), running it to the end."""
    result = db.session(settings=settings).execute(sql)
    memory = result.memory
    for _ in result.batches():
        pass
    return memory.peak


def _fails_2411(db, sql, settings=None):
    with pytest.raises(engine.EngineError) as info:
        list(db.session(settings=settings).execute(sql))
    assert info.value.code == MEMORY_EXCEEDS_LIMIT
    return info.value.message


# ---------------------------------------------------------------- the setting


def test_max_memory_usage_is_a_uint64_setting_shown_with_the_others(db):
    s = db.session()
    row = list(s.execute("SELECT name, value, default, description FROM system.settings "
                         "WHERE name = 'max_memory_usage'"))
    assert row == [("max_memory_usage", "0", "0",
                    "Sets the maximum memory usage in bytes for processing a single query.")]
    list(s.execute("SET max_memory_usage = 1073741824"))
    assert s.setting("max_memory_usage") == "1073741824"
    with pytest.raises(engine.EngineError) as info:
        s.execute("SET max_memory_usage = -1")
    assert info.value.code == 1006
    list(s.execute("SET GLOBAL max_memory_usage = 5000"))
    assert db.session().setting("max_memory_usage") == "5000"
    assert db.session(settings={"max_memory_usage": "7"}).setting("max_memory_usage") == "7"


# ---------------------------------------------------------------- the limits at N and N + 1


def test_a_query_fits_max_memory_usage_equal_to_its_peak_and_fails_one_byte_below(db):
    peak = _peak(db, SORT)
    assert peak > 20000 * 50  # the sort held every row
    assert _peak(db, SORT, {"max_memory_usage": str(peak)}) == peak
    message = _fails_2411(db, SORT, {"max_memory_usage": str(peak - 1)})
    assert message.startswith(f"Memory usage of query exceeds max_memory_usage ({peak - 1} bytes)")
    assert db.memory.used == 0


def test_the_server_budget_caps_queries_without_a_limit_of_their_own(db):
    peak = _peak(db, SORT)
    fits = engine.Database(limits=Limits(server_memory_bytes=peak))
    assert _peak(fits, SORT) == peak
    tight = engine.Database(limits=Limits(server_memory_bytes=peak - 1))
    message = _fails_2411(tight, SORT)
    assert f"the server's memory budget ({peak - 1} bytes, Limits.server_memory_bytes, the server option --max_memory_mb)" in message
    assert tight.memory.used == 0


def test_running_queries_share_the_server_budget(db):
    peak = _peak(db, SORT)
    shared = engine.Database(limits=Limits(server_memory_bytes=peak + peak // 2))
    first = shared.session().execute(SORT)
    first_batches = first.batches()
    while not next(first_batches):  # at its first output the sort holds `peak`
        pass
    assert shared.memory.used == peak
    _fails_2411(shared, SORT)  # the second would need `peak` more
    first.close()
    assert shared.memory.used == 0
    assert _peak(shared, SORT) == peak  # room again once the first is closed


def test_the_server_budget_defaults_to_half_the_machine():
    assert engine.Database().memory.budget == Limits().memory_budget() > 0
    assert engine.Database(limits=Limits(server_memory_bytes=12345)).memory.budget == 12345


def test_the_cross_join_sort_fails_fast_under_a_few_megabytes(db):
    result = db.session(settings={"max_memory_usage": str(4 << 20)}).execute(CROSS_JOIN)
    steps = 0
    with pytest.raises(engine.EngineError) as info:
        for _ in result.batches():
            steps += 1
    assert info.value.code == MEMORY_EXCEEDS_LIMIT
    assert "max_memory_usage (4194304 bytes)" in info.value.message
    # 4 MiB hold ~45k sorted rows: refused within a few dozen steps of 2048 rows, not 10**10 rows
    assert steps < 40
    assert db.memory.used == 0


# ---------------------------------------------------------------- what charges


@pytest.mark.parametrize("sql", [
    "SELECT * FROM numbers(5000) ORDER BY number DESC",
    "SELECT * FROM numbers(50000) ORDER BY number DESC LIMIT 40000",
    "SELECT number % 3000, count(*) FROM numbers(5000) GROUP BY 1",
    "SELECT DISTINCT number % 3000 FROM numbers(5000)",
    "SELECT count(DISTINCT number), sum(number) FROM numbers(5000)",
    "SELECT DISTINCT number % 3000 FROM numbers(50000) LIMIT 2900",
    "SELECT * FROM numbers(5000) a JOIN numbers(5000) b ON a.number = b.number",
    "SELECT * FROM numbers(10) a CROSS JOIN numbers(5000) b",
    "SELECT number FROM numbers(10) WHERE number IN (SELECT number FROM numbers(5000))",
    "SELECT number FROM numbers(5000) UNION SELECT number FROM numbers(5000)",
    "SELECT number FROM numbers(5000) INTERSECT SELECT number FROM numbers(5000)",
    "WITH c AS (SELECT number FROM numbers(5000)) SELECT * FROM c ORDER BY number",
    "SELECT name FROM system.settings",
    "INSERT INTO big SELECT number FROM numbers(5000)",
    "CREATE TABLE copy AS SELECT number FROM numbers(5000)",
    "INSERT INTO big VALUES " + ", ".join(["(1)"] * 100),
    "UPDATE big SET x = x + 1",
    "UPDATE big SET x = 0 WHERE x = 4999",
    "DELETE FROM big WHERE x = 4999",
])
def test_every_operator_that_holds_rows_charges_them(sql):
    db = engine.Database()
    list(db.session().execute("CREATE TABLE big (x INT)"))
    list(db.session().execute("INSERT INTO big SELECT number FROM numbers(5000)"))
    _fails_2411(db, sql, {"max_memory_usage": "1000"})
    assert db.memory.used == 0
    assert list(db.session().execute("SELECT count(*) FROM big")) == [(5000,)]  # nothing changed


@pytest.mark.parametrize("sql", [
    "SELECT * FROM numbers(100000)",
    "SELECT number * 2 FROM numbers(100000) WHERE number % 7 = 1",
    "SELECT sum(number), count(*) FROM numbers(100000)",
])
def test_streaming_queries_hold_nothing(db, sql):
    assert _peak(db, sql, {"max_memory_usage": "1"}) == 0


# ---------------------------------------------------------------- release on every end


def test_memory_is_released_when_the_query_ends(db):
    result = db.session().execute(SORT)
    batches = result.batches()
    next(batches)
    assert db.memory.used > 0
    for _ in batches:
        pass
    assert db.memory.used == 0 and result.memory.held == 0


def test_memory_is_released_when_the_query_fails(db):
    result = db.session().execute("SELECT 1 / (number - 19999) FROM (SELECT * FROM numbers(20000) "
                                  "ORDER BY number DESC) s")
    with pytest.raises(engine.EngineError) as info:
        list(result)
    assert info.value.code == 1006
    assert db.memory.used == 0


def test_memory_is_released_when_the_query_is_closed_or_killed_midway(db):
    result = db.session().execute(SORT)
    batches = result.batches()
    while db.memory.used == 0:
        next(batches)
    result.close()  # a kill closes the result too
    assert db.memory.used == 0
    assert list(batches) == []


def test_memory_is_released_when_a_statement_fails_before_its_result(db):
    sql = "INSERT INTO t (a) VALUES " + ", ".join(["(1)"] * 200) + ", (1, 2)"
    with pytest.raises(engine.EngineError):
        db.session().execute(sql)
    assert db.memory.used == 0


def test_insert_values_releases_its_buffer_even_if_the_result_is_never_read(db):
    db.session().execute("INSERT INTO n VALUES " + ", ".join(["(1)"] * 500))
    assert db.memory.used == 0
    assert list(db.session().execute("SELECT count(*) FROM n")) == [(502,)]


def test_charges_are_refused_whole_and_release_never_goes_below_zero():
    server = ServerMemory(100)
    query = server.query(60)
    query.charge(50)
    with pytest.raises(engine.EngineError):
        query.charge(11)
    assert (query.held, server.used) == (50, 50)
    other = server.query(0)
    with pytest.raises(engine.EngineError):
        other.charge(51)
    query.release(20)
    query.release(1000)
    assert (query.held, server.used, query.peak) == (0, 0, 50)


# ---------------------------------------------------------------- honest estimates


def test_the_sort_estimate_is_within_a_factor_of_two_of_real_memory():
    db = engine.Database()
    sql = "SELECT number, number * 3, to_string(number) FROM numbers(200000) ORDER BY number DESC"
    result = db.session().execute(sql)
    batches = result.batches()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        while not next(batches):  # sort steps: at the first output every row is held and sorted
            pass
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    estimate = result.memory.held
    result.close()
    assert held / 2 <= estimate <= held * 2, (estimate, held)


# ---------------------------------------------------------------- windows

WINDOW = ("SELECT number, sum(number) OVER (PARTITION BY number % 3 ORDER BY number), "
          "row_number() OVER () FROM numbers(20000)")


def test_a_window_charges_the_partition_it_holds_and_releases_everything(db):
    peak = _peak(db, WINDOW)
    assert peak > 20000 * 40  # the sort and the whole-input partition of row_number() held every row
    message = _fails_2411(db, WINDOW, {"max_memory_usage": str(peak // 2)})
    assert message.startswith("Memory usage of query exceeds max_memory_usage")
    assert db.memory.used == 0


@pytest.mark.parametrize("sql", [
    "SELECT median(number) FROM numbers(20000)",
    "SELECT number % 10, string_agg(to_varchar(number), ',') FROM numbers(20000) GROUP BY number % 10",
    "SELECT array_agg(number) WITHIN GROUP (ORDER BY number DESC) FROM numbers(20000)",
    "SELECT number % 10, listagg(to_varchar(number), ',') WITHIN GROUP (ORDER BY number DESC) FROM numbers(20000) "
    "GROUP BY number % 10",
])
def test_collected_aggregates_charge_the_values_they_hold(db, sql):
    peak = _peak(db, sql)
    assert peak > 20000 * 8
    _fails_2411(db, sql, {"max_memory_usage": str(peak // 2)})
    assert db.memory.used == 0


@pytest.mark.parametrize("group_by", ["", " GROUP BY number % 10"])
def test_within_group_keys_are_charged_beside_the_values(db, group_by):
    plain = _peak(db, f"SELECT listagg(to_varchar(number), ',') FROM numbers(20000){group_by}")
    ordered = _peak(db, f"SELECT listagg(to_varchar(number), ',') WITHIN GROUP (ORDER BY number DESC) "
                        f"FROM numbers(20000){group_by}")
    assert ordered > plain + 20000 * 8  # each value's key (and its slot) held until the group's sort
