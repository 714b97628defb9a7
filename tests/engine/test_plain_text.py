"""The plain-text fast reader of CSV/TSV loads (engine.io.plain_text) gives what the format's own
reader gives: the same rows, the same errors with the same line numbers."""

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.core.limits import Limits
from engine.io import plain_text, stage_load
from engine.io.plain_text import plain_batches
from engine.io.stage_load import FileFormat

CASES = [
    b"1,x,true,1.5\n2,y,false,\n\\N,,1,3e2\n",
    b"1,x,true,1.5\n2,y,false,2",  # no newline at the end
    b"1,x,true,1\n\n2,y,false,2\n\n",  # blank lines
    b"".join(b"%d,n%d,true,%d.5\n" % (i, i, i) for i in range(40)) + b'41,"quoted, field",false,1\n'
    + b"".join(b"%d,m,true,1\n" % i for i in range(42, 60)),  # a quote after plain batches
    b"1,x,true,1\r\n2,y,false,2\r\n",  # CRLF
    b"1,x,true,1\n2,y,false\n3,z,true,3\n",  # a short record
    b"1,x,true,1\nbad,y,false,2\n",  # a bad integer
    b"1,x,true,1\n2,y,maybe,2\n",  # a bad boolean
    b"1,x,,1\n",  # NULL in a NOT NULL column
    "1,é,true,1\n2,日本,false,2\n".encode(),
]


def _load(data: bytes, fast: bool, monkeypatch, fmt=None, step_rows=7, sql="INSERT INTO t VALUES"):
    monkeypatch.setattr(stage_load, "plain_applies",
                        plain_text.plain_applies if fast else (lambda fmt, data: False))
    db = engine.Database(limits=Limits(step_rows=step_rows))
    s = db.session()
    s.execute("CREATE TABLE t (a INT, b VARCHAR, c BOOLEAN NOT NULL, d DOUBLE)")
    db.stages.put("root", parse_location("@~/f"), data)
    try:
        result = s.execute(sql, attachment=engine.StageAttachment("@~/f", fmt or {}, {}))
        list(result.batches())
        return "ok", list(s.execute("SELECT * FROM t ORDER BY a, b"))
    except engine.EngineError as exc:
        return "error", exc.code, exc.message


@pytest.mark.parametrize("data", CASES)
@pytest.mark.parametrize("skip", ["0", "1", "3"])
def test_csv_loads_the_same_with_and_without_the_fast_reader(data, skip, monkeypatch):
    fmt = {"type": "CSV", "skip_header": skip}
    assert _load(data, True, monkeypatch, fmt) == _load(data, False, monkeypatch, fmt)


@pytest.mark.parametrize("data", [
    b"1\tx\ttrue\t1\n2\t\\N\tfalse\t2\n",
    b"1\tx\ttrue\t1\n2\ta\\tb\tfalse\t2\n3\tz\ttrue\t3\n",  # an escape after a plain line
    b'1\t"q"\ttrue\t1\n',  # quotes are text in TSV
    b"1\tx\ttrue\n",
])
def test_tsv_loads_the_same_with_and_without_the_fast_reader(data, monkeypatch):
    fmt = {"type": "TSV"}
    assert _load(data, True, monkeypatch, fmt) == _load(data, False, monkeypatch, fmt)


def test_column_lists_and_a_one_column_file_with_blank_lines(monkeypatch):
    sql = "INSERT INTO t (a) VALUES"
    for data in (b"1\n\n2\n", b"1\n2\n", b"\n\n"):
        assert _load(data, True, monkeypatch, sql=sql) == _load(data, False, monkeypatch, sql=sql)


def test_plain_batches_are_columns_of_step_rows_lines():
    fmt = FileFormat.from_options({"type": "CSV", "skip_header": "1"})
    data = b"h1,h2\n" + b"".join(b"%d,v%d\n" % (i, i) for i in range(10))
    batches = list(plain_batches(fmt, data, 2, 4, rest_reader=None))
    assert [(first, records) for first, records, _ in batches] == [(2, None), (6, None), (10, None)]
    assert batches[0][2] == [["0", "1", "2", "3"], ["v0", "v1", "v2", "v3"]]
    assert batches[-1][2] == [["8", "9"], ["v8", "v9"]]
