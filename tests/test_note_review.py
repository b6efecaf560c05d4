"""The note's review pass: notes built by hand that trip each check, and ones that must not.

Each case changes one sentence of a clean note, so a finding (or its absence) is that
sentence's doing."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from citations.markup import Citation
from notes import CitedSentence, ResearchNote, Section, SourceBook
from notes.model import NO_FINDINGS
from notes.review import figures, review_note
from notes.sources import PriceCitation, WebCitation
from retrieval.facts.model import Fact

RISK_PAGE = Citation(uid="abcdef012345", doc_label="MMM 10-K FY2022", page_index=11, page_id=688)
PRICES = PriceCitation("local", "prices/MMM.csv", date(2023, 6, 30))
NEWS = WebCitation(
    "0123456789ab",
    "https://example.com/a",
    "3M outlook",
    "Example Wire",
    datetime(2024, 5, 2, 10, tzinfo=UTC),
)


def fact(value: float, fy: int, concept: str = "revenue", unit: str = "USD", **kw) -> Fact:
    label = kw.pop("doc_label", "MMM 10-K FY2022")
    return Fact(
        uid=kw.pop("uid", "8b39225e2b42"),
        page_id=720,
        doc_name="MMM_2022_10K",
        doc_label=label,
        page_index=47,
        ticker="MMM",
        statement="income",
        label=concept,
        concept=concept,
        fy=fy,
        fq=None,
        duration="year",
        column=str(fy),
        value=value,
        unit=unit,
    )


REV_22, REV_20 = fact(34_229e6, 2022), fact(32_184e6, 2020)
EPS_22 = fact(10.18, 2022, "diluted_eps", "USD/share")
CLEAN_RESULT = (
    "Revenue went from 32,184 million USD in FY2020 to 34,229 million USD in FY2022, up 6.4%."
)


def build(
    result: str = CLEAN_RESULT,
    facts: tuple[Fact, ...] = (REV_20, REV_22),
    *,
    market: str | None = "The last close was 87.32 on 2023-06-30.",
    risks: bool = True,
    extra: list[Section] | None = None,
    annual_year: int | None = 2022,
) -> ResearchNote:
    """A small note: one results sentence, one market line, one risk heading."""
    book = SourceBook()
    results = Section("results", "Latest results")
    results.sentences.append(CitedSentence(result, book.cite_facts(*facts), facts, bullet=True))
    sections = [results]
    if market is not None:
        section = Section("market", "Market data and valuation")
        section.sentences.append(CitedSentence(market, book.cite(PRICES), bullet=True))
        sections.append(section)
    sections += extra or []
    section = Section("risks", "Risks (10-K risk factors)")
    if risks:
        heading = "“Pandemics may hurt demand.”"  # quoted: the filing's words, never checked
        section.sentences.append(CitedSentence(heading, book.cite(RISK_PAGE), bullet=True))
    else:
        section.unavailable = "No risk-factor headings were found in the FY2022 10-K."
    sections.append(section)
    return ResearchNote("MMM", "3M", sections, book, annual_year)


def checks(note: ResearchNote) -> list[str]:
    return [f.check for f in review_note(note)]


def test_a_clean_note_has_no_findings_and_says_so():
    note = build()
    assert review_note(note) == []
    note.review = review_note(note)
    markdown = note.to_markdown()
    assert markdown.rstrip().endswith(f"## Review\n\n{NO_FINDINGS}")
    assert markdown.index("**Sources**") < markdown.index("## Review")


def test_figures_skip_quotes_dates_and_labels():
    text = "“Sales rose 9.123%” in FY2022 Q2 as of 2023-06-30; Return 1M and SMA 20d are 1.5%."
    found = figures(text)
    assert [(f.text, f.kind, f.decimals) for f in found] == [("1.5%", "percent", 1)]
    money = figures("Revenue was 34.2 billion USD, EPS 10.18 USD/share, P/E 8.58x.")
    assert [(f.kind, f.value, f.ulp) for f in money] == [
        ("money", pytest.approx(34.2e9), pytest.approx(1e8)),
        ("per_share", pytest.approx(10.18), pytest.approx(0.01)),
        ("multiple", pytest.approx(8.58), pytest.approx(0.01)),
    ]


@pytest.mark.parametrize(
    ("result", "facts", "expected"),
    [
        # a decimal the statement does not print, exact or invented
        (CLEAN_RESULT.replace("34,229 million", "34,229.0 million"), None, "more digits"),
        (CLEAN_RESULT.replace("34,229 million", "34,229.4 million"), None, "more digits"),
        (CLEAN_RESULT.replace("34,229 million", "34.2290 billion"), None, "more digits"),
        # a figure none of the cited facts states
        (CLEAN_RESULT.replace("34,229 million", "35,000 million"), None, "not what any"),
        ("Diluted EPS was 10.183 USD/share in FY2022.", (EPS_22,), "more digits"),
        # a change stated past the one decimal the code computes it to
        (CLEAN_RESULT.replace("6.4%", "6.35%"), None, "decimals"),
    ],
)
def test_precision_the_source_does_not_state_is_found(result, facts, expected):
    findings = review_note(build(result, facts or (REV_20, REV_22)))
    precise = [f for f in findings if f.check == "precision"]
    assert len(precise) == 1 and expected in precise[0].message, findings
    assert precise[0].where == "Latest results"


@pytest.mark.parametrize(
    "result",
    [
        CLEAN_RESULT.replace("34,229 million", "34.2 billion"),  # coarser is fine
        CLEAN_RESULT.replace("34,229 million", "34.229 billion"),  # same digit, other scale
        "Diluted EPS was 10.18 USD/share in FY2022.",
    ],
)
def test_the_source_precision_or_less_is_not_a_finding(result):
    facts = (EPS_22,) if "EPS" in result else (REV_20, REV_22)
    assert "precision" not in checks(build(result, facts))


def test_a_market_figure_past_its_stated_decimals_is_found():
    assert checks(build(market="Return 1M is -3.251% as of 2023-06-30.")) == ["precision"]
    assert checks(build(market="Return 1M is -3.25% as of 2023-06-30.")) == []
    assert checks(build(market="P/E is 8.583x (price / diluted EPS FY2022).")) == ["precision"]


def test_improvement_with_no_risks_while_the_10k_was_there_is_one_sided():
    findings = review_note(build(risks=False))
    assert [(f.check, f.where) for f in findings] == [("one-sided", "note")]
    assert "Risks section lists no risk factor" in findings[0].message
    assert "FY2022 10-K" in findings[0].message
    # no improvement stated: nothing one-sided about an empty risk list
    falling = CLEAN_RESULT.replace("up 6.4%", "down 6.4%")
    assert checks(build(falling, risks=False)) == []
    # no 10-K in the grid: the risks could not have been read
    quarterly = tuple(
        fact(f.value, f.fy, doc_label="MMM 10-Q FY2022 Q2", uid="0a0a0a0a0a0a")
        for f in (REV_20, REV_22)
    )
    assert checks(build(facts=quarterly, risks=False, annual_year=None)) == []
    assert checks(build(facts=quarterly, risks=False, annual_year=2022)) == ["one-sided"]


def test_a_missing_risks_section_is_one_sided_too():
    note = build()
    note.sections = [s for s in note.sections if s.key != "risks"]
    findings = review_note(note)
    assert [f.check for f in findings] == ["one-sided"] and "is missing" in findings[0].message


@pytest.mark.parametrize(
    ("result", "facts"),
    [
        ("Revenue was 34,229 million USD in FY2022, up 6.4%.", (REV_22,)),  # one period
        ("Revenue rose to 34,229 million USD in FY2022, up 6.4%.", (REV_20, REV_22)),  # one figure
        ("Revenue improved in FY2022.", (REV_22,)),
    ],
)
def test_improvement_without_the_prior_period_figure_is_one_sided(result, facts):
    findings = review_note(build(result, facts))
    assert [f.check for f in findings] == ["one-sided"], findings
    assert "without the prior-period figure" in findings[0].message


def test_an_empty_section_must_say_why():
    silent = Section("catalysts", "Recent catalysts (news)")
    findings = review_note(build(extra=[silent]))
    assert [(f.check, f.where) for f in findings] == [("hedging", "Recent catalysts (news)")]
    assert "does not say why" in findings[0].message
    explained = Section(
        "catalysts", "Recent catalysts (news)", unavailable="News is not configured."
    )
    assert checks(build(extra=[explained])) == []


def test_a_hedged_figure_with_no_source_is_found():
    guessed = (
        "Revenue was approximately 35,000 million USD in FY2022, up 6.4% from 32,184 million USD"
        " in FY2020."
    )
    assert sorted(checks(build(guessed))) == ["hedging", "precision"]
    # a hedge on a figure the cited fact does state (rounded) hides nothing
    rounded = guessed.replace("35,000 million", "34 billion")
    assert checks(build(rounded)) == []
    # an uncited line has no source at all
    context = Section("snapshot", "Business snapshot", context=["Revenue is about 34 billion USD."])
    context.sentences.append(CitedSentence("A cited line.", (1,)))
    findings = review_note(build(extra=[context]))
    assert [(f.check, f.where) for f in findings] == [("hedging", "Business snapshot")]
    assert "uncited line" in findings[0].message


def test_a_hedged_claim_is_found_unless_prose_it_cites_may_say_so():
    restated = "Revenue may be restated; it was 34,229 million USD in FY2022."
    assert checks(build(restated, (REV_22,))) == ["hedging"]
    # a forecast is all three: a figure no fact states, a hedge, a rise from nothing stated
    forecast = "Revenue may rise to 36,000 million USD in FY2023."
    assert checks(build(forecast, (REV_22,))) == ["precision", "hedging", "one-sided"]
    book_note = build()
    web = Section("catalysts", "Recent catalysts (news)")
    web.sentences.append(
        CitedSentence("Example Wire reports demand may soften.", book_note.book.cite(NEWS))
    )
    book_note.sections.insert(2, web)
    assert review_note(book_note) == []
    # the same words citing a number the Sources list does not hold
    web.sentences[0] = CitedSentence("Example Wire reports demand may soften.", (99,))
    assert checks(book_note) == ["hedging"]
    # "could not" states a failure; it hedges nothing
    unavailable = Section("market", "Market data", unavailable="Prices could not be read: x.")
    assert checks(build(market=None, extra=[unavailable])) == []


def test_findings_are_printed_one_line_each_after_the_sources():
    note = build(CLEAN_RESULT.replace("6.4%", "6.35%"), risks=False)
    note.review = review_note(note)
    review = note.to_markdown().split("## Review", 1)[1].strip().splitlines()
    assert review == [f.render() for f in note.review] and len(review) == 2
    assert review[0].startswith("- precision, Latest results: “6.35%” has 2 decimals")
    assert review[1].startswith("- one-sided, note: 1 statement(s) of improvement")
    assert NO_FINDINGS not in note.to_markdown()
    assert "## Review" not in note.to_markdown(with_review=False)
