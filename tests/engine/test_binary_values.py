"""BINARY values: bytes, shown as upper-case hex, from unhex / from_base64 / to_binary and text
inserted into a BINARY column; each answer checked against Databend 1.2.453."""

import pytest

import engine


@pytest.fixture
def s():
    session = engine.Database().session()
    list(session.execute("CREATE TABLE tb (b BINARY, n BINARY NULL)"))
    list(session.execute("INSERT INTO tb VALUES ('abc', NULL), (unhex('00ff'), 'x')"))
    return session


def shown(session, sql):
    result = session.execute(sql)
    return [c.type for c in result.schema], result.renderer(False)(list(result))


def test_a_binary_column_holds_bytes_shown_as_upper_case_hex(s):
    assert shown(s, "SELECT b, n, length(b), hex(b), to_base64(b) FROM tb") == (
        ["Nullable(Binary)", "Nullable(Binary)", "Nullable(UInt64)", "Nullable(String)", "Nullable(String)"],
        [("616263", None, "3", "616263", "YWJj"), ("00FF", "78", "2", "00ff", "AP8=")])
    assert shown(s, "SELECT b FROM tb ORDER BY b") == (["Nullable(Binary)"], [("00FF",), ("616263",)])
    assert shown(s, "SELECT max(b) FROM tb") == (["Nullable(Binary)"], [("616263",)])


def test_functions_make_and_read_binary(s):
    assert shown(s, "SELECT unhex('616263'), to_binary('abc'), typeof(to_binary('abc')), 'x'::binary, "
                    "to_string(unhex('616263')), unhex('61')::varchar, from_base64('YWJj')")[1] == [
        ("616263", "616263", "BINARY", "78", "abc", "a", "616263")]


@pytest.mark.parametrize("sql, code, message", [
    ("SELECT CAST(unhex('ff') AS VARCHAR)", 1006, "invalid utf8 sequence while evaluating function `to_string(FF)`"),
    ("SELECT unhex('zz')", 1006, "Invalid character 'z' at position 0"),
    ("SELECT to_binary(1)", 1065, "no overload satisfies `to_binary(UInt8)`"),
])
def test_binary_errors(s, sql, code, message):
    with pytest.raises(engine.EngineError) as err:
        list(s.execute(sql))
    assert err.value.code == code and message in err.value.message


def test_binary_rows_survive_the_data_directory(tmp_path):
    with engine.Database(data_dir=str(tmp_path / "d")) as db:
        list(db.session().execute("CREATE TABLE tb (b BINARY)"))
        list(db.session().execute("INSERT INTO tb VALUES (unhex('00ff10')), ('é')"))
    with engine.Database(data_dir=str(tmp_path / "d")) as db:
        assert list(db.session().execute("SELECT b FROM tb")) == [(b"\x00\xff\x10",), ("é".encode(),)]


def test_binary_output_format_shows_binary_as_base64_or_text(s):
    # the suite's query/functions/binary_format (current Databend's binary_output_format)
    list(s.execute("SET binary_output_format = 'base64'"))
    assert shown(s, "SELECT b, n, to_hex(b) FROM tb ORDER BY b")[1] == [("AP8=", "eA==", "00ff"), ("YWJj", None, "616263")]
    list(s.execute("SET binary_output_format = 'utf-8'"))
    assert shown(s, "SELECT b FROM tb ORDER BY b")[1] == [("\x00\ufffd",), ("abc",)]
    list(s.execute("SET binary_output_format = 'hex'"))
    assert shown(s, "SELECT b FROM tb ORDER BY b")[1] == [("00FF",), ("616263",)]
