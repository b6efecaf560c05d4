"""Demos written from train's gold answers and their evidence pages: the ``labelled``
optimiser of ``research optimise``.

Why not only the program's own runs (``evaluation.trace_demos``)? On the 1.5B default a
run that ends right seldom has a draft worth copying: the drafts that passed on train cited
nothing themselves (code attributed their sentences) or pasted the question back, so the
bootstrap's filter kept no answer-step demo at all. A person's answer does not have that
problem. So each demo here is what the answer step would see and what it should write:

- **evidence**: first the passages of the other pages of the same filing that the
  question's words match best (up to two), then the gold evidence page, cut to the rows the
  gold answer speaks of. The answer sits behind the last hit number, as it often does in a
  real run: the demo shows reading past a first page that does not answer. (A first
  version put the gold page first; the model learned to answer from ``[1]`` whatever it
  said: see docs/evaluation.md.)
- **answer_markdown**: the gold answer, one sentence at a time, each cited to the gold
  page's hit number; the annotators' notes on their own reading ("The answer here
  assumes …") are left out.

Beside them, one demo shows the other outcome (:func:`lacking_demo`): a train question
whose evidence is only other pages of the filing, none of which supports the gold answer,
and an answer that says so, citing the pages it read. Two compiles with answering demos
alone taught the model to answer from whatever page it was shown: it stopped saying the
evidence was short and answered wrong instead (docs/evaluation.md).

A gold answer whose figures the page does not print (a ratio the annotator computed) is
no demo: it would teach numbers with no page behind them. Only train examples are used
(company-grouped splits, so no dev or test company's figures appear in a prompt); which
ones is seeded, judgement questions first, since metric questions are answered by code.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from citations.sentences import split_sentences
from evaluation.ledger import example_id
from metrics._inputs import field as field_of
from metrics.numbers import NumberIndex, extract_numbers
from programs.attribution import supporting_page
from programs.observations import render_hit
from retrieval.search.passages import select_passage
from retrieval.store import GridFilter

#: The predictor these demos teach: the researcher's answer step.
ANSWER_STEP = "researcher.extract"
GOLD_CHARS = 700  # the gold page's passage in a demo
OTHER_CHARS = 300  # the other page's passage
#: Annotators' notes on their own reading, not part of the answer.
#: A sentence wholly in parentheses ("(In essence a novation agreement)") is an aside too:
#: shown as an answer's last sentence, the model copied it into unrelated answers.
_ANNOTATOR_NOTE = re.compile(
    r"^\s*(?:the answer here assumes|this answer (?:assumes|considers)|note:|\([^()]*\)\.?\s*$)",
    re.I,
)
#: The questions code cannot answer from statement facts: where answer-step demos matter.
JUDGEMENT_TYPES = ("domain-relevant", "novel-generated")
#: What the lacking-evidence demo writes: the answer is not there, which pages were read.
LACKING_ANSWER = (
    "The evidence does not answer this: the pages found do not state it, so another page "
    "of the filing is needed {marks}."
)


def cited_answer(gold: str, marker: str = "[1]") -> str:
    """The gold answer with ``marker`` after each sentence, annotators' notes left out."""
    sentences = [s.text.strip() for s in split_sentences(gold) if s.text.strip()]
    kept = [s for s in sentences if not _ANNOTATOR_NOTE.match(s)]
    cited = []
    for sentence in kept:
        body, stop = (sentence[:-1], sentence[-1]) if sentence[-1] in ".!?" else (sentence, ".")
        cited.append(f"{body.rstrip()} {marker}{stop}")
    return " ".join(cited)


def grounded(answer: str, page_text: str) -> bool:
    """Every figure of the answer (years and references aside) is printed on the page."""
    index = NumberIndex.from_text(page_text)
    return all(index.matches(t) for t in extract_numbers(answer))


def _hit(page: Any, passage: str) -> dict[str, Any]:
    return {
        "uid": page.uid,
        "doc_label": page.doc_label,
        "page": page.page_index + 1,
        "text": passage,
    }


def labelled_demo(
    example: Any, gold_page: Any, other_pages: Sequence[Any] = ()
) -> dict[str, Any] | None:
    """The answer step's demo for one train example (``other_pages`` first, the gold page
    last), or None when its gold answer is not grounded on its evidence page."""
    question = str(field_of(example, "question") or "")
    gold = str(field_of(example, "answer") or "").strip()
    marker = f"[{len(other_pages) + 1}]"
    answer = cited_answer(gold, marker)
    if not answer:
        return None
    passage = select_passage(gold_page.text, [gold, question], budget=GOLD_CHARS).text
    if not grounded(gold, passage):
        return None
    blocks = _other_blocks(question, other_pages)
    blocks.append(render_hit(_hit(gold_page, passage), lambda _: marker, whole=True))
    return _demo_fields(question, _slice_label(gold_page), blocks, answer)


def _other_blocks(question: str, pages: Sequence[Any]) -> list[str]:
    """``pages`` as evidence blocks behind hit numbers ``[1]``, ``[2]``, …, each cut to the
    passage the question's words match best."""
    blocks = []
    for number, page in enumerate(pages, 1):
        passage = select_passage(page.text, [question], budget=OTHER_CHARS).text
        blocks.append(render_hit(_hit(page, passage), lambda _, n=number: f"[{n}]", whole=True))
    return blocks


def _demo_fields(question: str, slice_label: str, blocks: list[str], answer: str) -> dict:
    """The answer step's inputs and output for one demo, as a first-round probe sees them."""
    return {
        "question": question,
        "slice_label": slice_label,
        "probe_title": "The question",
        "probe_question": question,
        "previous_draft": "",
        "reviewer_feedback": "",
        "evidence": "\n\n".join(blocks),
        "answer_markdown": answer,
    }


def _slice_label(page: Any) -> str:
    return f"{page.ticker} FY{page.fy} Q{page.fq}"


def supports_gold(gold: str, pages: Sequence[Any]) -> bool:
    """Whether any sentence of the gold answer is supported by one of ``pages`` (its
    numbers and most of its words on the page, as code attributes a draft's sentences)."""
    texts = {page.uid: page.text for page in pages}
    return any(supporting_page(s.text, texts) for s in split_sentences(gold) if s.text.strip())


def lacking_demo(example: Any, other_pages: Sequence[Any]) -> dict[str, Any] | None:
    """The answer step's demo for a search that missed: ``other_pages`` (pages of the gold
    filing, not the gold page) as the evidence, and an answer that says they do not answer,
    citing each. None when there are no such pages or one of them supports the gold
    answer (then the evidence would answer, and saying it does not would teach refusing)."""
    question = str(field_of(example, "question") or "")
    gold = str(field_of(example, "answer") or "").strip()
    if not other_pages or not gold or supports_gold(gold, other_pages):
        return None
    marks = "".join(f"[{n}]" for n in range(1, len(other_pages) + 1))
    answer = LACKING_ANSWER.format(marks=marks)
    blocks = _other_blocks(question, other_pages)
    return _demo_fields(question, _slice_label(other_pages[0]), blocks, answer)


def labelled_demos(
    train: Sequence[Any],
    searcher: Any,
    max_demos: int,
    seed: int,
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Up to ``max_demos`` answer-step demos from ``train`` and, after the first of them,
    one lacking-evidence demo (:func:`lacking_demo`, from a judgement question of another
    company), and the example ids they came from. ``searcher`` (a
    :class:`retrieval.search.hybrid.HybridSearcher`) reads the gold pages and finds each
    question's best other pages of the same filing."""
    order = list(train)
    random.Random(seed).shuffle(order)
    order.sort(key=lambda e: str(field_of(e, "question_type") or "") not in JUDGEMENT_TYPES)
    demos: list[dict[str, Any]] = []
    sources: list[str] = []
    used_companies: set[str] = set()
    rest = []  # candidates for the lacking-evidence demo, in the same order
    for example in order:
        if len(demos) >= max_demos:
            rest.append(example)
            continue
        gold_page, others = _gold_and_others(searcher, example)
        if gold_page is None or gold_page.ticker in used_companies:
            continue  # one demo per company: the demos differ in more than their numbers
        demo = labelled_demo(example, gold_page, others)
        if demo is None:
            rest.append(example)
            continue
        demos.append(demo)
        sources.append(example_id(example))
        used_companies.add(gold_page.ticker)
    for example in rest if demos else ():
        if str(field_of(example, "question_type") or "") not in JUDGEMENT_TYPES:
            continue
        gold_page, others = _gold_and_others(searcher, example)
        if gold_page is None or gold_page.ticker in used_companies:
            continue
        if lacking := lacking_demo(example, others):
            demos.insert(1, lacking)
            sources.insert(1, example_id(example))
            break
    return {ANSWER_STEP: demos}, sources


def _gold_and_others(searcher: Any, example: Any) -> tuple[Any | None, list[Any]]:
    """The example's first evidence page, and the best other pages of its filing that are
    none of its evidence pages (None and no pages when the store lacks the evidence)."""
    uids = [str(u) for u in field_of(example, "evidence_uids") or []]
    pages = searcher.pages_by_uid(uids[:1])
    if not pages:
        return None, []
    others = [p for p in _other_pages(searcher, example, pages[0]) if p.uid not in uids]
    return pages[0], others


def _other_pages(searcher: Any, example: Any, gold_page: Any, k: int = 2) -> list[Any]:
    """Up to ``k`` pages of the gold page's filing (not the gold page) the question matches
    best, best first."""
    question = str(field_of(example, "question") or "")
    lock = GridFilter(gold_page.ticker, gold_page.fy, gold_page.fq)
    try:
        hits = searcher.search(question, k=8, where=lock)
    except Exception:  # no other page is a demo with the gold page alone, not a failed compile
        return []
    uids = [h.uid for h in hits if h.uid != gold_page.uid and h.doc_name == gold_page.doc_name]
    found = {page.uid: page for page in searcher.pages_by_uid(uids[:k])} if uids else {}
    return [found[uid] for uid in uids[:k] if uid in found]  # a store reads in its own order
