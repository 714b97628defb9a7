"""With a data directory the server says Succeeded for a write only once its log record is on
disk; reads do not wait; an upload is answered once its file is logged; a dead log fails writes
with 4000 and the server keeps answering."""

from __future__ import annotations

import engine
from tests.web.harness import Harness
from tests.web.test_upload_to_stage import BOUNDARY, _multipart


def durable_harness(tmp_path):
    h = Harness()
    real = engine.Database(data_dir=str(tmp_path / "data"), wait_durable=False)
    h.db.real = real
    h.db.processes = real.processes
    h.db.stages = real.stages
    on_loop: list = []  # "record n is on disk", as the log's thread hands it to the event loop
    h.app._call_from_thread = on_loop.append
    return h, real, on_loop


def deliver(on_loop: list) -> None:
    while on_loop:
        on_loop.pop(0)()


def wait_on_disk(real) -> None:
    real.durability.writer.wait(real.durability.recorder.last_lsn)


def test_a_write_is_acknowledged_only_once_its_record_is_on_disk(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE TABLE t (a INT)"}))
    call = h.start("POST", "/v1/query", {"sql": "INSERT INTO t VALUES (1)"})
    h.pump(5)
    assert not call.done  # applied, logged, but not yet known to be on disk: no answer yet
    answer = answered(h, real, on_loop, call).json
    assert answer["state"] == "Succeeded" and answer["error"] is None
    # a query does not wait for the log
    assert h.post("SELECT count(*) FROM t").json["data"] == [["1"]]
    real.close()


def answered(h, real, on_loop, call):
    """Pump the server and hand it the log's "on disk" news until `call` is answered."""
    for _ in range(100):
        if call.done:
            break
        wait_on_disk(real)
        deliver(on_loop)
        h.pump()
    return call.reply()


def test_an_upload_is_answered_once_the_file_is_logged(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    body = _multipart("f.csv", b"1\n")
    call = h.start("PUT", "/v1/upload_to_stage", body, {
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "X-DATABEND-STAGE-NAME": "~"})
    assert not call.done  # stored and logged, not yet known to be on disk
    reply = answered(h, real, on_loop, call)
    assert reply.status == 200 and reply.json["state"] == "SUCCESS"
    real.close()
    again = engine.Database(data_dir=str(tmp_path / "data"))
    assert again.stages.get("root", engine.parse_location("@~/f.csv")) == b"1\n"
    again.close()


def test_a_dead_log_fails_writes_with_4000_and_reads_go_on(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE TABLE t (a INT)"}))
    real.durability.writer.close()
    real.durability.writer.error = OSError("No space left on device")
    answer = h.post("INSERT INTO t VALUES (1)").json
    assert answer["state"] == "Failed"
    assert answer["error"]["code"] == 4000 and "No space left" in answer["error"]["message"]
    assert h.post("SELECT 1").json["data"] == [["1"]]


def test_metrics_show_the_log_and_its_group_commit(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    h.app.metrics = type(h.app.metrics)(h.app)  # built again: the harness made it before the data dir
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE TABLE t (a INT)"}))
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "INSERT INTO t VALUES (1)"}))
    text = h.get("/metrics").body.decode()
    records = float(text.split("\nqueryhttp_log_records ")[1].split()[0])
    fsyncs = float(text.split("\nqueryhttp_log_fsyncs ")[1].split()[0])
    assert records >= 2 and 1 <= fsyncs
    assert "queryhttp_checkpoints 0.0" in text
    real.close()


def test_rows_holding_sequence_values_wait_until_their_reservation_is_on_disk(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    answered(h, real, on_loop, h.start("POST", "/v1/query", {"sql": "CREATE SEQUENCE seq"}))
    call = h.start("POST", "/v1/query", {"sql": "SELECT nextval(seq)"})
    h.pump(5)
    # the value is reserved and logged, not yet known to be on disk: not in any page yet
    [query] = [q for q in h.app.queries if q.sql == "SELECT nextval(seq)"]
    assert not call.done and query.buffer.rows == []
    answer = answered(h, real, on_loop, call).json
    assert answer["state"] == "Succeeded" and answer["data"] == [["1"]]
    call = h.start("POST", "/v1/query", {"sql": "SELECT nextval(seq)"})  # within the reserved range
    assert answered(h, real, on_loop, call).json["data"] == [["2"]]
    real.close()
