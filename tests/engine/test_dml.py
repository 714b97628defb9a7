"""UPDATE and DELETE: answers, atomicity, snapshot isolation of running scans, errors."""

import pytest

import engine
from engine.core.errors import EngineError


def rows_of(run, table="u"):
    return run(f"SELECT * FROM {table} ORDER BY 1")


def test_update_answers_one_row_with_the_count_and_progress(db):
    r = db.session().execute("UPDATE u SET label = label || '!' WHERE id >= 2")
    assert r.schema == [engine.Column("number of rows updated", "UInt64")]
    assert list(r) == [(2,)]
    assert r.progress.write_rows == 2 and r.progress.write_bytes > 0
    assert r.progress.scan_rows == 3


def test_delete_answers_one_row_with_the_count_and_progress(db):
    r = db.session().execute("DELETE FROM u WHERE id = 2")
    assert r.schema == [engine.Column("number of rows deleted", "UInt64")]
    assert list(r) == [(1,)]
    assert r.progress.write_rows == 1


UPDATES = [
    ("UPDATE u SET label = 'x'", 3, [(1, "x"), (2, "x"), (3, "x")]),
    ("UPDATE u SET label = 'x' WHERE id = 2", 1, [(1, "one"), (2, "x"), (3, "three")]),
    ("UPDATE u SET label = 'x' WHERE id > 10", 0, [(1, "one"), (2, "two"), (3, "three")]),
    # every right-hand side reads the old row
    ("UPDATE u SET id = id + 10, label = CAST(id AS VARCHAR) WHERE id <> 2", 2,
     [(2, "two"), (11, "1"), (13, "3")]),
    # values convert to the column type (as INSERT ... SELECT does): 2.7 rounds, 5 becomes '5'
    ("UPDATE u SET id = 2.7, label = 5 WHERE id = 1", 1, [(2, "two"), (3, "5"), (3, "three")]),
    ("UPDATE u AS x SET label = upper(x.label) WHERE x.id IN (SELECT 3)", 1,
     [(1, "one"), (2, "two"), (3, "THREE")]),
    ("UPDATE u SET label = 'y' WHERE EXISTS (SELECT 1 FROM t WHERE t.a = u.id)", 2,
     [(1, "y"), (2, "y"), (3, "three")]),
    ("update default.u set LABEL = 'z' where ID = 1", 1, [(1, "z"), (2, "two"), (3, "three")]),
]


@pytest.mark.parametrize("sql, count, after", UPDATES)
def test_update(run, sql, count, after):
    assert run(sql) == [(count,)]
    assert rows_of(run) == after


DELETES = [
    ("DELETE FROM u", 3, []),
    ("DELETE FROM u WHERE id = 2", 1, [(1, "one"), (3, "three")]),
    ("DELETE FROM u WHERE id > 10", 0, [(1, "one"), (2, "two"), (3, "three")]),
    ("DELETE FROM u AS x WHERE x.label LIKE 't%'", 2, [(1, "one")]),
    ("DELETE FROM u WHERE id IN (SELECT a FROM t)", 2, [(3, "three")]),
    ("DELETE FROM u WHERE id NOT IN (SELECT a FROM t WHERE a > 1)", 2, [(2, "two")]),
]


@pytest.mark.parametrize("sql, count, after", DELETES)
def test_delete(run, sql, count, after):
    assert run(sql) == [(count,)]
    assert rows_of(run) == after


def test_delete_keeps_rows_whose_condition_is_null(run):
    # exactly the rows SELECT ... WHERE returns go away
    assert run("SELECT * FROM t WHERE a > 1 ORDER BY a") == [(2, "y", None), (4, None, -1.0)]
    assert run("DELETE FROM t WHERE a > 1") == [(2,)]
    assert run("SELECT a, b FROM t ORDER BY b") == [(1, "x"), (None, "z")]


def test_update_to_null_then_null_checks_see_it(run):
    # column b of u holds no NULL: queries planned before the update skip NULL checks on it
    run("CREATE TABLE w (k INT NOT NULL, v INT)")
    run("INSERT INTO w VALUES (1, 10), (2, 20)")
    assert run("UPDATE w SET v = CASE WHEN k = 1 THEN NULL ELSE v END") == [(2,)]
    assert run("SELECT k FROM w WHERE v IS NULL") == [(1,)]
    assert run("SELECT k, v + 1 FROM w ORDER BY k") == [(1, None), (2, 21)]


def test_rows_inserted_later_are_kept_and_can_be_updated(run):
    run("UPDATE u SET label = 'old'")
    run("INSERT INTO u VALUES (4, 'four')")
    assert run("UPDATE u SET label = 'new' WHERE id = 4") == [(1,)]
    assert rows_of(run) == [(1, "old"), (2, "old"), (3, "old"), (4, "new")]


FAILURES = [
    # a failing row changes nothing, even when earlier rows converted
    ("UPDATE u SET id = 10 / (id - 3)", 1006),  # divided by zero on the last row
    ("UPDATE u SET label = CASE WHEN id = 3 THEN NULL ELSE 'x' END", 1006),  # NOT NULL column
    ("UPDATE u SET id = CASE WHEN id = 3 THEN 'abc' ELSE '7' END", 1006),  # bad cast
    ("UPDATE u SET id = id * 3000000000", 1006),  # overflows Int32
    ("DELETE FROM u WHERE 1 / (id - 3) > 0", 1006),
]


@pytest.mark.parametrize("sql, code", FAILURES)
def test_a_failing_row_changes_nothing(db, run, sql, code):
    with pytest.raises(EngineError) as caught:
        run(sql)
    assert caught.value.code == code
    assert rows_of(run) == [(1, "one"), (2, "two"), (3, "three")]


def test_rows_the_where_skips_are_never_evaluated(run):
    # Databend evaluates SET only on the selected rows
    assert run("UPDATE u SET id = 10 / (id - 3) WHERE id < 3") == [(2,)]
    assert run("UPDATE u SET label = NULL WHERE id > 100") == [(0,)]
    assert rows_of(run) == [(-10, "two"), (-5, "one"), (3, "three")]


ERRORS = [
    ("UPDATE nope SET a = 1", 1025),
    ("DELETE FROM nope", 1025),
    ("DELETE FROM nodb.u", 1003),
    ("UPDATE u SET nope = 1", 1006),  # Databend: Unable to get field named "nope"
    ("UPDATE u SET label = 'x' WHERE nope = 1", 1065),
    ("DELETE FROM u WHERE nope = 1", 1065),
    ("UPDATE u SET id = 1, ID = 2", 1006),  # multiple assignments to one column
    ("UPDATE u SET id = max(id)", 1065),
    ("UPDATE u SET id = (SELECT 1)", 1065),  # Databend: no subquery in the update list
    ("DELETE FROM u WHERE count(*) > 1", 1065),
    ("UPDATE u SET id = 1 WHERE t.a = 1", 1065),
    ("DELETE FROM system.one", 1002),
    ("UPDATE information_schema.tables SET table_name = 'x'", 1002),
    ("UPDATE u SET id = 'abc' || label", 1006),
]


@pytest.mark.parametrize("sql, code", ERRORS)
def test_errors(run, sql, code):
    with pytest.raises(EngineError) as caught:
        run(sql)
    assert caught.value.code == code
    assert rows_of(run) == [(1, "one"), (2, "two"), (3, "three")]


def test_a_scan_started_before_an_update_or_delete_keeps_the_old_rows(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    running = s.execute("SELECT id, label FROM u")
    batches = running.batches()
    first = next(batches)
    assert list(s.execute("UPDATE u SET label = 'changed'")) == [(5003,)]
    assert list(s.execute("DELETE FROM u WHERE id >= 10")) == [(5000,)]
    seen = first + [row for batch in batches for row in batch]
    assert len(seen) == 5003 and all(label != "changed" for _, label in seen)
    assert list(s.execute("SELECT id, label FROM u ORDER BY id")) == [
        (1, "changed"), (2, "changed"), (3, "changed")]


def test_an_update_runs_in_bounded_steps_and_keeps_rows_inserted_meanwhile(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    update = s.execute("UPDATE u SET label = 'u'")
    steps = update.batches()
    assert next(steps) == []  # one batch done, nothing swapped in yet
    assert list(s.execute("SELECT count(*) FROM u WHERE label = 'u'")) == [(0,)]
    list(s.execute("INSERT INTO u VALUES (99999, 'late')"))
    assert [row for batch in steps for row in batch] == [(5003,)]
    assert list(s.execute("SELECT label, count(*) FROM u GROUP BY label ORDER BY label")) == [
        ("late", 1), ("u", 5003)]


def test_concurrent_rewrites_serialize_and_the_later_runs_again_on_the_new_rows(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    first = s.execute("DELETE FROM u WHERE id > 100").batches()
    assert next(first) == []
    assert list(s.execute("UPDATE u SET label = 'second'")) == [(5003,)]
    assert [row for batch in first for row in batch] == [(4909,)]  # ids 101..5009
    assert list(s.execute("SELECT count(*), min(label), max(label) FROM u")) == [(94, "second", "second")]


def test_closing_an_unfinished_update_changes_nothing(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    update = s.execute("UPDATE u SET label = 'u'")
    assert next(update.batches()) == []
    update.close()
    assert list(s.execute("SELECT count(*) FROM u WHERE label = 'u'")) == [(0,)]


def test_a_delete_after_a_truncate_meanwhile_runs_again_on_the_empty_table(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    pending = s.execute("DELETE FROM u WHERE id = 1").batches()
    assert next(pending) == []
    list(s.execute("TRUNCATE TABLE u"))
    assert [row for batch in pending for row in batch] == [(0,)]


def test_drop_during_a_delete_is_a_conflict(db):
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    pending = s.execute("DELETE FROM u WHERE id = 1").batches()
    assert next(pending) == []
    list(s.execute("DROP TABLE u"))
    with pytest.raises(EngineError) as caught:
        list(pending)
    assert caught.value.code == 2009


def test_update_compiles_one_batch_function(db, monkeypatch):
    from engine.codegen import compile as C

    built = []
    original = C.Codegen.build

    def spy(self, params, body, name="_fn"):
        built.append(body)
        return original(self, params, body, name)

    monkeypatch.setattr(C.Codegen, "build", spy)
    s = db.session()
    list(s.execute("INSERT INTO u SELECT number + 10, 'n' FROM numbers(5000)"))
    built.clear()
    assert list(s.execute("UPDATE u SET id = id + 1 WHERE id > 5")) == [(5000,)]
    assert len(built) == 1 and "for i, r in" in built[0][0]
