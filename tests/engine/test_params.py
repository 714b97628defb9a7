"""Server-side params: placeholders bound as typed values (Databend's rules), never as SQL text."""

import pytest

import engine
from engine.core.errors import BadArguments, SqlSyntaxError


@pytest.fixture
def session():
    return engine.Database().session()


def run(session, sql, params=None):
    result = session.execute(sql, params=params)
    return [c.type for c in result.schema], [row for batch in result.batches() for row in batch]


def test_json_values_bind_as_databend_types(session):
    types, rows = run(session, "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?",
                      [1, -1, 300, 18446744073709551615, 2 ** 70, 1.5, "a", None, True, -129])
    assert types == ["UInt8", "Int8", "UInt16", "UInt64", "Float64", "Float64", "String", "NULL",
                     "Boolean", "Int16"]
    assert rows == [(1, -1, 300, 18446744073709551615, float(2 ** 70), 1.5, "a", None, True, -129)]


def test_arrays_and_objects_bind_as_parse_json_variants(session):
    types, rows = run(session, "SELECT ?, ?:k, typeof(?)", [[1, "x"], {"k": "v"}, {"a": [1]}])
    assert types[0] == "Variant" and rows[0][2] == "VARIANT"
    assert run(session, "SELECT to_string(?)", [[1, "x"]])[1] == [('[1,"x"]',)]


def test_named_params_bind_by_name_and_may_repeat(session):
    assert run(session, "SELECT :a + :a, :b", {"a": 2, "b": "x", "unused": 1})[1] == [(4, "x")]


def test_positional_params_bind_in_text_order(session):
    session.execute("CREATE TABLE t (a INT, b STRING)")
    run(session, "INSERT INTO t VALUES (?, ?), (?, ?)", [1, "a", 2, "b"])
    assert run(session, "SELECT b FROM t WHERE a > ? ORDER BY a LIMIT ?", [0, 1])[1] == [("a",)]


def test_a_string_param_is_a_value_not_sql(session):
    session.execute("CREATE TABLE t (a INT, b STRING)")
    payload = "'); DROP TABLE t; --"
    assert run(session, "INSERT INTO t VALUES (?, ?)", [1, payload])[1] == [(1,)]
    assert run(session, "SELECT b FROM t WHERE b = :p", {"p": payload})[1] == [(payload,)]


@pytest.mark.parametrize("sql, params, message", [
    ("SELECT ?", {"a": 1}, "params must be a JSON array for positional placeholders (?)"),
    ("SELECT ?, ?", [1], "not enough parameters: placeholder index 2 but only 1 params provided"),
    ("SELECT :a", [1], "params must be a JSON object for named placeholders (:name)"),
    ("SELECT :a", {"b": 1}, "missing named parameter: :a"),
])
def test_params_that_do_not_fit_are_1006_in_databend_words(session, sql, params, message):
    with pytest.raises(BadArguments) as info:
        session.execute(sql, params=params)
    assert info.value.code == 1006 and info.value.message == message


def test_a_placeholder_without_params_is_a_syntax_error(session):
    with pytest.raises(SqlSyntaxError, match="unexpected `\\?`"):
        session.execute("SELECT 1, ?")


def test_insert_values_of_placeholders_without_params_takes_the_attachment(session):
    session.execute("CREATE TABLE t (a INT, b STRING)")
    session.db.stages.put("root", engine.parse_location("@~/f.csv"), b"1,x\n")
    result = session.execute("INSERT INTO t VALUES (?, ?)",
                             attachment=engine.StageAttachment("@~/f.csv", {"type": "csv"}))
    assert [row for batch in result.batches() for row in batch] == [(1,)]
    with pytest.raises(BadArguments, match="stage_attachment"):
        session.execute("INSERT INTO t VALUES (?, ?)")


def test_insert_and_replace_from_stage(session):
    session.execute("CREATE TABLE t (a INT, b STRING)")
    stages = session.db.stages
    stages.put("root", engine.parse_location("@~/client/load/1"), b'1,x\n2,"y,z"\n')
    assert run(session, "INSERT INTO t VALUES (?, ?) FROM @~/client/load/1 "
                        "FILE_FORMAT = (TYPE = CSV)")[1] == [(2,)]
    assert run(session, "INSERT INTO t FROM @~/client/load/1 FILE_FORMAT = (TYPE = CSV)")[1] == [(2,)]
    run(session, "REPLACE INTO t ON (a) VALUES (?, ?) FROM @~/client/load/1 "
                 "FILE_FORMAT = (TYPE = CSV) PURGE = TRUE")
    assert run(session, "SELECT a, b FROM t ORDER BY a")[1] == [(1, "x"), (2, "y,z")]
    assert run(session, "LIST @~")[1] == []  # purged


def test_insert_from_stage_values_take_only_question_marks(session):
    session.execute("CREATE TABLE t (a INT, b STRING)")
    session.db.stages.put("root", engine.parse_location("@~/f.csv"), b"1\n")
    with pytest.raises(engine.EngineError) as info:
        session.execute("INSERT INTO t VALUES (?, 'x') FROM @~/f.csv FILE_FORMAT = (TYPE = CSV)")
    assert info.value.code == 1002


def test_insert_from_a_named_stage_needs_read_on_it(session):
    db = session.db
    session.execute("CREATE TABLE t (a INT)")
    session.execute("CREATE STAGE s")
    session.execute("CREATE USER u IDENTIFIED BY 'p'")
    session.execute("GRANT INSERT ON default.t TO u")
    db.stages.put("root", engine.parse_location("@s/f.csv"), b"1\n")
    user = db.session(user="u")
    with pytest.raises(engine.EngineError) as info:
        user.execute("INSERT INTO t FROM @s/f.csv FILE_FORMAT = (TYPE = CSV)")
    assert info.value.code == 1063
    session.execute("GRANT READ ON STAGE s TO u")
    result = user.execute("INSERT INTO t FROM @s/f.csv FILE_FORMAT = (TYPE = CSV)")
    assert [row for batch in result.batches() for row in batch] == [(1,)]
