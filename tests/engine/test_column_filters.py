"""Filters over scans of columns run as column-wise selections (engine.exec.column_filters):
each predicate shape keeps exactly the rows the row path keeps (NULLs, NaN, empty tables, batch
boundaries, integers beyond a double's precision), with numpy and without, and COUNT(*) of such
a filter counts them."""

import operator

import pytest

import engine
from engine.catalog import table_storage
from engine.codegen import compile as compile_module
from engine.codegen.compile import Codegen
from engine.core import vectors
from engine.exec import column_filters
from engine.functions.registry import SCALARS, ScalarFunction, fixed
from engine.ir.expr import And, Arith, Cmp, Col, Const, SubqueryExpr
from engine.types.sqltype import BOOLEAN, INT32, INT64, STRING

from .test_column_scans import _both_storages, _same, q
from .test_step_cost import COST, ROWS, N, _Counted, _run

SETUP = [
    "CREATE TABLE t (i INT, f DOUBLE, n DOUBLE, big BIGINT, u8 TINYINT UNSIGNED, s VARCHAR, b BOOLEAN, "
    "d DATE, ub BIGINT UNSIGNED)",
    "INSERT INTO t SELECT number, (number * 7919 % 1000) / 7.0, if(number % 4 = 0, NULL, number / 3), "
    "9007199254740990 + number % 7, number % 256, if(number % 9 = 0, NULL, concat('s-', number::VARCHAR)), "
    "if(number % 11 = 0, NULL, number % 2 = 0), to_date(18990 + number % 100), "
    "if(number % 2 = 0, 18446744073709551615, number) FROM numbers(700)",
    "INSERT INTO t VALUES (-5, 'NaN'::DOUBLE, 'NaN'::DOUBLE, -1, 0, 'x\u00e9', true, '2022-01-15', 0), "
    "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), (0, -0.0, 0.0, 0, 255, '', false, '2021-12-31', 1)",
]

PREDICATES = [
    "i < 10", "10 > i", "i = 5", "i <> 5", "i <= 30 AND i >= 20", "i BETWEEN 2 AND 7",
    "f > 50.5", "f < 50.5", "f >= 0", "f = 0", "f <> 0.0", "-1 < f",
    "n > 100", "n < 100", "n IS NULL", "n IS NOT NULL", "n = 0",
    "big > 9007199254740993", "big > 9007199254740993.0", "big = 9007199254740992", "big < 0",
    "f > 9007199254740993", "u8 > 200", "u8 < 300", "u8 = 255", "ub > 18446744073709551612",
    "ub < 2", "s LIKE '%1%'", "s LIKE 's-1%'", "s NOT LIKE '%1%'", "s = 'x\u00e9'", "s > 's-5'",
    "s IS NULL", "b", "NOT b", "b IS NULL", "b AND f > 50.5", "f > 50.5 AND b",
    "i IN (1, 3, 5, 700)", "i NOT IN (1, 3)", "s IN ('s-1', 'x\u00e9')",
    "d >= '2022-01-01' AND d < '2022-02-01'", "d = '2022-01-15'",
    "i % 3 = 0 AND i > 5", "i > 5 AND i % 3 = 0", "i > 5 AND i <> 10 AND 100 // (i - 10) > 1",
    "i > 600 AND (f > 10 OR b)", "true AND i < 3", "i < 3 AND false", "i > 1000",
]

OUTPUTS = ["i, s", "*", "f * 2, d", "1", "COUNT(*)", "COUNT(*), COUNT(*) + 1"]


def _queries(outputs=OUTPUTS, predicates=PREDICATES):
    return [f"SELECT {out} FROM t WHERE {pred}" for pred in predicates for out in outputs]


def _check(sql, r, c):
    if "COUNT" in sql:
        assert _same(c, r), sql
    else:
        assert sorted(map(repr, c)) == sorted(map(repr, r)), sql


@pytest.mark.parametrize("numpy", [True, False])
@pytest.mark.parametrize("step_rows", [None, 64])
def test_selections_keep_the_rows_the_row_path_keeps(monkeypatch, numpy, step_rows):
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    queries = _queries()
    rows, columns = _both_storages(monkeypatch, SETUP, queries, step_rows=step_rows)
    for sql, r, c in zip(queries, rows, columns, strict=True):
        _check(sql, r, c)
    # the data exercise what they should: some predicates keep rows, none raise
    assert not any(isinstance(a, tuple) and a[:1] == ("error",) for a in rows)
    assert rows[queries.index("SELECT COUNT(*) FROM t WHERE i < 10")] == [(12,)]


@pytest.mark.parametrize("numpy", [True, False])
def test_selections_over_an_empty_table_and_one_row(monkeypatch, numpy):
    monkeypatch.setattr(vectors, "NUMPY", numpy)
    queries = _queries(["i, s", "COUNT(*)"], ["i < 10", "b AND f > 1", "s LIKE '%a%'"])
    for setup in (SETUP[:1], SETUP[:1] + ["INSERT INTO t (i, f, s, b) VALUES (3, 2.5, 'a', true)"]):
        rows, columns = _both_storages(monkeypatch, setup, queries)
        for sql, r, c in zip(queries, rows, columns, strict=True):
            _check(sql, r, c)


def test_a_division_after_a_test_that_excludes_its_zero_raises_in_neither(monkeypatch):
    # conjuncts run left to right over the rows kept so far, as `and` does
    queries = ["SELECT i FROM t WHERE i > 5 AND i <> 10 AND 100 // (i - 10) > 1",
               "SELECT COUNT(*) FROM t WHERE i <> 10 AND 100 // (i - 10) > 1",
               "SELECT COUNT(*) FROM t WHERE i > 5 AND 100 // (i - 10) > 1"]
    rows, columns = _both_storages(monkeypatch, SETUP, queries, step_rows=64)
    assert rows[0] and rows[1][0][0] > 0 and rows[2][:1] == ("error",)
    for sql, r, c in zip(queries, rows, columns, strict=True):
        _check(sql, r, c)


@pytest.fixture
def calls(monkeypatch):
    """A session over t in columns, and the names of the Selection methods its queries called."""
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database().session()
    for sql in SETUP:
        q(s, sql)
    called = []
    for name in ("select", "count"):
        original = getattr(column_filters.Selection, name)

        def method(self, *args, _original=original, _name=name):
            called.append(_name)
            return _original(self, *args)

        monkeypatch.setattr(column_filters.Selection, name, method)
    return s, called


@pytest.mark.parametrize("sql, used", [
    ("SELECT i, s FROM t WHERE i < 10", "select"),
    ("SELECT i FROM t WHERE s LIKE '%1%'", "select"),
    ("SELECT COUNT(*) FROM t WHERE b AND i > 50", "count"),
    ("SELECT COUNT(*) FROM t WHERE b AND f > 50.5", "count"),  # f holds a NaN: its test left to code
    ("SELECT i FROM t WHERE n IS NOT NULL AND i > 3", "select"),
    ("SELECT i FROM t WHERE i % 3 = 0 AND i > 5", None),  # first conjunct not simple: the row loop
    ("SELECT COUNT(*), SUM(i) FROM t WHERE i < 10", "select"),  # more than COUNT(*): rows picked
])
def test_simple_filters_take_the_column_wise_selection(calls, sql, used):
    s, called = calls
    q(s, sql)
    assert (called[0] if called else None) == used  # count() of a NaN-aware test calls select()


def test_compiled_tests_follow_the_generated_source():
    a, b = Col(column=1, type=INT32), Col(column=2, type=INT32)
    pred = And(args=(Cmp(op="<", args=(a, Const(value=10, type=INT32)), type=BOOLEAN),
                     Cmp(op=">", args=(Const(value=2, type=INT32), b), type=BOOLEAN),
                     Cmp(op="=", args=(Arith(op="%", args=(a, Const(value=3, type=INT32)), type=INT32),
                                       Const(value=0, type=INT32)), type=BOOLEAN)), type=BOOLEAN)
    selection = column_filters.compile_selection(Codegen(nonnull={1, 2}), pred, (1, 2))
    assert [t[:4] for t in selection.tests] == [(0, operator.lt, 10, True), (1, operator.gt, 2, False)]
    assert selection.rest[0] == [0] and selection.tested == (0, 1)
    # nullable columns: the NULL tests the row path makes come first, as tests of their own
    nullable = Col(column=1, type=INT32.as_nullable())
    pred = Cmp(op="<", args=(nullable, Const(value=10, type=INT32)), type=BOOLEAN.as_nullable())
    selection = column_filters.compile_selection(Codegen(), pred, (1, 2))
    assert [t[:4] for t in selection.tests] == [(0, operator.is_not, None, True), (0, operator.lt, 10, True)]


def test_tests_of_one_column_numpy_never_compares_are_fused():
    text = Col(column=1, type=STRING)
    pred = And(args=(Cmp(op=">=", args=(text, Const(value="a", type=STRING)), type=BOOLEAN),
                     Cmp(op="<", args=(text, Const(value="b", type=STRING)), type=BOOLEAN)), type=BOOLEAN)
    selection = column_filters.compile_selection(Codegen(nonnull={1}), pred, (1,))
    (position, fused, _, column_first, _), = selection.tests
    assert position == 0 and column_first is None
    assert fused([0, 1, 2, 3], ["a", "ab", "b", "0"]) == [0, 1]


@pytest.mark.parametrize("code, constant, exact", [
    ("d", 0.5, True), ("d", 2 ** 53, True), ("d", 2 ** 53 + 1, False), ("q", 0.5, False),
    ("i", 0.5, True), ("b", 127, True), ("b", 128, False), ("B", -1, False), ("Q", 2 ** 64 - 1, True),
    ("q", 2 ** 63, False), ("d", True, False), ("d", "x", False),
])
def test_numpy_compares_only_where_python_gives_the_same_answer(code, constant, exact):
    assert (code in column_filters.exact_codes(operator.lt, constant)) is exact
    assert not column_filters.exact_codes(operator.contains, constant)


@pytest.mark.parametrize("depth", [4, 8])
def test_nested_subqueries_in_filters_are_rendered_a_bounded_number_of_times(monkeypatch, depth):
    # each level is rendered by the path that runs it only: renders grow with the depth, not 2**depth
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database().session()
    for sql in SETUP:
        q(s, sql)
    renders = []
    original = compile_module._TEMPLATES[SubqueryExpr]
    monkeypatch.setitem(compile_module._TEMPLATES, SubqueryExpr,
                        lambda self, e, cols: renders.append(1) or original(self, e, cols))
    inner = "i > 600"
    for _ in range(depth):
        inner = f"i IN (SELECT i FROM t WHERE {inner})"
    assert len(q(s, f"SELECT COUNT(*) FROM t WHERE {inner}")) == 1
    assert len(q(s, f"SELECT i FROM t WHERE {inner}")) == 99  # 601..699
    assert len(renders) <= 8 * depth


@pytest.mark.parametrize("sql", ["SELECT COUNT(*) FROM t WHERE n > 3 AND costly_twice(v) > 6",
                                 "SELECT n FROM t WHERE n > 3 AND costly_twice(v) > 6"])
def test_a_costly_conjunct_keeps_the_steps_small_run_after_run(monkeypatch, sql):
    # the rows a step over a function declared costly (engine.core.steps), also when the plan
    # cache runs the plan again (the compiled Selection reused)
    costly = _Counted()
    monkeypatch.setitem(SCALARS, "costly_twice", ScalarFunction("costly_twice", costly, fixed(INT64), 1, 1,
                                                                 row_cost=COST))
    monkeypatch.setattr(table_storage, "COLUMNS", True)
    s = engine.Database().session()
    for setup in ["CREATE TABLE t (n INT, v INT)", f"INSERT INTO t SELECT number, number % 7 FROM numbers({N})"]:
        q(s, setup)
    expected = [n for n in range(4, N) if 2 * (n % 7) > 6]
    for _ in range(2):
        per_step, rows = _run(s, sql, costly)
        assert rows == ([(len(expected),)] if "COUNT" in sql else [(n,) for n in expected])
        assert 0 < max(per_step) <= ROWS
