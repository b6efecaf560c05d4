"""A figure's sentence cut to the claim its page holds (``programs.clause_trim``)."""

from __future__ import annotations

from citations.markup import Citation, CitedAnswer, parse_cited_answer
from programs.attribution import attribute_uncited
from programs.clause_trim import trim_unsupported_tails

PAGE = (
    "Cash Dividends: In fiscal 2022, we declared and paid cash dividends of $1.28 per share "
    "that totaled $3.5 billion. In June 2022, our Board of Directors declared a quarterly "
    "cash dividend of $0.32 per share of our outstanding common stock."
)
PAGES = {
    "29f75f278865": PAGE,
    "36f0b6c878dd": "Stock performance graph: cumulative total stockholder return.",
}
QUESTION = "Has Oracle's dividend per share grown from FY2021 to FY2022?"


def _answer(body: str) -> CitedAnswer:
    return CitedAnswer(body=body)


def test_a_comparison_no_page_holds_is_cut_from_the_claim_a_page_does():
    body = (
        "Yes, the dividend per share has grown. In fiscal 2022, the company declared and paid "
        "cash dividends of $1.28 per share, which was a 37% increase over the previous year's "
        "$0.96 per share."
    )
    trimmed, count = trim_unsupported_tails(_answer(body), PAGES, QUESTION)
    assert count == 1
    assert trimmed.body.endswith("cash dividends of $1.28 per share.")
    assert "37%" not in trimmed.body and "0.96" not in trimmed.body
    citations = {
        uid: Citation(uid=uid, doc_label="ORCL 10-K FY2022", page_index=i, page_id=i)
        for i, uid in enumerate(PAGES)
    }
    cited, added = attribute_uncited(trimmed, PAGES, citations, QUESTION)
    assert added == 1 and cited.body.endswith("$1.28 per share.¹")


def test_a_sentence_a_page_holds_whole_or_not_at_all_is_left_as_it_is():
    whole = "In fiscal 2022, the company paid cash dividends of $1.28 per share, up from $0.32."
    assert trim_unsupported_tails(_answer(whole), PAGES, QUESTION)[1] == 0
    unheld = "In fiscal 2022, the company paid dividends of $2.10 per share, which was a record."
    assert trim_unsupported_tails(_answer(unheld), PAGES, QUESTION)[1] == 0
    no_figure = "The board was generous, which was a 37% increase over $0.96 per share."
    assert trim_unsupported_tails(_answer(no_figure), PAGES, QUESTION)[1] == 0


def test_a_cited_sentence_or_a_table_row_is_not_cut():
    answer = parse_cited_answer(
        "Dividends were $1.28 per share, which was a 37% increase.¹\n\n**Sources**\n\n"
        "¹ ORCL 10-K FY2022 p.58 (page_id: 36384, uid: 29f75f278865)"
    )
    assert answer.references.footnotes
    assert trim_unsupported_tails(answer, PAGES, QUESTION)[1] == 0
    table = "| Year | DPS |\n|---|---|\n| FY2022 | $1.28, up 37% |"
    assert trim_unsupported_tails(_answer(table), PAGES, QUESTION)[1] == 0
