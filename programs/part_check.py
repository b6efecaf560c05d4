"""A part of a company is not given the whole company's figure, nor the company a part's.

Asked "Which geographic segment had the highest net sales for Apple in FY2022?", the draft
wrote "The geographic segment with the highest net sales for Apple in FY2022 was Americas,
with a total of 394,328 million dollars": the Americas are right, but $394,328 million is
Apple's consolidated net sales, printed on the same page as the segment's $169,658
million. Digit grounding passes it, and the figure check leaves a sentence about a segment
to the agents (:mod:`programs.claim_check`). A part's figure can equal the whole's only
where the company has one part, so a sentence that names a part (a segment, a geography:
:data:`programs.figure_questions.PART_RE`), states one amount and no
percentage, and whose amount is the slice's consolidated figure of the measure it names
is removed. A sentence that also states a share or a second amount ("43% of total net
sales of $394,328 million") sets the part against the whole, and stays.
"""

from __future__ import annotations

import re

from citations.daggers import cited_uids
from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_sentences
from domain.cells import SliceRef
from metrics.numbers import NumberToken, extract_numbers
from programs.figure_check import states_figure
from programs.figure_questions import PART_RE
from programs.figures import Figures


def gives_the_whole(text: str, ref: SliceRef, figures: Figures) -> bool:
    """Whether ``text`` names a part of ``ref``'s company and states, as the part's only
    amount, the company's consolidated figure of the measure it names."""
    if not PART_RE.search(text):
        return False
    numbers = extract_numbers(text)
    amounts = [n for n in numbers if not n.percent]
    if len(amounts) != 1 or len(numbers) != 1:
        return False
    whole = figures.answer(PART_RE.sub(" ", text), ref, parts=False)
    if whole is None or "%" in whole[1].text:
        return False
    return states_figure(amounts[0], whole[1])


def drop_whole_as_part(
    answer: CitedAnswer, ref: SliceRef, figures: Figures | None
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that give a part the whole company's figure
    (:func:`gives_the_whole`), with the footnotes only they marked; and how many went.
    Annual slices only, as for :mod:`programs.claim_check`: a quarter's filing prints
    year-to-date columns beside the quarter's."""
    if figures is None or ref.fq not in (None, 4):
        return answer, 0
    wrong = [
        s
        for s in split_sentences(answer.body)
        if not s.in_table and s.markers and gives_the_whole(s.text, ref, figures)
    ]
    return without_sentences(answer, wrong)


#: A segment's figure as a filing states it: "FedEx Ground segment operating income
#: increased 19%": the segment's name (capitalised words before "segment") and the
#: sentence's stretch up to the number.
_SEGMENT_NAMED = re.compile(r"((?:[A-Z][\w&.'’-]*[ \t]+){1,5})segment(?:'s|’s)?\s+[^.;]{0,120}$")
_WORD = re.compile(r"[a-z][a-z&'’-]+")


def segment_of(number: NumberToken, text: str, page: str) -> str | None:
    """The segment a page gives ``number`` (as ``text`` writes it) to, when the draft
    sentence ``text`` names neither that segment nor any: "FedEx's operating income
    increased 19%" from a page's "FedEx Ground segment operating income increased 19%".
    None when the page gives it to no segment, or the draft names one."""
    if re.search(r"\bsegments?\b", text, re.IGNORECASE):
        return None
    raw = re.escape(number.raw.strip())
    for found in re.finditer(rf"(?<![\d.,]){raw}(?![\d])", page):
        named = _SEGMENT_NAMED.search(page[max(0, found.start() - 160) : found.start()])
        if named is None:
            continue
        name = named.group(1).strip()
        if not _words(name) <= _words(text):
            return name
    return None


def _words(text: str) -> set[str]:
    """``text``'s words, possessives plain: "FedEx Ground's" -> {"fedex", "ground"}."""
    return {w.removesuffix("'s").removesuffix("’s") for w in _WORD.findall(text.lower())}


def drop_part_as_whole(answer: CitedAnswer, read: dict[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that give the company a figure their cited page
    gives one of its segments (:func:`segment_of`), with the footnotes only they marked;
    and how many went. Asked how FedEx's operating income changed in FY2023, the draft
    wrote "FedEx's operating income increased 19%", its page's FedEx Ground segment's
    figure, beside code's -21.3% for the company."""
    wrong = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        pages = [read[uid] for uid in cited_uids(sentence, answer) if uid in read]
        numbers = [n for n in extract_numbers(sentence.text) if n.percent or n.currency]
        if any(segment_of(n, sentence.text, page) for n in numbers for page in pages):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
