"""INSERT OVERWRITE, DEFAULT in VALUES, REPLACE INTO, MERGE INTO, UPDATE ... FROM and multi-table
INSERT ALL|FIRST: answers (as Databend 1.2.453 answers them unless said), effects and atomicity."""

import pytest

import engine
from engine.core.errors import EngineError, UnknownColumn


@pytest.fixture
def s():
    session = engine.Database().session()
    for sql in [
        "CREATE TABLE t (k INT, v VARCHAR)",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'C')",
        "CREATE TABLE src (k INT, v VARCHAR)",
        "INSERT INTO src VALUES (1, 's1'), (4, 's4'), (5, 's5')",
    ]:
        list(session.execute(sql))
    return session


def rows(s, sql):
    return list(s.execute(sql))


def answer(s, sql):
    r = s.execute(sql)
    return [(c.name, c.type) for c in r.schema], list(r)


# ---------------------------------------------------------------- INSERT OVERWRITE, DEFAULT


def test_insert_values_default_takes_the_column_default():
    s = engine.Database().session()
    rows(s, "CREATE TABLE d (a INT, b VARCHAR, c INT DEFAULT 7, n INT NOT NULL)")
    assert rows(s, "INSERT INTO d VALUES (1, 'x', DEFAULT, DEFAULT), (2, DEFAULT, 3, 5)") == [(2,)]
    # a column without a DEFAULT: NULL, or the type's zero value when NOT NULL
    assert rows(s, "SELECT * FROM d ORDER BY a") == [(1, "x", 7, 0), (2, None, 3, 5)]
    # leaving the NOT NULL column out is an error (oracle: 1006), DEFAULT in VALUES is not
    with pytest.raises(engine.EngineError) as info:
        rows(s, "INSERT INTO d (c, a) VALUES (DEFAULT, 9)")
    assert info.value.code == 1006
    assert rows(s, "INSERT INTO d (c, a, n) VALUES (DEFAULT, 9, 1)") == [(1,)]
    assert rows(s, "SELECT c FROM d WHERE a = 9") == [(7,)]


@pytest.mark.parametrize("sql", ["INSERT OVERWRITE t VALUES (5, 'z')",
                                 "INSERT OVERWRITE INTO t VALUES (5, 'z')",  # current Databend docs
                                 "INSERT OVERWRITE TABLE t SELECT 5, 'z'"])
def test_insert_overwrite_replaces_the_rows(s, sql):
    assert answer(s, sql) == ([("number of rows inserted", "UInt64")], [(1,)])
    assert rows(s, "SELECT * FROM t") == [(5, "z")]


def test_insert_overwrite_that_fails_leaves_the_table(s):
    with pytest.raises(EngineError):
        rows(s, "INSERT OVERWRITE t SELECT number, 'x' FROM numbers(3) WHERE 1 / (number - 2) > 0")
    assert rows(s, "SELECT count(*) FROM t") == [(3,)]


def test_a_scan_started_before_an_overwrite_keeps_its_snapshot(s):
    scan = s.execute("SELECT k FROM t ORDER BY k")
    rows(s, "INSERT OVERWRITE t VALUES (9, 'n')")
    assert list(scan) == [(1,), (2,), (3,)]


# ---------------------------------------------------------------- REPLACE INTO


def test_replace_into_replaces_rows_with_the_same_key_and_inserts_the_rest(s):
    assert answer(s, "REPLACE INTO t ON (k) VALUES (2, 'B'), (4, 'd')") == ([], [])
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "a"), (2, "B"), (3, "C"), (4, "d")]
    assert answer(s, "REPLACE INTO t ON (k) SELECT 3, 'c3'") == ([], [])
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "a"), (2, "B"), (3, "c3"), (4, "d")]


def test_replace_into_with_columns_and_a_key_of_two_columns():
    s = engine.Database().session()
    rows(s, "CREATE TABLE r (a INT, b INT, v VARCHAR DEFAULT 'dflt')")
    rows(s, "INSERT INTO r VALUES (1, 1, 'x'), (1, 2, 'y')")
    rows(s, "REPLACE INTO r (b, a) ON CONFLICT (a, b) VALUES (2, 1)")
    assert rows(s, "SELECT * FROM r ORDER BY a, b") == [(1, 1, "x"), (1, 2, "dflt")]


def test_replace_into_that_fails_changes_nothing(s):
    with pytest.raises(EngineError):
        rows(s, "REPLACE INTO t ON (k) SELECT number, 'x' FROM numbers(3) WHERE 1 / (number - 2) > 0")
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "a"), (2, "b"), (3, "C")]


# ---------------------------------------------------------------- MERGE INTO


def test_merge_update_and_insert_answer_two_int32_counts(s):
    sql = ("MERGE INTO t USING src ON t.k = src.k WHEN MATCHED THEN UPDATE SET v = src.v "
           "WHEN NOT MATCHED THEN INSERT (k, v) VALUES (src.k, src.v)")
    assert answer(s, sql) == ([("number of rows inserted", "Int32"), ("number of rows updated", "Int32")],
                              [(2, 1)])
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "s1"), (2, "b"), (3, "C"), (4, "s4"), (5, "s5")]


def test_merge_with_conditions_update_star_delete_and_insert_star(s):
    rows(s, "INSERT INTO t VALUES (4, 'old4')")
    sql = ("MERGE INTO t USING (SELECT * FROM src) AS s ON t.k = s.k WHEN MATCHED AND s.k = 1 THEN DELETE "
           "WHEN MATCHED THEN UPDATE * WHEN NOT MATCHED THEN INSERT *")
    assert answer(s, sql) == ([("number of rows inserted", "Int32"), ("number of rows updated", "Int32"),
                               ("number of rows deleted", "Int32")], [(1, 1, 1)])
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(2, "b"), (3, "C"), (4, "s4"), (5, "s5")]


@pytest.mark.parametrize("clauses, names, counts, after", [
    ("WHEN MATCHED THEN DELETE", ["number of rows deleted"], (1,), [2, 3]),
    ("WHEN NOT MATCHED THEN INSERT *", ["number of rows inserted"], (2,), [1, 2, 3, 4, 5]),
    ("WHEN NOT MATCHED AND src.k > 4 THEN INSERT (k) VALUES (src.k * 10)", ["number of rows inserted"], (1,),
     [1, 2, 3, 50]),
    # no clause applies to a matched row: it stays as it is
    ("WHEN MATCHED AND src.v = 'none' THEN DELETE", ["number of rows deleted"], (0,), [1, 2, 3]),
])
def test_merge_single_clauses(s, clauses, names, counts, after):
    names_types, answered = answer(s, f"MERGE INTO t USING src ON t.k = src.k {clauses}")
    assert names_types == [(n, "Int32") for n in names] and answered == [counts]
    assert [r[0] for r in rows(s, "SELECT k FROM t ORDER BY k")] == after


def test_merge_on_a_non_equi_condition_and_target_alias(s):
    sql = ("MERGE INTO t AS x USING src ON x.k + 3 <= src.k AND src.k <> 4 "
           "WHEN MATCHED THEN UPDATE SET v = x.v || src.v")
    with pytest.raises(EngineError):  # with source row 4 too, target row 1 is matched by rows 4 and 5
        rows(s, sql.replace("src.k <> 4", "src.k > 0"))
    assert answer(s, sql)[1] == [(2,)]
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "as5"), (2, "bs5"), (3, "C")]


def test_merge_where_two_source_rows_match_one_target_row_fails_and_changes_nothing(s):
    rows(s, "INSERT INTO src VALUES (1, 'again')")
    with pytest.raises(EngineError) as info:
        rows(s, "MERGE INTO t USING src ON t.k = src.k WHEN MATCHED THEN UPDATE SET v = src.v")
    assert info.value.code == 4001
    assert "multi rows from source match one and the same row" in info.value.message
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "a"), (2, "b"), (3, "C")]


def test_merge_errors(s):
    with pytest.raises(EngineError) as info:
        rows(s, "MERGE INTO t USING src ON t.k = src.k WHEN MATCHED THEN UPDATE SET nope = 1")
    assert info.value.code == 1006
    with pytest.raises(UnknownColumn):  # an inserted row sees the source only
        rows(s, "MERGE INTO t USING src ON t.k = src.k WHEN NOT MATCHED THEN INSERT (k) VALUES (t.k)")
    with pytest.raises(EngineError) as info:
        rows(s, "MERGE INTO nope USING src ON 1 = 1 WHEN MATCHED THEN DELETE")
    assert info.value.code == 1025


# ---------------------------------------------------------------- UPDATE ... FROM (current Databend docs)


def test_update_from_another_table(s):
    assert answer(s, "UPDATE t SET v = src.v || 'x' FROM src WHERE t.k = src.k") == (
        [("number of rows updated", "UInt64")], [(1,)])
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "s1x"), (2, "b"), (3, "C")]
    assert rows(s, "UPDATE t AS x SET v = 'q' FROM (SELECT k + 1 AS k FROM src) AS s WHERE x.k = s.k") == [(1,)]
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "s1x"), (2, "q"), (3, "C")]


# ---------------------------------------------------------------- INSERT ALL | FIRST


@pytest.fixture
def two(s):
    rows(s, "CREATE TABLE t1 (a INT)")
    rows(s, "CREATE TABLE t2 (a INT)")
    return s


COUNTS = [("number of rows inserted into default.t1", "UInt64"), ("number of rows inserted into default.t2", "UInt64")]


def test_insert_all_puts_each_row_into_every_branch_that_holds(two):
    sql = "INSERT ALL WHEN number < 3 THEN INTO t1 WHEN number > 1 THEN INTO t2 SELECT number FROM numbers(5)"
    assert answer(two, sql) == (COUNTS, [(3, 3)])
    assert rows(two, "SELECT * FROM t1") == [(0,), (1,), (2,)]
    assert rows(two, "SELECT * FROM t2") == [(2,), (3,), (4,)]


def test_insert_first_takes_the_first_branch_and_else(two):
    sql = ("INSERT FIRST WHEN number < 3 THEN INTO t1 WHEN number > 1 THEN INTO t2 ELSE INTO t1 "
           "SELECT number FROM numbers(5)")
    assert answer(two, sql) == (COUNTS, [(3, 2)])
    assert rows(two, "SELECT * FROM t2") == [(3,), (4,)]


def test_unconditional_insert_all_with_values(two):
    assert answer(two, "INSERT ALL INTO t1 INTO t2 VALUES (number * 10) SELECT number FROM numbers(2)") == (
        COUNTS, [(2, 2)])
    assert rows(two, "SELECT * FROM t2") == [(0,), (10,)]


def test_insert_all_is_atomic_across_tables(two):
    with pytest.raises(EngineError):
        rows(two, "INSERT ALL INTO t1 INTO t2 VALUES (1 / (number - 2)) SELECT number FROM numbers(5)")
    assert rows(two, "SELECT count(*) FROM t1") == [(0,)]
    assert rows(two, "SELECT count(*) FROM t2") == [(0,)]


def test_replace_into_refuses_duplicate_keys_and_never_matches_null_keys():
    s = engine.Database().session()
    rows(s, "CREATE TABLE r (k INT, v INT)")
    with pytest.raises(EngineError) as info:
        rows(s, "REPLACE INTO r ON (k) VALUES (1, 1), (1, 2)")
    assert info.value.code == 4000
    assert info.value.message.endswith('at row 1, ["k":1]')
    rows(s, "REPLACE INTO r ON (k) VALUES (NULL, 1)")
    rows(s, "REPLACE INTO r ON (k) VALUES (NULL, 2)")
    assert rows(s, "SELECT * FROM r ORDER BY v") == [(None, 1), (None, 2)]


def test_merge_with_update_star_ignores_extra_source_columns_and_checks_insert_values():
    s = engine.Database().session()
    for sql in ["CREATE TABLE t (k INT, v VARCHAR)", "CREATE TABLE s (k INT, v VARCHAR, extra INT)",
                "INSERT INTO t VALUES (1, 'a')", "INSERT INTO s VALUES (1, 'b', 5), (2, 'c', 6)"]:
        rows(s, sql)
    assert rows(s, "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE * WHEN NOT MATCHED THEN INSERT *") == [
        (1, 1)]
    assert rows(s, "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = t.v || s.v") == [(2,)]
    assert rows(s, "SELECT * FROM t ORDER BY k") == [(1, "bb"), (2, "cc")]
    with pytest.raises(EngineError) as info:  # insert columns and values are not matched
        rows(s, "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED THEN INSERT VALUES (s.k)")
    assert info.value.code == 1065


def test_query_kinds_in_the_query_log():
    s = engine.Database().session()
    for sql in ["CREATE TABLE t (k INT)", "REPLACE INTO t ON (k) VALUES (1)",
                "MERGE INTO t USING (SELECT 1 AS k) s ON t.k = s.k WHEN MATCHED THEN DELETE", "VALUES (1)",
                "INSERT ALL INTO t SELECT 1"]:
        rows(s, sql)
    kinds = rows(s, "SELECT query_kind FROM system.query_log WHERE log_type = 2 ORDER BY event_time")
    # as Databend 1.2.453 logs them
    assert [k for (k,) in kinds][-4:] == ["Update", "Update", "Query", "Other"]


@pytest.mark.parametrize("sql, code", [
    ("INSERT ALL INTO nope SELECT 1", 1025),
    ("INSERT ALL INTO t SELECT 1, 2, 3", 1006),  # The number of columns in the target and the source ...
    ("REPLACE INTO t ON (zz) VALUES (1, 'x')", 1006),  # Unable to get field named "zz"
])
def test_dml_errors_as_databend(s, sql, code):
    with pytest.raises(EngineError) as info:
        rows(s, sql)
    assert info.value.code == code
