"""The import graph of theory/, particles/, claims/ and figures/ has no circle (issue 36), and its
layers point down: theory/ never imports particles/, claims/ or figures/; particles/ never imports
claims/ or figures/; claims/ never imports figures/ (docs/architecture.md, "Layers").

Every `import` and `from ... import` counts, at module level or inside a function (a lazy import
hides a circle from the interpreter, not from a reader). `from package import name` is an edge to
the module `package.name` when that is a module of the tree, else to `package` itself; importing a
submodule is not counted as importing its parent packages (Python runs their `__init__`, which
in this tree only re-exports)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("theory", "particles", "claims", "figures")  # bottom to top


def _modules() -> dict[str, Path]:
    out = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of the tree it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, path, node)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for t in targets:
                if t in modules and t != module:
                    graph[module].add(t)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_detector_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    found = circles(import_graph())
    assert not found, f"import circles: {found}"


@pytest.mark.parametrize("lower", LAYERS[:-1])
def test_layers_point_down(lower):
    above = LAYERS[LAYERS.index(lower) + 1:]
    graph = import_graph()
    wrong = {m: sorted(t for t in targets if t.split(".")[0] in above)
             for m, targets in graph.items() if m.split(".")[0] == lower}
    assert not {m: t for m, t in wrong.items() if t}, wrong
