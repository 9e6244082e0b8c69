"""The Python package is layered: no module imports, at its top or inside a
function, a module that imports it back (directly or through others)."""

from __future__ import annotations

import ast
import pathlib

import stablehlo_tvm

PACKAGE = pathlib.Path(stablehlo_tvm.__file__).resolve().parent


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["stablehlo_tvm", *parts])


def _imports(path: pathlib.Path, modules: set[str]) -> set[str]:
    """The package's modules `path` imports anywhere in its code."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
            # `from . import x` of a module x imports x (its package is
            # already loading); of a name, the package or module itself.
            submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in modules]
            candidates = submodules or [target]
        elif isinstance(node, ast.ImportFrom) and node.module:
            candidates = [node.module]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found.update(c for c in candidates if c in modules)
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules."""
    cycles, done = [], set()
    for start in sorted(graph):
        stack, path = [(start, iter(sorted(graph[start])))], [start]
        on_path = {start}
        while stack:
            node, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                stack.pop()
                on_path.discard(path.pop())
            elif nxt == start and frozenset(path) not in done:
                done.add(frozenset(path))
                cycles.append(path + [start])
            elif nxt not in on_path and nxt > start:
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
                on_path.add(nxt)
    return cycles


def test_no_import_cycles():
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    # The top package's __init__ re-exports the API; its modules importing
    # a name from it (`from . import import_stablehlo`) is the usual upward
    # reference, not a layer violation.
    graph = {
        _module_name(p): {m for m in _imports(p, modules) if m != "stablehlo_tvm"}
        for p in paths
        if p.name != "__init__.py" or p.parent != PACKAGE
    }
    graph = {m: {d for d in deps if d in graph} for m, deps in graph.items()}
    assert len(graph) > 30
    assert _cycles(graph) == []


def test_a_cycle_is_found():
    # Negative control for the search itself.
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
