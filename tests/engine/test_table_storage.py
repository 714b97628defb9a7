"""The table storage API (engine.catalog.table_storage) and the guarantees its users rely on:
snapshots by version identity, transactions' private versions, the log's edit records built from
the positions a rewrite kept (not by comparing rows), their replay, and memory accounting."""

from __future__ import annotations

import glob
import json
import os
from itertools import islice

import pytest

import engine
from engine.catalog import column_data, table_storage
from engine.catalog.table_storage import ColumnData, Rewrite, TableData, runs_of_selection
from engine.core.errors import EngineError
from engine.core.limits import Limits
from engine.storage import change_codec
from engine.storage.change_codec import rewritten
from engine.storage.journal import MAGIC, read_records


def q(session, sql):
    return list(session.execute(sql))


# ---------------------------------------------------------------- TableData and ColumnData

# an empty version of (INT, VARCHAR) columns in each storage
STORAGES = {
    "rows": TableData,
    "columns": lambda: ColumnData(("q", None), (None, {})),
}


def make(storage: str, rows: list) -> TableData:
    data = STORAGES[storage]()
    data.append_rows(list(rows))
    return data


@pytest.mark.parametrize("storage", list(STORAGES))
def test_a_version_hands_out_ranges_columns_and_rows_that_are_the_callers_own(storage):
    data = make(storage, [])
    data.append_rows([(1, "a"), (2, "b")])
    data.append_columns([[3, 4], ["c", "d"]], 2)
    assert len(data) == 4
    assert data.rows() == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    assert data.rows(1, 3) == [(2, "b"), (3, "c")]
    assert data.rows(3) == [(4, "d")]
    assert data.column(1) == ["a", "b", "c", "d"] and data.column(0, 1, 3) == [2, 3]
    assert list(data.column_iterator(0, 2)) == [3, 4]
    assert data.row(2) == (3, "c")
    taken = data.rows()
    taken.append((9, "z"))  # a caller's list: the version does not change
    assert len(data) == 4
    with pytest.raises(ValueError):
        data.append_columns([[1, 2], ["x"]], 2)  # columns of unequal length never enter


@pytest.mark.parametrize("storage", list(STORAGES))
def test_a_snapshot_is_the_version_and_its_count_and_appends_do_not_disturb_it(storage):
    data = make(storage, [(1, "a"), (2, "b")])
    iterator = data.row_iterator()
    count = len(data)
    data.append_rows([(3, "c")])
    data.append_rows([(None, None), (5, "e")])  # a NULL: a column in an array becomes a list
    assert [next(iterator) for _ in range(count)] == [(1, "a"), (2, "b")]  # the first rows stay put
    assert data.prefix(5) is data  # nothing to cut
    cut = data.prefix(2)
    assert cut is not data and cut.rows() == [(1, "a"), (2, "b")] and len(data) == 5
    copy = data.copy(2)
    copy.append_rows([(7, "g")])
    assert copy.rows() == [(1, "a"), (2, "b"), (7, "g")]
    assert data.rows() == [(1, "a"), (2, "b"), (3, "c"), (None, None), (5, "e")]


@pytest.mark.parametrize("storage", list(STORAGES))
def test_estimated_bytes_count_the_rows_held(storage):
    data = make(storage, [(1, "x")] * 10)
    assert data.estimated_bytes() == 10 * data.estimated_bytes(1) > 0
    assert STORAGES[storage]().estimated_bytes() == 0


def test_columns_keep_numbers_in_arrays_until_a_null_and_share_equal_strings():
    data = make("columns", [(i, f"name-{i % 3}") for i in range(9)])
    assert data._columns[0].typecode == "q"
    names = data.column(1)
    assert len({id(v) for v in names}) == 3  # equal strings are one object
    data.append_rows([(None, "name-1")])
    assert type(data._columns[0]) is list and data.row(9) == (None, "name-1")
    assert data.rows(8) == [(8, "name-2"), (None, "name-1")]


# ---------------------------------------------------------------- Rewrite


@pytest.mark.parametrize("storage", list(STORAGES))
def test_a_rewrite_records_the_runs_that_rebuild_it_from_the_old_version(storage):
    old = make(storage, [(i, str(i)) for i in range(10)])
    rewrite = Rewrite(old, 8)  # a snapshot of 8 rows; 2 were appended after it
    rewrite.keep(0, 2)
    rewrite.replace_in(2, 3, [(0, (20, "u")), (2, (40, "u"))])  # rows 2 and 4 replaced
    assert rewrite.keep_selected(5, [True, False, True]) == 2  # row 6 deleted
    rewrite.add([(100, None)])
    new = rewrite.finish()  # rows 8 and 9, appended meanwhile, follow
    expected = [(i, str(i)) for i in range(10)]
    expected[2], expected[4] = (20, "u"), (40, "u")
    expected = expected[:6] + [(7, "7"), (100, None), (8, "8"), (9, "9")]
    assert new.rows() == expected and type(new) is type(old)
    assert rewrite.added == [(20, "u"), (40, "u"), (100, None)]  # only these reach the log
    assert rewrite.runs == [0, 2, -1, 1, 3, 1, -1, 1, 5, 1, 7, 1, -1, 1, 8, 2]
    assert rewritten(old, rewrite.runs, rewrite.added).rows() == expected  # the replay
    assert old.rows() == [(i, str(i)) for i in range(10)]  # the old version never changes


def test_runs_of_a_selection_are_one_pair_a_kept_stretch():
    assert runs_of_selection(10, [True, True, False, True, False, False, True]) == [10, 2, 13, 1, 16, 1]
    assert runs_of_selection(0, [False, False]) == []
    assert runs_of_selection(5, [1, 1, 1]) == [5, 3]


# ---------------------------------------------------------------- snapshots and statements


def test_a_rewrite_puts_a_new_version_in_place_and_a_running_scan_keeps_the_old_one():
    db = engine.Database(limits=Limits(step_rows=4))
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t SELECT number FROM numbers(20)")
    table = db.catalog.table("default", "t")
    before = table.data
    scan = s.execute("SELECT a FROM t").batches()
    first = next(scan)
    q(db.session(), "DELETE FROM t WHERE a >= 10")
    q(db.session(), "INSERT INTO t VALUES (99)")
    assert table.data is not before and before.rows() == [(i,) for i in range(20)]
    seen = first + [row for batch in scan for row in batch]
    assert sorted(seen) == [(i,) for i in range(20)]  # the snapshot, whole, and nothing else
    assert q(s, "SELECT a FROM t ORDER BY a") == [(i,) for i in range(10)] + [(99,)]


def test_an_update_keeps_rows_appended_during_its_steps():
    db = engine.Database(limits=Limits(step_rows=4))
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b INT)")
    q(s, "INSERT INTO t SELECT number, 0 FROM numbers(20)")
    steps = s.execute("UPDATE t SET b = 1 WHERE a % 2 = 0").batches()
    assert next(steps) == []
    q(db.session(), "INSERT INTO t VALUES (100, 0)")
    assert [row for batch in steps for row in batch] == [(10,)]
    got = q(s, "SELECT a, b FROM t ORDER BY a")
    assert got == [(i, 1 - i % 2) for i in range(20)] + [(100, 0)]


def test_a_transaction_writes_a_private_version_and_a_rollback_leaves_the_shared_one_untouched():
    db = engine.Database()
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t VALUES (1), (2), (3)")
    table = db.catalog.table("default", "t")
    shared = table.data
    q(s, "BEGIN")
    q(s, "INSERT INTO t VALUES (4)")
    q(s, "DELETE FROM t WHERE a = 1")
    assert q(s, "SELECT a FROM t ORDER BY a") == [(2,), (3,), (4,)]
    assert table.data is shared and shared.rows() == [(1,), (2,), (3,)]
    q(s, "ROLLBACK")
    assert table.data is shared and shared.rows() == [(1,), (2,), (3,)]
    q(s, "BEGIN")
    q(s, "UPDATE t SET a = a * 10 WHERE a = 2")
    q(db.session(), "INSERT INTO t VALUES (5)")  # another session appends meanwhile
    q(s, "COMMIT")  # the private rows, then the one appended meanwhile, in a new version
    assert table.data is not shared and shared.rows() == [(1,), (2,), (3,), (5,)]
    assert table.data.rows() == [(1,), (20,), (3,), (5,)]


def test_a_temporary_table_is_charged_what_its_version_holds():
    s = engine.Database().session()
    q(s, "CREATE TEMP TABLE t (a INT, b VARCHAR)")
    q(s, "INSERT INTO t SELECT number, 'x' FROM numbers(1000)")
    table = s.temp_tables.table("default", "t")
    charged = s.temp_tables.charged_bytes(table)
    assert charged == table.data.estimated_bytes() > 0
    q(s, "DELETE FROM t WHERE a >= 500")
    assert s.temp_tables.charged_bytes(table) == table.data.estimated_bytes() < charged


# ---------------------------------------------------------------- the log's edit records


def _logged_edits(data_dir: str) -> list[dict]:
    edits = []
    for path in sorted(glob.glob(os.path.join(data_dir, "wal-*.log"))):
        with open(path, "rb") as f:
            data = f.read()
        payloads, _, _ = read_records(data, len(MAGIC))
        for payload in payloads:
            edits += [c for c in json.loads(payload)["changes"] if c["op"] == "edit"]
    return edits


def _crash(db: engine.Database) -> None:
    """What SIGKILL leaves: the log as written, no checkpoint."""
    durability = db.durability
    if durability._checkpointing is not None:
        durability._checkpointing.join()
    durability.writer.close()
    os.close(durability._lock_file)
    db.durability = None


def test_update_and_delete_log_the_positions_they_kept_without_comparing_rows(tmp_path, monkeypatch):
    def no_comparison(*args):
        raise AssertionError("an UPDATE or DELETE record was built by comparing rows")

    monkeypatch.setattr(change_codec, "rewrite_runs", no_comparison)
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=64))
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b VARCHAR NULL)")
    q(s, "INSERT INTO t SELECT number, number::VARCHAR FROM numbers(1000)")
    assert q(s, "UPDATE t SET b = 'u' WHERE a % 100 = 7") == [(10,)]
    assert q(s, "DELETE FROM t WHERE a % 10 = 3 OR a > 990") == [(108,)]
    assert q(s, "UPDATE t SET b = NULL") == [(892,)]
    assert q(s, "DELETE FROM t WHERE a < 5") == [(4,)]
    expected = q(s, "SELECT a, b FROM t ORDER BY a")
    edits = _logged_edits(data_dir)
    new_rows = [sum(e["runs"][i + 1] for i in range(0, len(e["runs"]), 2) if e["runs"][i] < 0) for e in edits]
    assert new_rows == [10, 0, 892, 0]  # only the rows that are new
    assert [len(e["rows"]) for e in edits] == [1, 0, 1, 0]  # one chunk of them, or none
    assert edits[1]["runs"][:4] == [0, 3, 4, 9]  # kept stretches around the deleted rows
    assert edits[3]["runs"] == [4, 888]  # a = 3 was gone already
    _crash(db)
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), "SELECT a, b FROM t ORDER BY a") == expected
    db.close()


def test_merge_replace_and_a_committed_rewrite_replay_exactly(tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir, limits=Limits(step_rows=16))
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b INT)")
    q(s, "CREATE TABLE src (a INT, b INT)")
    q(s, "INSERT INTO t SELECT number, 0 FROM numbers(100)")
    q(s, "INSERT INTO src SELECT number * 3, 1 FROM numbers(50)")
    q(s, "MERGE INTO t USING src ON t.a = src.a WHEN MATCHED AND src.a % 2 = 0 THEN DELETE "
         "WHEN MATCHED THEN UPDATE SET b = src.b WHEN NOT MATCHED THEN INSERT (a, b) VALUES (src.a, 2)")
    q(s, "REPLACE INTO t ON (a) SELECT a + 1, 5 FROM src WHERE a < 30")
    q(s, "BEGIN")
    q(s, "DELETE FROM t WHERE a % 5 = 0")
    q(s, "INSERT INTO t VALUES (1000, 7)")
    q(s, "COMMIT")
    expected = q(s, "SELECT a, b FROM t ORDER BY a, b")
    _crash(db)
    db = engine.Database(data_dir=data_dir)
    assert q(db.session(), "SELECT a, b FROM t ORDER BY a, b") == expected
    db.close()


def test_an_update_the_log_refuses_leaves_the_old_version_in_place(tmp_path, monkeypatch):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    s = db.session()
    q(s, "CREATE TABLE t (a INT)")
    q(s, "INSERT INTO t VALUES (1), (2)")
    table = db.catalog.table("default", "t")
    before = table.data

    def refuse(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(db.durability.writer, "submit", refuse)
    with pytest.raises(EngineError) as failed:
        q(s, "UPDATE t SET a = a + 10")
    assert failed.value.code == 4000
    assert table.data is before and before.rows() == [(1,), (2,)]
    with pytest.raises(EngineError):
        q(s, "INSERT INTO t VALUES (3)")
    assert len(table.data) == 2  # the append undone: the version cut back to its rows
    monkeypatch.undo()
    db.close()


# ---------------------------------------------------------------- columns underneath


def test_a_reader_of_some_columns_gets_the_others_as_none_from_columns_only():
    rows = [(1, "a"), (2, "b"), (3, "c")]
    columns = make("columns", rows)
    assert columns.rows(0, 2, (1,)) == [(None, "a"), (None, "b")]
    assert list(islice(columns.row_iterator(1, (0,)), 2)) == [(2, None), (3, None)]
    assert make("rows", rows).rows(0, 2, (1,)) == rows[:2]  # row storage hands the rows it has


QUERIES = [
    "SELECT a, d FROM t WHERE b < 10 ORDER BY a",
    "SELECT count(*), sum(c), min(a), max(d) FROM t WHERE e > '1970-02-01'",
    "SELECT b % 7 AS k, count(*), sum(a) FROM t GROUP BY k ORDER BY k",
    "SELECT a * 2, c FROM t ORDER BY c DESC LIMIT 5",
    "SELECT DISTINCT d FROM t ORDER BY d LIMIT 7",
    "SELECT t.a, u.d FROM t JOIN t AS u ON t.a = u.b ORDER BY 1, 2 LIMIT 9",
    "SELECT count(*) FROM (SELECT DISTINCT * FROM t)",
]


def test_queries_over_columns_answer_as_over_rows(monkeypatch):
    answers = {}
    for columns in (False, True):
        monkeypatch.setattr(table_storage, "COLUMNS", columns)
        s = engine.Database(limits=Limits(step_rows=64)).session()
        q(s, "CREATE TABLE t (a BIGINT, b INT, c DOUBLE, d VARCHAR, e DATE)")
        q(s, "INSERT INTO t SELECT number, number % 100, number / 7, concat('n-', (number % 50)::VARCHAR), "
             "to_date(number % 400) FROM numbers(2000)")
        q(s, "INSERT INTO t VALUES (NULL, 5, NULL, NULL, NULL)")  # a NULL: array columns become lists
        q(s, "UPDATE t SET c = c + 1 WHERE b = 3")
        q(s, "DELETE FROM t WHERE a % 11 = 0")
        data = s.db.catalog.table("default", "t").data
        assert isinstance(data, ColumnData if columns else TableData)
        answers[columns] = [q(s, sql) for sql in QUERIES]
    assert answers[True] == answers[False]
    assert answers[True][6] == [(1819,)]  # 2,000 - 182 deleted + the row of NULLs


def test_equal_strings_are_shared_and_a_full_dict_passes_batches_of_new_strings_unlooked(monkeypatch):
    monkeypatch.setattr(column_data, "SHARED_VALUES", 100)
    data = ColumnData((None,), ({},))
    # fresh objects, as a decoder or a cast makes them
    fresh = [f"v-{i}" for i in range(100)]
    data.append_columns([["".join(["v-", str(i)]) for i in range(100)]], 100)
    again = ["".join(["v-", str(i % 100)]) for i in range(300)]
    data.append_columns([again], 300)
    column = data.column_values(0, 0, 400)
    assert column[0] == fresh[0] and all(column[100 + i] is column[i % 100] for i in range(300))
    # the dict is full: a batch of strings never seen is appended as it came (nothing looked up
    # but its sample), and one where the sample finds shared values is shared
    unseen = ["".join(["new-", str(i)]) for i in range(1000)]
    data.append_columns([unseen], 1000)
    mixed = ["".join(["v-", str(i % 100)]) if i % 2 else "".join(["new-", str(i)]) for i in range(1000)]
    data.append_columns([mixed], 1000)
    column = data.column_values(0, 0, len(data))
    assert len(data._shared[0]) == 100 and column[400:1400] == unseen
    assert all(column[1400 + i] is column[i % 100] for i in range(1, 1000, 2))
    assert column[1400:] == mixed
