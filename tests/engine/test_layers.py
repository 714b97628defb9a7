"""The import order of grammar/, engine/ and web/, read from every module's ast: layers, cycles, the facade."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each engine package may import from itself and the packages before it; the facade
# (engine/__init__.py and engine/session.py) from all of them.
ENGINE_ORDER = (
    "core",
    "types",
    "runtime",
    "functions",
    "ir",
    "codegen",
    "catalog",
    "io",
    "bind",
    "plan",
    "exec",
    "storage",
    "statements",
    "facade",
)

# Engine imports that break the order today, each with the reason it is tolerated.
TEMPORARY_ENGINE_EXCEPTIONS: dict[tuple[str, str], str] = {}

# What web/ may import from the engine besides the facade `engine` itself.
WEB_ENGINE_IMPORTS: dict[str, str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    found = {}
    for top in ("engine", "grammar", "web"):
        for path in sorted((ROOT / top).rglob("*.py")):
            found[_module_name(path)] = path
    return found


SOURCES = _sources()


def _targets(node: ast.AST, importer: str, is_package: bool) -> list[str]:
    """The project modules one import statement loads (a submodule when it names one, else its package)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    base = node.module or ""
    if node.level:
        anchor = importer.split(".")
        anchor = anchor if is_package else anchor[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    named = [f"{base}.{alias.name}" for alias in node.names]
    return [name if name in SOURCES else base for name in named]


def _import_graph() -> dict[str, set[str]]:
    """Every project-internal import of every module: top level, under TYPE_CHECKING and inside functions."""
    graph: dict[str, set[str]] = {}
    for name, path in SOURCES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(node, name, path.name == "__init__.py"):
                    if target.split(".")[0] in ("engine", "grammar", "web") and target != name:
                        edges.add(_known(target))
        graph[name] = edges
    return graph


def _known(target: str) -> str:
    """`engine.x.y` as the nearest module that exists (an attribute import names its module)."""
    while target not in SOURCES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


GRAPH = _import_graph()


def _engine_layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "session":
        return "facade"
    return parts[1]


def test_every_engine_package_has_a_place_in_the_order():
    packages = {p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(ENGINE_ORDER) - {"facade"}
    loose = {p.name for p in (ROOT / "engine").glob("*.py")}
    assert loose == {"__init__.py", "session.py"}


def test_engine_imports_follow_the_layer_order():
    wrong = []
    for module, targets in GRAPH.items():
        if not module.startswith("engine"):
            continue
        rank = ENGINE_ORDER.index(_engine_layer(module))
        for target in targets:
            if target.startswith("web"):
                wrong.append(f"{module} -> {target} (engine never imports web)")
            elif target.startswith("engine") and ENGINE_ORDER.index(_engine_layer(target)) > rank:
                if (module, target) not in TEMPORARY_ENGINE_EXCEPTIONS:
                    wrong.append(f"{module} -> {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_temporary_exceptions_still_exist():
    stale = [edge for edge in TEMPORARY_ENGINE_EXCEPTIONS if edge[1] not in GRAPH.get(edge[0], ())]
    assert stale == [], "remove these exceptions: the imports are gone"


def test_grammar_imports_only_grammar():
    wrong = [
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        if module.startswith("grammar")
        for target in targets
        if not target.startswith("grammar")
    ]
    assert not wrong, "\n".join(sorted(wrong))


def test_web_reaches_the_engine_through_the_facade():
    allowed = {"engine", *WEB_ENGINE_IMPORTS}
    wrong = [
        f"{module} -> {target}"
        for module, targets in GRAPH.items()
        if module.startswith("web")
        for target in targets
        if target.startswith("engine") and target not in allowed
    ]
    assert not wrong, "\n".join(sorted(wrong))


def test_web_exceptions_are_used():
    used = {target for module, targets in GRAPH.items() if module.startswith("web") for target in targets}
    assert set(WEB_ENGINE_IMPORTS) <= used


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_cycles():
    cycles = _cycles(GRAPH)
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from engine.types import sqltype", {"engine.types.sqltype"}),
        ("from engine.core.errors import EngineError", {"engine.core.errors"}),
        ("import engine.ir.plan as P", {"engine.ir.plan"}),
        ("if TYPE_CHECKING:\n    from grammar import ast_ddl", {"grammar.ast_ddl"}),
        ("def f():\n    from engine.exec import sort", {"engine.exec.sort"}),
    ],
)
def test_imports_are_read_everywhere_in_a_module(source, expected):
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.update(_known(t) for t in _targets(node, "engine.x", False))
    assert found == expected
