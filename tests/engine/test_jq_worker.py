"""The jq worker process (engine.functions.jq_worker, driven by engine.functions.json_jq): a
filter that never ends fails with 1006 at its time budget and the next call works, the memory
cap, a killed worker replaced, and the worker ended (reaped) at Database.close and at exit."""

import os
import signal
import subprocess
import sys
import time

import pytest

import engine
from engine.core.limits import Limits
from engine.functions import json_jq
from tests.engine.sql_helpers import q

pytest.importorskip("jq")


def _session(milliseconds: int):
    return engine.Database(limits=Limits(jq_call_milliseconds=milliseconds)).session()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("endless", ["until(false; .)", "[range(1e12)] | length", "last(range(1e12))"])
def test_a_filter_past_its_time_budget_fails_and_the_next_call_works(endless):
    s = _session(30)
    assert q(s, "SELECT * FROM jq('.', parse_json('1'))") == [("1",)]  # the worker is up
    started = time.monotonic()
    with pytest.raises(engine.EngineError) as info:
        q(s, f"SELECT * FROM jq('{endless}', parse_json('0'))")
    # the filter never ends: only the budget (30 ms; the bound allows a loaded machine) stops it
    assert time.monotonic() - started < 5
    assert info.value.code == 1006 and "exceeded its time budget of 30 ms" in str(info.value)
    assert q(s, "SELECT * FROM jq('.a + 1', parse_json('{\"a\": 1}'))") == [("2",)]


def test_a_filter_past_the_memory_cap_fails_and_the_next_call_works():
    s = _session(20_000)  # a generous time budget: the memory cap must be what stops it
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT * FROM jq('(\"x\" * 6e8) | length', parse_json('null'))")  # 600 MB > 512 MB
    assert info.value.code == 1006 and "memory limit of 512 MB" in str(info.value)
    # under the cap: works
    assert q(s, "SELECT * FROM jq('(\"x\" * 1e6) | length', parse_json('null'))") == [("1000000",)]


def test_a_killed_worker_is_replaced():
    s = _session(5_000)
    assert q(s, "SELECT * FROM jq('.[0]', parse_json('[7]'))") == [("7",)]
    killed = json_jq.WORKER.process.pid
    os.kill(killed, signal.SIGKILL)
    json_jq.WORKER.process.wait()  # dead (as if killed between two statements)
    assert q(s, "SELECT * FROM jq('.[1]', parse_json('[7, 8]'))") == [("8",)]
    assert json_jq.WORKER.process.pid != killed and _gone(killed)


def test_the_output_bytes_are_limited():
    s = engine.Database(limits=Limits(string_result_chars=1000)).session()
    # 80 outputs of 10 characters and their separators: 880 bytes
    assert len(q(s, "SELECT * FROM jq('range(80) | \"abcdefgh\"', parse_json('null'))")) == 80
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT * FROM jq('range(1000) | \"abcdefgh\"', parse_json('null'))")
    assert info.value.code == 1006 and "string_result_chars = 1000" in str(info.value)


def test_floats_and_keys_are_canonical():
    # as the in-process jq answered: floats written as Databend does (V.dumps), keys sorted
    s = engine.Database().session()
    rows = q(s, "SELECT * FROM jq('.[] | ., {b: ., a: [.]}', parse_json('[1.5, 1e20, \"1.5\", 0.1, -2.0, 1e-7]'))")
    assert [r[0] for r in rows] == [
        '1.5', '{"a":[1.5],"b":1.5}', '100000000000000000000',
        '{"a":[100000000000000000000],"b":100000000000000000000}', '"1.5"', '{"a":["1.5"],"b":"1.5"}',
        '0.1', '{"a":[0.1],"b":0.1}', '-2', '{"a":[-2],"b":-2}', '1e-7', '{"a":[1e-7],"b":1e-7}']


def test_database_close_ends_the_worker():
    db = engine.Database()
    assert q(db.session(), "SELECT * FROM jq('.', parse_json('1'))") == [("1",)]
    process = json_jq.WORKER.process
    db.close()
    assert process.returncode is not None and json_jq.WORKER.process is None  # reaped
    assert q(db.session(), "SELECT * FROM jq('. + 1', parse_json('1'))") == [("2",)]  # a new one


def test_the_worker_ends_with_the_interpreter():
    program = ("import engine; from engine.functions import json_jq; "
               "list(engine.Database().session().execute(\"SELECT * FROM jq('.', parse_json('1'))\")); "
               "print(json_jq.WORKER.process.pid)")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    assert _gone(int(out.stdout.split()[-1]))  # killed and reaped at exit (atexit), not left behind


def _table(s, rows: int):
    q(s, "CREATE TABLE t (id INT, j VARIANT)")
    q(s, f"INSERT INTO t SELECT number, object_construct('a', number % 7, 'b', array_construct(number, 1)) "
         f"FROM numbers({rows})")


def test_a_batch_of_rows_is_one_request(monkeypatch):
    s = engine.Database().session()
    _table(s, 1000)
    kinds = []
    ask = json_jq._ask
    monkeypatch.setattr(json_jq, "_ask", lambda kind, *rest: kinds.append(kind) or ask(kind, *rest))
    rows = q(s, "SELECT id, jq('.b[] + .a', j) FROM t WHERE id % 2 = 0 ORDER BY id")
    assert rows[:4] == [(0, "0"), (0, "1"), (2, "4"), (2, "3")] and len(rows) == 1000
    assert kinds.count(b"R") == 0 and kinds.count(b"M") == 1  # 500 rows: no call of its own
    # the answers match the calls one by one (NULLs, repeated inputs, two filters)
    q(s, "INSERT INTO t VALUES (5000, NULL), (5001, '{\"a\": 1.5}'), (5002, '{\"a\": 1.5}')")
    batched = q(s, "SELECT id, jq('.a', j), jq('[.a, .b]', j) FROM t ORDER BY id")
    one_by_one = [(i, *(json_jq.make_jq(Limits())(f, j) for f in (".a", "[.a, .b]")))
                  for i, j in q(s, "SELECT id, j FROM t ORDER BY id")]
    spread = [(i, a[k], b[k]) for i, a, b in one_by_one if a is not None for k in range(len(a))]
    assert batched == spread and batched[-1] == (5002, "1.5", "[1.5,null]")


def test_an_error_in_a_batch_is_the_rows_own():
    s = _session(30)
    _table(s, 100)
    q(s, "INSERT INTO t VALUES (100, '[1]')")  # .a of an array fails
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT jq('.a', j) FROM t")
    assert info.value.code == 1006 and str(info.value).startswith("Cannot index array with")
    assert "while evaluating function `jq('.a', '[1]')`" in str(info.value)
    # a row that never ends stops the batch at the budget too, and the next statement works
    q(s, "INSERT INTO t VALUES (101, '{\"a\": -1}')")
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT jq('if .a == -1 then last(range(1e12)) else .a end', j) FROM t WHERE id <> 100")
    assert info.value.code == 1006 and "exceeded its time budget of 30 ms" in str(info.value)
    assert len(q(s, "SELECT jq('.a', j) FROM t WHERE id < 100")) == 100


def test_a_call_of_its_own_past_its_budget_kills_the_worker(monkeypatch):
    # after a table in FROM, jq runs once per row (no batch): the server stops waiting and kills
    s = _session(30)
    _table(s, 3)
    kinds = []
    ask = json_jq._ask
    monkeypatch.setattr(json_jq, "_ask", lambda kind, *rest: kinds.append(kind) or ask(kind, *rest))
    assert q(s, "SELECT t.id, r.jq FROM t, jq('.a', t.j) r ORDER BY 1") == [(0, "0"), (1, "1"), (2, "2")]
    assert kinds.count(b"R") == 3
    before = json_jq.WORKER.process
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT * FROM t, jq('until(false; .)', t.j)")
    assert info.value.code == 1006 and "exceeded its time budget of 30 ms" in str(info.value)
    assert before.returncode == -signal.SIGKILL  # killed and reaped
    assert q(s, "SELECT t.id, r.jq FROM t, jq('.b[0]', t.j) r ORDER BY 1") == [(0, "0"), (1, "1"), (2, "2")]


# ~30 ms of jq a row (far under the call budget below, even on a loaded machine)
# ~0.3 s a row on a quiet machine: 40 rows are far past a step budget of 400 ms, while 40 quick
# calls fit in it even on a loaded machine
_SLOW = "last(range(3e5)) + .a"


def _step_session(step_milliseconds: int, **more):
    return engine.Database(limits=Limits(jq_call_milliseconds=5_000, jq_step_milliseconds=step_milliseconds,
                                         **more)).session()


def test_a_batch_past_the_step_budget_fails_and_kills_the_worker():
    # every row is within its call budget, but 40 of them are ~12 s of one step: the server
    # stops waiting at the step's budget (not 40 x 5 s), kills the worker and the statement fails
    s = _step_session(400)
    _table(s, 40)
    assert len(q(s, "SELECT jq('.a', j) FROM t")) == 40  # a quick batch is under the budget
    before = json_jq.WORKER.process
    started = time.monotonic()
    with pytest.raises(engine.EngineError) as info:
        q(s, f"SELECT jq('{_SLOW}', j) FROM t")
    assert time.monotonic() - started < 4.0  # 400 ms and a loaded machine's slack, not 12 s+
    assert info.value.code == 1006
    assert "time budget of one step, 400 ms (jq_step_milliseconds)" in str(info.value)
    assert before.returncode == -signal.SIGKILL  # killed and reaped
    assert len(q(s, "SELECT jq('.a', j) FROM t")) == 40  # the next statement works


def test_calls_of_their_own_share_the_step_budget():
    # after a table in FROM each row is a call of its own: their sum is held to the step's budget
    s = _step_session(400)
    _table(s, 40)
    assert len(q(s, "SELECT r.jq FROM t, jq('.a', t.j) r")) == 40
    with pytest.raises(engine.EngineError) as info:
        q(s, f"SELECT r.jq FROM t, jq('{_SLOW}', t.j) r")
    assert info.value.code == 1006
    assert "time budget of one step, 400 ms (jq_step_milliseconds)" in str(info.value)
    assert len(q(s, "SELECT r.jq FROM t, jq('.a', t.j) r")) == 40


def _timed_worker(monkeypatch, milliseconds_a_call: int):
    """A stand-in worker whose every run takes `milliseconds_a_call` of a fake clock (no sleep)."""
    now = [0.0]
    monkeypatch.setattr(json_jq, "_clock", lambda: now[0])

    def request(kind, payload, seconds):
        if kind != b"R":
            return b"K", b""
        takes = milliseconds_a_call / 1000
        now[0] += min(takes, seconds)
        if takes > seconds:  # as the worker's client: it stops waiting (and kills the worker)
            raise json_jq.WorkerStopped("waited")
        return b"O", b"1"
    monkeypatch.setattr(json_jq.WORKER, "request", request)


def test_the_step_budget_starts_again_at_each_step(monkeypatch):
    # 30 ms a call: 3 rows a step are 90 ms (under 100), 4 rows a step are 120 ms (over)
    _timed_worker(monkeypatch, 30)
    s = _step_session(100, step_rows=3)
    _table(s, 9)
    assert q(s, "SELECT count(*) FROM t, jq('.x', t.j) r") == [(9,)]
    s = _step_session(100, step_rows=4)
    _table(s, 9)
    with pytest.raises(engine.EngineError) as info:
        q(s, "SELECT count(*) FROM t, jq('.x', t.j) r")
    assert info.value.code == 1006 and "(jq_step_milliseconds)" in str(info.value)
