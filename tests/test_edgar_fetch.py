"""`edgar.fetch` end to end against a local server answering as SEC EDGAR does.

The server serves hand-made files in EDGAR's real formats (tests/fixtures/edgar): the
ticker list, a submissions index with a 10-K, a 10-Q and an 8-K, the company's XBRL
facts, and the three primary documents. No network is used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from edgar.citing import COVER_NOTE
from edgar.client import EdgarClient, EdgarSettings
from edgar.errors import EdgarInputError
from edgar.fetch import fetch_company
from edgar.ledger import Ledger, ledger_path_for
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter
from tests.fixtures.edgar.server import ACCESSIONS, EdgarServer, archive_path

AGENT = "Test Runner tests@example.com"


@pytest.fixture
def server():
    with EdgarServer() as running:
        yield running


@pytest.fixture
def store(tmp_path):
    grid = SQLiteStore(tmp_path / "grid.sqlite")
    yield grid
    grid.close()


def client_for(server: EdgarServer) -> EdgarClient:
    settings = EdgarSettings(
        user_agent=AGENT, data_url=server.url, www_url=server.url, attempts=2, backoff_s=0.01
    )
    return EdgarClient(settings, sleep=lambda _s: None)


def fetch(server, store, **options):
    with client_for(server) as client:
        return fetch_company("ACME", store, client, Ledger(ledger_path_for(store)), **options)


def by_concept(facts, concept, fy, fq=None, duration=None):
    found = [
        f
        for f in facts
        if f.concept == concept
        and f.fy == fy
        and f.fq == fq
        and (duration is None or f.duration == duration)
    ]
    assert len(found) == 1, (concept, fy, fq, duration, found)
    return found[0]


def test_fetch_stores_labelled_pages_and_cited_facts(server, store):
    report = fetch(server, store)

    assert [o.status for o in report.outcomes] == ["fetched", "fetched"]  # no 8-K by default
    assert [o.label for o in report.outcomes] == ["ACME 10-K FY2023", "ACME 10-Q FY2024 Q2"]
    assert [(o.cell.fy, o.cell.fq, o.cell.source) for o in report.outcomes] == [
        (2023, 4, "xbrl"),
        (2024, 2, "xbrl"),
    ]
    cells = {(c.ticker, c.fy, c.fq): c for c in store.cells()}
    assert cells[("ACME", 2023, 4)].doc_types == ("10-K",) and cells[("ACME", 2023, 4)].pages == 3
    assert cells[("ACME", 2024, 2)].pages == 2
    assert set(store.document_names()) == {
        f"ACME_2023_10K_{ACCESSIONS['10-K']}",
        f"ACME_2024Q2_10Q_{ACCESSIONS['10-Q']}",
    }
    assert report.pages == 5 and report.facts == len(store.facts(GridFilter("ACME")))
    # Every request declared who is asking.
    assert server.requests and {agent for _, agent in server.requests} == {AGENT}

    annual = store.facts(GridFilter("ACME", 2023, 4))
    pages = {p.page_index: p for p in store.document_pages(f"ACME_2023_10K_{ACCESSIONS['10-K']}")}
    revenue = by_concept(annual, "revenue", 2023)
    assert revenue.value == 12_345_000_000 and revenue.label == "Revenues [us-gaap:Revenues]"
    assert revenue.page_index == 1 and revenue.uid == pages[1].uid  # the income statement page
    assert revenue.doc_label == "ACME 10-K FY2023" and revenue.column.endswith("(XBRL)")
    capex = by_concept(annual, "capex", 2022)
    assert capex.value == -1_373_000_000 and capex.page_index == 1  # signed as printed
    assert by_concept(annual, "diluted_eps", 2023).value == 3.23
    assets = by_concept(annual, "total_assets", 2022, duration="instant")
    assert assets.value == 19_050_000_000 and assets.page_index == 2
    # A value no page prints is cited to the filing, and says so.
    interest = by_concept(annual, "interest_expense", 2023)
    assert interest.page_index == 0 and COVER_NOTE in interest.column
    # XBRL first: the table parser's revenue row is not stored twice ...
    assert [f.label for f in annual if f.concept == "revenue" and f.fy == 2023] == [
        "Revenues [us-gaap:Revenues]"
    ]
    # ... and stays the fallback for line items the XBRL does not give.
    cost = by_concept(annual, "cost_of_revenue", 2023)
    assert cost.value == 7_400_000_000 and cost.label == "Cost of sales"
    assert not [f for f in annual if "Nonoperating" in f.label]  # unmapped tags left out

    quarter = store.facts(GridFilter("ACME", 2024, 2))
    assert by_concept(quarter, "revenue", 2024, 2, "quarter").value == 3_200_000_000
    assert by_concept(quarter, "revenue", 2024, 2, "ytd").value == 6_300_000_000
    assert by_concept(quarter, "revenue", 2023, 2, "quarter").value == 3_000_000_000
    assert by_concept(quarter, "total_assets", 2023, None, "instant").value == 20_100_000_000
    payables = by_concept(quarter, "payables", 2024, 2, "instant")
    assert payables.label.endswith("[us-gaap:AccountsPayableCurrent]")
    assert by_concept(quarter, "payables", 2023, None, "instant").label == "Accounts payable"


def test_xbrl_agrees_with_the_tables_on_shared_line_items(server, store):
    report = fetch(server, store)
    agreement = report.agreement
    assert agreement.shared == 23 and agreement.agreeing == 23 and agreement.rate == 1.0


def test_the_agreement_check_names_a_value_that_differs(server, store):
    facts = json.loads(server.routes["/api/xbrl/companyfacts/CIK0001234567.json"])
    revenues = facts["facts"]["us-gaap"]["Revenues"]["units"]["USD"]
    next(e for e in revenues if e["end"] == "2023-12-31")["val"] = 12_500_000_000
    server.routes["/api/xbrl/companyfacts/CIK0001234567.json"] = json.dumps(facts).encode()
    agreement = fetch(server, store).agreement
    assert agreement.shared == 23 and agreement.agreeing == 22
    assert agreement.differing[0].startswith("revenue FY2023 year: XBRL 12,500,000,000.00")


def test_fetching_again_adds_nothing(server, store):
    fetch(server, store)
    stats, facts = store.stats(), store.count_facts()
    requests = len(server.requests)
    again = fetch(server, store)
    assert [o.status for o in again.outcomes] == ["skipped", "skipped"]
    assert store.stats() == stats and store.count_facts() == facts
    # Only the ticker list and the filing index are read: no document, no company facts.
    assert server.paths()[requests:] == [
        "/files/company_tickers.json",
        "/submissions/CIK0001234567.json",
    ]


def test_a_new_form_adds_only_the_new_filing(server, store):
    fetch(server, store)
    report = fetch(server, store, forms=("10-K", "10-Q", "8-K"))
    assert [o.status for o in report.outcomes] == ["skipped", "skipped", "fetched"]
    eight_k = report.outcomes[-1]
    assert eight_k.label == "ACME 8-K FY2024 Q4" and eight_k.cell.source == "event date"
    assert eight_k.facts == 0  # an 8-K's tables are not of its cell


def test_since_leaves_out_earlier_fiscal_years(server, store):
    report = fetch(server, store, since=2024)
    assert [o.label for o in report.outcomes] == ["ACME 10-Q FY2024 Q2"]


def test_a_server_error_leaves_earlier_filings_stored_and_a_refetch_resumes(server, store):
    ten_q = archive_path(ACCESSIONS["10-Q"], "acme-20240630.htm")
    server.failures[ten_q] = 500
    report = fetch(server, store)
    assert [o.status for o in report.outcomes] == ["fetched", "failed"]
    assert "HTTP 500 after 2 tries" in report.outcomes[1].reason
    assert server.paths().count(ten_q) == 2  # retried once
    assert [c.fq for c in store.cells()] == [4]  # the 10-K is stored, whole
    del server.failures[ten_q]
    again = fetch(server, store)
    assert [o.status for o in again.outcomes] == ["skipped", "fetched"]


def test_a_failure_inside_a_document_stores_none_of_it(server, store, monkeypatch):
    import edgar.fetch

    real = edgar.fetch.cite

    def failing(facts, pages):
        if pages[0].doc_type == "10-Q":
            raise RuntimeError("disk full")
        return real(facts, pages)

    monkeypatch.setattr(edgar.fetch, "cite", failing)
    with pytest.raises(RuntimeError):
        fetch(server, store)
    assert [(c.fy, c.fq) for c in store.cells()] == [(2023, 4)]  # no 10-Q page without facts
    ledger = Ledger(ledger_path_for(store))
    assert list(ledger.entries) == [ACCESSIONS["10-K"]]


def test_a_killed_fetch_loses_at_most_the_filing_in_flight(server, store):
    def kill(outcome):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fetch(server, store, on_filing=kill)
    assert len(store.document_names()) == 1
    path = ledger_path_for(store)
    path.write_text(path.read_text() + '{"accession": "0001234567-24-0000', encoding="utf-8")
    report = fetch(server, store)  # a torn ledger line is ignored
    assert [o.status for o in report.outcomes] == ["skipped", "fetched"]


def test_a_document_without_text_fails_once_and_is_not_downloaded_again(server, store):
    ten_q = archive_path(ACCESSIONS["10-Q"], "acme-20240630.htm")
    server.routes[ten_q] = b"<html><body><div style='display:none'>x</div></body></html>"
    report = fetch(server, store)
    assert report.outcomes[1].status == "failed"
    assert "holds no text" in report.outcomes[1].reason
    assert [o.status for o in fetch(server, store).outcomes] == ["skipped", "skipped"]


def test_an_unknown_ticker_is_input_error(server, store):
    with client_for(server) as client, pytest.raises(EdgarInputError, match="unknown ticker"):
        fetch_company("NOPE", store, client, Ledger(Path(store.path).with_suffix(".l")))


def test_without_xbrl_filings_are_placed_by_report_date_and_read_from_tables(server, store):
    del server.routes["/api/xbrl/companyfacts/CIK0001234567.json"]  # 404: no XBRL
    report = fetch(server, store)
    assert [(o.cell.fy, o.cell.fq, o.cell.source) for o in report.outcomes] == [
        (2023, 4, "report date"),
        (2024, 2, "report date"),
    ]
    assert report.xbrl_facts == 0 and report.facts > 0
    assert "no XBRL" in report.warnings[0]


def test_refresh_replaces_stored_filings_and_brings_back_xbrl_after_a_rebuild(server, store):
    from retrieval.facts.rebuild import rebuild_facts

    fetch(server, store)
    pages = store.stats()["pages"]
    uids = {p.uid for p in store.document_pages(f"ACME_2023_10K_{ACCESSIONS['10-K']}")}
    rebuild_facts(store)  # the table parser alone: XBRL facts are replaced
    assert not [f for f in store.facts(GridFilter("ACME")) if "[us-gaap:" in f.label]
    report = fetch(server, store, refresh=True)
    assert [o.status for o in report.outcomes] == ["fetched", "fetched"]
    assert store.stats()["pages"] == pages
    assert {p.uid for p in store.document_pages(f"ACME_2023_10K_{ACCESSIONS['10-K']}")} == uids
    assert report.xbrl_facts == len(
        [f for f in store.facts(GridFilter("ACME")) if "[us-gaap:" in f.label]
    )
