"""Bound expressions (engine.ir.expr): one frozen class per kind with named fields, the helpers that
read them over trees bound from real queries, and the class dispatch of the code generator and of
the executor."""

import dataclasses

import pytest

import engine
from engine.codegen.compile import Codegen
from engine.exec import executor
from engine.ir import plan as P
from engine.ir.expr import (
    And,
    Arith,
    Case,
    Cast,
    Cmp,
    Col,
    Const,
    Expr,
    Func,
    InList,
    IsNull,
    Like,
    Neg,
    Not,
    Or,
    Param,
    SubqueryExpr,
    column_ids,
    has_param,
    may_be_null,
)
from engine.plan.planner import Planner
from engine.session import QueryContext
from engine.types import sqltype as T
from grammar.parser import parse

FIELDS = {
    Const: ("value",),
    Col: ("column",),
    Param: ("index",),
    Arith: ("op",),
    Neg: (),
    Cmp: ("op",),
    And: (),
    Or: (),
    Not: (),
    IsNull: ("negated",),
    InList: ("negated",),
    Like: ("negated", "matcher"),
    Case: (),
    Cast: ("target", "try_"),
    Func: ("fn",),
    SubqueryExpr: ("subquery",),
}

INT = T.INT32
NULLABLE_INT = T.INT32.as_nullable(True)


@pytest.fixture(scope="module")
def session():
    s = engine.Database().session()
    for sql in [
        "CREATE TABLE t (a INT, b VARCHAR, c DOUBLE)",
        "INSERT INTO t VALUES (1, 'x', 1.5), (2, 'y', NULL), (3, 'z', 3.25)",  # no NULL in a or b
        "CREATE TABLE u (id INT NOT NULL, label VARCHAR NOT NULL)",
        "INSERT INTO u VALUES (1, 'one'), (2, 'two')",
    ]:
        list(s.execute(sql))
    return s


def planned(session, sql):
    """(plan, planner) of a query, bound as the session would bind it."""
    planner = Planner(QueryContext(session))
    plan, _ = planner.plan_query(parse(sql))
    return plan, planner


def first(plan, cls):
    """The first plan node of class `cls`, depth first."""
    if isinstance(plan, cls):
        return plan
    for child in plan.children():
        found = first(child, cls)
        if found is not None:
            return found
    return None


def columns_of_t(plan):
    """Column ids of t's a, b, c in this plan."""
    scan = first(plan, P.Scan)
    assert scan.label == "default.t"
    return scan.layout


# ------------------------------------------------------------ the classes


@pytest.mark.parametrize("cls", list(FIELDS), ids=lambda c: c.__name__)
def test_each_kind_is_a_class_with_named_fields(cls):
    assert issubclass(cls, Expr)
    assert tuple(f.name for f in dataclasses.fields(cls)) == ("type", "args", *FIELDS[cls])
    assert "__dict__" not in dir(cls)  # slots


def test_fields_beyond_the_type_are_keyword_only():
    a, b = Col(INT, column=1), Const(INT, value=2)
    with pytest.raises(TypeError):
        Const(INT, 2)  # would otherwise read 2 as args
    with pytest.raises(TypeError):
        Arith(INT, (a, b), "+")
    with pytest.raises(TypeError):
        Col(INT)  # the column id is required
    e = Arith(INT, args=(a, b), op="+")
    assert (e.type, e.args, e.op) == (INT, (a, b), "+")
    assert Neg(INT, args=(a,)).args == (a,)
    assert Const(INT, value=7).args == ()


def test_expressions_are_frozen_and_copied_with_replace():
    a = Col(NULLABLE_INT, column=1)
    e = Cmp(T.BOOLEAN.as_nullable(True), args=(a, Const(INT, value=3)), op="<")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.op = ">="
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.args = ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.column = 2
    flipped = dataclasses.replace(e, op=">=")
    assert (flipped.op, flipped.args, flipped.type) == (">=", e.args, e.type)
    assert e.op == "<"


def test_expressions_compare_by_identity():
    one, other = Const(INT, value=1), Const(INT, value=1)
    assert one == one and one != other
    assert len({one: 1, other: 2}) == 2  # hashable, as keys of the code generator's caches


def test_nullable_property():
    assert Col(NULLABLE_INT, column=1).nullable
    assert not Col(INT, column=1).nullable
    assert Const(T.NULL, value=None).nullable
    assert not Const(T.STRING, value="x").nullable


# ------------------------------------------------------------ trees bound from queries


def test_filter_and_projection_tree(session):
    plan, planner = planned(
        session, "SELECT a + 1, TRY_CAST(b AS INT), c IS NULL FROM t WHERE b LIKE 'x%' AND c IS NOT NULL")
    a, b, c = columns_of_t(plan)
    plus, try_cast, is_null = first(plan, P.Project).exprs
    predicate = first(plan, P.Filter).predicate

    assert isinstance(plus, Arith) and plus.op == "+"
    assert [type(x) for x in plus.args] == [Col, Const]
    assert (plus.args[0].column, plus.args[1].value) == (a, 1)
    assert isinstance(try_cast, Cast) and try_cast.try_ and try_cast.target.name == "Int32"
    assert isinstance(is_null, IsNull) and not is_null.negated

    assert isinstance(predicate, And)
    like, not_null = predicate.args
    assert isinstance(like, Like) and not like.negated and like.matcher == ("prefix", "x")
    assert isinstance(not_null, IsNull) and not_null.negated

    assert column_ids(predicate, set()) == {b, c}
    assert column_ids(plus, set()) == {a}
    # a holds no NULL in the table's rows: the planner knows, so a + 1 cannot be NULL here
    assert a in planner.nonnull and c not in planner.nonnull
    assert may_be_null(plus, set())
    assert not may_be_null(plus, planner.nonnull)
    assert may_be_null(try_cast, planner.nonnull)  # TRY_CAST answers NULL for what fails
    assert not may_be_null(is_null, set())
    assert may_be_null(predicate, set()) and not may_be_null(predicate, planner.nonnull)
    assert not any(has_param(e) for e in (plus, try_cast, is_null, predicate))


def test_case_and_function_trees(session):
    plan, planner = planned(session, "SELECT CASE WHEN a > 1 THEN b END, COALESCE(c, 0), -a FROM t")
    a, b, c = columns_of_t(plan)
    case, coalesce, neg = first(plan, P.Project).exprs
    assert isinstance(case, Case) and len(case.args) == 3  # condition, result, ELSE NULL
    assert isinstance(case.args[0], Cmp) and case.args[0].op == ">"
    assert isinstance(case.args[2], Const) and case.args[2].value is None
    assert may_be_null(case, planner.nonnull)  # no ELSE: NULL
    assert isinstance(coalesce, Func) and coalesce.fn.name == "coalesce"
    assert column_ids(coalesce, set()) == {c}
    assert isinstance(neg, Neg) and not may_be_null(neg, planner.nonnull)
    assert column_ids(case, set()) == {a, b}


def test_negation_is_pushed_into_the_expression(session):
    plan, _ = planned(session, "SELECT a FROM t WHERE NOT (a < 3) AND NOT (a IN (1, 2)) "
                               "AND NOT EXISTS (SELECT 1 FROM u) AND NOT (b LIKE 'x%') "
                               "AND NOT COALESCE(a > 1, FALSE)")
    cmp, in_list, exists, like, negated_call = first(plan, P.Filter).predicate.args
    assert isinstance(cmp, Cmp) and cmp.op == ">="
    assert isinstance(in_list, InList) and in_list.negated
    assert [x.value for x in in_list.args[1:]] == [1, 2]
    assert isinstance(exists, SubqueryExpr) and exists.subquery.mode == "exists" and exists.subquery.negated
    assert isinstance(like, Like) and like.negated
    assert isinstance(negated_call, Not) and isinstance(negated_call.args[0], Func)
    plan, _ = planned(session, "SELECT a FROM t WHERE NOT (c > 1 OR b = 'q')")
    de_morgan = first(plan, P.Filter).predicate
    assert isinstance(de_morgan, And) and [x.op for x in de_morgan.args] == ["<=", "<>"]
    plan, _ = planned(session, "SELECT a FROM t WHERE NOT (c > 1 AND b = 'q')")
    de_morgan = first(plan, P.Filter).predicate
    assert isinstance(de_morgan, Or) and [x.op for x in de_morgan.args] == ["<=", "<>"]


def test_correlated_subquery_passes_outer_columns_as_parameters(session):
    plan, _ = planned(session, "SELECT (SELECT MAX(id) FROM u WHERE u.id = t.a) FROM t")
    a, _, _ = columns_of_t(plan)
    (outer,) = plan.exprs
    assert isinstance(outer, SubqueryExpr)
    sq = outer.subquery
    assert sq.mode == "scalar" and sq.correlated
    assert [type(p) for p in sq.params] == [Col] and sq.params[0].column == a
    inner = first(sq.plan, P.Filter).predicate
    assert isinstance(inner, Cmp) and [type(x) for x in inner.args] == [Col, Param]
    assert inner.args[1].index == 0
    assert has_param(inner)
    assert not has_param(outer)  # in the outer query's terms: a column, not a parameter
    assert column_ids(outer, set()) == {a}  # what it passes in counts as read


def test_in_subquery_keeps_its_operand(session):
    plan, _ = planned(session, "SELECT a FROM t WHERE a NOT IN (SELECT id FROM u)")
    a, _, _ = columns_of_t(plan)
    e = first(plan, P.Filter).predicate
    assert isinstance(e, SubqueryExpr) and e.subquery.mode == "in" and e.subquery.negated
    assert isinstance(e.args[0], Col) and column_ids(e, set()) == {a}
    assert may_be_null(e, set())


# ------------------------------------------------------------ dispatch by class


@dataclasses.dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class Mystery(Expr):
    """An expression class the code generator has no template for."""


@dataclasses.dataclass(eq=False, frozen=True, slots=True, kw_only=True)
class SpecialCmp(Cmp):
    """A subclass of a known class: still a class the code generator does not know."""


def test_code_generator_refuses_an_unknown_expression_class():
    cg = Codegen()
    with pytest.raises(TypeError, match="Mystery"):
        cg.expr(Mystery(T.BOOLEAN), {})
    with pytest.raises(TypeError, match="Mystery"):
        cg.pred(Mystery(T.BOOLEAN.as_nullable(True)), {})
    with pytest.raises(TypeError, match="Expr"):
        cg.expr(Expr(INT), {})  # the base class is no expression either
    nested = Arith(INT, args=(Const(INT, value=1), Mystery(INT)), op="+")
    with pytest.raises(TypeError, match="Mystery"):
        cg.expr(nested, {})
    one = Const(INT, value=1)
    with pytest.raises(TypeError, match="SpecialCmp"):
        cg.expr(SpecialCmp(T.BOOLEAN, args=(one, one), op="="), {})
    assert cg.expr(Cmp(T.BOOLEAN, args=(one, one), op="="), {}) == "(_k0 == _k0)"


def _plan_classes(cls=P.Plan):
    for sub in cls.__subclasses__():
        yield sub
        yield from _plan_classes(sub)


def test_executor_has_an_operator_for_every_plan_node_class():
    classes = {c for c in _plan_classes() if c.__module__.startswith("engine.")}
    assert {P.Scan, P.Filter, P.Project, P.Join, P.Window} <= classes
    assert classes <= set(executor._BUILDERS)


def test_executor_looks_operators_up_by_class_not_by_name():
    @dataclasses.dataclass(eq=False)
    class Scan(P.Plan):  # same name as a real node, another class
        pass

    with pytest.raises(TypeError, match="Scan"):
        executor.build(Scan([], []), None)


@pytest.mark.parametrize("sql, expected", [
    # a constant operand that needs converting to the items' type is converted (it was kept as
    # it was: text never equalled a date)
    ("SELECT '2021-01-01' IN (to_date('2021-01-01'))", True),
    ("SELECT '2021-01-01' NOT IN (to_date('2021-01-01'), to_date('2021-01-02'))", False),
    ("SELECT '1' IN (1, 2)", True),
    ("SELECT '3' IN (1, 2)", False),
])
def test_in_list_converts_a_constant_operand(sql, expected):
    s = engine.Database().session()
    assert list(s.execute(sql)) == [(expected,)]
