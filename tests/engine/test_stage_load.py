"""Stages and INSERT ... VALUES with a stage attachment (the clients' bulk-load path)."""

import gzip

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.core.limits import Limits
from engine.io.stage_load import FileFormat


def _db(**limits):
    db = engine.Database(limits=Limits(**limits)) if limits else engine.Database()
    s = db.session()
    s.execute("CREATE TABLE t (a INT, b VARCHAR, c BOOLEAN NOT NULL, d DOUBLE)")
    return db, s


def _put(db, path, data, user="root"):
    db.stages.put(user, parse_location(path), data)


def _load(s, sql="INSERT INTO t VALUES", location="@~/f.csv", fmt=None, copy=None):
    return list(s.execute(sql, attachment=engine.StageAttachment(location, fmt or {}, copy or {})))


def test_csv_rows_are_converted_to_the_column_types_and_appended():
    db, s = _db()
    _put(db, "@~/client/load/1", b'1,x,true,1.5\n2,"y,z",false,\n\\N,,1,3e2\n')
    answer = _load(s, "INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)", "@~/client/load/1",
                   {"type": "CSV"})
    assert answer == [(3,)]
    assert list(s.execute("SELECT * FROM t ORDER BY a")) == [
        (1, "x", True, 1.5), (2, "y,z", False, None), (None, None, True, 300.0)]


def test_a_column_list_fills_the_other_columns_with_their_defaults():
    db, s = _db()
    _put(db, "@~/f.csv", b"true,7\r\nfalse,8\r\n")
    _load(s, "INSERT INTO t (c, a) VALUES", fmt={"TYPE": "csv", "RECORD_DELIMITER": "\r\n"})
    assert list(s.execute("SELECT a, b, c, d FROM t ORDER BY a")) == [
        (7, None, True, None), (8, None, False, None)]


def test_skip_header_tsv_and_ndjson():
    db, s = _db()
    _put(db, "@~/h.csv", b"a,b,c,d\n1,x,true,2\n")
    _load(s, location="@~/h.csv", fmt={"skip_header": "1"})
    _put(db, "@~/t.tsv", b"2\ty\tfalse\t3\n")
    _load(s, location="@~/t.tsv", fmt={"type": "TSV"})
    _put(db, "@~/n.ndjson", b'{"a": 3, "b": "z", "c": true, "d": 4.5}\n\n{"A": 4, "c": false}\n')
    _load(s, location="@~/n.ndjson", fmt={"type": "NDJSON"})
    assert list(s.execute("SELECT * FROM t ORDER BY a")) == [
        (1, "x", True, 2.0), (2, "y", False, 3.0), (3, "z", True, 4.5), (4, None, False, None)]


def test_gzip_files_are_read_with_compression_auto_or_gzip():
    db, s = _db()
    _put(db, "@~/g.csv.gz", gzip.compress(b"1,x,true,1\n"))
    _load(s, location="@~/g.csv.gz", fmt={"compression": "AUTO"})
    _put(db, "@~/g2.csv.gz", gzip.compress(b"2,y,true,1\n"))
    _load(s, location="@~/g2.csv.gz", fmt={"compression": "gzip"})
    assert list(s.execute("SELECT a FROM t ORDER BY a")) == [(1,), (2,)]


def test_a_bad_field_names_line_and_column_and_inserts_nothing():
    db, s = _db()
    _put(db, "@~/bad.csv", b"1,x,true,1.5\nzz,y,false,2\n")
    with pytest.raises(engine.EngineError) as err:
        _load(s, location="@~/bad.csv")
    assert err.value.code == 1046  # Databend's BadBytes
    assert err.value.message == ("Invalid value 'zz' for column 0 (a): invalid digit found in "
                                 "string while evaluating function `to_int32('zz')`, at line 2 "
                                 "(loading @~/bad.csv)")
    assert list(s.execute("SELECT count(*) FROM t")) == [(0,)]


def test_null_in_a_not_null_column_and_a_wrong_field_count_are_errors():
    db, s = _db()
    _put(db, "@~/n.csv", b"1,x,,1\n")
    with pytest.raises(engine.EngineError, match="non-nullable column `c`"):
        _load(s, location="@~/n.csv")
    _put(db, "@~/w.csv", b"1,x\n")
    with pytest.raises(engine.EngineError, match="expected 4 fields, got 2"):
        _load(s, location="@~/w.csv")


def test_purge_removes_the_file_only_after_a_successful_load():
    db, s = _db()
    _put(db, "@~/p.csv", b"1,x,true,1\n")
    _put(db, "@~/q.csv", b"oops,x,true,1\n")
    _load(s, location="@~/p.csv", copy={"purge": "true"})
    with pytest.raises(engine.EngineError):
        _load(s, location="@~/q.csv", copy={"PURGE": "True"})
    assert [path for path, _ in db.stages.list("root", parse_location("@~"))] == ["q.csv"]


def test_the_load_runs_in_bounded_steps():
    db, s = _db(step_rows=10)
    _put(db, "@~/big.csv", b"".join(b"%d,x,true,1\n" % i for i in range(95)))
    result = s.execute("INSERT INTO t VALUES", attachment=engine.StageAttachment("@~/big.csv"))
    batches = list(result.batches())
    assert batches.count([]) == 10 and batches[-1] == [(95,)]  # 9 full steps, then the last 5 rows
    assert list(s.execute("SELECT count(*), sum(a) FROM t")) == [(95, sum(range(95)))]


def test_without_an_attachment_an_empty_values_is_an_error():
    _, s = _db()
    with pytest.raises(engine.EngineError, match="needs a stage_attachment") as err:
        s.execute("INSERT INTO t VALUES")
    assert err.value.code == 1006


def test_missing_file_unknown_stage_and_user_stages_are_private():
    db, s = _db()
    _put(db, "@~/mine.csv", b"1,x,true,1\n", user="alice")
    with pytest.raises(engine.EngineError, match="no file at @~/mine.csv"):
        _load(s, location="@~/mine.csv")  # root's own stage has no such file
    with pytest.raises(engine.EngineError) as err:
        _load(s, location="@nosuch/f.csv")
    assert err.value.code == 2501 and err.value.message == "Stage 'nosuch' does not exist."


def test_stage_limits_at_n_and_n_plus_1():
    db = engine.Database(limits=Limits(stage_bytes=10, stage_file_bytes=6))
    db.stages.put("u", parse_location("@~/a"), b"x" * 6)
    with pytest.raises(engine.EngineError, match="stage_file_bytes = 6"):
        db.stages.put("u", parse_location("@~/b"), b"x" * 7)
    db.stages.put("u", parse_location("@~/b"), b"x" * 4)  # 10 bytes in all: at the limit
    with pytest.raises(engine.EngineError, match="stage_bytes = 10"):
        db.stages.put("u", parse_location("@~/c"), b"x")
    db.stages.put("u", parse_location("@~/a"), b"y")  # replacing a file frees its bytes
    assert db.stages.held == 5
    assert db.stages.remove("u", parse_location("@~")) == 2 and db.stages.held == 0


def test_locations_refuse_parent_segments_and_options_are_checked():
    with pytest.raises(engine.EngineError, match="'..'"):
        parse_location("@~/../etc/passwd")
    with pytest.raises(engine.EngineError, match="not supported"):
        FileFormat.from_options({"type": "XML"})
    with pytest.raises(engine.EngineError, match="skip_header"):
        FileFormat.from_options({"skip_header": "x"})


def test_bad_files_name_the_problem_and_load_nothing():
    db, s = _db()
    good = gzip.compress(b"".join(b"%d,x,true,1\n" % i for i in range(1000)))
    _put(db, "@~/cut.csv.gz", good[:len(good) // 2])
    with pytest.raises(engine.EngineError) as err:
        _load(s, location="@~/cut.csv.gz", fmt={"compression": "gzip"})
    assert err.value.code == 1046 and err.value.message.startswith(
        "Bad CSV file (damaged or cut short compressed data)\nat file 'cut.csv.gz', line ")
    _put(db, "@~/latin1.csv", b"0,ok,true,1\n" + "1,caf\u00e9,true,1\n".encode("latin-1"))
    with pytest.raises(engine.EngineError) as err:
        _load(s, location="@~/latin1.csv")
    assert err.value.code == 1046 and err.value.message == (
        "Bad CSV file (invalid UTF-8)\nat file 'latin1.csv', line 1")
    _put(db, "@~/short.csv", b"1,x,true,1\n2,y,false\n")
    with pytest.raises(engine.EngineError, match="expected 4 fields, got 3, at line 2"):
        _load(s, location="@~/short.csv")
    assert list(s.execute("SELECT count(*) FROM t")) == [(0,)]


def test_tsv_escapes_and_nulls():
    db, s = _db()
    _put(db, "@~/e.tsv", b"1\ta\\tb\\nc\\\\d\ttrue\t\\N\n")
    _load(s, location="@~/e.tsv", fmt={"type": "TSV"})
    assert list(s.execute("SELECT a, b, d FROM t")) == [(1, "a\tb\nc\\d", None)]


def test_out_of_range_integers_take_the_slow_path_and_fail_by_name():
    db, s = _db()
    _put(db, "@~/big.csv", b"1,x,true,1\n3000000000,y,true,1\n")
    with pytest.raises(engine.EngineError) as err:
        _load(s, location="@~/big.csv")
    assert err.value.code == 1046 and "column 0 (a)" in err.value.message and "line 2" in err.value.message


def test_a_load_sets_the_null_and_negative_flags_a_scan_would():
    # a bulk load learns NULLs and negative integers while converting, instead of scanning
    db, s = _db()
    s.execute("CREATE TABLE u (a INT, b VARCHAR, c BOOLEAN NOT NULL, d DOUBLE)")
    s.execute("CREATE TABLE w (a INT, b VARCHAR, c BOOLEAN NOT NULL, d DOUBLE, e INT DEFAULT -1)")
    rows = b"1,x,true,1\n-4,\\N,false,-2.5\n7,,true,\\N\n"
    _put(db, "@~/r.csv", rows)
    _load(s, location="@~/r.csv")
    list(s.execute("INSERT INTO u VALUES (1, 'x', true, 1), (-4, NULL, false, -2.5), (7, NULL, true, NULL)"))
    loaded, inserted = (db.catalog.table("default", name, None) for name in ("t", "u"))
    assert (loaded.has_null, loaded.has_negative) == (inserted.has_null, inserted.has_negative)
    assert list(s.execute("SELECT * FROM t ORDER BY a")) == list(s.execute("SELECT * FROM u ORDER BY a"))
    _load(s, "INSERT INTO w (a, b, c, d) VALUES", location="@~/r.csv")
    wide = db.catalog.table("default", "w", None)
    assert wide.has_negative == [True, False, False, False, True]  # the default -1 of e too
    assert list(s.execute("SELECT count(*) FROM w WHERE a < 0 AND e < 0")) == [(1,)]


def test_error_on_column_count_mismatch_false_ignores_extra_fields_and_fills_missing_ones():
    db = engine.Database()
    s = db.session()
    s.execute("CREATE TABLE p (id INT, name VARCHAR, city VARCHAR DEFAULT 'BJ')")
    _put(db, "@~/p.csv", b"1,a,x,extra\n2,b\n3,c,y\n")
    fmt = {"type": "CSV", "error_on_column_count_mismatch": "false"}
    assert _load(s, "INSERT INTO p VALUES", "@~/p.csv", fmt) == [(3,)]
    assert list(s.execute("SELECT * FROM p ORDER BY id")) == [(1, "a", "x"), (2, "b", "BJ"),
                                                               (3, "c", "y")]
    with pytest.raises(engine.EngineError, match="expected 3 fields, got 4, at line 1"):
        _load(s, "INSERT INTO p VALUES", "@~/p.csv", {"type": "CSV"})
    with pytest.raises(engine.EngineError, match="must be TRUE or FALSE"):
        _load(s, "INSERT INTO p VALUES", "@~/p.csv", {"error_on_column_count_mismatch": "maybe"})
