"""Every multi-step writer interleaved with each DDL that replaces, drops or rewrites its table
(code review N1): the writer's answer and the table agree, nothing acknowledged is lost, and
a fresh Database on the same data directory recovers exactly the acknowledged state."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine.catalog.catalog import Table, TableColumn
from engine.catalog.stages import parse_location
from engine.catalog.table_storage import TableData
from engine.core.limits import Limits
from engine.statements.ddl import copy_table
from engine.types import sqltype as T
from tests.engine.test_durability import crash

STEP_ROWS = 8  # small steps: every writer below takes several
SOURCE_ROWS = 40

CSV = "".join(f"{i},{i * 10}\n" for i in range(100, 100 + SOURCE_ROWS)).encode()
VALUES = ", ".join(f"({i}, {i * 10})" for i in range(200, 200 + SOURCE_ROWS))

# writer -> (SQL, whether it reads the staged file as a stage attachment)
WRITERS = {
    "insert_select": "INSERT INTO t SELECT a, b FROM src",
    "insert_values": f"INSERT INTO t VALUES {VALUES}",
    "insert_all": "INSERT ALL INTO t INTO t2log SELECT a, b FROM src",
    "insert_first": "INSERT FIRST WHEN a % 2 = 0 THEN INTO t ELSE INTO t2log SELECT a, b FROM src",
    "insert_overwrite": "INSERT OVERWRITE t SELECT a, b FROM src",
    "copy_into": "COPY INTO t FROM @~/data.csv FILE_FORMAT = (TYPE = CSV)",
    "copy_query": "COPY INTO t FROM (SELECT $1, $2 FROM @~/data.csv) FILE_FORMAT = (TYPE = CSV)",
    "stage_attachment": "INSERT INTO t VALUES",
    "update": "UPDATE t SET b = b + 1 WHERE a % 2 = 0",
    "delete": "DELETE FROM t WHERE a % 3 = 0",
    "merge": "MERGE INTO t USING src ON t.a = src.a WHEN MATCHED THEN UPDATE SET b = src.b "
             "WHEN NOT MATCHED THEN INSERT (a, b) VALUES (src.a, src.b)",
    "replace": "REPLACE INTO t ON (a) SELECT a, b FROM src",
}

DDLS = {
    "add_column": "ALTER TABLE t ADD COLUMN c INT",
    "drop_column": "ALTER TABLE t DROP COLUMN b",
    "modify_column": "ALTER TABLE t MODIFY COLUMN b BIGINT",
    "rename": "ALTER TABLE t RENAME TO t_renamed",
    "create_or_replace": "CREATE OR REPLACE TABLE t (a INT, b INT)",
    "drop": "DROP TABLE t",
    "truncate": "TRUNCATE TABLE t",
}


def setup(db: engine.Database) -> None:
    s = db.session()
    for sql in ("CREATE TABLE t (a INT, b INT)", "CREATE TABLE t2log (a INT, b INT)",
                "CREATE TABLE src (a INT, b INT)",
                "INSERT INTO t SELECT number, number * 10 FROM numbers(30)",
                f"INSERT INTO src SELECT number + 20, number FROM numbers({SOURCE_ROWS})"):
        list(s.execute(sql))
    db.stages.put("root", parse_location("@~/data.csv"), CSV)


def run_writer(session, name: str):
    if name == "stage_attachment":
        return session.execute(WRITERS[name], attachment=engine.StageAttachment(
            "@~/data.csv", {"type": "CSV"}, {}))
    return session.execute(WRITERS[name])


def state(db: engine.Database) -> dict:
    """Every table's columns, rows and COPY load history, by name (live tables only)."""
    return {name: ([c.name for c in table.columns], sorted(map(repr, table.data.rows())),
                   sorted(table.copied_files))
            for name, table in db.catalog.databases["default"].items()}


def reference(writer: str | None, ddl: str) -> tuple:
    """(state, writer's answer or None when it fails) of the DDL, then the writer, run alone."""
    db = engine.Database(limits=Limits(step_rows=STEP_ROWS))
    setup(db)
    s = db.session()
    list(s.execute(DDLS[ddl]))
    answer = None
    if writer is not None:
        try:
            answer = list(run_writer(s, writer))
        except engine.EngineError:
            answer = None
    return state(db), answer


def interleave(db: engine.Database, writer: str, ddl: str):
    """The writer's first step, the DDL from another session, then the writer's other steps:
    (answer, None) or (None, the EngineError it failed with)."""
    s1, s2 = db.session(), db.session()
    steps = run_writer(s1, writer).batches()
    first = next(steps)
    assert first == [], f"{writer} must take more than one step"
    list(s2.execute(DDLS[ddl]))
    try:
        return [row for batch in steps for row in batch], None
    except engine.EngineError as exc:
        return None, exc


@pytest.mark.parametrize("ddl", list(DDLS))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_writer_interleaved_with_ddl_keeps_answer_and_table_in_agreement(writer, ddl):
    db = engine.Database(limits=Limits(step_rows=STEP_ROWS))
    setup(db)
    answer, error = interleave(db, writer, ddl)
    if error is not None:
        # nothing of the writer is left: the table is as the DDL alone left it
        assert error.code == 2009, error
        assert state(db) == reference(None, ddl)[0]
    else:
        # the writer committed after the DDL: as if it ran after it
        expected_state, expected_answer = reference(writer, ddl)
        assert expected_answer is not None, "the writer succeeded where it fails after the DDL"
        assert state(db) == expected_state
        if not writer.startswith("copy"):  # COPY's answer names files; the counts are in the state
            assert answer == expected_answer


@pytest.mark.parametrize("ddl", ["add_column", "rename", "create_or_replace", "drop", "truncate"])
@pytest.mark.parametrize("writer", ["insert_select", "insert_values", "insert_all", "copy_into",
                                    "stage_attachment", "update", "merge", "replace"])
def test_after_a_crash_the_acknowledged_state_is_recovered(tmp_path, writer, ddl):
    data_dir = str(tmp_path / "data")
    db = engine.Database(limits=Limits(step_rows=STEP_ROWS), data_dir=data_dir)
    setup(db)
    interleave(db, writer, ddl)
    acknowledged = state(db)
    crash(db)  # the first Database is never closed
    recovered = engine.Database(data_dir=data_dir)
    try:
        assert state(recovered) == acknowledged
    finally:
        recovered.close()


def test_a_replaced_version_has_no_recorder_and_the_recorder_refuses_it(tmp_path):
    db = engine.Database(data_dir=str(tmp_path / "data"))
    try:
        setup(db)
        s = db.session()
        old = db.catalog.table("default", "t")
        list(s.execute("ALTER TABLE t ADD COLUMN c INT"))
        assert old.recorder is None
        dropped = db.catalog.table("default", "t2log")
        list(s.execute("DROP TABLE t2log"))
        assert dropped.recorder is None
        with pytest.raises(engine.EngineError) as info:
            db.durability.recorder.appended(old, [(1, 2)])
        assert info.value.code == 2009
        list(s.execute("UNDROP TABLE t2log"))
        assert dropped.recorder is db.durability.recorder
    finally:
        db.close()


# ---------------------------------------------------------------- N7: whole-object copies


def test_copy_table_carries_every_field_over():
    """Fails when a new Table field is not carried over to a new version (N7)."""
    table = Table("default", "t", [TableColumn("a", T.INT32)], data=TableData([(1,)]), engine="FUSE",
                  table_id=7, comment="c", copied_files={("root", "~", "f.csv"): 1.0},
                  cluster_by="(a)", transient=True)
    table.has_null[0] = True
    new = copy_table(table)
    for f in dataclasses.fields(Table):
        if f.name in ("recorder", "insert_plans"):  # given by the catalog / rebuilt per version
            continue
        assert getattr(new, f.name) == getattr(table, f.name), f.name
    # the mutable fields are the new version's own
    for name in ("has_null", "has_negative", "copied_files", "columns"):
        assert getattr(new, name) is not getattr(table, name), name
    assert new.data is table.data  # the rows are shared until a rewrite


@pytest.mark.parametrize("ddl", ["ALTER TABLE t ADD COLUMN b INT", "ALTER TABLE t RENAME TO t2",
                                 "ALTER TABLE t MODIFY COLUMN a BIGINT"])
def test_copy_into_after_alter_loads_nothing_again(ddl):
    db = engine.Database()
    s = db.session()
    list(s.execute("CREATE TABLE t (a INT)"))
    db.stages.put("root", parse_location("@~/data.csv"), b"1\n2\n3\n")
    name = "t2" if "RENAME" in ddl else "t"
    copy = "COPY INTO {} (a) FROM @~/data.csv FILE_FORMAT = (TYPE = CSV)"
    list(s.execute(copy.format("t")))
    list(s.execute(ddl))
    list(s.execute(copy.format(name)))
    assert list(s.execute(f"SELECT count(*) FROM {name}")) == [(3,)]


def test_alter_rewrite_takes_rows_appended_during_its_steps_once(tmp_path):
    """ALTER TABLE rewrites the rows it saw a step at a time, then the rows appended meanwhile:
    its last step's slice once reached past its snapshot into those rows, so they were rewritten
    twice (an acknowledged 30,000-row INSERT came back with 37,344 rows, live and after a crash)."""
    db = engine.Database(data_dir=str(tmp_path / "d"))
    s = db.session()
    list(s.execute("CREATE TABLE bulk (client INT, batch INT, k INT)"))
    list(s.execute("INSERT INTO bulk (client, batch, k) SELECT 9, 0, number FROM numbers(50000)"))
    alter = db.session().execute("ALTER TABLE bulk ADD COLUMN e INT").batches()
    next(alter)  # its first step: the snapshot of 50,000 rows, the first slice rewritten
    assert list(db.session().execute(
        "INSERT INTO bulk (client, batch, k) SELECT 0, 1, number FROM numbers(30000)")) == [(30000,)]
    for _ in alter:  # the rest of its steps, and its commit
        pass
    counts = sorted(db.session().execute("SELECT client, count(*), count(e) FROM bulk GROUP BY client"))
    assert counts == [(0, 30000, 0), (9, 50000, 0)]
    crash(db)
    again = engine.Database(data_dir=str(tmp_path / "d"))
    assert sorted(again.session().execute("SELECT client, count(*) FROM bulk GROUP BY client")) == [
        (0, 30000), (9, 50000)]
    again.close()


@pytest.mark.parametrize("ddl", ["CREATE OR REPLACE TEMP TABLE tmp (a INT, b INT)",
                                 "DROP TABLE tmp", "ALTER TABLE tmp ADD COLUMN c INT",
                                 "TRUNCATE TABLE tmp"])
def test_a_temporary_tables_writer_interleaved_with_ddl_in_the_same_client_session(ddl):
    """Two requests of one client session share its temporary tables (the web layer attaches
    one container to each request's Session): a write that fails leaves nothing, one that
    succeeds is in the table the DDL left."""
    db = engine.Database(limits=Limits(step_rows=STEP_ROWS))
    setup(db)
    s1, s2 = db.session(), db.session()
    s2.temp_tables = s1.temp_tables
    list(s1.execute("CREATE TEMP TABLE tmp (a INT, b INT)"))
    steps = s1.execute("INSERT INTO tmp SELECT a, b FROM src").batches()
    assert next(steps) == []
    list(s2.execute(ddl))
    try:
        answer = [row for batch in steps for row in batch]
    except engine.EngineError as exc:
        answer, code = None, exc.code
    if "DROP" in ddl:
        assert answer is None
        assert s1.temp_tables.is_empty()
        return
    rows = list(s2.execute("SELECT count(*) FROM tmp"))
    if answer is None:
        assert code == 2009 and rows == [(0,)]  # nothing of the failed write is visible
    else:
        assert answer == [(SOURCE_ROWS,)] and rows == [(SOURCE_ROWS,)]
