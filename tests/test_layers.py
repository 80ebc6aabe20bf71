"""The architecture, checked: imports point one way, down the layers, and no private name crosses a module.

Layers, bottom up (a module may import its own layer's modules and those below, never above):

0. the engine and plumbing: `exact_cover`, `errors`, `workers`, `runner`, `distributed`, `files`
1. `boards`: the boards and their constellations; `render`, which draws them
2. `latin` (partial Latin boards, completion, counts) and the file formats built on it; `kenken`
3. `puzzles` (attrition, generation, minimal and critical puzzles), `approx`
4. `symmetry`: groups, canonical forms, counts up to symmetry
5. applications: `catalog`, `jigsaw`
6. `cli`: the command line

Packages import one way too: their graph has no cycle.  Run `python tests/test_layers.py` to print the
graph of packages, then of modules.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dlx_latin", "symmetry", "catalog")
LAYERS = {  # module prefix -> layer; the longest prefix that matches a module decides
    "dlx_latin": 0,
    "dlx_latin.exact_cover": 0,
    "dlx_latin.errors": 0,
    "dlx_latin.workers": 0,
    "dlx_latin.runner": 0,
    "dlx_latin.distributed": 0,
    "dlx_latin.files": 0,
    "dlx_latin.boards": 1,
    "dlx_latin.render": 1,
    "dlx_latin.latin": 2,
    "dlx_latin.formats": 2,
    "dlx_latin.kenken": 2,
    "dlx_latin.puzzles": 3,
    "dlx_latin.approx": 3,
    "symmetry": 4,
    "catalog": 5,
    "dlx_latin.jigsaw": 5,
    "dlx_latin.cli": 6,
    "dlx_latin.__main__": 6,
}
EXTENSIONS = (
    "_kernel",
    "_frontier",
    "_rectangles",
    "_placements",
)  # the C extensions: private by name, imported by their one wrapper


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def layer(module: str) -> int:
    prefix = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[prefix]


def runtime_nodes(tree: ast.AST):
    """The nodes of a module, those under `if TYPE_CHECKING:` left out (annotations are not dependencies)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and getattr(child.test, "id", None) == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports(known: dict[str, Path]) -> dict[str, set[tuple[str, str | None]]]:
    """module -> {(imported module, imported name or None)}, function-level imports included."""
    graph: dict[str, set[tuple[str, str | None]]] = defaultdict(set)

    def resolve(target: str) -> str | None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        return target or None

    for name, path in known.items():
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in runtime_nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (target := resolve(alias.name)) is not None:
                        graph[name].add((target, None))
            elif isinstance(node, ast.ImportFrom):
                source = ".".join(base[: len(base) - node.level + 1] + [node.module or ""]).strip(".")
                source = source if node.level else node.module or ""
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    if full in known:
                        graph[name].add((full, None))
                    elif (target := resolve(source)) is not None:
                        graph[name].add((target, alias.name))
    return graph


def test_every_module_has_a_layer():
    assert all(layer(m) >= 0 for m in modules())


def test_no_import_points_up():
    known = modules()
    upward = sorted(
        f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
        for m, targets in imports(known).items()
        for t, _ in targets
        if layer(t) > layer(m)
    )
    assert upward == []


def test_no_cycles():
    known = modules()
    graph = {m: {t for t, _ in targets if t != m} for m, targets in imports(known).items()}
    # a package's __init__ re-exporting its modules is not a cycle with them
    graph = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph.items()}
    assert cycles(graph) == []


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """The cycles a depth-first walk of `graph` meets, each as "a -> b -> a"."""
    found, state = [], {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                found.append(" -> ".join(stack[stack.index(t) :] + [t]))
            elif t not in state:
                visit(t, stack + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return found


def package(module: str) -> str:
    """The package a module belongs to: a subpackage of dlx_latin (dlx_latin.latin), a module at its root
    (dlx_latin.errors), or a top-level package (symmetry, catalog)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "dlx_latin" else parts[0]


def package_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """package -> the other packages its modules import."""
    graph: dict[str, set[str]] = defaultdict(set)
    for m, targets in imports(known).items():
        graph[package(m)] |= {package(t) for t, _ in targets if package(t) != package(m)}
    return graph


def test_packages_form_an_acyclic_graph():
    """Packages, not only modules, import one way: no package imports one that imports it back (the
    latin and formats packages did, through grid strings)."""
    assert cycles(package_graph(modules())) == []


def test_no_private_name_crosses_a_module():
    crossing = [
        f"{m} imports {name} from {t}"
        for m, targets in sorted(imports(modules()).items())
        for t, name in sorted(targets, key=str)
        if name and name.startswith("_") and not name.startswith("__") and t != m and name not in EXTENSIONS
    ]
    assert crossing == []


def test_tests_use_no_private_names():
    crossing = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES:
                crossing += [
                    f"{path.name}: {a.name} from {node.module}" for a in node.names if a.name.startswith("_")
                ]
    assert crossing == [], crossing


if __name__ == "__main__":
    known = modules()
    print("# packages [layer] -> the packages they import (every edge points to a layer at or below)")
    for p, targets in sorted(package_graph(known).items()):
        print(f"{p} [{layer(p)}] -> " + " ".join(f"{t} [{layer(t)}]" for t in sorted(targets)))
    print("\n# modules")
    for m, targets in sorted(imports(known).items()):
        print(f"{m} [{layer(m)}] -> " + " ".join(sorted({t for t, _ in targets if t != m})), file=sys.stdout)
