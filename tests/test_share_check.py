"""A share of revenue a draft states is the share its own amount is of revenue."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from domain.cells import SliceRef
from programs.share_check import drop_misstated_shares, misstates_share

REVENUES = [49_954e6, 42_440e6]  # Oracle's FY2023 and FY2022


def test_oracles_cash_flow_called_80_percent_of_revenue_is_misstated():
    text = (
        "The company's net cash provided by operating activities was $17,165 million in "
        "2023, which represents approximately 80% of its revenue.³"
    )
    assert misstates_share(text, REVENUES)
    assert not misstates_share(text.replace("80%", "34%"), REVENUES)  # 34.4% of FY2023's
    assert not misstates_share(text.replace("80%", "40%"), REVENUES)  # 40.4% of FY2022's


def test_only_one_amount_as_a_share_of_revenue_is_checked():
    assert not misstates_share("Capex grew 80% in FY2023.¹", REVENUES)  # no share of revenue
    assert not misstates_share("Capex was 80% of revenue.¹", REVENUES)  # no amount
    two = "Capex of $8,695 million and R&D of $8,623 million were 80% of revenue.¹"
    assert not misstates_share(two, REVENUES)  # two amounts: which share is whose?
    assert not misstates_share("Capex was $8,695 million, 80% of revenue.¹", [])  # no revenue


@given(
    revenue=st.floats(min_value=1e8, max_value=1e12),
    share=st.floats(min_value=1.0, max_value=99.0),
)
def test_an_amount_stated_as_its_own_share_stands(revenue, share):
    amount = revenue * share / 100
    text = f"Capex was ${amount / 1e6:,.0f} million, {share:.1f}% of net sales.¹"
    assert not misstates_share(text, [revenue])


def test_the_misstated_sentence_leaves_the_answer_on_an_annual_slice_only():
    cite = Citation(uid="a1b2c3d4e5f6", doc_label="ORCL 10-K FY2023", page_index=54, page_id=1)
    body = (
        "Yes: capital expenditure was 17.4% of revenue in FY2023.¹ Operating cash flow was "
        "$17,165 million, approximately 80% of its revenue.¹"
    )
    answer = CitedAnswer(
        body=body, references=ReferenceList(footnotes=[Footnote(number=1, citation=cite)])
    )
    revenue = SimpleNamespace(value=REVENUES[0])
    figures = SimpleNamespace(consolidated=lambda measure, question, ref: (revenue, None))
    annual = SliceRef(ticker="ORCL", fy=2023, fq=4)
    kept, dropped = drop_misstated_shares(answer, annual, figures, "Is Oracle capital-intensive?")
    assert dropped == 1 and "80%" not in kept.body and "17.4%" in kept.body
    quarter = SliceRef(ticker="ORCL", fy=2023, fq=2)
    assert drop_misstated_shares(answer, quarter, figures, "?") == (answer, 0)
