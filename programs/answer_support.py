"""The report's answer states only what a probe closed with its evidence, or code computed.

A researched probe that its reviewer closed as insufficient evidence (or that was still
unsatisfied after its last round) keeps its draft among the findings, under a dagger: the
reader sees what was tried and that it is not settled. Its sentences do not make the
answer. On the train split, four of the five reports whose answer stood on such a draft
alone were wrong (Boeing's production-rate forecast read as "a production rate change of 5
per month", Boeing's primary customers as "Middle East and Asia Pacific customers", Ulta's
Q4 share of buybacks as the year's $900 million), and the fifth gave two restructuring
costs where the question asked what the liability is made of; statement figures in the same
reports, cited to their own pages, were right. So a sentence of the answer whose every
citation is a page only such probes cited is withheld from the answer; figures code
computed, and the pages an accepted probe cited, stand.

A page is not the whole of it: an unsettled probe may cite the very page a settled one
cites. Asked which segment contributed most to McDonald's FY2022 revenue, code's parts table
answered (International Operated Markets, 48.7%) and the question's own probe, closed as
insufficient, drafted "The International Developmental Licensed Markets segment contributed
most …" cited to the same table page; both stood in the answer, one contradicting the other.
So a sentence of the answer that an unsettled probe states, and no settled one, is withheld
too, whichever pages it cites.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import split_sentences, without_sentences
from signatures.synthesiser import ProbeAnswer, SliceReport


def _only_unsettled(
    slices: Sequence[SliceReport], said: Callable[[ProbeAnswer], set[str]]
) -> set[str]:
    """What ``said`` reads from researched probes closed as insufficient evidence and from
    no other probe (a probe of code's figures is settled whatever its flag)."""
    unsettled: set[str] = set()
    settled: set[str] = set()
    for report in slices:
        for probe in report.probe_answers:
            if probe.insufficient_evidence and not probe.figures:
                unsettled |= said(probe)
            else:
                settled |= said(probe)
    return unsettled - settled


def _cited_uids(probe: ProbeAnswer) -> set[str]:
    uids = {f.citation.uid for f in probe.answer.cited_only().references.footnotes}
    return uids | {uid for figure in probe.figures for uid in figure.uids}


def _plain(sentence: str) -> str:
    """A sentence as said, whatever its citation numbers: marks dropped, spacing squashed."""
    return " ".join(MARKER_RE.sub(" ", sentence).split()).rstrip(" .")


def _sentences(probe: ProbeAnswer) -> set[str]:
    return {_plain(s.text) for s in split_sentences(probe.answer.body)} - {""}


def unsettled_pages(slices: Sequence[SliceReport]) -> set[str]:
    """The uids of pages that only researched probes closed as insufficient evidence cite."""
    return _only_unsettled(slices, _cited_uids)


def unsettled_sentences(slices: Sequence[SliceReport]) -> set[str]:
    """What only researched probes closed as insufficient evidence say, sentence by sentence
    (citation marks dropped)."""
    return _only_unsettled(slices, _sentences)


def without_unsettled(
    answer: CitedAnswer, unsettled: set[str], said: set[str] = frozenset()
) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences (and the uncited ones pointing back at them) whose
    every citation is an ``unsettled`` page, or that an unsettled probe alone said (``said``:
    :func:`unsettled_sentences`), and how many were withheld."""
    if not unsettled and not said:
        return answer, 0
    uid_of = answer.references.by_number()
    withheld = [
        s
        for s in split_sentences(answer.body)
        if (s.markers and all(n in uid_of and uid_of[n].uid in unsettled for n in s.markers))
        or _plain(s.text) in said
    ]
    return without_sentences(answer, withheld)
