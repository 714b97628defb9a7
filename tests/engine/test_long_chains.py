"""AND / OR chains as ORMs write them: hundreds of operands run; past the limit, a clear 1005."""

import pytest

import engine
from engine.core.limits import Limits
from grammar.parser import CHAIN_TERMS_PER_LEVEL


@pytest.fixture
def session():
    s = engine.Database().session()
    list(s.execute("CREATE TABLE t (a INT NULL, b INT)"))
    list(s.execute("INSERT INTO t VALUES (1, 2), (NULL, 3), (7, 4)"))
    return s


def _or_chain(n):
    return "SELECT count(*) FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(n))


def _and_list(n):
    return "SELECT " + " AND ".join(f"a <> {i}" for i in range(100, 100 + n)) + " FROM t ORDER BY 1"


def test_a_200_term_or_chain_on_a_nullable_column(session):
    # the three-valued chain compiles flat: it once nested one parenthesis level per operand
    assert list(session.execute(_or_chain(200))) == [(2,)]  # a = 1 and a = 7; NULL is unknown


def test_a_200_term_three_valued_and_chain_in_the_select_list(session):
    assert sorted(session.execute(_and_list(200)), key=str) == [(None,), (True,), (True,)]


@pytest.mark.parametrize("make", [_or_chain, _and_list])
def test_a_chain_past_the_depth_limit_is_a_syntax_error_not_an_internal_one(session, make):
    limit = Limits().expr_depth * CHAIN_TERMS_PER_LEVEL
    with pytest.raises(engine.EngineError) as refused:
        list(session.execute(make(limit + 1)))
    assert refused.value.code == 1005
    assert "expr_depth" in refused.value.message


def test_chains_count_against_a_smaller_expr_depth_too():
    s = engine.Database(limits=Limits(expr_depth=8)).session()
    list(s.execute("CREATE TABLE t (a INT NULL)"))
    ok = "SELECT count(*) FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(20))
    assert list(s.execute(ok)) == [(0,)]
    with pytest.raises(engine.EngineError) as refused:
        list(s.execute("SELECT count(*) FROM t WHERE " + " OR ".join(f"a = {i}" for i in range(40))))
    assert refused.value.code == 1005
