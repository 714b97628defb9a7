"""Named stages, file formats and unloading (COPY INTO @stage), as Databend 1.2.453 answers."""

import datetime
import gzip

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.core.limits import Limits


@pytest.fixture
def db():
    db = engine.Database()
    s = db.session()
    s.execute("CREATE TABLE t (a INT, b VARCHAR, c DOUBLE, d BOOLEAN, e DATE)")
    s.execute("INSERT INTO t VALUES (1, 'x,y', 1.5, true, '2024-01-02'), "
              "(NULL, 'q\"z', NULL, false, NULL)")
    return db


def _run(db, sql, user="root"):
    result = db.session(user=user).execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


def _files(db, location="@~", user="root"):
    return {path: f.data for path, f in db.stages.list(user, parse_location(location))}


def test_create_show_desc_and_drop_a_stage(db):
    db.stages.clock = lambda: 1_700_000_000.0
    _run(db, "CREATE STAGE s1 FILE_FORMAT = (TYPE = CSV FIELD_DELIMITER = '|') COMMENT = 'landing'")
    schema, rows = _run(db, "SHOW STAGES")
    assert schema == [("name", "String"), ("stage_type", "String"),
                      ("number_of_files", "Nullable(UInt64)"), ("creator", "Nullable(String)"),
                      ("created_on", "Timestamp"), ("comment", "String")]
    assert rows == [("s1", "Internal", 0, "'root'@'%'", datetime.datetime(2023, 11, 14, 22, 13, 20),
                     "landing")]
    schema, rows = _run(db, "DESC STAGE s1")
    assert [name for name, _ in schema] == ["name", "stage_type", "stage_params", "copy_options",
                                            "file_format_options", "number_of_files", "creator",
                                            "created_on", "comment", "owner"]
    assert "FIELD_DELIMITER = '|'" in rows[0][4]
    with pytest.raises(engine.EngineError) as err:
        _run(db, "CREATE STAGE s1")
    assert err.value.code == 2502 and err.value.message == "Stage 's1' already exists."
    _run(db, "CREATE STAGE IF NOT EXISTS s1")
    _run(db, "DROP STAGE s1")
    with pytest.raises(engine.EngineError) as err:
        _run(db, "DROP STAGE s1")
    assert err.value.code == 2501
    _run(db, "DROP STAGE IF EXISTS s1")
    assert _run(db, "SHOW STAGES")[1] == []


def test_a_named_stage_is_shared_and_its_file_format_is_the_default(db):
    _run(db, "CREATE STAGE pipes FILE_FORMAT = (TYPE = CSV FIELD_DELIMITER = '|')")
    db.stages.put("alice", parse_location("@pipes/in.csv"), b"7|seven|0|true|2024-05-06\n")
    assert _run(db, "LIST @pipes")[1][0][:2] == ("in.csv", 26)  # root sees alice's upload
    assert _run(db, "COPY INTO t FROM @pipes")[1] == [("in.csv", 1, 0, None, None)]
    assert _run(db, "SELECT b FROM t WHERE a = 7")[1] == [("seven",)]
    _run(db, "CREATE OR REPLACE STAGE pipes")  # replacing drops its files
    assert _run(db, "LIST @pipes")[1] == []


def test_copy_reads_with_the_stages_format_unless_it_gives_its_own(db):
    # as Databend 1.2.453 answers: the COPY's FILE_FORMAT = (...) replaces the stage's format (a
    # '|' file read with FILE_FORMAT = (TYPE = CSV) has one field: 1046 "Number of columns in
    # file (1) does not match ..."), for COPY from the stage and from a query over it alike; a
    # FILE_FORMAT without TYPE or FORMAT_NAME is 2508; FILE_FORMAT = 'csv' is 1005 there
    _run(db, "CREATE STAGE pipes FILE_FORMAT = (TYPE = CSV FIELD_DELIMITER = '|')")
    _run(db, "CREATE TABLE t2 (a INT, b VARCHAR)")
    db.stages.put("root", parse_location("@pipes/d/f.csv"), b"1|x\n2|y\n")
    assert _run(db, "COPY INTO t2 FROM (SELECT $1, $2 FROM @pipes/d/)")[1] == [("d/f.csv", 2, 0, None, None)]
    assert _run(db, "COPY INTO t2 FROM (SELECT $1, $2 FROM @pipes/d/) FORCE = TRUE "
                    "FILE_FORMAT = (TYPE = CSV FIELD_DELIMITER = '|')")[1][0][1] == 2
    assert _run(db, "COPY INTO t2 FROM @pipes/d/ FORCE = TRUE")[1][0][1] == 2
    assert _run(db, "SELECT a, b FROM t2 ORDER BY a, b")[1] == [(1, "x")] * 3 + [(2, "y")] * 3
    for copy in ("COPY INTO t2 FROM @pipes/d/ FORCE = TRUE",
                 "COPY INTO t2 FROM (SELECT $1, $2 FROM @pipes/d/) FORCE = TRUE"):
        with pytest.raises(engine.EngineError):  # read with ',': one field a record
            _run(db, f"{copy} FILE_FORMAT = (TYPE = CSV)")
        with pytest.raises(engine.EngineError) as err:
            _run(db, f"{copy} FILE_FORMAT = (FIELD_DELIMITER = '|')")
        assert err.value.code == 2508 and err.value.message == (
            "Invalid FILE_FORMAT options: FILE_FORMAT must include at least one of the TYPE or "
            "NAME option. Currently, neither is specified.")
        with pytest.raises(engine.EngineError) as err:
            _run(db, f"{copy} FILE_FORMAT = 'csv'")
        assert err.value.code == 1006 and "FILE_FORMAT takes options in parentheses" in err.value.message
    assert _run(db, "SELECT count(*) FROM t2")[1] == [(6,)]
    # an unload writes with the stage's format, or with the COPY's own
    _run(db, "COPY INTO @pipes/out1/ FROM (SELECT 1, 'x')")
    _run(db, "COPY INTO @pipes/out2/ FROM (SELECT 1, 'x') FILE_FORMAT = (TYPE = CSV)")
    assert sorted(_files(db, "@pipes/out1/").values()) == [b"1|\"x\"\n"]
    assert sorted(_files(db, "@pipes/out2/").values()) == [b"1,\"x\"\n"]


def test_external_stages_and_unknown_options_are_refused(db):
    with pytest.raises(engine.EngineError) as err:
        _run(db, "CREATE STAGE ext URL = 's3://bucket/path/'")
    assert err.value.code == 1002
    with pytest.raises(engine.EngineError, match="unknown stage option BOGUS"):
        _run(db, "CREATE STAGE s BOGUS = 1")


def test_file_formats_are_named_and_used_by_format_name(db):
    _run(db, "CREATE FILE FORMAT semi TYPE = CSV FIELD_DELIMITER = ';' SKIP_HEADER = 1")
    schema, rows = _run(db, "SHOW FILE FORMATS")
    assert schema == [("name", "String"), ("format_options", "String")]
    assert rows[0][0] == "semi" and "FIELD_DELIMITER = ';'" in rows[0][1] and "SKIP_HEADER = 1" in rows[0][1]
    db.stages.put("root", parse_location("@~/h.csv"), b"a;b;c;d;e\n9;nine;1;false;\\N\n")
    assert _run(db, "COPY INTO t FROM @~/h.csv FILE_FORMAT = (FORMAT_NAME = 'semi')")[1][0][1] == 1
    with pytest.raises(engine.EngineError, match="Unknown file format nope"):
        _run(db, "COPY INTO t FROM @~/h.csv FILE_FORMAT = (FORMAT_NAME = 'nope') FORCE = TRUE")
    _run(db, "DROP FILE FORMAT semi")
    assert _run(db, "SHOW FILE FORMATS")[1] == []


def test_file_format_refusals_as_databend(db):
    # base/05_ddl/05_0030_ddl_file_format.test
    def code(sql):
        with pytest.raises(engine.EngineError) as err:
            _run(db, sql)
        return err.value.code

    assert code("DROP FILE FORMAT test_format") == 2507
    _run(db, "CREATE FILE FORMAT test_format TYPE = CSV")
    _run(db, "CREATE FILE FORMAT IF NOT EXISTS test_format TYPE = CSV")
    assert code("CREATE FILE FORMAT test_format TYPE = CSV") == 2509
    assert code("CREATE FILE FORMAT csv TYPE = CSV") == 1005  # a format type is no name
    assert code("CREATE OR REPLACE FILE FORMAT IF NOT EXISTS f2 TYPE = CSV") == 1005
    _run(db, "CREATE OR REPLACE FILE FORMAT test_format TYPE = TSV")


def test_unload_csv_as_databend_writes_it(db):
    schema, rows = _run(db, "COPY INTO @~/pre/ FROM t FILE_FORMAT = (TYPE = CSV)")
    assert schema == [("rows_unloaded", "UInt64"), ("input_bytes", "UInt64"),
                      ("output_bytes", "UInt64")]
    assert rows == [(2, 52, 52)]
    (path, data), = _files(db).items()
    assert path.startswith("pre/data_") and path.endswith("_0000_00000000.csv")
    assert data == b'1,"x,y",1.5,true,"2024-01-02"\n\\N,"q""z",\\N,false,\\N\n'


def test_unload_tsv_and_ndjson_from_a_query(db):
    assert _run(db, "COPY INTO @~/one FROM (SELECT * FROM t) FILE_FORMAT = (TYPE = TSV) "
                    "SINGLE = TRUE")[1] == [(2, 38, 38)]
    _run(db, "COPY INTO @~/j/ FROM t FILE_FORMAT = (TYPE = NDJSON)")
    files = _files(db)
    tsv = next(d for p, d in files.items() if p.startswith("one/"))
    ndjson = next(d for p, d in files.items() if p.startswith("j/"))
    assert tsv == b'1\tx,y\t1.5\t1\t2024-01-02\n\\N\tq"z\t\\N\t0\t\\N\n'
    assert ndjson == (b'{"a":1,"b":"x,y","c":1.5,"d":true,"e":"2024-01-02"}\n'
                      b'{"a":null,"b":"q\\"z","c":null,"d":false,"e":null}\n')


def test_unloaded_files_load_back_the_same_rows(db):
    _run(db, "COPY INTO @~/round/ FROM t FILE_FORMAT = (TYPE = CSV COMPRESSION = GZIP)")
    (path, data), = _files(db).items()
    assert path.endswith(".csv.gz") and gzip.decompress(data).startswith(b'1,"x,y"')
    _run(db, "CREATE TABLE t2 (a INT, b VARCHAR, c DOUBLE, d BOOLEAN, e DATE)")
    _run(db, "COPY INTO t2 FROM @~/round/ FILE_FORMAT = (TYPE = CSV COMPRESSION = AUTO)")
    assert _run(db, "SELECT * FROM t2 ORDER BY a")[1] == _run(db, "SELECT * FROM t ORDER BY a")[1]


def test_max_file_size_cuts_files_and_the_stage_limit_holds():
    db = engine.Database(limits=Limits(step_rows=100))
    _run(db, "COPY INTO @~/n/ FROM (SELECT number FROM numbers(1000)) MAX_FILE_SIZE = 1000")
    files = _files(db)
    assert len(files) == 4  # a file is cut after the batch that takes it past 1000 bytes
    assert sum(len(d.splitlines()) for d in files.values()) == 1000
    small = engine.Database(limits=Limits(stage_file_bytes=100))
    with pytest.raises(engine.EngineError, match="stage_file_bytes = 100"):
        _run(small, "COPY INTO @~/n/ FROM (SELECT number FROM numbers(1000)) SINGLE = TRUE")
    assert _files(small) == {}
    tight = engine.Database(limits=Limits(step_rows=100, stage_bytes=2000))
    with pytest.raises(engine.EngineError, match="stage_bytes = 2000"):
        _run(tight, "COPY INTO @~/n/ FROM (SELECT number FROM numbers(1000)) MAX_FILE_SIZE = 1000")
    assert _files(tight) == {}  # no file of the four, though the first ones would fit


def test_select_fields_of_a_staged_csv(db):
    db.stages.put("root", parse_location("@~/f.csv"), b"1,a\n2,\\N\n")
    _run(db, "CREATE FILE FORMAT csvf TYPE = CSV")
    schema, rows = _run(db, "SELECT $1, $2 FROM @~/f.csv (FILE_FORMAT => 'csvf')")
    assert schema == [("$1", "Nullable(String)"), ("$2", "Nullable(String)")]
    assert rows == [("1", "a"), ("2", None)]
    assert _run(db, "SELECT $2 FROM @~ (FILES => ('f.csv'), FILE_FORMAT => 'csv') WHERE $1 = '2'")[1] == [
        (None,)]
    assert _run(db, "SELECT count(*), max(CAST($1 AS INT)) FROM @~/f.csv")[1] == [(2, 2)]
    with pytest.raises(engine.EngineError) as err:
        _run(db, "SELECT $3 FROM @~/f.csv")
    assert err.value.code == 1065


def test_copy_into_a_table_from_a_query_over_a_stage(db):
    db.stages.put("root", parse_location("@~/in/f.csv"), b"1,a\n2,b\n")
    _run(db, "CREATE TABLE t2 (a INT, b VARCHAR)")
    rows = _run(db, "COPY INTO t2 FROM (SELECT $1, upper($2) FROM @~/in/) FILE_FORMAT = (TYPE = CSV)")[1]
    assert rows == [("in/f.csv", 2, 0, None, None)]
    assert _run(db, "SELECT a, b FROM t2 ORDER BY a")[1] == [(1, "A"), (2, "B")]
    assert _run(db, "COPY INTO t2 FROM (SELECT $1, $2 FROM @~/in/)")[1] == []  # loaded before
    assert _run(db, "COPY INTO t2 FROM (SELECT $1, $2 FROM @~/in/) FORCE = TRUE")[1][0][1] == 2
    db.stages.put("root", parse_location("@~/bad.csv"), b"x,y\n")
    with pytest.raises(engine.EngineError) as err:
        _run(db, "COPY INTO t2 FROM (SELECT $1, $2 FROM @~/bad.csv)")
    assert err.value.code == 1046
    assert _run(db, "SELECT count(*) FROM t2")[1] == [(4,)]


def test_a_stage_scan_runs_in_bounded_steps():
    db = engine.Database(limits=Limits(step_rows=10))
    db.stages.put("root", parse_location("@~/n.csv"), b"".join(b"%d\n" % i for i in range(95)))
    result = db.session().execute("SELECT $1 FROM @~/n.csv")
    batches = list(result.batches())
    assert max(len(b) for b in batches) <= 10 and sum(len(b) for b in batches) == 95
