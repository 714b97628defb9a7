"""Every type name Databend accepts in DDL, with Databend's canonical names in DESCRIBE, SHOW
CREATE TABLE and system.columns (as Databend 1.2.453 answers)."""

import pytest

import engine
from engine.core.errors import EngineError

# (written type, DESCRIBE's Type, system.columns' type of the nullable column)
TYPES = [
    ("TINYINT UNSIGNED", "TINYINT UNSIGNED", "Nullable(UInt8)"),
    ("SMALLINT UNSIGNED", "SMALLINT UNSIGNED", "Nullable(UInt16)"),
    ("INT UNSIGNED", "INT UNSIGNED", "Nullable(UInt32)"),
    ("INTEGER UNSIGNED", "INT UNSIGNED", "Nullable(UInt32)"),
    ("BIGINT UNSIGNED", "BIGINT UNSIGNED", "Nullable(UInt64)"),
    ("INT8", "TINYINT", "Nullable(Int8)"),
    ("INT16", "SMALLINT", "Nullable(Int16)"),
    ("INT32", "INT", "Nullable(Int32)"),
    ("INT64", "BIGINT", "Nullable(Int64)"),
    ("UINT8", "TINYINT UNSIGNED", "Nullable(UInt8)"),
    ("UINT16", "SMALLINT UNSIGNED", "Nullable(UInt16)"),
    ("UINT32", "INT UNSIGNED", "Nullable(UInt32)"),
    ("UINT64", "BIGINT UNSIGNED", "Nullable(UInt64)"),
    ("FLOAT32", "FLOAT", "Nullable(Float32)"),
    ("FLOAT64", "DOUBLE", "Nullable(Float64)"),
    ("DOUBLE PRECISION", "DOUBLE", "Nullable(Float64)"),
    ("BINARY", "BINARY", "Nullable(Binary)"),
    ("VARBINARY", "BINARY", "Nullable(Binary)"),
    ("BLOB", "BINARY", "Nullable(Binary)"),
    ("JSON", "VARIANT", "Nullable(Variant)"),
    ("VARIANT", "VARIANT", "Nullable(Variant)"),
    ("BITMAP", "BITMAP", "Nullable(Bitmap)"),
    ("DATETIME", "TIMESTAMP", "Nullable(Timestamp)"),
    ("TIMESTAMP", "TIMESTAMP", "Nullable(Timestamp)"),
    ("ARRAY(INT)", "ARRAY(INT32)", "Nullable(Array(Nullable(Int32)))"),
    ("ARRAY(INT NOT NULL)", "ARRAY(INT32)", "Nullable(Array(Int32))"),
    ("MAP(STRING, INT)", "MAP(STRING, INT32)", "Nullable(Map(String, Nullable(Int32)))"),
    ("MAP(INT, ARRAY(STRING))", "MAP(INT32, ARRAY(STRING))",
     "Nullable(Map(Int32, Nullable(Array(Nullable(String)))))"),
    ("TUPLE(INT, STRING)", "TUPLE(1 INT32, 2 STRING)", "Nullable(Tuple(Nullable(Int32), Nullable(String)))"),
    ("TUPLE(a INT, b STRING)", "TUPLE(A INT32, B STRING)", "Nullable(Tuple(Nullable(Int32), Nullable(String)))"),
    ("NULLABLE(INT)", "INT", "Nullable(Int32)"),
    ("CHAR(10)", "VARCHAR", "Nullable(String)"),
    ("DECIMAL(10, 2)", "DECIMAL(10, 2)", "Nullable(Decimal(10, 2))"),
]


# SHOW CREATE TABLE spells nested types as Databend's sql_name_explicit_null: every level says
# NULL or NOT NULL, a tuple's field names as written (the suite's 05_0003_ddl_alter_table)
SHOWN_NESTED = {
    "ARRAY(INT)": "ARRAY(INT NULL)",
    "ARRAY(INT NOT NULL)": "ARRAY(INT NOT NULL)",
    "MAP(STRING, INT)": "MAP(VARCHAR NOT NULL, INT NULL)",
    "MAP(INT, ARRAY(STRING))": "MAP(INT NOT NULL, ARRAY(VARCHAR NULL) NULL)",
    "TUPLE(INT, STRING)": "TUPLE(1 INT NULL, 2 VARCHAR NULL)",
    "TUPLE(a INT, b STRING)": "TUPLE(a INT NULL, b VARCHAR NULL)",
}


@pytest.fixture
def s():
    return engine.Database().session()


def rows(s, sql):
    return list(s.execute(sql))


@pytest.mark.parametrize("written, described, system_type", TYPES)
def test_type_names(s, written, described, system_type):
    rows(s, f"CREATE TABLE ty (c {written})")
    assert rows(s, "DESC ty") == [("c", described, "YES", "NULL", "")]
    assert rows(s, "SELECT type, data_type FROM system.columns WHERE table = 'ty'") == [(system_type, described)]
    shown = SHOWN_NESTED.get(written, described)
    assert rows(s, "SHOW CREATE TABLE ty")[0][1] == f"CREATE TABLE ty (\n  c {shown} NULL\n) ENGINE=FUSE"
    assert [c.type for c in s.execute("SELECT c FROM ty").schema] == [system_type]


def test_not_null_composite_columns(s):
    rows(s, "CREATE TABLE ty (a TUPLE(INT, STRING) NOT NULL, b ARRAY(INT) NULL, e INT UNSIGNED NOT NULL)")
    assert [r[:3] for r in rows(s, "DESC ty")] == [
        ("a", "TUPLE(1 INT32, 2 STRING)", "NO"), ("b", "ARRAY(INT32)", "YES"), ("e", "INT UNSIGNED", "NO")]


def test_values_of_stored_as_text_types_and_of_nested_types(s):
    rows(s, "CREATE TABLE ty (j VARIANT, bin BINARY, arr ARRAY(INT), k INT)")
    rows(s, "INSERT INTO ty (j, bin, k) VALUES ('{\"a\": 1}', 'abc', 1)")
    # a VARIANT holds parsed JSON, printed compact as Databend 1.2.453 does
    assert rows(s, "SELECT j, bin, arr, k FROM ty") == [('{"a":1}', b"abc", None, 1)]  # BINARY: bytes
    rows(s, "INSERT INTO ty (arr, k) VALUES ('[1]', 2)")  # text in an ARRAY column: parsed
    assert rows(s, "SELECT arr FROM ty WHERE k = 2") == [((1,),)]
    with pytest.raises(EngineError) as info:  # text that is no array: a clear error
        rows(s, "INSERT INTO ty (arr) VALUES ('[1')")
    assert info.value.code == 1006


@pytest.mark.parametrize("sql", [
    "CREATE TABLE ty (a MAP(INT))",
    "CREATE TABLE ty (a ARRAY(INT, INT))",
    "CREATE TABLE ty (a VARCHAR UNSIGNED)",
    "CREATE TABLE ty (a GEOMETRYX)",
])
def test_bad_type_names_are_syntax_errors(s, sql):
    with pytest.raises(EngineError) as info:
        rows(s, sql)
    assert info.value.code == 1005


def test_first_and_after_stay_aliases(s):
    assert rows(s, "SELECT 1 first, 2 after") == [(1, 2)]
    assert [c.name for c in s.execute("SELECT 1 first, 2 after").schema] == ["first", "after"]


def test_describe_defaults_of_not_null_columns(s):
    # current Databend (its suite, base/03_common/03_0026 and base/05_ddl/05_0000) shows NULL
    # for every column without a DEFAULT; 1.2.453 showed the type's zero for NOT NULL ones
    rows(s, "CREATE TABLE ty (a TUPLE(INT, STRING) NOT NULL, c BITMAP NOT NULL, f VARIANT NOT NULL, "
            "g BINARY NOT NULL, h MAP(STRING, INT) NOT NULL, i TINYINT NOT NULL, j INT NOT NULL DEFAULT 3)")
    assert [(r[0], r[3]) for r in rows(s, "DESC ty")] == [
        ("a", "NULL"), ("c", "NULL"), ("f", "NULL"), ("g", "NULL"), ("h", "NULL"), ("i", "NULL"), ("j", "3")]
