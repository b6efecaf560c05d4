"""Valuation multiples: price x statement facts, each input cited, absent (with a reason)
rather than guessed."""

from __future__ import annotations

from datetime import date

import pytest

from market.multiples import statement_year, valuation_multiples
from market.sources import FactSource, PriceSource
from tests.calculator_facts import fact

M = 1e6
PRICE = PriceSource("local", "CTSO.csv", date(2022, 6, 30))


def contoso(**drop_or_change):
    facts = {
        "diluted_eps": fact("diluted_eps", 2021, 2.5, unit="USD/share"),
        "diluted_shares": fact("diluted_shares", 2021, 100 * M, unit="shares"),
        "equity": fact("equity", 2021, 800 * M, statement="balance", page=52),
        "short_term_debt": fact("short_term_debt", 2021, 50 * M, statement="balance", page=52),
        "long_term_debt": fact("long_term_debt", 2021, 250 * M, statement="balance", page=52),
        "cash": fact("cash", 2021, 100 * M, statement="balance", page=52),
        "operating_income": fact("operating_income", 2021, 300 * M),
        "dna": fact("dna", 2021, 100 * M, statement="cash_flow", page=54),
    }
    for name, value in drop_or_change.items():
        if value is None:
            del facts[name]
        else:
            facts[name] = fact(
                name,
                2021,
                value,
                statement=facts[name].statement,
                page=facts[name].page_index,
                unit=facts[name].unit,
            )
    # an older year that must not be chosen, and a later one the price predates
    older = fact("diluted_eps", 2020, 1.0, unit="USD/share", doc="CONTOSO_2020_10K")
    later = fact("diluted_eps", 2022, 9.0, unit="USD/share", doc="CONTOSO_2022_10K")
    return [*facts.values(), older, later]


def by_key(multiples):
    return {m.key: m for m in multiples}


def test_all_three_by_hand_with_their_inputs_and_sources():
    found = by_key(valuation_multiples(50.0, PRICE, contoso(), "CTSO"))
    assert found["pe"].value == pytest.approx(50 / 2.5)  # 20x
    assert found["pb"].value == pytest.approx(50 * 100 / 800)  # 6.25x
    # EV = 5,000 + 50 + 250 - 100 = 5,200; EBITDA = 300 + 100 = 400
    assert found["ev_ebitda"].value == pytest.approx(5200 / 400)
    assert all(m.fiscal_year == 2021 and m.reason is None for m in found.values())
    pe = found["pe"]
    assert [i.name for i in pe.inputs] == ["price", "diluted_eps"]
    assert pe.inputs[0].source == PRICE and pe.inputs[0].value == 50.0
    eps_source = pe.inputs[1].source
    assert isinstance(eps_source, FactSource)
    assert eps_source.doc_label == "CTSO 10-K FY2021" and eps_source.period == "FY2021"
    assert eps_source.uid == contoso()[0].uid and eps_source.page_index == 50
    assert eps_source.text == f"CTSO 10-K FY2021 p.51 (uid {eps_source.uid}), FY2021"
    equity = next(i for i in found["pb"].inputs if i.name == "equity")
    assert equity.source.period == "FY2021 year-end" and equity.source.page_index == 52
    assert len(found["ev_ebitda"].inputs) == 7


def test_a_missing_fact_makes_only_its_multiples_absent_with_a_reason():
    found = by_key(valuation_multiples(50.0, PRICE, contoso(cash=None), "CTSO"))
    assert found["pe"].value is not None and found["pb"].value is not None
    ev = found["ev_ebitda"]
    assert ev.value is None and ev.reason.startswith("missing cash FY2021")
    assert "\n" not in ev.reason


def test_non_positive_denominators_are_not_meaningful():
    found = by_key(
        valuation_multiples(50.0, PRICE, contoso(diluted_eps=-1.0, equity=-5 * M), "CTSO")
    )
    assert found["pe"].value is None and "diluted EPS FY2021 is not positive" in found["pe"].reason
    assert found["pb"].value is None and "equity FY2021" in found["pb"].reason
    assert found["ev_ebitda"].value is not None


def test_no_facts_or_no_year_before_the_price():
    for multiple in valuation_multiples(50.0, PRICE, [], "CTSO"):
        assert (
            multiple.value is None and multiple.reason == "the grid has no statement facts for CTSO"
        )
    early = PriceSource("local", "CTSO.csv", date(2020, 1, 2))
    found = valuation_multiples(50.0, early, contoso(), "CTSO")
    assert {m.reason for m in found} == {"the grid has no CTSO full-year facts before 2020"}


def test_statement_year_is_the_latest_before_the_price_year():
    assert statement_year(contoso(), 2022) == 2021
    assert statement_year(contoso(), 2023) == 2022
    assert statement_year(contoso(), 2021) == 2020


def test_multiples_on_the_sample_grid(sample_store):
    from retrieval.store import GridFilter

    facts = sample_store.facts(GridFilter(ticker="MMM"))
    price = PriceSource("local", "MMM.csv", date(2023, 6, 30))
    found = by_key(valuation_multiples(100.0, price, facts, "MMM"))
    assert found["pe"].value == pytest.approx(100 / 10.18)  # MMM 10-K FY2022 diluted EPS
    assert found["pe"].inputs[1].source.doc_label == "MMM 10-K FY2022"
    assert found["pb"].value == pytest.approx(100 * 567.6e6 / 14_722e6)
    ev = 100 * 567.6e6 + 1_938e6 + 14_001e6 - 3_655e6
    assert found["ev_ebitda"].value == pytest.approx(ev / (6_539e6 + 1_831e6))
