"""``market`` sits beside the calculator: it may read the grid and the calculator, and only
the front ends (``cli``, ``web``) may import it."""

from __future__ import annotations

from tests.test_layering import imports


def test_only_the_front_ends_import_market():
    graph = imports()
    importers = {package for package, targets in graph.items() if "market" in targets}
    assert importers <= {"cli", "web"}, importers


def test_market_reads_only_the_grid_and_the_calculator():
    assert set(imports().get("market", {})) <= {"retrieval", "calculator"}
