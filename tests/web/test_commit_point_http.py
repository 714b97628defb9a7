"""Over HTTP: an INSERT ... SELECT that an ALTER TABLE overtakes is not acknowledged (2009, its
rows nowhere) (code review N1); an upload the log cannot take is refused and leaves no file,
and /metrics says the log failed (N4)."""

from __future__ import annotations

import errno

import pytest

import engine
from engine.storage import journal
from tests.web.harness import Harness
from tests.web.test_durable_answers import deliver, durable_harness
from tests.web.test_upload_to_stage import BOUNDARY, _multipart


def test_an_insert_select_overtaken_by_alter_is_not_acknowledged():
    h = Harness(inline_steps=1)
    h.post("CREATE TABLE t (a INT)")
    h.post("INSERT INTO t VALUES (1), (2)")
    # one step inside the POST: the INSERT's first rows are buffered, nothing appended
    insert = h.post("INSERT INTO t SELECT number FROM numbers(100000)", pagination={"wait_time_secs": 0})
    assert insert.json["state"] == "Running", insert.json
    altered = h.post("ALTER TABLE t ADD COLUMN b INT").json
    assert altered["state"] == "Succeeded", altered
    answer = insert.json
    for _ in range(100):  # the INSERT's remaining steps, then its answer
        if answer["state"] != "Running":
            break
        h.pump(10)
        answer = h.get(answer["next_uri"]).json
    assert answer["state"] == "Failed" and answer["error"]["code"] == 2009, answer
    assert h.post("SELECT count(*), count(b) FROM t").json["data"] == [["2", "0"]]


def test_an_upload_the_log_cannot_take_leaves_no_file_and_metrics_say_why(tmp_path):
    h, real, on_loop = durable_harness(tmp_path)
    h.app.metrics = type(h.app.metrics)(h.app)  # built again: the harness made it before the data dir
    headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "X-DATABEND-STAGE-NAME": "~"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(journal, "write_record", _no_space)
        call = h.start("PUT", "/v1/upload_to_stage", _multipart("f.csv", b"1\n"), headers)
        real.durability.writer._thread.join()  # the writer thread failed on the file's record
        deliver(on_loop)  # its news reaches the event loop
        reply = call.reply()
        assert reply.status >= 400 and b"write-ahead log failed" in reply.body
        with pytest.raises(engine.EngineError):
            real.stages.get("root", engine.parse_location("@~/f.csv"))
        # the next upload is refused at once: the log takes nothing more
        again = h.request("PUT", "/v1/upload_to_stage", _multipart("g.csv", b"2\n"), headers)
        assert again.status >= 400
        assert h.post("LIST @~").json["data"] == []
        text = h.get("/metrics").body.decode()
        assert "\nqueryhttp_log_failed 1.0" in text
    real.close()


def _no_space(file, pieces):
    raise OSError(errno.ENOSPC, "No space left on device")
