"""A sentence about one company may cite only that company's filings.

Citation verification checks that a cited page exists and was retrieved, and numeric
grounding that a number's digits appear on it; neither notices "PepsiCo's capital
expenditure was $1,749 million¹" cited to 3M's cash-flow statement, where those digits are
3M's. A composed sentence that names companies, none of whose filings it cites, is
therefore removed (counted), whatever its digits: the slices' own cited findings, and the
table code fills, carry each company's figures.

So is a sentence that ranks companies ("higher than", "compared to") naming one whose
slices have no figure while others have: asked "Which had the higher gross margin in
FY2022, eBay or Activision Blizzard?", with no gross margin code could read for Activision
Blizzard, the composer wrote that Activision Blizzard "had a higher gross margin compared
to eBay", from a daggered draft about net income.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_units
from programs.figure_table import slice_figures
from retrieval.companies import Company
from retrieval.mentions import company_mentions
from signatures.synthesiser import SliceReport

#: A sentence that ranks one thing against another.
_RANKS = re.compile(
    r"\b(?:higher|lower|larger|smaller|greater|bigger|better|worse|stronger|weaker|more|less|"
    r"exceed\w*|outperform\w*|outpac\w*|trail\w*|lag\w*)\b[^.]*?"
    r"\b(?:than|compared\s+(?:to|with)|versus|vs\.?)(?!\w)",
    re.IGNORECASE,
)


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


def drop_unfigured_rankings(
    answer: CitedAnswer, slices: Sequence[SliceReport], companies: Sequence[Company]
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that rank companies while naming one whose slices
    hold no figure that others' do; and how many were removed."""
    figured = {r.slice.ticker for r in slices if slice_figures(r)}
    lacking = {r.slice.ticker for r in slices} - figured
    if not figured or not lacking:
        return answer, 0
    dropped = [
        s
        for s in split_sentences(answer.body)
        if not s.in_table
        and _RANKS.search(s.text)
        and {ticker for _, ticker in company_mentions(s.text, companies)} & lacking
    ]
    body = without_units(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)
