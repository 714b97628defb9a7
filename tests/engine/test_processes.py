"""The process list and query log: system.processes, system.query_log, SHOW PROCESSLIST, KILL."""

import datetime
import gc
import weakref

import pytest

import engine
from engine.core.errors import AbortedQuery
from engine.core.limits import Limits

# Databend 1.2.453's columns (`DESC system.processes` and `DESC system.query_log` on its
# embedded build); the query log keeps a subset of them, in Databend's order.
PROCESSES_COLUMNS = [
    ("node", "String"), ("id", "String"), ("type", "String"), ("host", "Nullable(String)"),
    ("user", "String"), ("command", "String"), ("database", "String"), ("extra_info", "String"),
    ("memory_usage", "Int64"), ("data_read_bytes", "UInt64"), ("data_write_bytes", "UInt64"),
    ("scan_progress_read_rows", "UInt64"), ("scan_progress_read_bytes", "UInt64"),
    ("mysql_connection_id", "Nullable(UInt32)"), ("time", "UInt64"), ("status", "String"),
]
QUERY_LOG_COLUMNS = [
    ("log_type", "Int8"), ("log_type_name", "String"), ("handler_type", "String"),
    ("tenant_id", "String"), ("cluster_id", "String"), ("node_id", "String"),
    ("sql_user", "String"), ("query_id", "String"), ("query_kind", "String"),
    ("query_text", "String"), ("event_date", "Date"), ("event_time", "Timestamp"),
    ("query_start_time", "Timestamp"), ("query_duration_ms", "Int64"),
    ("current_database", "String"), ("written_rows", "UInt64"), ("written_bytes", "UInt64"),
    ("scan_rows", "UInt64"), ("scan_bytes", "UInt64"), ("result_rows", "UInt64"),
    ("result_bytes", "UInt64"), ("memory_usage", "UInt64"), ("exception_code", "Int32"),
    ("exception_text", "String"), ("server_version", "String"),
]
BIG = "SELECT number FROM numbers(1000000)"  # many steps: still running after one


def _rows(session, sql):
    return list(session.execute(sql))


def _started(session, sql, query_id=None):
    """A statement of `session` that has run one step and is still running (keep what this
    returns: a result or batch iterator dropped unread ends the statement)."""
    result = session.execute(sql, query_id=query_id)
    batches = result.batches()
    next(batches)
    return result, batches


def _log(db, query_id):
    root = db.session()
    rows = _rows(root, "SELECT log_type, log_type_name, query_kind, query_text, sql_user, "
                       "current_database, result_rows, written_rows, exception_code, exception_text "
                       f"FROM system.query_log WHERE query_id = '{query_id}'")
    assert len(rows) == 1
    return rows[0]


@pytest.mark.parametrize("table, columns", [("processes", PROCESSES_COLUMNS),
                                            ("query_log", QUERY_LOG_COLUMNS)])
def test_columns_are_databends(table, columns):
    result = engine.Database().session().execute(f"SELECT * FROM system.{table}")
    assert [(c.name, c.type) for c in result.schema] == columns


def test_processes_shows_a_running_query_of_another_session():
    db = engine.Database()
    alice = db.session(user="alice", database="default")
    _running = _started(alice, BIG, query_id="q-alice")
    rows = _rows(db.session(), "SELECT id, type, user, command, database, extra_info, "
                               "scan_progress_read_rows > 0, status FROM system.processes "
                               "WHERE id = 'q-alice'")
    assert rows == [("q-alice", "Local", "alice", "Query", "default", BIG, True,
                     "executing pipeline")]


def test_processes_list_only_the_users_own_statements_unless_root():
    db = engine.Database()
    _running = _started(db.session(user="alice"), BIG, query_id="q-alice")
    bob_sees = _rows(db.session(user="bob"), "SELECT id, user FROM system.processes")
    root_sees = _rows(db.session(), "SELECT id FROM system.processes ORDER BY id")
    assert [user for _, user in bob_sees] == ["bob"]  # only the SELECT itself
    assert ("q-alice",) in root_sees


def test_processes_time_counts_seconds_on_the_lists_clock():
    db = engine.Database()
    now = [100.0]
    db.processes.clock = lambda: now[0]
    _running = _started(db.session(), BIG, query_id="slow")
    now[0] += 42.5
    assert _rows(db.session(), "SELECT time FROM system.processes WHERE id = 'slow'") == [(42,)]


def test_a_finished_query_leaves_the_list_and_is_logged():
    db = engine.Database()
    session = db.session()
    result = session.execute("SELECT number FROM numbers(5)", query_id="five")
    assert "five" in db.processes.running
    assert len(list(result)) == 5
    assert "five" not in db.processes.running
    assert _log(db, "five") == (2, "Finish", "Query", "SELECT number FROM numbers(5)", "root",
                                "default", 5, 0, 0, "")


def test_query_log_records_the_duration_on_the_lists_clock():
    db = engine.Database()
    now = [10.0]
    db.processes.clock = lambda: now[0]
    result = db.session().execute("SELECT 1", query_id="timed")
    now[0] += 1.25
    list(result)
    rows = _rows(db.session(), "SELECT query_duration_ms FROM system.query_log "
                               "WHERE query_id = 'timed'")
    assert rows == [(1250,)]


def test_query_log_records_writes_and_kinds():
    db = engine.Database()
    session = db.session()
    _rows(session, "CREATE TABLE t (a INT)")
    list(session.execute("INSERT INTO t VALUES (1), (2), (3)", query_id="ins"))
    assert _log(db, "ins")[2] == "Insert"
    assert _log(db, "ins")[7] == 3  # written_rows


def test_query_log_records_a_failure_while_running_with_its_code():
    db = engine.Database()
    session = db.session()
    result = session.execute("SELECT 1 DIV (number - 3) FROM numbers(10)", query_id="div")
    with pytest.raises(engine.EngineError) as failed:
        list(result)
    assert failed.value.code == 1006
    log_type, name, *_, code, text = _log(db, "div")
    assert (log_type, name, code) == (3, "Error", 1006)
    assert "divided by zero" in text
    assert "div" not in db.processes.running


@pytest.mark.parametrize("sql, code", [("SELEC 1", 1005), ("SELECT * FROM nowhere", 1025)])
def test_query_log_records_a_statement_that_failed_to_start(sql, code):
    db = engine.Database()
    with pytest.raises(engine.EngineError):
        db.session().execute(sql, query_id="bad")
    assert _log(db, "bad")[0:2] == (3, "Error")
    assert _log(db, "bad")[8] == code
    assert db.processes.running == {}


def test_a_result_dropped_unread_leaves_the_list():
    db = engine.Database()
    db.session().execute(BIG, query_id="dropped")  # never read nor closed
    assert "dropped" not in db.processes.running
    assert _log(db, "dropped")[1] == "Finish"


def test_a_closed_result_is_logged():
    db = engine.Database()
    result, _ = _started(db.session(), BIG, query_id="closed")
    result.close()
    assert "closed" not in db.processes.running
    assert _log(db, "closed")[1] == "Finish"


def test_generated_query_ids_are_unique():
    db = engine.Database()
    session = db.session()
    for _ in range(3):
        list(session.execute("SELECT 1"))
    ids = _rows(session, "SELECT DISTINCT query_id FROM system.query_log")
    assert len(ids) == 3


def test_query_log_keeps_its_size_n_and_drops_the_oldest_at_n_plus_1():
    n = 5
    db = engine.Database(limits=Limits(query_log_size=n))
    session = db.session()
    for i in range(n):
        list(session.execute(f"SELECT {i}", query_id=f"q{i}"))
    assert [e.query_id for e in db.processes.entries()] == [f"q{i}" for i in range(n)]
    list(session.execute("SELECT 'one more'", query_id="extra"))
    kept = [e.query_id for e in db.processes.entries()]
    assert len(kept) == n
    assert kept == [f"q{i}" for i in range(1, n)] + ["extra"]


def test_query_log_shows_times_in_the_session_time_zone():
    db = engine.Database()
    db.processes.now = lambda: datetime.datetime(2026, 1, 2, 23, 30, tzinfo=datetime.UTC)
    list(db.session().execute("SELECT 1", query_id="tz"))
    tokyo = db.session(settings={"timezone": "Asia/Tokyo"})
    result = tokyo.execute("SELECT event_date, query_start_time FROM system.query_log WHERE query_id = 'tz'")
    # Timestamps are held in UTC and shown in the session zone
    assert result.renderer(False)(list(result)) == [("2026-01-03", "2026-01-03 08:30:00.000000")]


def test_show_processlist_has_the_columns_and_rows_of_system_processes():
    db = engine.Database()
    _running = _started(db.session(user="alice"), BIG, query_id="q-alice")
    result = db.session().execute("SHOW PROCESSLIST")
    assert [(c.name, c.type) for c in result.schema] == PROCESSES_COLUMNS
    rows = list(result)
    assert {row[1] for row in rows} >= {"q-alice"}
    assert any(row[7] == "SHOW PROCESSLIST" for row in rows)  # as Databend, it lists itself


def test_show_processlist_where_filters_as_databend():
    db = engine.Database()
    _running = _started(db.session(user="alice"), BIG, query_id="q-alice")
    rows = _rows(db.session(), "SHOW PROCESSLIST WHERE user = 'alice'")
    assert [(row[1], row[4]) for row in rows] == [("q-alice", "alice")]


def test_kill_query_by_its_owner_aborts_the_next_step():
    db = engine.Database()
    alice = db.session(user="alice")
    _, batches = _started(alice, BIG, query_id="victim")
    assert _rows(db.session(user="alice"), "KILL QUERY 'victim'") == []
    with pytest.raises(engine.EngineError) as killed:
        next(batches)
    assert killed.value.code == 1043
    assert "killed" in killed.value.message
    assert "victim" not in db.processes.running
    log_type, name, *_, code, _text = _log(db, "victim")
    assert (log_type, name, code) == (4, "Aborted", 1043)


def test_kill_query_by_root():
    db = engine.Database()
    _, batches = _started(db.session(user="alice"), BIG, query_id="victim")
    _rows(db.session(), "KILL QUERY victim")  # the id may be bare, as in Databend
    with pytest.raises(engine.EngineError) as killed:
        next(batches)
    assert killed.value.code == 1043


def test_kill_connection_stops_the_statement_too():
    db = engine.Database()
    _, batches = _started(db.session(), BIG, query_id="victim")
    _rows(db.session(), "KILL CONNECTION 'victim'")
    with pytest.raises(engine.EngineError, match="killed"):
        next(batches)


def test_kill_of_a_result_not_yet_read_fails_its_first_step():
    db = engine.Database()
    result = db.session().execute(BIG, query_id="unread")
    _rows(db.session(), "KILL QUERY 'unread'")
    with pytest.raises(engine.EngineError) as killed:
        list(result)
    assert killed.value.code == 1043


def test_kill_query_of_another_users_query_is_permission_denied():
    db = engine.Database()
    _, batches = _started(db.session(user="alice"), BIG, query_id="victim")
    with pytest.raises(engine.EngineError) as denied:
        _rows(db.session(user="bob"), "KILL QUERY 'victim'")
    assert denied.value.code == 1063
    # Databend's refusal (SUPER on *.*), which names neither the owner nor whether the id exists
    assert denied.value.message.startswith("Permission denied: privilege [Super] is required on *.* for "
                                           "user 'bob'@'%'") and "alice" not in denied.value.message
    with pytest.raises(engine.EngineError) as unknown:
        _rows(db.session(user="bob"), "KILL QUERY 'no-such-query'")
    assert (unknown.value.code, unknown.value.message) == (denied.value.code, denied.value.message)
    assert len(next(batches)) > 0  # still running
    assert "victim" in db.processes.running


def test_kill_query_of_an_unknown_id_is_unknown_session():
    db = engine.Database()
    with pytest.raises(engine.EngineError) as unknown:
        _rows(db.session(), "KILL QUERY 'nope'")
    assert unknown.value.code == 1053  # Databend 1.2.453: UnknownSession
    assert unknown.value.message == "Not found session id nope"


def test_kill_of_a_finished_query_is_unknown():
    db = engine.Database()
    list(db.session().execute("SELECT 1", query_id="done"))
    with pytest.raises(engine.EngineError) as unknown:
        _rows(db.session(), "KILL QUERY 'done'")
    assert unknown.value.code == 1053


def test_kill_calls_the_callback_the_process_holds():
    db = engine.Database()
    _running = _started(db.session(), BIG, query_id="served")
    calls = []
    db.processes.find("served").kill = lambda: calls.append("stop")
    _rows(db.session(), "KILL QUERY 'served'")
    assert calls == ["stop"]


def test_the_log_drops_the_kill_callback_of_a_finished_statement():
    class ServerQuery:  # what a server's stop holds: its whole query
        def stop(self):
            pass

    db = engine.Database()
    result = db.session().execute("SELECT 1", query_id="served")
    query = ServerQuery()
    db.processes.find("served").kill = query.stop
    held = weakref.ref(query)
    del query
    list(result)
    assert db.processes.find("served") is None and db.processes.entries()[-1].query_id == "served"
    gc.collect()
    assert held() is None  # nothing the process list keeps refers to it


def test_memory_is_read_from_the_query_memory_tracker():
    db = engine.Database()
    # a sort holds its input: after a few steps the tracker holds bytes
    result, batches = _started(db.session(), "SELECT number FROM numbers(100000) ORDER BY number DESC",
                               query_id="mem")
    for _ in range(5):
        next(batches)
    held = result.memory.held
    assert held > 0
    rows = _rows(db.session(), "SELECT memory_usage FROM system.processes WHERE id = 'mem'")
    assert rows == [(held,)]
    list(batches)
    peak = result.memory.peak
    assert peak >= held
    assert _rows(db.session(), "SELECT memory_usage FROM system.query_log "
                               "WHERE query_id = 'mem'") == [(peak,)]


def test_logged_sql_keeps_n_characters_and_cuts_n_plus_1():
    n = 40
    db = engine.Database(limits=Limits(logged_sql_chars=n))
    session = db.session()
    exact = "SELECT 1 AS " + "a" * (n - len("SELECT 1 AS "))
    longer = exact + "b"
    assert len(exact) == n
    list(session.execute(exact, query_id="exact"))
    list(session.execute(longer, query_id="longer"))
    texts = dict(_rows(session, "SELECT query_id, query_text FROM system.query_log "
                                "WHERE query_id IN ('exact', 'longer')"))
    assert texts == {"exact": exact, "longer": exact + "..."}


def test_logged_error_text_is_cut_like_sql():
    db = engine.Database(limits=Limits(logged_sql_chars=10))
    with pytest.raises(engine.EngineError) as failed:
        db.session().execute("SELECT * FROM a_table_that_is_not_there", query_id="bad")
    text = _log(db, "bad")[-1]
    assert text == failed.value.message[:10] + "..."


def test_abort_stops_a_result_over_computed_batches():
    # batches computed in advance (a list iterator) have no pipeline to close: the flag stops them
    result = engine.Result([engine.Column("n", "UInt8")], iter([[(1,)], [(2,)], [(3,)]]))
    finished = []
    result.on_finish.append(finished.append)
    batches = result.batches()
    assert next(batches) == [(1,)]
    result.abort(AbortedQuery("stop"))
    with pytest.raises(AbortedQuery):
        next(batches)
    assert [e.code for e in finished] == [1043]  # called once, with the reason


def test_on_finish_is_called_once_with_none_at_the_end():
    result = engine.Result([engine.Column("n", "UInt8")], iter([[(1,)]]))
    finished = []
    result.on_finish.append(finished.append)
    assert list(result) == [(1,)]
    result.close()
    assert finished == [None]
