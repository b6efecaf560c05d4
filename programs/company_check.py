"""A sentence about one company may cite only that company's filings.

Citation verification checks that a cited page exists and was retrieved, and numeric
grounding that a number's digits appear on it; neither notices "PepsiCo's capital
expenditure was $1,749 million¹" cited to 3M's cash-flow statement, where those digits are
3M's. A composed sentence that names companies, none of whose filings it cites, is
therefore removed (counted), whatever its digits: the slices' own cited findings, and the
table code fills, carry each company's figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_units
from retrieval.companies import Company
from retrieval.mentions import company_mentions


def _cited_tickers(answer: CitedAnswer, markers: Sequence[int]) -> set[str]:
    labels = {f.number: f.citation.doc_label for f in answer.references.footnotes}
    return {labels[n].split()[0] for n in markers if n in labels and labels[n].split()}


def drop_misattributed(
    answer: CitedAnswer, companies: Sequence[Company]
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that name companies and cite none of their
    filings; and how many were removed."""
    dropped = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        named = {ticker for _, ticker in company_mentions(sentence.text, companies)}
        cited = _cited_tickers(answer, sentence.markers)
        if named and cited and named.isdisjoint(cited):
            dropped.append(sentence)
    body = without_units(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)
