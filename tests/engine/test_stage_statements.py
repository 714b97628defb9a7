"""LIST, REMOVE, PRESIGN and COPY INTO <table> FROM @stage (columns as Databend 1.2.453 answers)."""

import pytest

import engine
from engine.catalog.stages import parse_location

COPY_SCHEMA = [("File", "String"), ("Rows_loaded", "Int32"), ("Errors_seen", "Int32"),
               ("First_error", "Nullable(String)"), ("First_error_line", "Nullable(Int32)")]


@pytest.fixture
def db():
    db = engine.Database()
    db.session().execute("CREATE TABLE t (a INT, b VARCHAR)")
    return db


def _put(db, path, data, user="root"):
    db.stages.put(user, parse_location(path), data)


def _run(db, sql):
    result = db.session().execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


def test_list_shows_files_with_databends_columns(db):
    db.stages.clock = lambda: 1_700_000_000.5
    _put(db, "@~/data/f.csv", b"1,a\n")
    _put(db, "@~/other.csv", b"22")
    schema, rows = _run(db, "LIST @~")
    assert schema == [("name", "String"), ("size", "UInt64"), ("md5", "Nullable(String)"),
                      ("last_modified", "String"), ("creator", "Nullable(String)")]
    assert rows == [("data/f.csv", 4, None, "2023-11-14 22:13:20.500 +0000", None),
                    ("other.csv", 2, None, "2023-11-14 22:13:20.500 +0000", None)]
    assert [r[0] for r in _run(db, "LIST @~/data/")[1]] == ["data/f.csv"]
    assert [r[0] for r in _run(db, "LIST @~/other.csv")[1]] == ["other.csv"]


def test_remove_deletes_a_file_or_a_folder(db):
    _put(db, "@~/d/a.csv", b"1")
    _put(db, "@~/d/b.csv", b"2")
    _put(db, "@~/e.csv", b"3")
    _run(db, "REMOVE @~/d/a.csv")
    assert [r[0] for r in _run(db, "LIST @~")[1]] == ["d/b.csv", "e.csv"]
    _run(db, "REMOVE @~/d/")
    assert [r[0] for r in _run(db, "LIST @~")[1]] == ["e.csv"]


def test_unknown_stage_is_2501(db):
    with pytest.raises(engine.EngineError) as err:
        _run(db, "LIST @nosuch")
    assert err.value.code == 2501 and err.value.message == "Stage 'nosuch' does not exist."


def test_copy_loads_each_file_once_and_answers_a_row_per_file(db):
    _put(db, "@~/in/f.csv", b"1,a\n2,b\n")
    _put(db, "@~/in/g.csv", b"3,c\n")
    schema, rows = _run(db, "COPY INTO t FROM @~/in/ FILE_FORMAT = (TYPE = CSV)")
    assert schema == COPY_SCHEMA
    assert rows == [("in/f.csv", 2, 0, None, None), ("in/g.csv", 1, 0, None, None)]
    assert _run(db, "COPY INTO t FROM @~/in/ FILE_FORMAT = (TYPE = CSV)")[1] == []  # loaded before
    assert _run(db, "COPY INTO t FROM @~/in/f.csv FILE_FORMAT = (TYPE = CSV) FORCE = TRUE")[1] == [
        ("in/f.csv", 2, 0, None, None)]
    assert _run(db, "SELECT count(*) FROM t")[1] == [(5,)]
    _put(db, "@~/in/g.csv", b"4,d\n")  # a changed file is loaded again
    assert [r[0] for r in _run(db, "COPY INTO t FROM @~/in/ FILE_FORMAT = (TYPE = CSV)")[1]] == [
        "in/g.csv"]


def test_databend_py_copy_statement_with_purge(db):
    _put(db, "@~/5f0c.csv", b"7,\"x,y\"\r\n8,z\r\n")
    sql = ("COPY INTO t FROM @~/5f0c.csv FILE_FORMAT = (type = CSV RECORD_DELIMITER = '\\r\\n' "
           "COMPRESSION = AUTO) PURGE = True FORCE = False SIZE_LIMIT=0 ON_ERROR = abort")
    assert _run(db, sql)[1] == [("5f0c.csv", 2, 0, None, None)]
    assert _run(db, "SELECT a, b FROM t ORDER BY a")[1] == [(7, "x,y"), (8, "z")]
    assert _run(db, "LIST @~")[1] == []


def test_a_purged_file_leaves_no_load_history(db):
    table = db.catalog.table("default", "t")
    _put(db, "@~/kept.csv", b"1,a\n")
    _put(db, "@~/gone.csv", b"2,b\n")
    _put(db, "@~/q.csv", b"3,c\n")
    _run(db, "COPY INTO t FROM @~/kept.csv FILE_FORMAT = (TYPE = CSV)")
    _run(db, "COPY INTO t FROM @~/gone.csv FILE_FORMAT = (TYPE = CSV) PURGE = TRUE")
    _run(db, "COPY INTO t FROM (SELECT $1, $2 FROM @~/q.csv) PURGE = TRUE")
    assert list(table.copied_files) == [("root", "~", "kept.csv")]
    _put(db, "@~/gone.csv", b"2,b\n")  # uploaded again: a new file, loaded again
    assert _run(db, "COPY INTO t FROM @~/gone.csv FILE_FORMAT = (TYPE = CSV)")[1] == [
        ("gone.csv", 1, 0, None, None)]
    assert _run(db, "SELECT count(*) FROM t")[1] == [(4,)]


def test_on_error_continue_skip_file_and_abort(db):
    _put(db, "@~/bad.csv", b"3,c\nx,d\n4,e\n")
    rows = _run(db, "COPY INTO t FROM @~/bad.csv FILE_FORMAT = (TYPE = CSV) ON_ERROR = continue")[1]
    assert rows == [("bad.csv", 2, 1, "Invalid value 'x' for column 0 (a): invalid digit found in "
                     "string while evaluating function `to_int32('x')`, at line 2", 2)]
    rows = _run(db, "COPY INTO t FROM @~/bad.csv FILE_FORMAT = (TYPE = CSV) ON_ERROR = skip_file "
                    "FORCE = TRUE")[1]
    assert rows[0][1:3] == (0, 1)
    with pytest.raises(engine.EngineError) as err:
        _run(db, "COPY INTO t FROM @~/bad.csv FILE_FORMAT = (TYPE = CSV) FORCE = TRUE")
    assert err.value.code == 1046
    assert _run(db, "SELECT a FROM t ORDER BY a")[1] == [(3,), (4,)]


def test_copy_files_list_and_column_list(db):
    _put(db, "@~/p/a.csv", b"x1\n")
    _put(db, "@~/p/b.csv", b"x2\n")
    _put(db, "@~/p/c.csv", b"x3\n")
    rows = _run(db, "COPY INTO t (b) FROM @~/p/ FILES = ('a.csv', 'c.csv') FILE_FORMAT = (TYPE = CSV)")[1]
    assert [r[0] for r in rows] == ["p/a.csv", "p/c.csv"]
    assert _run(db, "SELECT a, b FROM t ORDER BY b")[1] == [(None, "x1"), (None, "x3")]


def test_copy_options_are_checked(db):
    with pytest.raises(engine.EngineError, match="unknown COPY option BOGUS"):
        _run(db, "COPY INTO t FROM @~ BOGUS = 1")
    with pytest.raises(engine.EngineError, match="ON_ERROR must be"):
        _run(db, "COPY INTO t FROM @~ ON_ERROR = maybe")
    with pytest.raises(engine.EngineError) as err:
        _run(db, "COPY INTO nosuch FROM @~")
    assert err.value.code == 1025


def test_presign_needs_a_server_and_uses_its_presigner(db):
    with pytest.raises(engine.EngineError) as err:
        _run(db, "PRESIGN UPLOAD @~/a.csv")
    assert err.value.code == 3902
    calls = []

    def presigner(method, user, location, expire):
        calls.append((method, user, location.text, expire))
        return "{}", "http://server/presigned/token"

    db.presigner = presigner
    schema, rows = _run(db, "PRESIGN UPLOAD @~/a.csv EXPIRE = 60")
    assert schema == [("method", "String"), ("headers", "String"), ("url", "String")]
    assert rows == [("PUT", "{}", "http://server/presigned/token")]
    _run(db, "PRESIGN @~/a.csv")
    assert calls == [("PUT", "root", "@~/a.csv", 60), ("GET", "root", "@~/a.csv", 3600)]
    with pytest.raises(engine.EngineError, match="EXPIRE must be between"):
        _run(db, "PRESIGN @~/a.csv EXPIRE = 0")
    with pytest.raises(engine.EngineError, match="needs a file path"):
        _run(db, "PRESIGN UPLOAD @~/folder/")


def test_copy_runs_in_bounded_steps():
    db = engine.Database(limits=engine.session.Limits(step_rows=10))
    db.session().execute("CREATE TABLE t (a INT, b VARCHAR)")
    _put(db, "@~/big.csv", b"".join(b"%d,x\n" % i for i in range(55)))
    result = db.session().execute("COPY INTO t FROM @~/big.csv")
    batches = list(result.batches())
    assert batches.count([]) == 6 and batches[-1] == [("big.csv", 55, 0, None, None)]


def test_pattern_picks_files_by_regex_below_the_location(db):
    for path in ("@~/in/a.csv", "@~/in/b.tsv", "@~/in/sub/c.csv", "@~/other.csv"):
        _put(db, path, b"1,x\n")
    assert [r[0] for r in _run(db, "LIST @~/in/ PATTERN = '.*[.]csv'")[1]] == ["in/a.csv", "in/sub/c.csv"]
    assert [r[0] for r in _run(db, "LIST @~ PATTERN = '^in/[ab]'")[1]] == ["in/a.csv", "in/b.tsv"]
    rows = _run(db, "COPY INTO t FROM @~/in/ PATTERN = 'sub/.*' FILE_FORMAT = (TYPE = CSV)")[1]
    assert [r[0] for r in rows] == ["in/sub/c.csv"]
    assert _run(db, "SELECT count(*) FROM @~ (PATTERN => '.*csv$')")[1] == [(3,)]
    _run(db, "REMOVE @~/in/ PATTERN = '.*tsv'")
    assert [r[0] for r in _run(db, "LIST @~")[1]] == ["in/a.csv", "in/sub/c.csv", "other.csv"]


def test_a_pathological_pattern_is_linear_and_a_bad_one_is_1006(db):
    _put(db, "@~/" + "a" * 200, b"1,x\n")
    assert _run(db, "LIST @~ PATTERN = '(a+)+$'")[1][0][0] == "a" * 200  # no backtracking
    with pytest.raises(engine.EngineError) as err:
        _run(db, "LIST @~ PATTERN = '(unclosed'")
    assert err.value.code == 1006
