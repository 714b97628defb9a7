"""EXPLAIN ANALYZE: the query runs, and the plan tree is annotated per operator with rows and time."""

import re

import pytest

from engine.core.errors import EngineError
from engine.statements.explain import duration_text


def _lines(session, sql):
    r = session.execute(sql)
    assert [(c.name, c.type) for c in r.schema] == [("explain", "String")]
    return [row[0] for row in r]


def _shape(lines):
    """The tree with times blanked out (they vary from run to run)."""
    return [re.sub(r"cpu time: [0-9.]+(ns|µs|ms|s)$", "cpu time: T", line) for line in lines]


def test_aggregate_over_filter_counts_rows_per_operator(db):
    s = db.session()
    list(s.execute("CREATE TABLE big (a INT, b VARCHAR)"))
    list(s.execute("INSERT INTO big SELECT number, TO_STRING(number % 7) FROM numbers(1000)"))
    lines = _lines(s, "EXPLAIN ANALYZE SELECT b, COUNT(*) FROM big WHERE a > 1 GROUP BY b")
    assert _shape(lines) == [
        "Project 2 column(s)",
        "├── cpu time: T",
        "├── output rows: 7",
        "└── Aggregate keys: 1, aggregates: count",
        "    ├── cpu time: T",
        "    ├── output rows: 7",
        "    └── Filter",
        "        ├── cpu time: T",
        "        ├── output rows: 998",
        "        └── Scan table: default.big, rows: 1000",
    ]


def test_join_and_limit(db):
    lines = _lines(db.session(), "EXPLAIN ANALYZE SELECT * FROM t JOIN u ON t.a = u.id LIMIT 1")
    assert _shape(lines)[:3] == ["Limit limit: 1, offset: 0", "├── cpu time: T", "├── output rows: 1"]
    assert any(line.endswith("Join INNER hash, 1 key(s)") for line in lines)
    assert "    ├── output rows: 2" in lines  # the join's matches: a = 1 and a = 2


def test_plain_explain_is_unchanged_and_does_not_annotate(db):
    lines = _lines(db.session(), "EXPLAIN SELECT a FROM t WHERE a > 1")
    assert lines == ["Project 1 column(s)", "    Filter", "        Scan table: default.t, rows: 4"]


def test_explain_analyze_of_a_statement_that_is_not_a_query(db):
    with pytest.raises(EngineError) as e:
        db.session().execute("EXPLAIN ANALYZE DELETE FROM t")
    assert e.value.code == 1002
    assert len(list(db.session().execute("SELECT * FROM t"))) == 4


def test_query_errors_surface_while_analyzing(db):
    with pytest.raises(EngineError) as e:
        list(db.session().execute("EXPLAIN ANALYZE SELECT 1 / 0 FROM t"))
    assert e.value.code == 1006


@pytest.mark.parametrize("seconds, text", [
    (58.737e-6, "58.737µs"), (0.0015, "1.5ms"), (2.0, "2s"), (120e-9, "120ns"), (0.0, "0ns"),
])
def test_durations_read_as_databend_prints_them(seconds, text):
    assert duration_text(seconds) == text
