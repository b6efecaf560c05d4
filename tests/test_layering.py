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
# Every arrow between packages, listed: front ends on top (cli, web), the run service (runs)
# and evaluation below them, the agents (programs) and their signatures, then the grid
# (retrieval), the calculator and the metrics, and the leaves at the bottom. A new arrow is
# a design decision: add it here, where a reviewer sees it. The online sources (edgar,
# market, websources) are imported by the front ends only: the grid, the agents and the
# metrics stay offline.
ARROWS: dict[str, set[str]] = {
    "cli": {"domain", "edgar", "evaluation", "lm", "market", "retrieval", "runs", "web"}
    | {"notes", "websources"},
    "notes": {"calculator", "citations", "domain", "market", "retrieval", "websources"},
    "web": {"citations", "lm", "market", "metrics", "notes", "programs", "retrieval", "runs"},
    "runs": {"atomicfiles", "domain", "evaluation", "lm", "metrics", "programs", "retrieval"}
    | {"signatures"},
    "evaluation": {"atomicfiles", "citations", "lm", "metrics", "programs", "retrieval"}
    | {"signatures"},
    "programs": {"calculator", "citations", "domain", "lm", "metrics", "retrieval", "signatures"}
    | {"textnorm", "websources"},
    "signatures": {"citations", "domain"},
    "market": {"calculator", "domain", "retrieval"},
    "edgar": {"domain", "retrieval"},
    "calculator": {"citations", "domain", "retrieval", "textnorm"},
    "metrics": {"citations", "textnorm"},
    "retrieval": {"domain", "textnorm"},
    "citations": {"domain"},
    "domain": set(),
    "lm": set(),
    "textnorm": set(),
    "atomicfiles": set(),
    "websources": set(),
}
#: Past this a module holds more than one concern; split it where the concerns part.
MAX_MODULE_LINES = 450


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


def test_every_arrow_between_packages_is_listed():
    graph = imports()
    assert set(ARROWS) == PACKAGES, "list each package in ARROWS"
    unlisted = {
        f"{package} -> {target} ({', '.join(sorted(files))})"
        for package, targets in graph.items()
        for target, files in targets.items()
        if target not in ARROWS[package]
    }
    assert not unlisted, "arrows missing from ARROWS:\n" + "\n".join(sorted(unlisted))
    unused = {
        f"{package} -> {target}"
        for package, targets in ARROWS.items()
        for target in targets
        if target not in graph.get(package, {})
    }
    assert not unused, "ARROWS lists arrows no module draws:\n" + "\n".join(sorted(unused))


def test_no_module_is_past_the_size_limit():
    too_long = {
        f"{path.relative_to(ROOT)}: {lines} lines"
        for folder in [*PACKAGES, *NOT_PACKAGES - {"tests"}]
        for path in (ROOT / folder).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(sorted(too_long))


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
