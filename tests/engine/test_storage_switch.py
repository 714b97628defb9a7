"""A data directory written by one table storage opens in the other (issue 24: columns became
the default; QUERYHTTP_COLUMNS=0 keeps row tuples): the log and checkpoints hold columns of JSON
values whatever the storage in memory, so no format version changes and nothing is converted.
Written with rows and read with columns and the other way round, from the log (after a crash)
and from a checkpoint (after a clean close), then written to and read back in the first one."""

from __future__ import annotations

import math

import pytest

import engine
from engine.catalog import table_storage
from engine.catalog.table_storage import ColumnData, TableData
from tests.engine.test_durability import crash, q

STORAGE_CLASS = {False: TableData, True: ColumnData}

QUERIES = [
    "SELECT * FROM t ORDER BY id",
    "SELECT * FROM w ORDER BY k",
    "SELECT count(*), sum(i), min(f), max(s) FROM t",
    "SELECT id, f FROM t WHERE f IS NULL OR id > 4 ORDER BY id",
]


def _fill(s) -> None:
    """Every kind of logged change over the types a storage keeps apart: integers and floats
    (arrays while NULL-free), strings (shared), dates, decimals, VARIANT and arrays (lists)."""
    q(s, "CREATE TABLE t (id INT, i BIGINT NULL, f DOUBLE NULL, s VARCHAR NULL, d DATE NULL, "
         "m DECIMAL(10, 2) NULL, v VARIANT NULL, a ARRAY(INT) NULL)")
    q(s, "INSERT INTO t VALUES (1, 10, 1.5, 'x', '2026-01-01', 1.25, parse_json('{\"k\": 1}'), [1, 2]), "
         "(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (3, -3, 'nan'::DOUBLE, 'x', '2026-01-02', -2.50, "
         "parse_json('[1]'), [])")
    q(s, "INSERT INTO t SELECT id + 3, i * 2, f / 2, concat(s, 'y'), d, m, v, a FROM t")
    q(s, "UPDATE t SET f = 0.1 WHERE id = 4")
    q(s, "DELETE FROM t WHERE id = 6")
    q(s, "CREATE TABLE w (k INT, label VARCHAR)")
    q(s, "INSERT INTO w SELECT number, concat('n', (number % 7)::VARCHAR) FROM numbers(3000)")
    q(s, "ALTER TABLE w ADD COLUMN extra INT NULL")
    q(s, "UPDATE w SET extra = k WHERE k % 1000 = 0")


def _answers(s) -> dict:
    # NaN != NaN: compare its text
    return {sql: [tuple("nan" if isinstance(v, float) and math.isnan(v) else v for v in row)
                  for row in q(s, sql)] for sql in QUERIES}


@pytest.mark.parametrize("how", ["log", "checkpoint"])
@pytest.mark.parametrize("written", [False, True], ids=["rows-then-columns", "columns-then-rows"])
def test_a_data_directory_written_in_one_storage_opens_in_the_other(tmp_path, monkeypatch, written, how):
    data_dir = str(tmp_path / "data")
    monkeypatch.setattr(table_storage, "COLUMNS", written)
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    _fill(s)
    assert type(db.catalog.table("default", "t").data) is STORAGE_CLASS[written]
    before = _answers(s)
    crash(db) if how == "log" else db.close()

    monkeypatch.setattr(table_storage, "COLUMNS", not written)
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert type(db.catalog.table("default", "t").data) is STORAGE_CLASS[not written]
    assert type(db.catalog.table("default", "w").data) is STORAGE_CLASS[not written]
    assert _answers(s) == before
    # written to in the other storage, and read back in the first
    q(s, "INSERT INTO t VALUES (9, 9, 9.5, 'z', '2026-03-01', 9.99, parse_json('9'), [9])")
    q(s, "UPDATE t SET s = 'changed' WHERE id = 1")
    q(s, "DELETE FROM w WHERE k >= 2000")
    after = _answers(s)
    assert after != before
    crash(db)

    monkeypatch.setattr(table_storage, "COLUMNS", written)
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert type(db.catalog.table("default", "t").data) is STORAGE_CLASS[written]
    assert _answers(s) == after
    db.close()


def test_columns_are_the_default_and_queryhttp_columns_0_gives_rows():
    for environ, expected in (({}, True), ({"QUERYHTTP_COLUMNS": "1"}, True), ({"QUERYHTTP_COLUMNS": ""}, True),
                              ({"QUERYHTTP_COLUMNS": "0"}, False), ({"QUERYHTTP_COLUMNS": " 0 "}, False)):
        assert table_storage.columns_by_default(environ) is expected, environ


@pytest.mark.parametrize("columns", [False, True], ids=["rows", "columns"])
def test_an_empty_table_altered_then_appended_to_replays_into_its_new_columns(tmp_path, monkeypatch, columns):
    """ALTER of an empty table logs only the catalog image: replay gives the table an empty
    version of its new columns, so the appends after it fit (columns keep their width)."""
    monkeypatch.setattr(table_storage, "COLUMNS", columns)
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b INT)")
    q(s, "ALTER TABLE t ADD COLUMN c VARCHAR")
    q(s, "INSERT INTO t VALUES (1, 2, 'x')")
    q(s, "CREATE TABLE u (a INT, b INT)")
    q(s, "ALTER TABLE u MODIFY COLUMN b VARCHAR")
    q(s, "INSERT INTO u VALUES (1, 'y')")
    crash(db)
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    assert q(s, "SELECT * FROM t") == [(1, 2, "x")] and q(s, "SELECT * FROM u") == [(1, "y")]
    q(s, "INSERT INTO t VALUES (3, 4, 'z')")
    assert q(s, "SELECT count(*) FROM t") == [(2,)]
    db.close()
