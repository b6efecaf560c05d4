"""Questions a filing answers on one page in its own words, answered by code from that page.

Seven kinds, each read deterministically from the pages the question's own probe would
search first: which securities are registered on an exchange (the cover page's list,
:mod:`programs.registered_securities`), what drove a figure (the one sentence that says
so, :mod:`programs.cause_quotes`), how many people the company employs (the sentence
that states its headcount, :mod:`programs.headcount_quotes`), how many stores it has
(the table's total, :mod:`programs.store_counts`), who its largest customers are (the
sentences that give them a share of revenue, :mod:`programs.customer_quotes`), whether its
internal control over financial reporting was effective (the 10-K's conclusion,
:mod:`programs.control_conclusions`) and who audits it (the signature on the auditor's
report, :mod:`programs.auditor_quotes`). The probe loop closes the
question's probe with the answer, with no model call, and researches it as before when
none applies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citations.markup import CitedAnswer
from domain.cells import SliceRef
from programs.auditor_quotes import AUDITOR_QUERY, asks_auditor, auditor_answer, quoted_auditor
from programs.cause_quotes import asks_cause, cause_answer, cause_query, quoted_cause
from programs.control_conclusions import (
    CONCLUSION_QUERY,
    asks_control_conclusion,
    conclusion_answer,
    quoted_conclusion,
)
from programs.customer_quotes import (
    CUSTOMER_QUERY,
    asks_customers,
    customer_answer,
    quoted_customers,
)
from programs.headcount_quotes import (
    HEADCOUNT_QUERY,
    asks_headcount,
    headcount_answer,
    quoted_headcount,
)
from programs.page_hits import PageHit
from programs.registered_securities import asks_registered, cover_answer, nearest_cover
from programs.store_counts import asks_store_count, counted_total, store_count_answer
from retrieval.store import GridFilter


def asks_of_a_page(question: str) -> bool:
    """Whether the question is of a kind a page may answer in its own words."""
    return (
        asks_registered(question)
        or asks_cause(question)
        or asks_headcount(question)
        or asks_store_count(question)
        or asks_customers(question)
        or asks_control_conclusion(question)
        or asks_auditor(question)
    )


def page_answer(
    question: str, slice: SliceRef, search: Callable[[str, GridFilter], Sequence[PageHit]]
) -> tuple[PageHit, CitedAnswer, str] | None:
    """The page, its answer and what answered it (for the run record); None when no page
    answers the question in its own words. ``search`` searches a query in one locked cell:
    the slice's own (the question, and for a cause the filing's words for one too), and for
    a cover its neighbours' when the slice prints none."""
    where = GridFilter(slice.ticker, slice.fy, slice.fq)
    pages = search(question, where)
    if (listed := cover_answer(question, pages)) is not None:
        return listed[0], listed[1], "the filing's cover page"
    worded = search(query, where) if (query := cause_query(question)) else []
    if (quoted := quoted_cause(question, [*pages, *worded])) is not None:
        return quoted[0], cause_answer(*quoted), "the filing's sentence"
    staffed = search(HEADCOUNT_QUERY, where) if asks_headcount(question) else []
    if (counted := quoted_headcount(question, [*pages, *staffed])) is not None:
        return counted[0], headcount_answer(*counted), "the filing's sentence"
    if (stores := counted_total(question, pages, slice.fy)) is not None:
        return stores[0], store_count_answer(*stores), "the filing's table"
    if asks_customers(question):
        quotes = quoted_customers(question, [*pages, *search(CUSTOMER_QUERY, where)], slice.fy)
        if quotes is not None:
            return quotes[0][0], customer_answer(question, quotes), "the filing's sentences"
    if asks_control_conclusion(question):
        concluded = quoted_conclusion(question, [*pages, *search(CONCLUSION_QUERY, where)])
        if concluded is not None:
            return concluded[0], conclusion_answer(question, *concluded), "the filing's sentence"
    auditor_pages = [*pages, *search(AUDITOR_QUERY, where)] if asks_auditor(question) else []
    if (signed := quoted_auditor(question, auditor_pages)) is not None:
        return signed[0], auditor_answer(*signed), "the auditor's report"
    if (near := nearest_cover(question, slice, lambda cell: search(question, cell))) is not None:
        return near[0], near[1], "the nearest filing's cover page"
    return None
