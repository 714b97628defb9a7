"""Long statements are parsed off the event loop (a thread), then bound and run on it; short
ones are parsed inline."""

import threading

from twisted.internet.defer import succeed

import engine
from engine.catalog.catalog import Catalog
from tests.web.harness import DATABEND_HEADERS, Harness, ManualThreads
from web.config import ServiceConfig
from web.request_helpers import prepare_long_statement

LONG = "SELECT 1 + 1 AS two"  # 19 bytes


def harness(threshold=18):
    threads = ManualThreads()
    h = Harness(ServiceConfig(thread_parse_sql_bytes=threshold), run_in_thread=threads)
    return h, threads


def test_a_long_statement_is_parsed_in_a_thread_while_others_are_served():
    h, threads = harness()
    post = h.start("POST", "/v1/query", {"sql": LONG})
    assert not post.done
    (f, args, _), = threads.calls
    assert f.__name__ == "prepare_long_statement" and args[1] == LONG
    short = h.post("SELECT 1")  # served while the long one parses
    assert short.json["data"] == [["1"]]
    assert threads.finish() == 1
    a = post.reply().json
    assert a["state"] == "Succeeded" and a["data"] == [["2"]]


def test_the_threshold_is_in_bytes_n_inline_n_plus_1_in_a_thread():
    h, threads = harness(threshold=19)
    assert h.post(LONG).json["data"] == [["2"]] and threads.calls == []  # 19 bytes: inline
    post = h.start("POST", "/v1/query", {"sql": LONG + " "})  # 20 bytes
    assert len(threads.calls) == 1 and not post.done
    threads.finish()
    assert post.reply().json["data"] == [["2"]]
    h2, threads2 = harness(threshold=19)
    post = h2.start("POST", "/v1/query", {"sql": "SELECT '" + "\u00e9" * 6 + "'"})
    assert len(threads2.calls) == 1  # 15 characters, but 21 bytes
    threads2.finish()
    assert post.reply().json["data"] == [["\u00e9" * 6]]


def test_a_syntax_error_found_in_the_thread_fails_the_query_as_usual():
    h, threads = harness()
    post = h.start("POST", "/v1/query", {"sql": "SELEC 1 + 1 AS twoooo"},
                   headers=DATABEND_HEADERS)
    threads.finish()
    a = post.reply().json
    assert a["state"] == "Failed" and a["error"]["code"] == 1005 and a["id"]
    assert h.app.queries.running == 0


def test_a_query_killed_while_its_statement_parses_is_never_run():
    h, threads = harness(threshold=22)
    h.post("CREATE TABLE t (x INT)")  # 22 bytes: inline
    post = h.start("POST", "/v1/query", {"sql": "INSERT INTO t VALUES (1)"},
                   headers={"X-DATABEND-QUERY-ID": "mine"})
    assert h.request("POST", "/v1/query/mine/kill").status == 200
    threads.finish()
    reply = post.reply()  # as any page of a killed query
    assert reply.status == 400 and b"closed for canceled" in reply.body
    query = h.app.queries.find("mine")
    assert query.state == "Failed" and query.error.code == 1043
    count = h.start("POST", "/v1/query", {"sql": "SELECT count(*) FROM t"})
    threads.finish()
    assert count.reply().json["data"] == [["0"]]  # the INSERT never ran


def test_a_shutdown_while_a_statement_parses_answers_it_aborted():
    h, threads = harness()
    post = h.start("POST", "/v1/query", {"sql": LONG})
    h.app.shutdown()
    threads.finish()
    a = post.reply().json
    assert a["state"] == "Failed" and a["error"]["code"] == 1043
    assert a["error"]["message"] == "server is shutting down"


def test_a_client_gone_while_its_statement_parses_cancels_the_query_quietly():
    import io

    from twisted.web.server import Request
    from twisted.web.test.requesthelper import DummyChannel

    h, threads = harness()
    request = Request(DummyChannel())
    request.requestHeaders.setRawHeaders(b"authorization", [b"Basic cm9vdDo="])
    request.requestHeaders.setRawHeaders(b"x-databend-query-id", [b"gone"])
    request.method, request.clientproto = b"POST", b"HTTP/1.1"
    request.uri = request.path = b"/v1/query"
    request.prepath, request.postpath = [], [b"v1", b"query"]
    request.content = io.BytesIO(b'{"sql": "%s"}' % LONG.encode())
    request.render(h.app.resource())
    assert len(threads.calls) == 1
    request.connectionLost(Exception("client went away"))
    threads.finish()  # the parse ends after nobody waits for it
    query = h.app.queries.find("gone")
    assert query.state == "Failed" and query.error.code == 1043 and query.closed == "canceled"
    assert h.app.queries.running == 0


def test_the_thread_only_parses_every_statement_is_bound_on_the_event_loop_thread(monkeypatch):
    """The catalog belongs to the event loop's thread (code review N8): a long query is parsed
    in a worker thread and bound back on the caller's."""
    parsed_in, bound_in = [], []

    def worker_thread(f, *args):  # deferToThread's shape, in a real thread, done at once
        box = {}
        worker = threading.Thread(target=lambda: box.update(result=f(*args)), name="parser")
        worker.start()
        worker.join()
        parsed_in.append(worker.name)
        return succeed(box["result"])

    table = Catalog.table

    def recording_table(self, *args, **kwargs):
        bound_in.append(threading.current_thread().name)
        return table(self, *args, **kwargs)

    monkeypatch.setattr(Catalog, "table", recording_table)
    h = Harness(ServiceConfig(thread_parse_sql_bytes=25), run_in_thread=worker_thread)
    h.post("CREATE TABLE t (x INT)")  # 22 bytes: inline
    bound_in.clear()
    answer = h.post("SELECT count(*) FROM t WHERE x IN (1, 2)").json
    assert answer["data"] == [["0"]] and parsed_in == ["parser"]
    assert bound_in and set(bound_in) == {threading.current_thread().name}
    assert h.post("INSERT INTO t VALUES (1), (2)").json["state"] == "Succeeded"
    assert set(bound_in) == {threading.current_thread().name} and len(parsed_in) == 2
    assert h.post("SELECT count(*) FROM t").json["data"] == [["2"]]


def test_prepare_long_statement_returns_the_parse_tree_only():
    h = Harness()
    statement = prepare_long_statement(h.db.session(), "SELECT * FROM numbers(5)", "q")
    assert not isinstance(statement, engine.Result)
    assert h.db.processes.find("q") is None  # nothing registered: not bound, not started


def test_a_query_killed_while_its_statement_parses_is_never_bound():
    h, threads = harness(threshold=10)
    post = h.start("POST", "/v1/query", {"sql": "SELECT * FROM numbers(5)"},
                   headers={"X-DATABEND-QUERY-ID": "mine"})
    assert h.request("POST", "/v1/query/mine/kill").status == 200
    threads.finish()
    post.reply()
    assert h.db.processes.find("mine") is None
    assert "mine" not in [e.query_id for e in h.db.processes.entries()]  # never started
