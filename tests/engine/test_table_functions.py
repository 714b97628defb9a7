"""Table functions of a column without the LATERAL keyword (`FROM t, FLATTEN(t.v) f`,
`FROM t, unnest(t.arr)`, json_each, json_array_elements) run once per row of the FROM items
before them; positional FLATTEN arguments; column aliases; and the bounds of range() / split()
(Limits.array_elements) against unnest(range(...)), which spreads lazily. Expected answers were
checked against Databend 1.2.453."""

from __future__ import annotations

import pytest

import engine
from engine.core.errors import EngineError
from engine.core.limits import Limits


def run(session, sql):
    return list(session.execute(sql))


def wire(session, sql):
    """(column names, type names, wire rows)."""
    result = session.execute(sql)
    batch = list(result)
    return [c.name for c in result.schema], [t.display() for t in result.types], result.renderer(True)(batch)


def error(session, sql):
    with pytest.raises(EngineError) as info:
        list(session.execute(sql))
    return info.value.code, str(info.value)


@pytest.fixture
def s():
    session = engine.Database().session()
    run(session, "CREATE TABLE t (id INT, v VARIANT, arr ARRAY(INT))")
    run(session, "INSERT INTO t VALUES (1, parse_json('[1,{\"a\":2}]'), [10, 20]), "
                 "(2, parse_json('{\"k\":\"v\"}'), [30]), (3, NULL, NULL)")
    return session


_FLATTEN_TYPES = ["Nullable(UInt64)", "Nullable(String)", "Nullable(String)", "Nullable(UInt64)",
                  "Nullable(Variant)", "Nullable(Variant)"]
_T_TYPES = ["Nullable(Int32)", "Nullable(Variant)", "Nullable(Array(Nullable(Int32)))"]


def test_flatten_of_a_column_without_lateral(s):
    names, types, rows = wire(s, "SELECT * FROM t, FLATTEN(t.v) f ORDER BY id, f.index, f.key")
    assert names == ["id", "v", "arr", "seq", "key", "path", "index", "value", "this"]
    assert types == _T_TYPES + _FLATTEN_TYPES
    # seq is 1 for every row here (after LATERAL Databend 1.2.453 counts the rows: 1, 1, 2)
    assert [r[:1] + r[3:] for r in rows] == [
        ("1", "1", "NULL", "[0]", "0", "1", '[1,{"a":2}]'),
        ("1", "1", "NULL", "[1]", "1", '{"a":2}', '[1,{"a":2}]'),
        ("2", "1", "k", "k", "NULL", '"v"', '{"k":"v"}')]
    assert run(s, "SELECT t.id, f.seq FROM t, LATERAL FLATTEN(t.v) f ORDER BY 1") == [(1, 1), (1, 1), (2, 2)]
    assert wire(s, "SELECT id, f.value FROM t, FLATTEN(input => t.v) f ORDER BY id, f.index")[2] == [
        ("1", "1"), ("1", '{"a":2}'), ("2", '"v"')]


def test_unnest_json_each_and_json_array_elements_of_a_column(s):
    names, types, rows = wire(s, "SELECT * FROM t, unnest(t.arr) ORDER BY id, value")
    assert (names, types) == (["id", "v", "arr", "value"], _T_TYPES + ["Nullable(Int32)"])
    assert [(r[0], r[3]) for r in rows] == [("1", "10"), ("1", "20"), ("2", "30")]
    names, types, rows = wire(s, "SELECT * FROM t, json_each(t.v) ORDER BY id")
    assert (names[3:], types[3:]) == (["key", "value"], ["Nullable(String)", "Nullable(Variant)"])
    assert [(r[0], r[3], r[4]) for r in rows] == [("2", "k", '"v"')]  # (an array has no fields)
    names, types, rows = wire(s, "SELECT * FROM t, json_array_elements(t.v) ORDER BY id")
    assert (names[3:], types[3:]) == (["value"], ["Nullable(Variant)"])
    assert sorted((r[0], r[3]) for r in rows) == [("1", "1"), ("1", '{"a":2}')]


@pytest.mark.parametrize("sql, expected", [
    ("SELECT id, u.value FROM t, unnest(t.arr) u ORDER BY id, u.value", [(1, 10), (1, 20), (2, 30)]),
    ("SELECT id, value FROM t CROSS JOIN unnest(t.arr) u ORDER BY id, value", [(1, 10), (1, 20), (2, 30)]),
    ("SELECT id, value FROM t JOIN unnest(t.arr) u ON true ORDER BY id, value", [(1, 10), (1, 20), (2, 30)]),
    ("SELECT id, value FROM t LEFT JOIN unnest(t.arr) u ON true ORDER BY id, value",
     [(1, 10), (1, 20), (2, 30), (3, None)]),
    ("SELECT count(*) FROM t a, t b, unnest(b.arr)", [(9,)]),  # after two FROM items
    ("SELECT t.id, j.key FROM t, json_each(t.v) AS j", [(2, "k")]),
    ("SELECT id, x FROM t, unnest(t.arr) AS u(x) ORDER BY x", [(1, 10), (1, 20), (2, 30)]),
    # a constant argument: a plain cross join, as before
    ("SELECT id, value FROM t, unnest([7]) ORDER BY id", [(1, 7), (2, 7), (3, 7)]),
    ("SELECT t.id, f.seq FROM t, FLATTEN(t.v, 'a') f", []),  # positional input, path
])
def test_forms_of_a_table_function_after_other_from_items(s, sql, expected):
    assert run(s, sql) == expected


def test_column_aliases_rename_the_first_columns(s):
    assert wire(s, "SELECT * FROM t, json_each(t.v) AS j(k)")[0][3:] == ["k", "value"]
    assert wire(s, "SELECT * FROM json_each(parse_json('{\"a\":1}')) AS j(k)")[0] == ["k", "value"]
    assert wire(s, "SELECT * FROM t, LATERAL FLATTEN(t.v) AS f(a, b)")[0][3:] == [
        "a", "b", "path", "index", "value", "this"]
    assert wire(s, "SELECT * FROM FLATTEN(parse_json('[1]')) AS f(a, b)")[0] == ["a", "b", "path", "index", "value",
                                                                                 "this"]
    assert error(s, "SELECT * FROM t, json_each(t.v) AS j(k, w, z)") == (
        1065, "table has 2 columns available but 3 columns specified")
    assert error(s, "SELECT * FROM unnest([1]) AS u(x, y)") == (1065, "table has 1 columns available but 2 columns "
                                                                      "specified")


def test_positional_flatten_arguments(s):
    assert wire(s, "SELECT * FROM FLATTEN(parse_json('{\"a\":[1]}'), 'a', true, true, 'both') f")[2] == [
        ("1", "NULL", "a[0]", "0", "1", "[1]")]


def test_a_view_over_a_table_function_of_a_column(s):
    run(s, "CREATE VIEW fv AS SELECT t.id, u.x FROM t, unnest(t.arr) AS u(x)")
    assert run(s, "SELECT * FROM fv ORDER BY x") == [(1, 10), (1, 20), (2, 30)]


# ---------------------------------------------------------------- range, split and their bounds


def _limited(elements):
    return engine.Database(limits=Limits(array_elements=elements)).session()


def test_range_and_split_are_capped_at_array_elements():
    s = _limited(1000)
    assert run(s, "SELECT length(range(0, 1000)), length(range(5, 1005))") == [(1000, 1000)]
    assert error(s, "SELECT range(0, 1001)") == (1006, "range of 1001 elements exceeds the limit array_elements = 1000")
    assert run(s, "SELECT length(split(repeat('a,', 999), ','))") == [(1000,)]
    assert error(s, "SELECT split(repeat('a,', 1000), ',')") == (
        1006, "split of 1001 elements exceeds the limit array_elements = 1000")


def test_range_beyond_databends_bound_is_refused_with_its_message(s):
    assert error(s, "SELECT range(0, 500000001)") == (
        1006, "the allowed maximum values of range function is 500000000, but got 500000001")
    assert error(s, "SELECT unnest(range(0, 600000000))") == (
        1006, "the allowed maximum values of range function is 500000000, but got 600000000")
    # the default cap, 1,000,000: range(0, 100000000) is refused at once, not built
    assert run(s, "SELECT length(range(0, 1000000))") == [(1000000,)]
    assert error(s, "SELECT range(0, 1000001)") == (
        1006, "range of 1000001 elements exceeds the limit array_elements = 1000000")
    assert error(s, "SELECT range(0, 100000000)")[0] == 1006
    assert run(s, "SELECT range(5, 1), range(2, 4)") == [((), (2, 3))]


def test_a_big_text_is_refused_by_split_before_it_is_cut():
    s = engine.Database().session()  # array_elements 1,000,000: 3,000,001 parts of a 6 MB text
    assert error(s, "SELECT split(repeat('a,', 3000000), ',')") == (
        1006, "split of 3000001 elements exceeds the limit array_elements = 1000000")


def test_unnest_of_range_and_series_spread_beyond_the_cap():
    s = _limited(1000)
    assert run(s, "SELECT count(*), sum(x) FROM (SELECT unnest(range(0, 5000)) AS x)") == [(5000, sum(range(5000)))]
    assert run(s, "SELECT count(*), max(value) FROM unnest(range(0, 5000))") == [(5000, 4999)]
    assert run(s, "SELECT count(*) FROM range(0, 5000)") == [(5000,)]
    assert run(s, "SELECT count(*) FROM generate_series(1, 5000)") == [(5000,)]
    list(s.execute("CREATE TABLE n (k INT)"))
    list(s.execute("INSERT INTO n VALUES (2000), (3000)"))
    assert run(s, "SELECT count(*) FROM n, unnest(range(0, n.k))") == [(5000,)]
    names, types, rows = wire(s, "SELECT * FROM unnest(range(1, 3)) AS u(x)")
    assert (names, types, rows) == (["x"], ["Nullable(UInt64)"], [("1",), ("2",)])


def test_series_with_scalar_subquery_arguments(s):
    # the suite's 02_0063_function_generate_series: arguments Databend evaluates before the scan
    assert run(s, "SELECT * FROM generate_series((SELECT 1), (SELECT 5), 1)") == [(1,), (2,), (3,), (4,), (5,)]
    assert run(s, "SELECT * FROM range((SELECT 3)::int, (SELECT 7)::int)") == [(3,), (4,), (5,), (6,)]
    assert run(s, "SELECT generate_series AS d FROM generate_series((SELECT count() FROM numbers(2))::int, "
                  "(SELECT count() FROM numbers(4))::int)") == [(2,), (3,), (4,)]


def test_small_timestamp_steps_are_seconds_or_milliseconds(s):
    # Databend's normalize_series_params: |step| < 1000 is seconds, < 1,000,000 milliseconds
    def shown(sql):
        return [str(r[0]) for r in run(s, sql)]
    assert shown("SELECT * FROM generate_series(to_timestamp(1), to_timestamp(2), 2)") == ["1970-01-01 00:00:01"]
    assert shown("SELECT * FROM generate_series(to_timestamp(0), to_timestamp(2), 1)") == \
        ["1970-01-01 00:00:00", "1970-01-01 00:00:01", "1970-01-01 00:00:02"]
    assert len(shown("SELECT * FROM generate_series(to_timestamp(0), to_timestamp(1000), 500000)")) == 3
    assert len(shown("SELECT * FROM generate_series(to_timestamp(0), to_timestamp(2), 2000000)")) == 2
