"""A large write commits in bounded steps (engine.statements.writers.commit_append_steps): its
rows are copied into the storage a step at a time where no reader looks, and become visible
all at once at the end; whatever happens between those steps (another session's reads and
appends, DDL, a log that fails, a cancelled statement, another large write) leaves either all
of them or nothing, in memory and after recovery. Both storages."""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager

import pytest

import engine
from engine.catalog import staged_append, table_storage
from engine.catalog.stages import parse_location
from engine.core.limits import Limits
from engine.statements import writers
from engine.storage import journal
from tests.engine.test_durability import crash


@contextmanager
def recovered_after_crash(db, data_dir):
    """The database `db` was, opened again from its directory after a crash (closed after)."""
    crash(db)
    recovered = engine.Database(data_dir=data_dir)
    try:
        yield recovered
    finally:
        recovered.close()

BEFORE = 40  # rows in t before the large write
BIG = 200  # rows the large write adds: many steps of STEP below
STEP = 16
WRITE = ("INSERT INTO t SELECT number + 1000, CASE WHEN number % 50 = 7 THEN 'nan'::DOUBLE "
         "ELSE number * 0.5 END, CASE WHEN number % 3 = 0 THEN NULL ELSE 's' || number::VARCHAR END "
         f"FROM numbers({BIG})")


@pytest.fixture(params=[False, True], ids=["rows", "columns"])
def stagings(request, monkeypatch):
    """Both storages, small commit steps; the list of the stagings commit_append_steps made."""
    monkeypatch.setattr(table_storage, "COLUMNS", request.param)
    for name in ("STEP_ROWS", "STEP_VALUES", "SCAN_VALUES"):
        monkeypatch.setattr(staged_append, name, STEP)
    made = []

    def spy(*args):
        made.append(staged_append.staged_append(*args))
        return made[-1]
    monkeypatch.setattr(writers, "staged_append", spy)
    return made


def q(session, sql):
    return list(session.execute(sql))


def setup(db) -> None:
    s = db.session()
    q(s, "CREATE TABLE t (a INT, b DOUBLE NULL, s VARCHAR NULL)")
    q(s, f"INSERT INTO t SELECT number, number * 1.5, 'x' FROM numbers({BEFORE})")


def state(db) -> dict:
    return {name: ([c.name for c in table.columns], sorted(map(repr, table.data.rows())))
            for name, table in db.catalog.databases["default"].items()}


def to_commit(steps, made: list) -> None:
    """Run the write's steps until its commit has made its first step."""
    while not made:
        assert next(steps) == []


def rest(steps) -> list:
    return [row for batch in steps for row in batch]


def test_a_large_commit_takes_many_steps_and_is_seen_only_at_its_end(stagings):
    db = engine.Database()
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s, other = db.session(), db.session()
    seen = []  # between the commit's steps: what another session reads
    answer = []
    for batch in s.execute(WRITE).batches():
        answer += batch
        if stagings and not answer:
            seen.append(q(other, "SELECT count(*), count(b), count(s), sum(a) FROM t")[0])
    old = (BEFORE, BEFORE, BEFORE, sum(range(BEFORE)))
    new = (BEFORE + BIG, BEFORE + BIG, BEFORE + BIG - len(range(0, BIG, 3)),
           sum(range(BEFORE)) + sum(range(1000, 1000 + BIG)))
    assert answer == [(BIG,)]
    assert seen.count(old) >= BIG // STEP // 2  # many steps, the old rows in each
    assert set(seen) <= {old, new} and seen == sorted(seen, key=lambda r: r != old)  # then all at once
    assert q(other, "SELECT count(*), count(b), count(s), sum(a) FROM t") == [new]
    table = db.catalog.table("default", "t")
    assert table.has_null == [False, False, True]
    assert table.nan_free[1] is False  # the staged rows' NaN was noted when they were published
    assert q(other, "SELECT count(*) FROM t WHERE b IS NULL OR s IS NULL") == [(len(range(0, BIG, 3)),)]
    assert q(other, "SELECT a FROM t ORDER BY b DESC, a LIMIT 2") == [(1007,), (1057,)]  # NaN sorts last


def test_a_row_appended_between_the_commits_steps_is_kept_before_the_large_write(stagings, tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s, other = db.session(), db.session()
    steps = s.execute(WRITE).batches()
    to_commit(steps, stagings)
    singles = []
    for i in range(1, 8):  # while the table's rows are copied (rows), then the new ones
        assert q(other, f"INSERT INTO t VALUES ({-i}, 0.25, 'single')") == [(1,)]
        singles.append((-i,))
        assert next(steps) == []
    assert rest(steps) == [(BIG,)]
    order = q(other, "SELECT a FROM t")
    assert len(order) == BEFORE + len(singles) + BIG
    assert order[BEFORE:BEFORE + len(singles)] == singles  # they committed first
    live = state(db)
    with recovered_after_crash(db, data_dir) as recovered:
        assert state(recovered) == live
        assert q(recovered.session(), "SELECT a FROM t") == order  # the log's order too


def test_two_large_writes_interleaved_in_their_commits_keep_both(stagings):
    db = engine.Database()
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s1, s2, other = db.session(), db.session(), db.session()
    first = s1.execute(WRITE).batches()
    to_commit(first, stagings)
    second = s2.execute(WRITE.replace("number + 1000", "number + 5000")).batches()
    answers = [[], []]
    running = [first, second]
    while running:
        for i, steps in enumerate([first, second]):
            if steps in running:
                try:
                    answers[i] += next(steps)
                except StopIteration:
                    running.remove(steps)
    assert answers == [[(BIG,)], [(BIG,)]]
    assert q(other, "SELECT count(*), count(DISTINCT a) FROM t") == [(BEFORE + 2 * BIG, BEFORE + 2 * BIG)]
    # they took turns (the second waited for the first) rather than undoing each other's steps
    assert [staging.restarts for staging in stagings] == [0, 0]


DDLS = {
    "drop": "DROP TABLE t",
    "add_column": "ALTER TABLE t ADD COLUMN c INT",
    "create_or_replace": "CREATE OR REPLACE TABLE t (a INT, b DOUBLE NULL, s VARCHAR NULL)",
    "truncate": "TRUNCATE TABLE t",
    "update": "UPDATE t SET a = a + 100 WHERE a < 10",
    "delete": "DELETE FROM t WHERE a % 2 = 0",
}


def reference(ddl: str, with_write: bool) -> dict:
    db = engine.Database()
    setup(db)
    s = db.session()
    q(s, DDLS[ddl])
    if with_write:
        q(s, WRITE)
    return state(db)


@pytest.mark.parametrize("ddl", list(DDLS))
def test_ddl_between_the_commits_steps_fails_the_write_or_comes_first(stagings, tmp_path, ddl):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s, other = db.session(), db.session()
    steps = s.execute(WRITE).batches()
    to_commit(steps, stagings)
    q(other, DDLS[ddl])
    if ddl in ("drop", "add_column", "create_or_replace"):  # the write's table is gone: 2009
        with pytest.raises(engine.EngineError) as failed:
            rest(steps)
        assert failed.value.code == 2009
        assert state(db) == reference(ddl, with_write=False)
    else:  # a new version of the same table: the write serialises after the DDL
        assert rest(steps) == [(BIG,)]
        assert state(db) == reference(ddl, with_write=True)
        table = db.catalog.table("default", "t")
        assert table.has_null[2] and not table.nan_free[1]  # the flags TRUNCATE cleared, set again
    live = state(db)
    with recovered_after_crash(db, data_dir) as recovered:
        assert state(recovered) == live


def test_a_log_that_fails_during_the_commits_steps_leaves_nothing(stagings, tmp_path, monkeypatch):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir, log=lambda message: None)
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s, other = db.session(), db.session()
    before = state(db)
    steps = s.execute(WRITE).batches()
    to_commit(steps, stagings)
    assert next(steps) == []

    def fail(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(journal, "write_record", fail)
    with pytest.raises(engine.EngineError) as failed:
        rest(steps)
    assert failed.value.code == 4000
    assert state(db) == before
    assert q(other, "SELECT count(*), count(s) FROM t") == [(BEFORE, BEFORE)]
    with recovered_after_crash(db, data_dir) as recovered:
        assert state(recovered) == before


def test_a_write_cancelled_during_its_commits_steps_leaves_nothing(stagings, tmp_path):
    data_dir = str(tmp_path / "data")
    db = engine.Database(data_dir=data_dir)
    setup(db)
    stagings.clear()  # the setup's write was staged too
    s, other = db.session(), db.session()
    before = state(db)
    steps = s.execute(WRITE).batches()
    to_commit(steps, stagings)
    assert next(steps) == []
    steps.close()  # the client went away: the generator is closed between two steps
    assert state(db) == before
    assert q(other, "INSERT INTO t VALUES (-1, NULL, 'after')") == [(1,)]
    assert q(other, "SELECT count(*), count(b), min(a) FROM t") == [(BEFORE + 1, BEFORE, -1)]
    with recovered_after_crash(db, data_dir) as recovered:
        assert q(recovered.session(), "SELECT count(*), min(a), max(a) FROM t") == [(BEFORE + 1, -1, BEFORE - 1)]


def test_a_write_of_one_steps_rows_commits_at_once(stagings):
    db = engine.Database()
    setup(db)
    stagings.clear()  # the setup's write was staged too
    assert q(db.session(), f"INSERT INTO t SELECT number, 1.0, 'y' FROM numbers({STEP})") == [(STEP,)]
    assert not stagings


@pytest.mark.parametrize("copy", ["COPY INTO t FROM @~/big.csv FILE_FORMAT = (TYPE = CSV)",
                                  "COPY INTO t FROM (SELECT $1, $2, $3 FROM @~/big.csv) "
                                  "FILE_FORMAT = (TYPE = CSV)"])
def test_a_large_copy_commits_in_steps_with_its_load_history(stagings, copy):
    db = engine.Database()
    setup(db)
    stagings.clear()
    db.stages.put("root", parse_location("@~/big.csv"),
                  "".join(f"{i},{i / 4},v{i}\n" for i in range(2000, 2000 + BIG)).encode())
    s, other = db.session(), db.session()
    steps = s.execute(copy).batches()
    to_commit(steps, stagings)
    seen = []
    while True:
        seen.append(q(other, "SELECT count(*) FROM t")[0][0])
        batch = next(steps)
        if batch:
            break
    # several steps before the rows are there, then all of them (the rows' old list is freed
    # in steps after that in row storage)
    assert seen.count(BEFORE) > 3 and seen == sorted(seen) and set(seen) <= {BEFORE, BEFORE + BIG}
    assert batch[0][:2] == ("big.csv", BIG)
    assert q(other, "SELECT count(*), min(a), max(a) FROM t WHERE a >= 2000") == [(BIG, 2000, 2000 + BIG - 1)]
    assert list(db.catalog.table("default", "t").copied_files) == [("root", "~", "big.csv")]
    assert q(other, copy) == []  # loaded once: nothing again


@pytest.mark.parametrize("update", ["UPDATE t SET b = 'nan'::DOUBLE WHERE a = 37",
                                    "UPDATE t SET b = CASE WHEN a = 37 THEN 'nan'::DOUBLE ELSE b END"])
def test_an_update_over_many_steps_notes_the_nan_it_writes_in_a_late_step(stagings, update):
    """UPDATE finds its new rows' NaNs a step at a time (its commit scans none of them)."""
    db = engine.Database(limits=Limits(step_rows=8))
    setup(db)
    s = db.session()
    table = db.catalog.table("default", "t")
    assert table.nan_free[1]
    q(s, update)
    assert not db.catalog.table("default", "t").nan_free[1]
    assert q(s, "SELECT a FROM t ORDER BY b DESC LIMIT 1") == [(37,)]  # NaN is the greatest
    q(s, "UPDATE t SET b = 1.0 WHERE a = 37")  # the NaN is gone: the column is scanned again
    assert db.catalog.table("default", "t").nan_free[1]
    q(s, "UPDATE t SET a = a + 1 WHERE a < 5")  # no float written: still free of NaN
    assert db.catalog.table("default", "t").nan_free[1]


def test_a_row_appended_to_an_empty_table_between_the_commits_steps_is_kept(stagings):
    """Into an empty table the built columns are taken whole at the end, unless another write
    put rows there first: then they are copied after those after all."""
    db = engine.Database()
    setup(db)
    s, other = db.session(), db.session()
    q(s, "CREATE TABLE e (a INT, b DOUBLE NULL, s VARCHAR NULL)")
    stagings.clear()
    steps = s.execute(WRITE.replace("INTO t", "INTO e")).batches()
    to_commit(steps, stagings)
    assert q(other, "INSERT INTO e VALUES (-1, 0.5, 'first')") == [(1,)]
    assert rest(steps) == [(BIG,)]
    rows = q(other, "SELECT a FROM e")
    assert len(rows) == BIG + 1 and rows[0] == (-1,) and sorted(rows[1:]) == [(a,) for a in range(1000, 1000 + BIG)]


def test_a_large_values_insert_commits_in_steps(stagings):
    db = engine.Database(limits=Limits(step_rows=8))
    setup(db)
    stagings.clear()
    s, other = db.session(), db.session()
    values = ", ".join(f"({i}, {i / 2}, {'NULL' if i % 5 == 0 else repr(f'v{i}')})" for i in range(3000, 3000 + BIG))
    seen, answer = [], []
    for batch in s.execute(f"INSERT INTO t VALUES {values}").batches():
        answer += batch
        if stagings and not answer:
            seen.append(q(other, "SELECT count(*) FROM t")[0][0])
    assert answer == [(BIG,)] and seen.count(BEFORE) > 3 and set(seen) <= {BEFORE, BEFORE + BIG}
    assert q(other, "SELECT count(*), count(s), sum(a) FROM t WHERE a >= 3000") == [
        (BIG, BIG - BIG // 5, sum(range(3000, 3000 + BIG)))]
    assert db.catalog.table("default", "t").has_null[2]


def test_writes_that_keep_restarting_the_staging_still_check_and_scan_every_row(stagings):
    # a single-row INSERT between each of the commit's steps makes it stage again (columns) more
    # often than RETRIES allows while its rows are still being scanned: the scan goes on to the
    # last row, so the NaNs at its end are known (ORDER BY puts them first) and the CHECK holds
    db = engine.Database()
    s, other = db.session(), db.session()
    q(s, "CREATE TABLE t (a INT, b DOUBLE, CONSTRAINT small CHECK (a < 1990))")
    q(s, "INSERT INTO t VALUES (1, 0.5)")
    stagings.clear()
    batches = s.execute("INSERT INTO t SELECT number, if(number >= 1900, 'nan'::DOUBLE, number * 0.5) "
                        "FROM numbers(2000)").batches()
    inserted = 0
    with pytest.raises(engine.EngineError) as failed:
        for batch in batches:
            if stagings and not batch and inserted < 40:
                inserted += 1
                q(other, f"INSERT INTO t VALUES ({-inserted}, 0.25)")
    assert failed.value.code == 1133 and "small" in str(failed.value)
    assert q(other, "SELECT count(*) FROM t") == [(1 + inserted,)]  # nothing of the failed write
    batches = s.execute("INSERT INTO t SELECT number, if(number >= 1900, 'nan'::DOUBLE, number * 0.5) "
                        "FROM numbers(1980)").batches()
    inserted_before = inserted
    for batch in batches:
        if stagings and not batch and inserted < inserted_before + 40:
            inserted += 1
            q(other, f"INSERT INTO t VALUES ({-inserted}, 0.25)")
    assert inserted - inserted_before > writers.RETRIES
    top = q(other, "SELECT a FROM t ORDER BY b DESC LIMIT 2")
    assert all(a >= 1900 for a, in top), top
