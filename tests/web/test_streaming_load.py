"""PUT /v1/streaming_load: Databend's upload-and-INSERT in one request (X-Databend-SQL header,
the file in the multipart field `upload`)."""

import base64
import glob
import json
import os

import engine
from engine.storage import journal
from tests.web.harness import Harness
from tests.web.test_durable_answers import answered, durable_harness, wait_on_disk
from web.streaming_load import copy_statement, database_of

BOUNDARY = "----queryhttp-streaming"


def _multipart(data: bytes, filename: str = "data.csv", field: str = "upload") -> bytes:
    return (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode() \
        + data + f"\r\n--{BOUNDARY}--\r\n".encode()


def _load(h, sql, data, query_id="load-1", headers=None):
    all_headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                   "X-DATABEND-QUERY-ID": query_id}
    if sql is not None:
        all_headers["X-Databend-SQL"] = sql
    all_headers.update(headers or {})
    return h.request("PUT", "/v1/streaming_load", _multipart(data), all_headers)


def _staged(h) -> list:
    return h.db.stages.list("root", engine.parse_location("@~"))


def test_a_csv_file_loads_and_the_answer_is_databends():
    h = Harness()
    h.post("CREATE TABLE people (id INT, name VARCHAR, age INT)")
    reply = _load(h, "insert into people from @_databend_load file_format=(type=csv skip_header=1)",
                  b"id,name,age\n1,Alice,30\n2,\"B,ob\",41\n")
    assert reply.status == 200, reply.body
    assert reply.json == {"id": "load-1", "stats": {"rows": 2, "bytes": 35}}
    assert h.post("SELECT * FROM people ORDER BY id").json["data"] == [
        ["1", "Alice", "30"], ["2", "B,ob", "41"]]
    assert _staged(h) == []  # the uploaded file is not left in the user stage


def test_columns_values_placeholders_and_a_reused_query_id():
    h = Harness()
    h.post("CREATE TABLE people (id INT, name VARCHAR, city VARCHAR DEFAULT 'BJ')")
    sql = "INSERT INTO default.people(name, id) VALUES (?, ?) FROM @_databend_load FILE_FORMAT = (TYPE = CSV)"
    assert _load(h, sql, b"Carol,3\n").json["stats"]["rows"] == 1
    assert _load(h, sql, b"Dave,4\n").json["stats"]["rows"] == 1  # same query id: loaded again
    assert h.post("SELECT id, name, city FROM people ORDER BY id").json["data"] == [
        ["3", "Carol", "BJ"], ["4", "Dave", "BJ"]]


def test_values_with_constants_and_expressions_besides_placeholders():
    h = Harness()
    h.post("CREATE TABLE people (id INT, name VARCHAR, age INT, city VARCHAR)")
    sql = ("insert into people(name, age, city, id) values (?, ?, 'B?J', ? * 10) "
           "from @_databend_load file_format=(type=csv skip_header=1)")
    reply = _load(h, sql, b"name,age,id\nCarol,25,1\nDave,52,2\n")
    assert reply.status == 200 and reply.json["stats"]["rows"] == 2, reply.body
    assert h.post("SELECT * FROM people ORDER BY id").json["data"] == [
        ["10", "Carol", "25", "B?J"], ["20", "Dave", "52", "B?J"]]
    assert _staged(h) == []


def test_only_the_first_fields_with_error_on_column_count_mismatch_false():
    h = Harness()
    h.post("CREATE TABLE people (id INT, name VARCHAR)")
    sql = ("insert into people(id, name) from @_databend_load file_format=(type=csv "
           "skip_header=1 error_on_column_count_mismatch=false)")
    assert _load(h, sql, b"id,name,age\n1,Alice,30\n").json["stats"]["rows"] == 1
    assert h.post("SELECT * FROM people").json["data"] == [["1", "Alice"]]
    refused = _load(h, sql.replace(" error_on_column_count_mismatch=false", ""),
                    b"id,name,age\n1,Bob,41\n")
    assert refused.status == 400 and "expected 2 fields, got 3" in refused.json["error"]["message"]


def test_ndjson_and_tsv_files():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    assert _load(h, "insert into t values from @_databend_load file_format = (type = ndjson)",
                 b'{"a": 1, "b": "x"}\n{"b": "y", "a": 2}\n').json["stats"]["rows"] == 2
    assert _load(h, "insert into t from @_databend_load file_format = (type = tsv)",
                 b"3\tz\n").json["stats"]["rows"] == 1
    assert h.post("SELECT a, b FROM t ORDER BY a").json["data"] == [
        ["1", "x"], ["2", "y"], ["3", "z"]]


def test_a_bad_value_is_a_400_with_the_code_and_nothing_is_inserted():
    h = Harness()
    h.post("CREATE TABLE t (a INT, b VARCHAR)")
    reply = _load(h, "insert into t from @_databend_load file_format = (type = csv)",
                  b"1,x\nnope,y\n")
    assert reply.status == 400
    assert reply.json["error"]["code"] == 1046 and "line 2" in reply.json["error"]["message"]
    assert h.post("SELECT count(*) FROM t").json["data"] == [["0"]]
    assert _staged(h) == []


def test_requests_it_refuses():
    h = Harness()
    h.post("CREATE TABLE t (a INT)")
    missing = _load(h, None, b"1\n")
    assert missing.status == 400 and "X-Databend-SQL" in missing.json["error"]["message"]
    no_placeholder = _load(h, "insert into t values (1)", b"1\n")
    assert no_placeholder.status == 400 and "@_databend_load" in no_placeholder.json["error"]["message"]
    unknown = _load(h, "insert into nope from @_databend_load file_format=(type=csv)", b"1\n")
    assert unknown.status == 400 and unknown.json["error"]["code"] == 1025
    not_multipart = h.request("PUT", "/v1/streaming_load", b"1\n", {
        "Content-Type": "text/csv",
        "X-Databend-SQL": "insert into t from @_databend_load file_format=(type=csv)"})
    assert not_multipart.status == 415
    assert h.request("POST", "/v1/streaming_load", b"", {}).status == 405
    assert _staged(h) == []


def test_the_sql_rewrite_and_the_session_context_header():
    assert copy_statement("insert /*+ set_var(x=1) */ into t1 values  from @_databend_load "
                          "file_format = (type = CSV)", "@~/f") == \
        "COPY INTO t1 FROM @~/f file_format = (type = CSV)"
    assert copy_statement("INSERT INTO d.t (a, b) FROM @_databend_load FILE_FORMAT=(TYPE=CSV);",
                          "@~/f") == "COPY INTO d.t (a, b) FROM @~/f FILE_FORMAT=(TYPE=CSV)"
    assert copy_statement("INSERT INTO t (a, b) VALUES (?, concat(?, '?')) FROM @_databend_load "
                          "FILE_FORMAT = (TYPE = CSV)", "@~/f") == \
        "COPY INTO t (a, b) FROM (SELECT $1, concat($2, '?') FROM @~/f) FILE_FORMAT = (TYPE = CSV)"
    assert database_of(b'{"database": "db1"}') == "db1"
    assert database_of(b"eyJkYXRhYmFzZSI6ICJkYjIifQ") == "db2"  # base64 of {"database": "db2"}
    assert database_of(b"garbage") is None and database_of(None) is None


def test_with_a_data_directory_the_answer_waits_for_the_log_and_the_rows_survive(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE TABLE t (a INT)"}))
    call = h.start("PUT", "/v1/streaming_load", _multipart(b"1\n2\n"), {
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
        "X-Databend-SQL": "insert into t from @_databend_load file_format = (type = csv)"})
    h.pump(5)
    assert not call.done  # loaded and logged, not yet known to be on disk
    reply = answered(h, real, on_loop, call)
    assert reply.status == 200 and reply.json["stats"]["rows"] == 2
    real.close()
    again = engine.Database(data_dir=str(tmp_path / "data"))
    assert list(again.session().execute("SELECT sum(a) FROM t")) == [(3,)]
    assert again.stages.list("root", engine.parse_location("@~")) == []
    again.close()


def _logged_changes(data_dir) -> list:
    """Every change in the data directory's log segments, in order."""
    changes = []
    for path in sorted(glob.glob(os.path.join(data_dir, "wal-*.log"))):
        with open(path, "rb") as f:
            payloads, _, _ = journal.read_records(f.read(), len(journal.MAGIC))
        for payload in payloads:
            changes += json.loads(payload)["changes"]
    return changes


def test_a_load_logs_its_rows_not_its_file_and_leaves_no_load_history(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE TABLE t (a INT, s VARCHAR)"}))
    image = real.durability.recorder.last_image
    for n in range(5):
        call = h.start("PUT", "/v1/streaming_load", _multipart(b"%d,%s\n" % (n, b"x" * 3000)), {
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
            "X-Databend-SQL": "insert into t from @_databend_load file_format = (type = csv)"})
        assert answered(h, real, on_loop, call).json["stats"]["rows"] == 1
    wait_on_disk(real)
    ops = [c["op"] for c in _logged_changes(str(tmp_path / "data"))]
    # the table, then per load its appended row: no staged file, no removal, no new image
    assert ops == ["catalog"] + ["append"] * 5
    assert real.durability.recorder.last_image == image  # no load history grew the catalog
    assert real.catalog.table("default", "t").copied_files == {}
    real.durability.checkpoint(wait=True)  # a checkpoint holds no staged file either
    real.close()
    again = engine.Database(data_dir=str(tmp_path / "data"))
    assert list(again.session().execute("SELECT count(*), sum(a), min(length(s)) FROM t")) == [(5, 10, 3000)]
    assert again.stages.list("root", engine.parse_location("@~")) == []
    again.close()


def _context(reply) -> dict:
    raw = reply.header("x-databend-query-context")
    return json.loads(base64.urlsafe_b64decode(raw + b"=" * (-len(raw) % 4)))


def test_the_answer_carries_the_query_context_back_as_databend_writes_it():
    h = Harness()
    h.post("CREATE TABLE people (id INT)")
    sent = {"database": "default", "txn_state": "Active", "internal": '{"keep": 1}'}
    ok = _load(h, "INSERT INTO people FROM @_databend_load FILE_FORMAT = (TYPE = CSV)", b"1\n",
               query_id="load-ok", headers={"X-DATABEND-QUERY-CONTEXT": json.dumps(sent)})
    context = _context(ok)
    assert context["database"] == "default" and context["txn_state"] == "Active"
    assert json.loads(context["internal"]) == {"keep": 1, "last_query_ids": ["load-ok"]}
    bad = _load(h, "INSERT INTO people FROM @_databend_load FILE_FORMAT = (TYPE = CSV)", b"x\n",
                query_id="load-bad", headers={"X-DATABEND-QUERY-CONTEXT": json.dumps(sent)})
    assert bad.status == 400 and _context(bad)["txn_state"] == "Fail"
    plain = _load(h, "INSERT INTO people FROM @_databend_load FILE_FORMAT = (TYPE = CSV)", b"2\n",
                  query_id="load-plain")
    assert plain.header("x-databend-query-context") is None
