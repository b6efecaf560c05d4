"""The composer's prose after code's checks (:mod:`programs.prose_checks`)."""

import pytest

from citations.markup import parse_cited_answer
from programs.prose_checks import check_composed, without_restated_figures, without_restated_verdict

SOURCES = (
    "\n\n**Sources**\n\n"
    "¹ INTC Earnings FY2023 Q1 p.6 (page_id: 1, uid: aaaaaaaaaaaa)\n"
    "² INTC Earnings FY2023 Q1 p.11 (page_id: 2, uid: bbbbbbbbbbbb)"
)


def test_a_composed_lead_in_that_nothing_follows_goes():
    """A lead-in whose list never came ("… driven by the following factors:¹˒².") tells a
    reader nothing and is no answer; the sentence before it stands."""
    findings = parse_cited_answer("Intel's net loss was $2,758 million in Q1 2023¹." + SOURCES)
    prose = parse_cited_answer(
        "Intel's net loss was $2,758 million in Q1 2023¹. Its revenue change was driven by "
        "the following factors:¹˒²." + SOURCES
    )
    checked = check_composed(prose, findings, [], [])
    assert checked.body == "Intel's net loss was $2,758 million in Q1 2023¹."
    listed = parse_cited_answer(
        "Its revenue change was driven by the following factors:¹ lower client computing "
        "volumes².\n\n- Data center revenue fell².\n" + SOURCES
    )
    assert "following factors" in check_composed(listed, findings, [], []).body


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        # code's cited yes, then the draft's bare yes whose support was withheld
        ("Yes: net income was -$2,758 million¹.\n\nYes, Acme reported a net loss in Q1.\n\n"
         "Net income went from $8,113 million to -$2,758 million¹.",
         "Yes: net income was -$2,758 million¹.\n\n"
         "Net income went from $8,113 million to -$2,758 million¹."),
        # an uncited yes that opens its own cited support stays
        ("Yes, Acme reported a net loss. It was -$2,758 million¹.",
         "Yes, Acme reported a net loss. It was -$2,758 million¹."),
        # the other answer is another check's to judge; one with a number is no bare repeat
        ("No: margin fell¹. Yes, it is healthy.", "No: margin fell¹. Yes, it is healthy."),
        ("Yes: it paid dividends¹. Yes, $4.1 billion.",
         "Yes: it paid dividends¹. Yes, $4.1 billion."),
    ],
)  # fmt: skip
def test_a_bare_yes_after_a_cited_one_goes(body, kept):
    assert without_restated_verdict(body) == kept


OPENING = (
    "Yes: the total debt rose from $75,859 million in FY2022 to $90,481 million in FY2023, "
    "up $14,622 million (+19.3%)¹˒²."
)


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        (  # the opening's two figures again, side by side: said once
            "In FY2022, total debt was $75,859 million¹, while in FY2023 it was $90,481 million².",
            "",
        ),
        (  # reported, and the move the figures show, in other words: said once
            "In FY2022, the company reported total debt of $75,859 million¹, while in FY2023 it "
            "increased to $90,481 million².",
            "",
        ),
        (  # a figure the opening does not state stays
            "Total debt was $90,481 million², of which $3,500 million was current².",
            "Total debt was $90,481 million², of which $3,500 million was current².",
        ),
        (  # so does what the opening does not say
            "Total debt reached $90,481 million² after the company issued new senior notes².",
            "Total debt reached $90,481 million² after the company issued new senior notes².",
        ),
        ("Debt funds the cloud build-out².", "Debt funds the cloud build-out²."),  # no figure
    ],
)
def test_a_sentence_that_restates_codes_opening_goes(body, kept):
    assert without_restated_figures(body, OPENING).strip() == kept
