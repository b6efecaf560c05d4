"""The package arrows stay one way: front ends on top, the run service below them, the agents
below that, and the small leaf packages importing no other package of the project."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGES = {"tests", "benchmarks", "scripts"}
PACKAGES = {
    p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name not in NOT_PACKAGES
}
# What each package must never import (beyond "no cycles").
FORBIDDEN = {
    "lm": PACKAGES - {"lm"},
    "citations": PACKAGES - {"citations"},
    "textnorm": PACKAGES - {"textnorm"},
    "atomicfiles": PACKAGES - {"atomicfiles"},
    "websources": PACKAGES - {"websources"},  # safe web reading: a leaf
    "metrics": {"retrieval", "programs", "runs", "evaluation", "cli", "web"},
    "programs": {"runs", "evaluation", "cli", "web"},
    "evaluation": {"runs", "cli", "web"},
    "runs": {"cli", "web"},
    "retrieval": {"programs", "runs", "evaluation", "cli", "web", "lm", "metrics"},
    "signatures": {"programs", "runs", "evaluation", "cli", "web", "lm", "retrieval"},
    "market": {"programs", "runs", "evaluation", "cli", "web", "lm", "metrics", "signatures"},
    # SEC EDGAR fetching: network I/O over the grid; it may use retrieval, nothing above it.
    "edgar": PACKAGES - {"edgar", "retrieval", "textnorm", "atomicfiles"},
}


def imports() -> dict[str, dict[str, set[str]]]:
    """package -> imported package -> the files that import it."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top in PACKAGES and top != package:
                        found[package][top].add(str(path.relative_to(ROOT)))
    return found


def test_no_package_imports_what_it_must_not():
    graph = imports()
    wrong = {
        f"{package} -> {target} ({', '.join(sorted(graph[package][target]))})"
        for package, targets in FORBIDDEN.items()
        for target in targets & set(graph[package])
    }
    assert not wrong, "imports against the layering:\n" + "\n".join(sorted(wrong))


def test_the_package_graph_has_no_cycle():
    graph = {package: set(targets) for package, targets in imports().items()}
    state: dict[str, str] = {}

    def visit(package: str, path: list[str]) -> None:
        state[package] = "open"
        for target in sorted(graph.get(package, ())):
            if state.get(target) == "open":
                raise AssertionError("import cycle: " + " -> ".join([*path, package, target]))
            if target not in state:
                visit(target, [*path, package])
        state[package] = "done"

    for package in sorted(PACKAGES):
        if package not in state:
            visit(package, [])


def test_only_the_command_line_fetches_from_edgar():
    """Nothing below the front ends reaches the network through ``edgar``."""
    graph = imports()
    users = {package for package, targets in graph.items() if "edgar" in targets}
    assert users <= {"cli"}, f"edgar imported by {sorted(users - {'cli'})}"


def test_only_front_ends_and_agents_import_websources():
    """Reading the web is for the command line, the web front end and the agents' tools;
    the grid, the calculator and the metrics stay offline."""
    graph = imports()
    wrong = sorted(
        f"{package} -> websources ({', '.join(sorted(targets['websources']))})"
        for package, targets in graph.items()
        if "websources" in targets and package not in {"cli", "web", "programs"}
    )
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def module_imports() -> dict[str, set[str]]:
    """module -> the project's modules it imports (at the top or inside a function)."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def test_no_module_imports_itself_through_others():
    """File-level circles make a module's meaning depend on import order; a shared helper
    belongs in a module of its own (``web.rendering``, ``cli.progress``)."""
    graph = module_imports()

    def reaches(start: str, goal: str) -> list[str] | None:
        stack, seen = [(start, [start])], {start}
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == goal:
                    return [*path, nxt]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
        return None

    circles = {" -> ".join(cycle) for module in graph if (cycle := reaches(module, module))}
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))
