"""`research note`: the note for the sample grid, checked figure by figure against the facts
it cites; one Sources numbering across kinds; unconfigured sections as one line; bad input
as one error line and exit code 2. News comes from the recorded-response server, never the
network."""

from __future__ import annotations

import re
from datetime import date

import pytest
import test_websources_server as server
from typer.testing import CliRunner

from citations.markup import MARKER_RE, iter_markers, parse_cited_answer
from cli.app import app
from notes import OutsideSources, PriceCitation, SourceBook, build_note
from notes.model import CitedSentence
from retrieval.facts.display import printed_value
from retrieval.store import GridFilter

served = server.served
runner = CliRunner()
SECTIONS = ["snapshot", "results", "trends", "market", "catalysts", "risks"]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    for name in (
        "WISSEN_NEWS_FEEDS",
        "WISSEN_SEARXNG_URL",
        "WISSEN_WEB_ALLOW_PRIVATE",
        "WISSEN_PRICES_DIR",
        "WISSEN_PRICE_PROVIDER",
    ):
        monkeypatch.delenv(name, raising=False)


def note(*args, store):
    return runner.invoke(app, ["note", *args, "--store", str(store)])


@pytest.fixture(scope="module")
def mmm(sample_store):
    return build_note(sample_store, "mmm")


def test_the_note_has_every_section_in_order(mmm):
    assert [s.key for s in mmm.sections] == SECTIONS
    assert mmm.company == "3M" and mmm.ticker == "MMM"
    for key in ("snapshot", "results", "trends", "risks"):
        assert mmm.section(key).sentences, key
    assert "Item 1, Business" in mmm.section("snapshot").sentences[0].text
    assert "FY2018–FY2022" in mmm.section("snapshot").context[0]


def test_every_results_and_trend_figure_is_the_fact_it_cites(mmm, sample_store):
    stored = {
        (f.uid, f.concept, f.fy, f.fq, f.value) for f in sample_store.facts(GridFilter("MMM"))
    }
    sources = dict(enumerate(mmm.sources, 1))
    checked = 0
    for key in ("results", "trends"):
        for sentence in mmm.section(key).sentences:
            assert MARKER_RE.search(sentence.render()), sentence.text
            assert sentence.facts, sentence.text
            cited = {sources[n].uid for n in sentence.sources}
            for fact in sentence.facts:
                assert (fact.uid, fact.concept, fact.fy, fact.fq, fact.value) in stored
                assert fact.uid in cited
                if "margin" not in sentence.text:
                    assert printed_value(fact) in sentence.text
                checked += 1
    assert checked >= 16


def test_the_latest_year_is_compared_with_the_one_before(mmm):
    revenue = mmm.section("results").sentences[0]
    assert revenue.text == (
        "Revenue was 34,229 million USD in FY2022, down 3.2% from 35,355 million USD in FY2021."
    )
    margin = mmm.section("trends").sentences[-1].text
    # 7,161 / 32,184 = 22.25%; 6,539 / 34,229 = 19.10%
    assert "22.3% in FY2020 to 19.1% in FY2022" in margin
    assert "| Operating margin (operating income ÷ revenue) | 22.3%" in mmm.section("trends").table


def test_the_sample_notes_pass_the_review_and_say_so(mmm, sample_store):
    assert mmm.review == []
    assert mmm.to_markdown().rstrip().endswith("## Review\n\nNo issues found by the review checks.")
    for ticker in ("PEP", "KO"):
        assert build_note(sample_store, ticker).review == [], ticker


def test_every_line_of_the_results_and_trends_carries_a_marker(mmm):
    markdown = mmm.to_markdown()
    body = markdown.split("## Latest results", 1)[1].split("## Market data", 1)[0]
    claims = [
        line for line in body.splitlines() if line.startswith(("- ", "| ")) and "---" not in line
    ]
    claims = [line for line in claims if not line.startswith("| line item")]
    assert claims and all(MARKER_RE.search(line) for line in claims), claims


def test_the_latest_quarter_is_compared_a_year_back_and_a_quarter_back(sample_store):
    pep = build_note(sample_store, "PEP")
    quarter = [s.text for s in pep.section("results").sentences if "Q2" in s.text]
    assert quarter[0].startswith("Revenue was 22,322 million USD in FY2023")
    assert "up 10.4% from 20,225 million USD" in quarter[0]  # 22,322 / 20,225 - 1
    assert "up 25.1% from 17,846 million USD" in quarter[0]  # 22,322 / 17,846 - 1


def test_sources_are_one_sequence_across_kinds(mmm, sample_store):
    outside = OutsideSources(indicators=[_Indicator()], news_unavailable="News is not configured.")
    built = build_note(sample_store, "MMM", outside)
    lines = built.book.lines()
    numbers = [next(iter_markers(line))[1][0] for line in lines]
    assert numbers == list(range(1, len(lines) + 1))
    kinds = {type(s).__name__ for s in built.sources}
    assert kinds == {"Citation", "PriceCitation"}
    used = {n for s in built.sections for c in s.sentences for n in c.sources}
    assert used == set(numbers)
    # the page footnotes are the citation protocol's own lines
    parsed = parse_cited_answer(built.to_markdown())
    assert len(parsed.references) == sum(type(s).__name__ == "Citation" for s in built.sources)


class _Source:
    provider, detail, as_of = "local", "prices/MMM.csv", date(2023, 6, 30)


class _Indicator:
    key, label, value, unit, reason = "last_close", "Last close", 87.32, "price", None
    source = _Source()


def test_a_source_cited_twice_keeps_its_number():
    book = SourceBook()
    price = PriceCitation("local", "x.csv", date(2023, 1, 2))
    assert book.cite(price) == (1,) and book.cite(price) == (1,)
    with pytest.raises(ValueError):
        CitedSentence("an uncited claim.", ())


def test_an_unconfigured_news_section_is_one_line(sample_store_path):
    result = note("MMM", store=sample_store_path)
    assert result.exit_code == 0, result.output
    section = result.stdout.split("Recent catalysts (news)", 1)[1].split("Risks (10-K", 1)[0]
    text = " ".join(section.split())
    assert text.startswith("News is not configured: set WISSEN_SEARXNG_URL")
    assert text.count(".") == 1 + text.count("docs/web-sources.md")  # one sentence
    assert "†" not in result.stdout and "SYNTHETIC" in result.stderr
    review = result.stdout.rsplit("Review", 1)[1]
    assert "Sources" in result.stdout.split("Review")[-2]  # the review comes last
    assert " ".join(review.split()) == "No issues found by the review checks."


def test_the_markdown_file_has_the_cited_sections(sample_store_path, tmp_path):
    out = tmp_path / "mmm.md"
    result = note("MMM", "--out", str(out), store=sample_store_path)
    assert result.exit_code == 0, result.output
    markdown = out.read_text(encoding="utf-8")
    for title in ("## Business snapshot", "## Latest results", "## Three-year trends"):
        assert title in markdown
    assert "The last close was 87.32 on 2023-06-30." in markdown
    assert re.search(r"P/E is 8\.58x .*10\.18 USD/share", markdown)
    sources = markdown.split("**Sources**", 1)[1]
    assert "price series: local (market/sample/MMM.csv), as of 2023-06-30" in sources
    assert "SYNTHETIC" in sources


def test_no_price_file_is_one_line_saying_how_to_configure(sample_store_path, tmp_path):
    result = note("MMM", "--prices-dir", str(tmp_path), store=sample_store_path)
    assert result.exit_code == 0, result.output
    section = result.stdout.split("Market data and valuation", 1)[1].split("Recent catalysts", 1)[0]
    text = " ".join(section.split())
    assert text.startswith("No price data for MMM") and "--prices-dir" in text
    assert "P/E" not in text


def test_news_from_a_recorded_feed_is_cited_as_web_sources(sample_store_path, served, monkeypatch):
    monkeypatch.setenv("WISSEN_WEB_ALLOW_PRIVATE", "127.0.0.1/32")
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", served.url("/rss"))
    out = served  # the server answers the feed; nothing else is asked
    result = note("MMM", store=sample_store_path)
    assert result.exit_code == 0, result.output
    assert "3M raises capital spending plan for 2023" in result.stdout
    assert "/rss" in " ".join(out.requests)
    sources = result.stdout.split("Sources", 1)[1]
    assert "web: “3M raises capital spending plan for 2023”" in " ".join(sources.split())


@pytest.mark.parametrize("ticker", ["NOPE", "  "])
def test_a_ticker_not_in_the_grid_is_one_line_and_exit_2(sample_store_path, ticker):
    result = note(ticker, store=sample_store_path)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "not in the grid" in lines[0]
    assert "KO, MMM, PEP" in lines[0] and "Traceback" not in result.output
