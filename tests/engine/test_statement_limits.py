"""Statement-level limits: expression depth (grammar and code generator agree), IN-list items and
SQL size, each accepted at its value N and refused at N + 1 with a stable code."""

import pytest

import engine
from engine.core.limits import Limits

SHAPES = {
    # name: (one more level around `e`, innermost expression, table)
    "nullable_arithmetic_right": (lambda e: f"a + ({e})", "a", "t"),
    "nullable_arithmetic_left": (lambda e: f"{e} - a", "a", "t"),
    "nonnull_arithmetic": (lambda e: f"id * ({e})", "id", "u"),
    "div_and_mod": (lambda e: f"({e}) DIV 1 % 7", "a", "t"),
    "case": (lambda e: f"CASE WHEN a > 0 THEN {e} ELSE a END", "a", "t"),
    "function": (lambda e: f"abs({e})", "a", "t"),
    "concat": (lambda e: f"concat(b, {e})", "b", "t"),
    "pipes": (lambda e: f"b || ({e})", "b", "t"),
    "coalesce": (lambda e: f"coalesce({e}, a)", "a", "t"),
    "nullif": (lambda e: f"nullif({e}, a)", "a", "t"),
    "if": (lambda e: f"if(a > 0, {e}, a)", "a", "t"),
    "negation": (lambda e: f"-({e})", "a", "t"),
    "not_like": (lambda e: f"NOT (({e}) NOT LIKE b)", "b", "t"),
    "try_cast": (lambda e: f"TRY_CAST(({e}) AS VARCHAR)", "a", "t"),
    "not_in": (lambda e: f"({e}) NOT IN (TRUE, NULL)", "a = 1", "t"),
    "comparison": (lambda e: f"({e}) = (a > 0)", "a > 0", "t"),
    "and_or": (lambda e: f"(a > 0 OR ({e})) AND a < 5", "a > 0", "t"),
    "scalar_subquery": (lambda e: f"(SELECT {e})", "a", "t"),
    "correlated_subquery": (lambda e: f"(SELECT {e} FROM u WHERE id = a)", "a", "t"),
    "exists": (lambda e: f"EXISTS (SELECT 1 WHERE {e})", "a > 0", "t"),
    "in_subquery": (lambda e: f"a IN (SELECT a FROM t WHERE {e})", "a > 0", "t"),
}


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()  # the default expr_depth
    for sql in ["CREATE TABLE t (a INT, b VARCHAR)", "INSERT INTO t VALUES (1, 'x'), (NULL, NULL)",
                "CREATE TABLE u (id INT NOT NULL)", "INSERT INTO u VALUES (1)"]:
        list(s.execute(sql))
    return s


def nested(shape, levels):
    wrap, inner, table = SHAPES[shape]
    for _ in range(levels):
        inner = wrap(inner)
    return f"SELECT {inner} FROM {table}"


def deepest_accepted(session, shape):
    """The most levels of `shape` the grammar accepts (the next one is refused)."""
    levels = 0
    while True:
        try:
            session.parse(nested(shape, levels + 1))
        except engine.SqlSyntaxError:
            return levels
        levels += 1


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_everything_the_grammar_accepts_compiles_and_runs(session, shape):
    levels = deepest_accepted(session, shape)
    assert levels >= 64 // 4  # the limit, not something else, stopped the nesting
    assert len(list(session.execute(nested(shape, levels)))) in (1, 2)
    with pytest.raises(engine.EngineError) as info:
        session.execute(nested(shape, levels + 1))
    assert info.value.code == 1005
    assert "nested more than 64 levels deep (limit expr_depth)" in info.value.message
    assert info.value.position is not None and info.value.position > (1, 1)


def test_depth_is_counted_exactly():
    """`SELECT - - ... 1`: below the statement (depth 0), its item is 1, each minus one more and
    the literal the deepest: 78 minus signs put the literal at depth 80."""
    s = engine.Database(limits=Limits(expr_depth=80)).session()
    assert list(s.execute("SELECT " + "- " * 78 + "1")) == [(1,)]
    with pytest.raises(engine.EngineError) as info:
        s.execute("SELECT " + "- " * 79 + "1")
    assert info.value.code == 1005
    assert "nested more than 80 levels deep" in info.value.message
    assert info.value.position == (1, 8 + 2 * 79)  # the literal, one level too deep


def test_in_list_items_at_and_over_the_limit():
    s = engine.Database(limits=Limits(in_list_items=50)).session()
    items = ", ".join(str(i) for i in range(50))
    assert list(s.execute(f"SELECT 7 IN ({items}), 70 NOT IN ({items})")) == [(True, True)]
    with pytest.raises(engine.EngineError) as info:
        s.execute(f"SELECT 7 IN ({items}, 50)")
    assert info.value.code == 1006
    assert info.value.message == "IN list of 51 items exceeds the limit in_list_items = 50"
    assert info.value.position == (1, 8)


@pytest.mark.parametrize("filler", ["x", "é", "😀"])
def test_sql_bytes_at_and_over_the_limit(filler):
    """Measured in UTF-8 bytes, before parsing (so even a syntax error is not parsed)."""
    limit = 200
    s = engine.Database(limits=Limits(sql_bytes=limit)).session()
    head = "SELECT '"
    width = len(filler.encode())
    room = limit - len(head) - 1
    sql = head + filler * (room // width) + "x" * (room % width) + "'"
    assert len(sql.encode()) == limit
    assert list(s.execute(sql)) == [(sql[len(head):-1],)]
    for over in (sql + " ", sql + "!"):
        with pytest.raises(engine.EngineError) as info:
            s.execute(over)
        assert info.value.code == 1005
        assert info.value.message == f"SQL text of {limit + 1} bytes exceeds the limit sql_bytes = {limit}"
