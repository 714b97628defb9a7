"""EXPLAIN, EXPLAIN SYNTAX and EXPLAIN ANALYZE; ANALYZE runs the query in bounded steps, counting
the rows each operator produces and the time it spends, then answers the annotated plan tree."""

from __future__ import annotations

from time import perf_counter

from engine.core.errors import UNIMPLEMENTED, EngineError
from engine.exec.executor import Runtime, build, describe, explain
from engine.exec.result import Column, Progress, Result
from engine.ir import plan as P
from engine.plan.planner import Planner
from engine.types import sqltype as T
from grammar import ast as A
from grammar.format import explain_syntax

_COLUMN = [Column("explain", T.STRING.display())]


class OperatorStats:
    __slots__ = ("rows", "seconds")

    def __init__(self):
        self.rows = 0
        self.seconds = 0.0


class Profile:
    """Per plan node (by identity): the rows its operator produced and the time its steps took,
    its inputs' steps included."""

    def __init__(self):
        self.stats: dict[int, OperatorStats] = {}

    def wrap(self, plan: P.Plan, run):
        stats = self.stats.setdefault(id(plan), OperatorStats())

        def profiled(p):
            steps = iter(run(p))
            while True:
                start = perf_counter()
                try:
                    batch = next(steps)
                except StopIteration:
                    stats.seconds += perf_counter() - start
                    return
                stats.seconds += perf_counter() - start
                try:
                    stats.rows += len(batch)
                except TypeError:  # a one-pass batch: counted by its consumer
                    pass
                yield batch

        profiled.__dict__.update(run.__dict__)  # markers such as `scalar` stay visible
        return profiled


def run_explain(ctx, stmt: A.Explain, query_types) -> Result:
    inner = stmt.statement
    if stmt.kind == "SYNTAX":
        lines = explain_syntax(inner)
        if lines is None:
            raise EngineError(f"EXPLAIN SYNTAX does not support {type(inner).__name__} statements",
                              code=UNIMPLEMENTED, position=stmt.pos)
        return _lines_result([(line,) for line in lines])
    if not isinstance(inner, query_types):
        raise EngineError("EXPLAIN supports queries only", code=UNIMPLEMENTED, position=stmt.pos)
    planner = Planner(ctx)
    plan, _ = planner.plan_query(inner)
    if stmt.kind != "ANALYZE":
        return _lines_result([(line,) for line in explain(plan)])
    progress = Progress()
    rt = Runtime(ctx, progress, planner.nonnull, planner.nonneg, planner.nonnan)
    profile = rt.profile = Profile()
    run = build(plan, rt)

    def steps():
        for _ in run(()):
            yield []  # one bounded step of the query: its rows are counted, not kept
        lines = annotated_tree(plan, profile)
        for i in range(0, len(lines), 2048):
            yield [(line,) for line in lines[i:i + 2048]]

    return Result(list(_COLUMN), steps(), progress=progress, types=[T.STRING])


def _lines_result(rows) -> Result:
    return Result(list(_COLUMN), iter([rows]), types=[T.STRING])


def annotated_tree(plan: P.Plan, profile: Profile) -> list[str]:
    """The plan as a tree in Databend's EXPLAIN ANALYZE shape: per operator its own time
    (its inputs' time taken out) and its output rows; operators fused into their parent's
    generated code have no figures of their own."""
    lines: list[str] = []
    # (node, prefix of its first line, prefix of its following lines)
    stack: list[tuple[P.Plan, str, str]] = [(plan, "", "")]
    while stack:
        node, first, rest = stack.pop()
        lines.append(first + describe(node))
        items = []
        stats = profile.stats.get(id(node))
        if stats is not None:
            own = max(0.0, stats.seconds - sum(_measured_time(c, profile) for c in node.children()))
            items = [f"cpu time: {duration_text(own)}", f"output rows: {stats.rows}"]
        children = list(node.children())
        total = len(items) + len(children)
        for i, item in enumerate(items):
            lines.append(rest + ("└── " if i == total - 1 else "├── ") + item)
        pending = []
        for j, child in enumerate(children):
            last = len(items) + j == total - 1
            pending.append((child, rest + ("└── " if last else "├── "), rest + ("    " if last else "│   ")))
        stack.extend(reversed(pending))
    return lines


def _measured_time(plan: P.Plan, profile: Profile) -> float:
    """The time of the nearest profiled operators at or under `plan`."""
    total = 0.0
    stack = [plan]
    while stack:
        node = stack.pop()
        stats = profile.stats.get(id(node))
        if stats is not None:
            total += stats.seconds
        else:
            stack.extend(node.children())
    return total


def duration_text(seconds: float) -> str:
    """A duration as Databend prints one (Rust's Duration debug form: 58.737µs, 1.5ms, 2.1s)."""
    nanos = round(seconds * 1e9)
    for unit, size in (("s", 10**9), ("ms", 10**6), ("µs", 10**3)):
        if nanos >= size:
            text = f"{nanos / size:.3f}".rstrip("0").rstrip(".")
            return text + unit
    return f"{nanos}ns"
