"""The code generators stay apart from the run loops (they run without a runtime), and no engine function
is over 100 lines. (What codegen/ may import is tests/engine/test_layers.py's check.)"""

import ast
import pathlib

import engine
from engine.codegen.aggregate import aggregate_arguments, global_code, grouped_code
from engine.codegen.compile import Codegen
from engine.codegen.join import join_code
from engine.ir import plan as P
from engine.plan.planner import Planner
from engine.session import QueryContext

ENGINE = pathlib.Path(engine.__file__).parent
MAX_FUNCTION_LINES = 100


def test_no_engine_function_is_over_100_lines():
    long = set()
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                long.add((path.relative_to(ENGINE).as_posix(), node.name))
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {sorted(long)}"


def _plan(sql):
    """The plan of `sql` over t(a INT, b VARCHAR) and u(id INT NOT NULL, label VARCHAR), with
    the planner's data facts (for Codegen: t.a holds a NULL) and no runtime."""
    session = engine.Database().session()
    for statement in ["CREATE TABLE t (a INT, b VARCHAR)", "INSERT INTO t VALUES (NULL, 'n')",
                      "CREATE TABLE u (id INT NOT NULL, label VARCHAR)"]:
        list(session.execute(statement))
    planner = Planner(QueryContext(session))
    plan, _ = planner.plan_query(session.parse(sql))
    return plan, lambda: Codegen(None, planner.nonnull, planner.nonneg)


def _find(plan, kind):
    while not isinstance(plan, kind):
        plan = plan.children()[0]
    return plan


def test_join_code_runs_without_a_runtime():
    plan, new_codegen = _plan("SELECT t.b, u.label FROM t LEFT JOIN u ON t.a = u.id")
    join = _find(plan, P.Join)
    code = join_code(join, new_codegen)
    assert not code.inner and code.unique_probe is None
    ht = {}
    code.add_to_table([(1, "one"), (2, "two"), (2, "deux")], (), ht)
    assert ht == {1: [(1, "one")], 2: [(2, "two"), (2, "deux")]}
    # each left row with its matches in build order, or NULL-extended; a NULL key matches nothing
    out = code.probe([(2, "x"), (3, "y"), (None, "z")], (), ht, [], set())
    assert out == [(2, "x", 2, "two"), (2, "x", 2, "deux"), (3, "y", None, None), (None, "z", None, None)]
    assert code.probe_keys([(2, "x"), (None, "z")], ()) == [2, None]


def test_aggregate_code_runs_without_a_runtime():
    plan, new_codegen = _plan("SELECT b, COUNT(*), SUM(a), MAX(a) FROM t GROUP BY b")
    aggregate = _find(plan, P.Aggregate)
    code = grouped_code(aggregate, new_codegen, aggregate_arguments(aggregate, new_codegen()))
    acc = {}
    code.step([(1, "x"), (None, "x"), (5, "y"), (3, "x")], (), acc)
    assert sorted(code.finish(list(acc.items()))) == [("x", 3, 4, 3), ("y", 1, 5, 5)]

    plan, new_codegen = _plan("SELECT COUNT(a), AVG(a) FROM t")
    aggregate = _find(plan, P.Aggregate)
    code = global_code(aggregate, aggregate_arguments(aggregate, new_codegen()))
    states, counts = [0, None], [0, 0]
    code.step([(1, "x"), (None, "x"), (5, "y")], (), states, counts)
    assert states == [2, 6] and counts == [0, 2]
