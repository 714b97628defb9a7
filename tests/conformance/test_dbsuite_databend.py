"""bench.dbsuite --engine databend without the embedded engine: the value rendering of its worker
(checked against texts of Databend's suite), the worker's protocol seen from the runner's side
(a stand-in worker that hangs, dies or answers), and the outcomes comparison."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap

import pyarrow as pa
import pytest

from bench import dbsuite, dbsuite_compare
from bench import dbsuite_databend_worker as W
from bench.dbsuite_databend import DatabendBackend

# --------------------------------------------------------------------------- rendering

@pytest.mark.parametrize(("value", "text"), [
    (4.0, "4.0"),                                   # 02_0000_function_arithmetic: 8 / 2
    (609788441794.1339, "609788441794.1339"),       # 02_0060_function_geo_h3
    (-1e-6, "-1e-6"),                               # 02_0012_function_datetimes
    (3.1482243104279148e-6, "3.1482243104279148e-6"),
    (1.0234567899999998e+81, "1.0234567899999998e+81"),  # 11_0000_data_type_numeric
    (1.2345678901234568e-11, "1.2345678901234568e-11"),
    (0.00001, "0.00001"),
    (1e20, "1e+20"),
    (-0.5, "-0.5"),
    (float("nan"), "NaN"),
    (float("-inf"), "-Infinity"),
])
def test_floats_as_the_http_handler_writes_them(value, text):
    assert W.http_float(value) == text


def test_float32_takes_its_own_shortest_digits():
    as_f32 = struct.unpack("<f", struct.pack("<f", 1.1))[0]
    assert as_f32 != 1.1
    assert W.http_float(as_f32, single=True) == "1.1"


def test_jsonb_text_of_the_engines_binary_form():
    # parse_json('{"a":1.5,"b":[1,"x"]}') as the 1.2.453 engine hands it over
    data = (b'@\x00\x00\x02\x10\x00\x00\x01\x10\x00\x00\x01 \x00\x00\tP\x00\x00\x0fab`?\xf8'
            b'\x00\x00\x00\x00\x00\x00\x80\x00\x00\x02 \x00\x00\x02\x10\x00\x00\x01P\x01x')
    assert W.jsonb_text(data) == '{"a":1.5,"b":[1,"x"]}'
    assert W.jsonb_text(b' \x00\x00\x00 \x00\x00\x02P\x01') == "1"
    assert W.jsonb_text(b"") == "null"


def _render(array, metadata=None):
    field = pa.field("c", array.type, metadata=metadata)
    column = W.Renderer().column(field)
    return [column(v) for v in array.to_pylist()]


def test_nested_values_quote_strings_with_double_quotes_and_not_json():
    variant = {b"Extension": b"Variant"}
    assert _render(pa.array([[1, None, 2]])) == ["[1,NULL,2]"]
    assert _render(pa.array([{"1": -698945516, "2": 'a"b'}])) == ['(-698945516,"a\\"b")']
    assert _render(pa.array(["plain", None])) == ["plain", "NULL"]
    assert _render(pa.array([[True, False]])) == ["[1,0]"]
    assert _render(pa.array([[("k", 1.0)]], pa.map_(pa.string(), pa.float64()))) == ['{"k":1.0}']
    nested_variant = pa.array([[b' \x00\x00\x00 \x00\x00\x02P\x01']],
                              pa.large_list(pa.field("_array", pa.large_binary(),
                                                     metadata=variant)))
    assert _render(nested_variant) == ["[1]"]
    assert _render(pa.array([b"ab"])) == ["6162"]


def test_timestamps_follow_the_session_time_zone():
    import datetime
    import zoneinfo

    renderer = W.Renderer()
    column = renderer.column(pa.field("t", pa.timestamp("us")))
    value = datetime.datetime(99, 5, 16, 3, 25, 2, 868894)
    assert column(value) == "0099-05-16 03:25:02.868894"
    renderer.timezone = zoneinfo.ZoneInfo("Asia/Shanghai")
    column = renderer.column(pa.field("t", pa.timestamp("us")))
    assert column(datetime.datetime(2022, 1, 1)) == "2022-01-01 08:00:00.000000"


def test_error_text_loses_the_backtrace_and_final_dot():
    exc = RuntimeError("DataFrame collect error: BadArguments. Code: 1006, Text = divided by "
                       "zero while evaluating function `divide(1, 0)`.\n\n   0: <unknown>\n"
                       "   1: <unknown>\n")
    assert W.error_of(exc) == (1006, "divided by zero while evaluating function `divide(1, 0)`")


def test_the_worker_imports_nothing_of_the_engine():
    code = "import sys, bench.dbsuite_databend_worker; print('engine' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- the runner's side

FAKE_WORKER = textwrap.dedent("""
    import json, os, sys, time
    print("engine log line, not an answer", flush=True)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        sql = json.loads(line)["sql"]
        if sql == "hang":
            time.sleep(60)
        if sql == "die":
            os._exit(3)
        if sql == "bad":
            print(json.dumps({"error": [1065, "no overload"]}), flush=True)
            continue
        print(json.dumps({"rows": [[sql, ""]]}), flush=True)
""")


@pytest.fixture
def fake_python(tmp_path):
    """A 'python' that runs the stand-in worker whatever module it is asked for."""
    script = tmp_path / "worker.py"
    script.write_text(FAKE_WORKER)
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} {script}\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def test_answers_errors_and_a_timeout_end_the_session(fake_python):
    backend = DatabendBackend(0.5, fake_python, dbsuite.Failed)
    try:
        assert backend.run("x") == [["x", "(empty)"]]
        with pytest.raises(dbsuite.Failed) as err:
            backend.run("bad")
        assert err.value.code == 1065
        with pytest.raises(dbsuite.Failed) as err:
            backend.run("hang")
        assert err.value.cause.startswith("timeout")
        with pytest.raises(dbsuite.Failed) as err:
            backend.run("x")
        assert "gone" in err.value.cause
    finally:
        backend.close()


def test_a_dead_worker_fails_the_record(fake_python):
    backend = DatabendBackend(5, fake_python, dbsuite.Failed)
    try:
        with pytest.raises(dbsuite.Failed) as err:
            backend.run("die")
        assert err.value.cause == "runner: databend worker died"
    finally:
        backend.close()


def test_a_file_runs_on_the_databend_backend_with_outcomes(fake_python, tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.test").write_text(
        "query T\nhello\n----\nhello (empty)\n\nstatement error 1065\nbad\n\n"
        "query T\nworld\n----\nnope\n\n")
    res = dbsuite.run_file(str(suite / "a.test"), str(suite), 5.0, engine="databend",
                           databend_python=fake_python)
    assert res["outcomes"] == {"a.test:1": "pass", "a.test:6": "pass", "a.test:9": "fail"}


# --------------------------------------------------------------------------- comparing

def test_compare_counts_what_databend_passes_and_groups_ours_by_cause(tmp_path, capsys):
    ours = {"engine": "queryhttp",
            "records": {"d/a.test:1": "pass", "d/a.test:5": "fail", "d/a.test:9": "skip",
                        "e/b.test:1": "pass"},
            "failures": {"d/a.test:5": {"cause": "wrong result", "detail": "", "sql": "SELECT 1"}}}
    theirs = {"engine": "databend",
              "records": {"d/a.test:1": "pass", "d/a.test:5": "pass", "d/a.test:9": "pass",
                          "e/b.test:1": "fail"}}
    table, lost = dbsuite_compare.compare(ours, theirs)
    assert table["d"]["theirs_pass"] == 3 and table["d"]["pass"] == 1
    assert lost == {"wrong result": ["d/a.test:5"], "(skip here)": ["d/a.test:9"]}
    paths = []
    for name, data in (("ours", ours), ("theirs", theirs)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        paths.append(str(path))
    assert dbsuite.main(["--compare", *paths]) == 1
    out = capsys.readouterr().out
    assert "| total | 3 | 1 | 1 | 1 | 33.3% |" in out
    assert "queryhttp passes 1 records the embedded Databend does not pass" in out
