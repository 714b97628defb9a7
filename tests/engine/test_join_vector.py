"""A dimension join over columns probed as whole-column steps (engine.exec.join_vector) answers
exactly as over row storage: the same rows, in the same order, with the same value types and
float bits (-0.0, NaN, infinities), NULL keys never matching, keys missing, negative or beyond
the dimension's keys, and with numpy off."""

import pytest

import engine
from engine.catalog import table_storage
from engine.core import vectors
from engine.core.limits import Limits
from engine.exec import join_vector
from tests.engine.sql_helpers import answers_in_both_storages, q
from tests.engine.sql_helpers import same_answer as _same

SETUP = [
    "CREATE TABLE o (id INT, g INT, f DOUBLE, s VARCHAR, n INT)",
    # g: keys 0..9 (7 and up beyond dim's), one negative; f with -0.0, NaN, infinities; n with NULLs
    "INSERT INTO o SELECT number, number % 10, (number * 37 % 101) / 4 - 10, "
    "concat('s', (number % 4)::VARCHAR), if(number % 3 = 0, NULL, number % 6) FROM numbers(700)",
    "INSERT INTO o VALUES (-1, -3, '-0.0'::DOUBLE, 'x', 1), (-2, 2, 'NaN'::DOUBLE, 's1', 2), "
    "(-3, 4, 'inf'::DOUBLE, NULL, 3), (-4, 5, '-inf'::DOUBLE, 's2', 4), (-5, 0, 0.0, 's3', NULL)",
    # unique keys 0..6 but 3 (a gap), w with -0.0 and an infinity
    "CREATE TABLE dim (k INT, label VARCHAR, w DOUBLE)",
    "INSERT INTO dim VALUES (0, 'zero', '-0.0'::DOUBLE), (1, 'one', 1.5), (2, 'two', 'inf'::DOUBLE), "
    "(4, 'four', 0.25), (5, NULL, -2.0), (6, 'six', 1e308)",
    # dim2: a NULL key (never matches) and a NULL weight (no whole-column float operation)
    "CREATE TABLE dim2 (k INT, label VARCHAR, w DOUBLE)",
    "INSERT INTO dim2 VALUES (0, 'a', 1.0), (NULL, 'none', 2.0), (2, 'c', NULL), (5, 'e', 3.0)",
    # sparse: keys far apart (no table of positions); dup: a key twice (not unique)
    "CREATE TABLE sparse (k INT, w DOUBLE)",
    "INSERT INTO sparse VALUES (2, 0.5), (1000000, 2.0)",
    "CREATE TABLE dup (k INT, w DOUBLE)",
    "INSERT INTO dup VALUES (2, 0.5), (2, 2.0), (4, 1.0)",
    "CREATE TABLE nz (k INT, w DOUBLE)",
    "INSERT INTO nz VALUES (2, 4.0), (4, 0.5)",
    # right values that are sequences or dates: each stays the one object it is
    "CREATE TABLE arr (k INT, a ARRAY(INT), d DATE, t TUPLE(INT, VARCHAR))",
    "INSERT INTO arr VALUES (2, [1, 2], '2024-01-01', (1, 'a')), (4, [], '2020-02-29', (2, 'b')), "
    "(5, [3], NULL, NULL)",
    "CREATE TABLE fk (k DOUBLE, w DOUBLE)",
    "INSERT INTO fk VALUES (2.0, 0.5), (4.0, 1.0)",
]

QUERIES = [
    "SELECT o.id, dim.label, o.f * dim.w AS w FROM o JOIN dim ON o.g = dim.k",
    "SELECT dim.w - o.f, o.s, dim.k, o.g, o.f + dim.w, dim.w * o.f FROM o JOIN dim ON o.g = dim.k",
    "SELECT o.f - dim.w, dim.w + o.f FROM o JOIN dim ON o.g = dim.k",
    "SELECT * FROM o JOIN dim ON o.g = dim.k",
    "SELECT * FROM dim JOIN o ON o.g = dim.k",
    "SELECT o.id, o.n, dim.label FROM o JOIN dim ON o.n = dim.k",  # a key column with NULLs
    "SELECT o.id, dim2.label, o.f * dim2.w FROM o JOIN dim2 ON o.g = dim2.k",
    "SELECT o.id, dim2.label FROM o JOIN dim2 ON o.g = dim2.k",
    "SELECT o.id, o.f * sparse.w FROM o JOIN sparse ON o.g = sparse.k",
    "SELECT o.id, o.f * dup.w FROM o JOIN dup ON o.g = dup.k",
    "SELECT o.id, o.f * fk.w FROM o JOIN fk ON o.g = fk.k",
    "SELECT o.id, arr.a, arr.d, arr.t, o.f FROM o JOIN arr ON o.g = arr.k",
    "SELECT o.id, o.f / dim.w FROM o JOIN dim ON o.g = dim.k",  # divided by zero either way
    "SELECT o.id, o.f / nz.w FROM o JOIN nz ON o.g = nz.k",  # division: not whole-column
    "SELECT o.id, dim.label FROM o JOIN dim ON o.g = dim.k WHERE o.f > 0",
    "SELECT o.id, o.f * dim.w FROM o JOIN dim ON o.g = dim.k LEFT JOIN dim2 ON o.g = dim2.k",
    "SELECT o.id, dim.label FROM o LEFT JOIN dim ON o.g = dim.k",
]


@pytest.mark.parametrize("numpy_on", [True, False])
@pytest.mark.parametrize("step_rows", [None, 64])
def test_dimension_joins_over_columns_answer_as_over_rows(monkeypatch, numpy_on, step_rows):
    monkeypatch.setattr(vectors, "NUMPY", numpy_on)
    over_rows, over_columns = answers_in_both_storages(monkeypatch, SETUP, QUERIES, step_rows)
    for sql, r, c in zip(QUERIES, over_rows, over_columns, strict=True):
        assert r, sql
        assert _same(c, r), sql


def _probed(monkeypatch, setup, sql, step_rows=64):
    """(rows over columns as batches, how many batches the whole-column probe answered)."""
    answered = []
    original = join_vector.VectorProbe.probe

    def spy(self, columns):
        out = original(self, columns)
        answered.append(out is not None)
        return out

    monkeypatch.setattr(join_vector.VectorProbe, "probe", spy)
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database(limits=Limits(step_rows=step_rows)).session()
    for statement in setup:
        q(s, statement)
    batches = [list(batch) for batch in s.execute(sql).batches()]
    return batches, sum(answered)


def test_the_dimension_join_takes_whole_column_steps_within_the_step_budget(monkeypatch):
    batches, answered = _probed(monkeypatch, SETUP, QUERIES[0])
    # 705 left rows in batches of 64: each answered whole-column, none longer than a step
    assert answered == 12
    assert max(map(len, batches)) <= 64
    rows = [row for batch in batches for row in batch]
    assert _same(rows[:3], [(0, "zero", -10.0 * -0.0), (1, "one", (37 / 4 - 10) * 1.5), (2, "two", float("inf"))])
    assert len(rows) == 6 * 70 + 4  # keys 0, 1, 2, 4, 5, 6 of 0..9, and four of the five rows added
    assert {type(v) for row in rows for v in row} == {int, str, float, type(None)}  # label 5 is NULL


@pytest.mark.parametrize("sql", [QUERIES[5], QUERIES[6], QUERIES[8], QUERIES[9], QUERIES[10], QUERIES[13]])
def test_other_shapes_take_the_row_at_a_time_probe(monkeypatch, sql):
    # a key column with NULLs, a NULL float operand, sparse keys, a key twice, float keys,
    # a division: each batch (or the whole join) goes to the generated comprehension
    batches, answered = _probed(monkeypatch, SETUP, sql)
    assert answered == 0 and batches


def _built(shape, unique, charge):
    """What join_vector.vector_probe returns for `unique`, its steps run out (memory: `charge`)."""

    class Runtime:
        step_rows = 2

        class memory:  # noqa: N801 - the runtime's attribute
            pass

    Runtime.memory.charge = staticmethod(charge)
    steps = join_vector.vector_probe(shape, unique, Runtime)
    try:
        while True:
            assert next(steps) == []
    except StopIteration as done:
        return done.value


def test_the_tables_are_built_in_steps_and_charged_or_not_used():
    shape = (0, (("l", 0), ("r", 1), ("multiply", 1, 2, True)))
    unique = {0: (0, "a", 1.5), 2: (2, "b", -0.0), 3: (3, None, 2.0)}
    charged = []
    probe = _built(shape, unique, charged.append)
    assert probe is not None and charged == [8 * 4 + 8 * 3 * 2]
    assert probe.positions.tolist() == [0, -1, 1, 2]

    def refuse(nbytes):
        raise join_vector.MemoryExceedsLimit("no room")

    assert _built(shape, unique, refuse) is None  # no room: the comprehension answers
    assert _built(shape, {**unique, True: (1, "t", 1.0)}, charged.append) is None  # a bool key
    assert _built(shape, {**unique, -1: (-1, "n", 1.0)}, charged.append) is None  # a negative key
    assert _built(shape, {0: (0, "a", 1.5), 5000: (5000, "b", 1.0)}, charged.append) is None  # sparse
    assert _built(shape, {0: (0, "a", 1)}, charged.append) is None  # an int operand
