"""A fiscal year later than every cited filing's own is no finding of those filings.

Asked "What drove Costco's gross margin change in FY2023?", with FY2023 not in the grid,
the draft read the FY2022 10-K's account of FY2022 and wrote "Costco's gross margin
decreased in FY2023 due to the impact of rising gasoline prices", cited to that 10-K: the
year was the question's, the finding the page's own year's. A filing reports its fiscal
year and earlier ones, never a later year's results, so a sentence that names fiscal
years ("FY2023", "fiscal 2023") all after the fiscal year of every page it cites is
removed and counted, unless it speaks of what is to come ("expects", "plans", "guidance",
"will"). A sentence that also names a year its pages report is left alone: a draft echoes
the question's years ("capital expenditure in FY2021 and FY2022 …") beside its own.
Dates and bare years are left alone: a 10-K tells what happened after its year ended ("In
February 2023, the Board declared …").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences
from domain.period_patterns import FY_PREFIX
from domain.periods import parse_fy

#: A fiscal year written as one: "FY2023", "FY23", "fiscal 2023", "fiscal year 2023".
_FISCAL_YEAR = re.compile(rf"\b{FY_PREFIX}\s*'?(?:\d{{4}}|\d{{2}})\b", re.IGNORECASE)
#: Words of an outlook, which a filing may give for a later year.
_OUTLOOK = re.compile(
    r"\b(?:expect\w*|anticipat\w*|forecast\w*|guid\w*|outlook|plan\w*|project\w*|will|would|"
    r"intend\w*|target\w*|estimat\w*|believ\w*|should|could|may|might|aim\w*|goals?)\b",
    re.IGNORECASE,
)


def fiscal_years_named(text: str) -> list[int]:
    """The fiscal years ``text`` names as such ("FY23" is 2023), in order."""
    return [parse_fy(m.group()) for m in _FISCAL_YEAR.finditer(text)]


def drop_later_years(answer: CitedAnswer, page_years: Mapping[str, int]) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences whose fiscal years are all later than the fiscal year
    of every page they cite (``page_years``: fiscal year by page uid; a page without one,
    such as a web document, leaves its sentence alone), and how many were removed."""
    wrong = []
    for sentence in split_sentences(answer.body):
        text = MARKER_RE.sub(" ", sentence.text)
        named = fiscal_years_named(text)
        years = cited_pages(answer, sentence, page_years, 0)
        if not named or not years or not all(years) or _OUTLOOK.search(text):
            continue
        if min(named) > max(years):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
