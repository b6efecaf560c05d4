"""Soft scoping of unfiltered searches by the company and year a query names."""

from retrieval.companies import load_companies
from retrieval.search.hybrid import HybridSearcher, SearchSettings
from retrieval.search.scope import infer_scope, mentioned_tickers, mentioned_years
from retrieval.store import GridCell, GridFilter

COMPANIES = load_companies()
CELLS = [
    GridCell("MMM", "3M", 2018, 4, ("10-K",), 10),
    GridCell("KO", "Coca-Cola", 2020, 4, ("10-K",), 10),
    GridCell("PEP", "PepsiCo", 2022, 4, ("10-K",), 10),
]


def test_names_tickers_and_spelling_variants():
    assert mentioned_tickers("What was Coca Cola's FY2020 revenue?", COMPANIES) == ["KO"]
    assert mentioned_tickers("Compare PEPSICO and 3M", COMPANIES) == ["MMM", "PEP"]
    assert mentioned_tickers("How did MMM do?", COMPANIES) == ["MMM"]
    assert mentioned_tickers("23M units shipped", COMPANIES) == []
    assert mentioned_years("FY18 vs fiscal 2019 and 2020") == [2018, 2019, 2020]


def test_scope_is_one_held_company_and_a_single_held_year():
    assert infer_scope("3M capex in FY2018", COMPANIES, CELLS) == GridFilter("MMM", 2018)
    assert infer_scope("3M capex in FY2030", COMPANIES, CELLS) == GridFilter("MMM")
    assert infer_scope("3M and PepsiCo capex", COMPANIES, CELLS).is_empty()
    assert infer_scope("Walmart revenue", COMPANIES, CELLS).is_empty()  # not in the grid


def test_scope_lifts_the_named_company_in_shared_search(sample_store):
    query = "Coca Cola dividends paid 2020"
    plain = HybridSearcher(sample_store, settings=SearchSettings(infer_scope=False))
    scoped = HybridSearcher(sample_store)
    top = [h.ticker for h in scoped.search(query, k=5)]
    assert top == ["KO"] * 5
    assert [h.ticker for h in plain.search(query, k=5)].count("KO") <= top.count("KO")


def test_every_company_of_the_map_is_found_by_its_name_as_written():
    """A property of the whole map, not of any question: each company's name, and its name
    less legal suffixes, finds that company ("Johnson & Johnson", "PG&E" included)."""
    from retrieval.mentions import company_mentions

    companies = load_companies()
    for company in companies:
        short = company.name.split(",")[0]
        for suffix in (" Corporation", " Incorporated", " Inc.", " Company"):
            short = short.removesuffix(suffix)
        for name in (company.name, short):
            found = {t for _, t in company_mentions(f"What did {name} report?", companies)}
            assert company.ticker in found, name
    found = company_mentions("How did J&J's sales compare?", companies)
    assert [t for _, t in found] == ["JNJ"]


def test_every_alias_finds_its_company_and_no_other():
    """A property of the map: each alias, written in a question as is and possessive, names
    its own company alone, so an alias can never move a question to another company."""
    from retrieval.mentions import company_mentions

    companies = load_companies()
    assert sum(len(c.aliases) for c in companies) >= 20
    for company in companies:
        for alias in company.aliases:
            for written in (alias, f"{alias}'s", alias.upper()):
                found = {t for _, t in company_mentions(f"What did {written} report?", companies)}
                assert found == {company.ticker}, written


def test_a_name_spelled_with_an_apostrophe_is_found_either_way():
    from retrieval.mentions import company_mentions

    for text in ("McDonald's revenue", "McDonalds revenue", "McDonald’s revenue"):
        assert [t for _, t in company_mentions(text, COMPANIES)] == ["MCD"], text
    assert [t for _, t in company_mentions("Advanced Micro Devices' margin", COMPANIES)] == ["AMD"]
    assert company_mentions("rent per square foot", COMPANIES) == []
