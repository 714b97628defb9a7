"""Conditional functions and their nullability as Databend 1.2.453 answers: COALESCE / IFNULL /
NVL are always nullable, NVL2 follows its branches, IS_NULL / IS_NOT_NULL never NULL,
ASSUME_NOT_NULL gives the type's default for NULL, TO_NULLABLE adds NULL."""

import pytest

import engine


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE c (i32 INT NOT NULL, u8 UINT8 NOT NULL, s VARCHAR NOT NULL, b BOOLEAN NOT NULL,"
        " x INT NULL, y VARCHAR NULL)",
        "INSERT INTO c VALUES (-70000, 3, 'abc', true, NULL, NULL)",
    ]:
        list(s.execute(sql))
    return s


CASES = [
    ("coalesce(x, 1)", "Nullable(Int32)", 1), ("coalesce(x, i32)", "Nullable(Int32)", -70000),
    ("coalesce(i32, x)", "Nullable(Int32)", -70000), ("coalesce(i32, 1)", "Nullable(Int32)", -70000),
    ("coalesce(x, x)", "Nullable(Int32)", None), ("ifnull(x, i32)", "Nullable(Int32)", -70000),
    ("nvl(x, i32)", "Nullable(Int32)", -70000), ("nvl2(x, i32, u8)", "Int32", 3),
    ("nvl2(x, s, y)", "Nullable(String)", None), ("if(b, x, 1)", "Nullable(Int32)", None),
    ("is_null(x)", "Boolean", True), ("is_not_null(i32)", "Boolean", True), ("is_null(i32)", "Boolean", False),
    ("assume_not_null(x)", "Int32", 0), ("assume_not_null(y)", "String", ""),
    ("to_nullable(i32)", "Nullable(Int32)", -70000),
]


@pytest.mark.parametrize(("expr", "type_", "value"), CASES)
def test_types_and_values(session, expr, type_, value):
    result = session.execute(f"SELECT {expr} FROM c")
    assert ([col.type for col in result.schema], list(result)) == ([type_], [(value,)])


@pytest.mark.parametrize(("expr", "type_", "value"), [
    ("coalesce(1, NULL)", "UInt8", 1), ("ifnull(NULL, 1)", "UInt8", 1), ("nvl2(NULL, 1, 2)", "UInt8", 2),
    ("nvl2(1, 'a', NULL)", "String", "a"), ("is_null(1)", "Boolean", False),
    ("is_not_null(NULL)", "Boolean", False), ("to_nullable(1)", "UInt8", 1),
])
def test_constants(session, expr, type_, value):
    result = session.execute(f"SELECT {expr}")
    assert ([col.type for col in result.schema], list(result)) == ([type_], [(value,)])


def test_assume_not_null_of_null_is_refused(session):
    with pytest.raises(engine.EngineError) as info:
        list(session.execute("SELECT assume_not_null(NULL)"))
    assert info.value.code == 1065  # as Databend 1.2.453 answers


def test_concat_ws_is_nullable_when_any_argument_is(session):
    result = session.execute("SELECT concat_ws('-', s, y), concat_ws(y, s) FROM c")
    # as Databend 1.2.453 answers: String NULL 'abc', then NULL
    assert ([col.type for col in result.schema], list(result)) == (["Nullable(String)", "Nullable(String)"],
                                                                   [("abc", None)])
