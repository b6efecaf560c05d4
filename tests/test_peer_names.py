"""Names set beside a known company as its peer ("Compare Nike and Adidas") that no map or
grid knows are reported, not dropped unsaid (``retrieval.mentions.unrecognised_peers``)."""

from __future__ import annotations

import pytest

from programs.planning_facets import prepass
from retrieval.companies import load_companies
from retrieval.mentions import unrecognised_peers


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Compare Nike and Adidas revenue in FY2023", ["Adidas"]),
        ("Compare Nike's and Adidas's revenue in FY2023", ["Adidas"]),
        ("Adidas vs. Nike: revenue in FY2023", ["Adidas"]),
        ("Is Nike or Under Armour bigger?", ["Under Armour"]),
        ("Compare AT&T and Verizon capex", ["AT&T"]),
        ("Compare 3M to Honeywell in FY2022", ["Honeywell"]),
        ("MMM and HON capex in FY2022", ["HON"]),
        ("How did 3M compare with Honeywell in FY2022?", ["Honeywell"]),
        ("How did 3M's capital expenditure compare to Honeywell's in FY2022?", ["Honeywell"]),
        ("How does Honeywell compare against 3M on capex?", ["Honeywell"]),
        # not peers: both known, one name with "&", parts of a company, periods, GAAP
        ("Compare 3M and PepsiCo capex in FY2022", []),
        ("Compare Coca Cola and Pepsi in FY2022", []),
        ("Johnson & Johnson revenue in FY2022", []),
        ("What were 3M's Safety and Industrial sales?", []),
        ("Nike's North America and Greater China revenue", []),
        ("Compare Nike revenue in FY2022 and FY2023", []),
        ("How did Nike and FY2022 compare?", []),
        ("3M revenue under US GAAP and IFRS", []),
        ("Nike's revenue with Greater China", []),  # "with" joins peers only in a comparison
        ("How did Nike's revenue compare with FY2022?", []),
        ("How did 3M's margin compare to the prior year?", []),
        ("How did 3M compare with PepsiCo in FY2022?", []),
    ],
)
def test_peer_names_the_map_does_not_hold(question, names):
    assert unrecognised_peers(question, load_companies()) == names


def test_the_plan_reports_them_beside_the_companies_it_researches(cells):
    found = prepass("Compare 3M and Honeywell capex in FY2022", load_companies(), cells)
    assert found.tickers == ["MMM"]
    assert found.unknown == ["Honeywell is not a company the grid holds"]


@pytest.fixture
def cells(sample_store):
    return sample_store.cells()
