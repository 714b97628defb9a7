"""SELECT ... FROM @stage and COPY INTO t FROM (SELECT ... FROM @stage) over NDJSON (each record
is $1, a VARIANT) and Parquet (columns by name with the file's types, and by position); without
pyarrow, Parquet is a clear 1002."""

import datetime
import gzip
import io

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.io import parquet_files

NDJSON = (b'{"id": 1, "Name": "x", "tags": {"k": [1, 2]}}\n'
          b'\n'
          b'{"name": "ignored", "id": 2, "Name": null}\n')


@pytest.fixture
def db():
    db = engine.Database()
    db.stages.put("root", parse_location("@~/j/a.ndjson"), NDJSON)
    return db


def _run(db, sql):
    result = db.session().execute(sql)
    return [(c.name, c.type) for c in result.schema], list(result)


def test_an_ndjson_record_is_one_variant_column(db):
    columns, rows = _run(db, "SELECT * FROM @~/j (FILE_FORMAT => 'NDJSON')")
    assert columns == [("$1", "Variant")]
    assert rows == [('{"Name":"x","id":1,"tags":{"k":[1,2]}}',),
                    ('{"Name":null,"id":2,"name":"ignored"}',)]


def test_ndjson_fields_by_path_filtered_and_cast(db):
    columns, rows = _run(db, "SELECT $1:id::INT AS id, $1:tags:k[0] FROM @~/j/a.ndjson "
                             "(FILE_FORMAT => 'ndjson') WHERE $1:id::INT >= 1 ORDER BY id DESC")
    assert [name for name, _ in columns] == ["id", "$1:tags:k[0]"]
    assert rows == [(2, None), (1, "1")]


def test_ndjson_has_no_second_column_and_bad_json_names_the_line(db):
    with pytest.raises(engine.EngineError, match=r"\$2"):
        _run(db, "SELECT $2 FROM @~/j (FILE_FORMAT => 'ndjson')")
    db.stages.put("root", parse_location("@~/bad.ndjson"), b'{"a": 1}\n{"a": \n')
    with pytest.raises(engine.EngineError) as err:
        _run(db, "SELECT $1 FROM @~/bad.ndjson (FILE_FORMAT => 'ndjson')")
    # as Databend 1.2.453 words it (its reason: "expected value at line 1 column 6"); lines from 0
    assert err.value.code == 1046 and err.value.message == (
        "Invalid JSON row: expecting value at line 1 column 7\nat file 'bad.ndjson', line 1")


def test_a_file_its_format_cannot_read_is_named_as_copy_names_it(db):
    # Databend 1.2.453 answers such a file with 1046 and "<reason>\nat file '<path in the
    # stage>', line <n from 0>" (e.g. "Invalid JSON row: ... at file 'c/f.csv', line 0"), for a
    # query over the stage and a COPY alike
    db.stages.put("root", parse_location("@~/bin/x.csv"), b"a,b\nc,\xff\xfe\n")
    whole = gzip.compress(b"".join(b"%d,x\n" % i for i in range(5000)))
    db.stages.put("root", parse_location("@~/gz/cut.csv.gz"), whole[:len(whole) // 2])
    db.session().execute("CREATE TABLE t (a VARCHAR, b VARCHAR)")
    for sql, message in [
        ("SELECT $1 FROM @~/bin/", "Bad CSV file (invalid UTF-8)\nat file 'bin/x.csv', line 1"),
        ("SELECT $1 FROM @~/bin/ (FILE_FORMAT => 'tsv')",
         "Bad TSV file (invalid UTF-8)\nat file 'bin/x.csv', line 1"),
        ("SELECT $1 FROM @~/bin/ (FILE_FORMAT => 'ndjson')",
         "Bad NDJSON file (invalid UTF-8)\nat file 'bin/x.csv', line 1"),
        ("SELECT $1 FROM @~/j/ (FILE_FORMAT => 'csv')", None),  # readable as CSV: no error
        ("SELECT $1 FROM @~/bin/x.csv (FILE_FORMAT => 'parquet')", "Bad PARQUET file (not a "
         "Parquet file, or a damaged one)\nat file 'bin/x.csv', line 0"),
        ("COPY INTO t FROM (SELECT $1, $2 FROM @~/bin/)",
         "Bad CSV file (invalid UTF-8)\nat file 'bin/x.csv', line 1"),
        ("COPY INTO t FROM @~/bin/ FILE_FORMAT = (TYPE = CSV)",
         "Bad CSV file (invalid UTF-8)\nat file 'bin/x.csv', line 1"),
    ]:
        if message is None:
            _run(db, sql)
            continue
        with pytest.raises(engine.EngineError) as err:
            _run(db, sql)
        assert (err.value.code, err.value.message) == (1046, message), sql
    db.session().execute("CREATE FILE FORMAT gzcsv TYPE = CSV COMPRESSION = AUTO")
    for sql in ("SELECT count(*) FROM @~/gz/ (FILE_FORMAT => 'gzcsv')",
                "COPY INTO t FROM @~/gz/ FILE_FORMAT = (TYPE = CSV COMPRESSION = AUTO)"):
        with pytest.raises(engine.EngineError) as err:
            _run(db, sql)
        assert err.value.code == 1046 and err.value.message.startswith(
            "Bad CSV file (damaged or cut short compressed data)\nat file 'gz/cut.csv.gz', line "), sql
    assert _run(db, "SELECT count(*) FROM t")[1] == [(0,)]


def test_copy_into_from_an_ndjson_query_casts_the_variants(db):
    s = db.session()
    s.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR, tags VARIANT)")
    answer = list(s.execute("COPY INTO t FROM (SELECT $1:id, $1:Name, $1:tags FROM @~/j) "
                            "FILE_FORMAT = (TYPE = NDJSON)"))
    assert answer == [("j/a.ndjson", 2, 0, None, None)]
    assert list(s.execute("SELECT * FROM t ORDER BY id")) == [(1, "x", '{"k":[1,2]}'),
                                                                (2, None, None)]
    # loaded once: the same files are skipped the next time, unless FORCE
    assert list(s.execute("COPY INTO t FROM (SELECT $1:id, $1:Name, $1:tags FROM @~/j) "
                          "FILE_FORMAT = (TYPE = NDJSON)")) == []
    s.execute("CREATE FILE FORMAT my_json TYPE = NDJSON")
    assert list(s.execute("COPY INTO t (id) FROM (SELECT $1:id FROM @~/j (FILE_FORMAT => "
                          "'my_json')) FORCE = TRUE"))[0][1] == 2


def test_a_variant_that_does_not_cast_fails_the_copy(db):
    s = db.session()
    s.execute("CREATE TABLE t (id INT)")
    with pytest.raises(engine.EngineError) as err:
        list(s.execute("COPY INTO t FROM (SELECT $1:tags FROM @~/j) FILE_FORMAT = (TYPE = NDJSON)"))
    assert err.value.code == 1046 and "to_int32" in err.value.message


pyarrow = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")


def _parquet(table) -> bytes:
    out = io.BytesIO()
    parquet.write_table(table, out)
    return out.getvalue()


@pytest.fixture
def pdb(db):
    db.stages.put("root", parse_location("@~/p/a.parquet"), _parquet(pyarrow.table({
        "id": pyarrow.array([1, 2], pyarrow.int64()), "Name": ["a", None],
        "price": [1.5, 2.0], "day": [datetime.date(2024, 1, 2), None],
        "at": pyarrow.array([datetime.datetime(2024, 1, 2, 3, 4, 5), None],
                            pyarrow.timestamp("ms", tz="UTC"))})))
    return db


def test_parquet_columns_by_name_with_the_files_types(pdb):
    columns, rows = _run(pdb, "SELECT * FROM @~/p (FILE_FORMAT => 'parquet')")
    assert columns == [("id", "Nullable(Int64)"), ("Name", "Nullable(String)"),
                       ("price", "Nullable(Float64)"), ("day", "Nullable(Date)"),
                       ("at", "Nullable(Timestamp)")]
    assert rows == [(1, "a", 1.5, datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5)),
                    (2, None, 2.0, None, None)]


def test_parquet_columns_by_position_and_in_expressions(pdb):
    _, rows = _run(pdb, "SELECT name, $1, price * 2 FROM @~/p (FILE_FORMAT => 'parquet', "
                        "PATTERN => '.*[.]parquet') WHERE $1 > 1")
    assert rows == [(None, 2, 4.0)]


def test_copy_into_from_a_parquet_query(pdb):
    s = pdb.session()
    s.execute("CREATE TABLE t (k BIGINT, label VARCHAR)")
    answer = list(s.execute("COPY INTO t FROM (SELECT id + 10, upper(name) FROM @~/p) "
                            "FILE_FORMAT = (TYPE = PARQUET)"))
    assert answer == [("p/a.parquet", 2, 0, None, None)]
    assert list(s.execute("SELECT * FROM t ORDER BY k")) == [(11, "A"), (12, None)]


def test_parquet_files_of_different_schemas_are_refused(pdb):
    pdb.stages.put("root", parse_location("@~/p/b.parquet"),
                   _parquet(pyarrow.table({"other": [1]})))
    with pytest.raises(engine.EngineError, match="different schemas"):
        _run(pdb, "SELECT * FROM @~/p (FILE_FORMAT => 'parquet')")


def test_without_pyarrow_a_parquet_scan_is_1002_with_the_install_command(pdb, monkeypatch):
    monkeypatch.setattr(parquet_files, "pyarrow", None)
    with pytest.raises(engine.EngineError) as err:
        _run(pdb, "SELECT * FROM @~/p (FILE_FORMAT => 'parquet')")
    assert err.value.code == 1002 and "queryhttp[parquet]" in err.value.message
