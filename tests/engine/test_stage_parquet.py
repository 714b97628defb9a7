"""Parquet in stages (the optional pyarrow extra): COPY INTO a table from Parquet and unloading to
Parquet; without pyarrow, a clear 1002."""

import datetime
import decimal
import io

import pytest

import engine
from engine.catalog.stages import parse_location
from engine.io import parquet_files

pyarrow = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")


def _parquet(table) -> bytes:
    out = io.BytesIO()
    parquet.write_table(table, out)
    return out.getvalue()


@pytest.fixture
def db():
    db = engine.Database()
    db.session().execute("CREATE TABLE t (id INT, Name VARCHAR, score DOUBLE, day DATE, "
                         "at TIMESTAMP, amount DECIMAL(10, 2))")
    return db


def _run(db, sql):
    return list(db.session().execute(sql))


def test_copy_from_parquet_matches_columns_by_name(db):
    data = _parquet(pyarrow.table({
        "NAME": ["a", None], "id": [1, 2], "extra": [True, False], "score": [1.5, None],
        "day": [datetime.date(2024, 1, 2), None],
        "at": pyarrow.array([datetime.datetime(2024, 1, 2, 3, 4, 5, 6), None], pyarrow.timestamp("us")),
        "amount": pyarrow.array([decimal.Decimal("12.34"), None], pyarrow.decimal128(10, 2))}))
    db.stages.put("root", parse_location("@~/p.parquet"), data)
    assert _run(db, "COPY INTO t FROM @~/p.parquet FILE_FORMAT = (TYPE = PARQUET)") == [
        ("p.parquet", 2, 0, None, None)]
    assert _run(db, "SELECT * FROM t ORDER BY id") == [
        (1, "a", 1.5, datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5, 6),
         decimal.Decimal("12.34")),
        (2, None, None, None, None, None)]


def test_a_damaged_parquet_file_is_an_error_that_loads_nothing(db):
    db.stages.put("root", parse_location("@~/bad.parquet"), b"PAR1 not really")
    with pytest.raises(engine.EngineError) as err:
        _run(db, "COPY INTO t FROM @~/bad.parquet FILE_FORMAT = (TYPE = PARQUET)")
    assert err.value.code == 1046 and err.value.message == (
        "Bad PARQUET file (not a Parquet file, or a damaged one)\nat file 'bad.parquet', line 0")
    assert _run(db, "SELECT count(*) FROM t") == [(0,)]


def test_unload_to_parquet_and_load_it_back(db):
    s = db.session()
    s.execute("INSERT INTO t VALUES (1, 'x', 2.5, '2024-05-06', '2024-05-06 07:08:09', 3.25), "
              "(2, NULL, NULL, NULL, NULL, NULL)")
    assert _run(db, "COPY INTO @~/out/ FROM t FILE_FORMAT = (TYPE = PARQUET)")[0][0] == 2
    (path, staged), = db.stages.list("root", parse_location("@~/out/"))
    assert path.endswith(".parquet")
    table = parquet.read_table(io.BytesIO(staged.data))
    assert table.column_names == ["id", "name", "score", "day", "at", "amount"]  # unquoted: lower case
    assert str(table.schema.field("amount").type) == "decimal128(10, 2)"
    assert table.column("id").to_pylist() == [1, 2]
    s.execute("CREATE TABLE t2 (id INT, Name VARCHAR, score DOUBLE, day DATE, at TIMESTAMP, "
              "amount DECIMAL(10, 2))")
    _run(db, "COPY INTO t2 FROM @~/out/ FILE_FORMAT = (TYPE = PARQUET)")
    assert _run(db, "SELECT * FROM t2 ORDER BY id") == _run(db, "SELECT * FROM t ORDER BY id")


def test_without_pyarrow_parquet_is_1002_with_the_install_command(db, monkeypatch):
    monkeypatch.setattr(parquet_files, "pyarrow", None)
    db.stages.put("root", parse_location("@~/p.parquet"), b"PAR1")
    with pytest.raises(engine.EngineError) as err:
        _run(db, "COPY INTO t FROM @~/p.parquet FILE_FORMAT = (TYPE = PARQUET)")
    assert err.value.code == 1002 and "queryhttp[parquet]" in err.value.message
    with pytest.raises(engine.EngineError, match=r"queryhttp\[parquet\]"):
        _run(db, "COPY INTO @~/o/ FROM t FILE_FORMAT = (TYPE = PARQUET)")
