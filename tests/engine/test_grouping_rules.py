"""Databend's grouping rules: bare columns in aggregated queries, and HAVING without aggregation."""

import pytest

import engine

NOT_GROUPED = [
    # (sql, column named in the message, its position)
    ("SELECT sum(a), a FROM t", "a", (1, 16)),
    ("SELECT a, count(*) FROM t GROUP BY b", "a", (1, 8)),
    ("SELECT t.a, count(*) FROM t GROUP BY b", "a", (1, 8)),
    ("SELECT count(*) FROM t GROUP BY b ORDER BY a", "a", (1, 44)),
    ("SELECT b FROM t GROUP BY b ORDER BY a", "a", (1, 37)),
    ("SELECT count(*) FROM t ORDER BY a", "a", (1, 33)),
    ("SELECT count(*) FROM t GROUP BY b HAVING a > 1", "a", (1, 42)),
    ("SELECT sum(a) FROM t HAVING a > 1", "a", (1, 29)),
    ("SELECT a FROM t HAVING count(*) > 1", "a", (1, 8)),
    ("SELECT a FROM t GROUP BY a + 1", "a", (1, 8)),
    ("SELECT max(a) + c FROM t GROUP BY c + 0", "c", (1, 17)),
    ("SELECT DISTINCT a FROM t GROUP BY b", "a", (1, 17)),
    ("SELECT count(*),\n  c FROM t", "c", (2, 3)),
    # Databend checks after constant folding, which keeps these columns
    ("SELECT COALESCE(a, 3, c) FROM t GROUP BY a", "c", (1, 23)),
    ("SELECT COALESCE(NULL, c) FROM t GROUP BY a", "c", (1, 23)),
    ("SELECT CASE 1 WHEN 2 THEN c ELSE a END FROM t GROUP BY a", "c", (1, 27)),
    ("SELECT CASE WHEN 1 = 1 THEN a ELSE c END FROM t GROUP BY a", "c", (1, 36)),
    ("SELECT CASE 1 WHEN 2 THEN a WHEN a THEN c END FROM t GROUP BY a", "c", (1, 41)),
]


@pytest.mark.parametrize("sql, column, position", NOT_GROUPED)
def test_column_outside_group_by_and_aggregates_is_an_error(run, sql, column, position):
    with pytest.raises(engine.EngineError) as info:
        run(sql)
    assert info.value.code == 1065
    assert info.value.message == (f'column "{column}" must appear in the GROUP BY clause '
                                  "or be used in an aggregate function")
    assert info.value.position == position


def test_star_in_a_grouped_query_names_the_first_ungrouped_column(run):
    with pytest.raises(engine.EngineError) as info:
        run("SELECT * FROM t GROUP BY a")
    assert info.value.code == 1065
    assert info.value.message.startswith('column "b" must appear')


GROUPED_OK = [
    ("SELECT a + 1 FROM t GROUP BY a ORDER BY 1", [(2,), (3,), (5,), (None,)]),
    ("SELECT a + 1 FROM t GROUP BY a + 1 ORDER BY 1", [(2,), (3,), (5,), (None,)]),
    ("SELECT t.a FROM t GROUP BY a ORDER BY t.a", [(1,), (2,), (4,), (None,)]),
    ("SELECT a AS x FROM t GROUP BY x ORDER BY x", [(1,), (2,), (4,), (None,)]),
    ("SELECT a FROM t GROUP BY 1 ORDER BY a", [(1,), (2,), (4,), (None,)]),
    ("SELECT id % 2 AS a FROM u GROUP BY id % 2 ORDER BY a", [(0,), (1,)]),
    ("SELECT count(*) FROM u GROUP BY label ORDER BY label", [(1,), (1,), (1,)]),
    ("SELECT label, sum(id) FROM u GROUP BY label HAVING label <> 'two' ORDER BY label",
     [("one", 1), ("three", 3)]),
    # constant folding leaves the ungrouped column unread
    ("SELECT COALESCE(3, c) + a FROM t GROUP BY a ORDER BY 1", [(4,), (5,), (7,), (None,)]),
    ("SELECT COALESCE(NULL, COALESCE(-2, c), a) FROM t GROUP BY a", [(-2,)] * 4),
    ("SELECT ifnull(3, label) FROM u GROUP BY id", [("3",)] * 3),
    ("SELECT CASE 1 WHEN 2 THEN c END FROM t GROUP BY a", [(None,)] * 4),
    ("SELECT a FROM t GROUP BY a ORDER BY COALESCE(1, c), a", [(1,), (2,), (4,), (None,)]),
    # HAVING reads select aliases before input columns of the same name
    ("SELECT id AS label FROM u GROUP BY id, label HAVING label > 2", [(3,)]),
    ("SELECT count(*) AS n FROM u HAVING n > 2", [(3,)]),
]


@pytest.mark.parametrize("sql, expected", GROUPED_OK)
def test_grouped_expressions_may_be_used(run, sql, expected):
    assert run(sql) == expected


HAVING_WITHOUT_AGGREGATION = [
    # no GROUP BY and no aggregate: HAVING filters the rows like WHERE
    ("SELECT id FROM u HAVING id > 1 ORDER BY id", [(2,), (3,)]),
    ("SELECT id AS x FROM u HAVING x > 1 ORDER BY x", [(2,), (3,)]),
    ("SELECT id AS label FROM u HAVING label = 1", [(1,)]),
    ("SELECT id FROM u WHERE id > 1 HAVING id < 3", [(2,)]),
    ("SELECT 1 FROM u HAVING 1 = 1", [(1,), (1,), (1,)]),
    ("SELECT 1 HAVING 1 = 1", [(1,)]),
    ("SELECT 1 HAVING 1 = 0", []),
    # with an aggregate, HAVING filters the one group
    ("SELECT count(*) FROM u HAVING count(*) > 1", [(3,)]),
    ("SELECT count(*) FROM u HAVING count(*) > 3", []),
    ("SELECT count(*) FROM u HAVING 1 = 0", []),
]


@pytest.mark.parametrize("sql, expected", HAVING_WITHOUT_AGGREGATION)
def test_having_without_group_by(run, sql, expected):
    assert run(sql) == expected
