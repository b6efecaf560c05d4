"""The report's answer states only what settled probes or code's figures support
(``programs.answer_support``); an unsettled draft stays among the findings, daggered."""

from __future__ import annotations

from citations.markup import parse_cited_answer
from domain.cells import SliceRef
from programs.answer_support import unsettled_pages, unsettled_sentences, without_unsettled
from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

UNSETTLED, SETTLED, FIGURE = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"
SOURCES = (
    "\n\n**Sources**\n\n"
    f"¹ ACME 10-K FY2022 p.5 (page_id: 1, uid: {UNSETTLED})\n"
    f"² ACME 10-K FY2022 p.9 (page_id: 2, uid: {SETTLED})\n"
    f"³ ACME 10-K FY2022 p.40 (page_id: 3, uid: {FIGURE})"
)


def _probe(index: int, body: str, insufficient: bool = False, figure: bool = False):
    return ProbeAnswer(
        index=index,
        probe_title=f"Probe {index}",
        probe_question="What drove it?",
        answer=parse_cited_answer(body + SOURCES),
        insufficient_evidence=insufficient,
        figures=[Figure(title="Revenue", period="FY2022", value=1.0, unit="USD", text="$1",
                        uids=[FIGURE])] if figure else [],
    )  # fmt: skip


def _slice(*probes: ProbeAnswer) -> SliceReport:
    return SliceReport(slice=SliceRef(ticker="ACME", fy=2022, fq=4), probe_answers=list(probes))


def test_pages_only_unsettled_probes_cite_are_unsettled():
    report = _slice(
        _probe(1, "Revenue was $1³."),  # code's figure, cited to its statement page
        _probe(2, "Demand drove it¹. Pricing helped²."),
        _probe(3, "Pricing was raised²."),
        _probe(4, "Demand drove it¹. Pricing helped²."),
    )
    report.probe_answers[1].insufficient_evidence = True
    report.probe_answers[3].insufficient_evidence = True
    # page 2 is also cited by the accepted probe 3: only page 1 stands on unsettled probes alone
    assert unsettled_pages([report]) == {UNSETTLED}
    # a probe of code's figures is settled whatever its flag
    figures_only = _slice(_probe(1, "Revenue was $1³.", insufficient=True, figure=True))
    assert unsettled_pages([figures_only]) == set()


def test_a_sentence_standing_on_unsettled_pages_alone_is_withheld():
    answer = parse_cited_answer(
        "Revenue fell from $2 to $1³. Demand drove it¹. This was notable. "
        "Pricing and demand both mattered¹˒². Costs rose." + SOURCES
    )
    kept, withheld = without_unsettled(answer, {UNSETTLED})
    assert withheld == 1
    # the follower that points back at it goes too; a sentence with a settled page and an
    # uncited one (other checks' business) stay
    assert (
        kept.body == "Revenue fell from $2 to $1³. Pricing and demand both mattered¹˒². Costs rose."
    )
    assert without_unsettled(answer, set()) == (answer, 0)


def test_an_answer_of_unsettled_sentences_alone_cites_nothing():
    answer = parse_cited_answer("Demand drove it¹. Demand fell in Asia¹." + SOURCES)
    kept, withheld = without_unsettled(answer, {UNSETTLED})
    assert (kept.body, withheld, kept.references.footnotes) == ("", 2, [])


def test_a_sentence_an_unsettled_probe_alone_said_is_withheld_whatever_it_cites():
    # code's parts table and the question's unsettled probe cite the same table page
    report = _slice(
        _probe(1, "Segment A had the highest revenue: $5, 48.7% of the total²."),
        _probe(2, "Segment C contributed most to revenue². Segment A grew 8%²."),
        _probe(3, "Segment A grew 8%²."),
    )
    report.probe_answers[1].insufficient_evidence = True
    said = unsettled_sentences([report])
    assert said == {"Segment C contributed most to revenue"}  # probe 3 settles the other
    answer = parse_cited_answer(
        "Segment A had the highest revenue: $5, 48.7% of the total². "
        "Segment C contributed most to revenue¹. Segment A grew 8%²." + SOURCES
    )
    assert unsettled_pages([report]) == set()  # page 2 is settled: pages alone keep it
    kept, withheld = without_unsettled(answer, set(), said)
    assert withheld == 1
    assert (
        kept.body
        == "Segment A had the highest revenue: $5, 48.7% of the total². Segment A grew 8%²."
    )
