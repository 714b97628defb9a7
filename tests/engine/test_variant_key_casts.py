"""v:k::T and CAST(v[k] AS T) with a constant key run as one call that converts the element as
read (engine.types.variant.get_as): its answers and errors must be those of the two steps, which a key
read from a column still takes."""

import pytest

import engine
from engine.core.errors import EngineError

DOCS = [
    '{"n":5,"s":"7","f":2.5,"b":true,"z":null,"o":{"x":1},"a":[1,2],"big":18446744073709551615}',
    '{"n":-3,"s":"x","f":1e300,"b":false}',
    '[10,"20",null]',
    '"text"',
    "12",
    "null",
]
KEYS = ["n", "s", "f", "b", "z", "o", "a", "big", "missing"]
TARGETS = ["INT", "UINT8", "BIGINT", "DOUBLE", "FLOAT", "STRING", "BOOLEAN", "DATE"]


@pytest.fixture(scope="module")
def s():
    session = engine.Database().session()
    list(session.execute("CREATE TABLE docs (id INT, v VARIANT NULL, k VARCHAR, i INT)"))
    values = [f"({i}, '{d}', '{k}', {i % 4})" for i, d in enumerate(DOCS) for k in KEYS]
    values.append(f"({len(DOCS)}, NULL, 'n', 0)")
    list(session.execute("INSERT INTO docs VALUES " + ", ".join(values)))
    return session


def outcome(s, sql):
    try:
        return [c.type for c in s.execute(sql).schema], list(s.execute(sql))
    except EngineError as exc:
        return exc.code, str(exc)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("key", KEYS)
def test_a_constant_key_answers_as_a_key_read_from_a_column(s, key, target):
    where = f"WHERE k = '{key}' ORDER BY id"
    fused = outcome(s, f"SELECT id, v:{key}::{target} FROM docs {where}")
    assert fused == outcome(s, f"SELECT id, CAST(v['{key}'] AS {target}) FROM docs {where}")
    # a key from a column takes the two steps: get, then the cast of the element's text
    two_steps = outcome(s, f"SELECT id, CAST(get(v, k) AS {target}) FROM docs {where}")
    assert fused == two_steps


@pytest.mark.parametrize("target", ["INT", "STRING", "DOUBLE"])
def test_an_array_index_answers_as_an_index_read_from_a_column(s, target):
    fused = outcome(s, f"SELECT id, v[1]::{target} FROM docs WHERE k = 'n' ORDER BY id")
    assert fused == outcome(s, f"SELECT id, CAST(get(v, i - i + 1) AS {target}) FROM docs WHERE k = 'n' ORDER BY id")


def test_two_keys_of_one_row_and_try_cast(s):
    assert list(s.execute("SELECT v:n::INT, v:s::STRING, TRY_CAST(v:s AS INT) FROM docs "
                          "WHERE k = 'n' AND id < 2 ORDER BY id")) == [(5, "7", 7), (-3, "x", None)]


def test_the_fused_cast_keeps_the_nullable_type_of_an_element_read(s):
    assert [c.type for c in s.execute("SELECT parse_json('{\"a\":1}'):a::INT").schema] == ["Nullable(Int32)"]
    assert list(s.execute("SELECT parse_json('{\"a\":1}'):a::INT, parse_json('{\"a\":1}'):b::INT")) == [(1, None)]
