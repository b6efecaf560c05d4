"""Hypothesis strategies for cited answers (shared by the protocol and dagger tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker

UIDS = [f"{i:012x}" for i in range(0xA0, 0xA0 + 12)]
WORDS = ["Revenue", "grew", "margin", "fell", "capex", "rose", "cash", "flow", "steady"]


@st.composite
def citations(draw, uid=None) -> Citation:
    return Citation(
        uid=uid or draw(st.sampled_from(UIDS)),
        doc_label=draw(
            st.sampled_from(["MMM 10-K FY2018", "KO Earnings FY2024 Q4", "PEP 8-K FY2023 Q2"])
        ),
        page_index=draw(st.integers(0, 400)),
        page_id=draw(st.integers(0, 99_999)),
    )


@st.composite
def cited_answers(draw, max_sentences: int = 6) -> CitedAnswer:
    """An answer with arbitrary (gappy, unordered) footnote numbers, all markers resolvable."""
    uids = draw(st.lists(st.sampled_from(UIDS), min_size=1, max_size=6, unique=True))
    numbers = draw(
        st.lists(st.integers(1, 30), min_size=len(uids), max_size=len(uids), unique=True)
    )
    foots = [
        Footnote(number=n, citation=draw(citations(uid=u)))
        for n, u in zip(numbers, uids, strict=True)
    ]
    sentences = []
    for _ in range(draw(st.integers(1, max_sentences))):
        words = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)))
        cited = draw(st.lists(st.sampled_from(numbers), min_size=1, max_size=3))
        sentences.append(
            f"{words.capitalize()} {draw(st.integers(1, 999))}%.{render_marker(cited)}"
        )
    return CitedAnswer(body=" ".join(sentences), references=ReferenceList(footnotes=foots))
