"""Answer correctness against a gold answer, FinanceBench style, with general rules only.

The answer's claims are matched against the gold's: figures (with their kind and the
answer's conclusion), yes/no verdicts, chosen options and named items, rather than words.

* Refusals ("I'm sorry, the provided context does not include…", "As an AI, I don't have
  access…", "insufficient evidence") are never correct, whatever numbers they mention; but an
  answer that hedges and then concludes anyway (``Therefore, … $4,607 million``) answered.
* Numeric gold (``1577``, ``$1577.00``, ``24.26%``, ``0.66``): correct when the answer states
  the same quantity under some reading of scale (millions vs billions), percent vs ratio,
  within 1% relative (0.25% when the question asks to round to N decimals) or the precision
  either side rounded to, and in the kind the question asks for (a ``40%`` is not ``$0.4
  billion``). A conclusion (``Therefore, …``) stating another figure outweighs the gold
  figure met in the working.
* Textual gold: key-fact overlap (content words, stemming-lite with variants, ``U.S.`` =
  ``US``, ``flat`` = ``unchanged``), or recall of the gold's headline claim; a list gold
  (``Trillium, Array, and Therachon``) by its items (``EMEA`` = Europe … Africa); a one-name
  gold must be named as the answer, not in passing; gold figures found (or their change, for
  ``from 20% to 23%``), with any figure contradicting one of the gold's for the same
  quantity counting against; yes/no polarity, stated, or implied by the last sentence that
  restates the question, else by the opening; rise/fall direction words; the option picked
  among those the question offers; whether the asked metric is called not meaningful.
* ``There are none`` gold: only an answer asserting that none exist is correct.
* Hedges: a model saying *it* cannot answer is a refusal; a document-lacks hedge in the
  opening (or a method/definition opening) is outweighed only by a near-complete answer, and
  a hedge after an opening that answers is a caveat.

``judge_answer`` returns a small result object (label, score, reason); ``answer_correctness``
is the DSPy metric returning its score. An optional second opinion (``lm_judge``, see
``metrics.lm_judge``) is off by default.

This module weighs the readings into a verdict; the readings live beside it:
``answer_words`` (content words, key facts, headline), ``answer_figures`` (gold figures
stated, conflicting, changed), ``answer_verdicts`` (yes/no, direction, metric stance,
option picked), ``answer_names`` (list and one-name golds) and ``answer_refusals``
(refusals, hedges, ``there are none``).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel

from metrics._inputs import as_answer, field, report_text
from metrics.answer_figures import (
    ROUNDED_REL_TOL,
    TEXT_REL_TOL,
    changed_figures,
    conflicting_number,
    gold_numbers,
    is_numeric_gold,
    key_numbers,
    number_adjusted,
    number_found,
)
from metrics.answer_names import entity_in_focus, gold_items, list_recall
from metrics.answer_refusals import (
    commits,
    declines,
    is_none_gold,
    is_refusal,
    is_self_refusal,
    states_none,
)
from metrics.answer_verdicts import (
    IMPLIED_AGREEMENT,
    IMPLIED_DISAGREEMENT,
    is_yes_no_question,
    opposite_direction,
    polarity_adjusted,
    relevance_stance,
    same_choice,
)
from metrics.answer_words import gold_text, headline_recall, key_fact_overlap
from metrics.claims import asked_kind, asks_rounding, compatible, conclusion_span, stated_results
from metrics.numbers import NumberToken, extract_numbers

Label = Literal["correct", "incorrect", "refusal"]


# A figure contradicting the gold's for the same quantity.
CONFLICT_FACTOR = 0.3


class AnswerJudgement(BaseModel):
    label: Label
    score: float
    reason: str


class AnswerJudge(Protocol):
    """A second opinion on whether an answer states the gold answer (an LM, in practice).

    Returns True (it does), False (it does not) or None (no opinion: the rules stand). Off
    by default: ``judge_answer`` consults one only when given one.
    """

    def __call__(self, question: str | None, answer: str, gold: str) -> bool | None: ...


def _judge_none_gold(text: str) -> AnswerJudgement:
    """Gold ``There are none``: only an answer that says so is right, whatever it lists."""
    if states_none(text):
        return AnswerJudgement(label="correct", score=1.0, reason="states that none exist")
    if is_refusal(text):
        return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
    return AnswerJudgement(label="incorrect", score=0.0, reason="lists what the gold says is none")


def _judge_text_gold(
    text: str,
    gold: str,
    question: str | None,
    gold_tokens: list[NumberToken],
    tokens: list[NumberToken],
    found: list[NumberToken],
    threshold: float,
) -> AnswerJudgement:
    """Textual gold: key facts, then the gold's figures, verdict and direction, then hedging."""
    items = gold_items(gold)
    if items:
        overlap = list_recall(text, items, question)
    else:
        overlap = max(key_fact_overlap(text, gold, question), headline_recall(text, gold, question))
    headline_numbers = bool(key_numbers(gold, gold_tokens))
    yes_no = is_yes_no_question(question)
    score = number_adjusted(overlap, gold_tokens, found, headline_numbers, yes_no)
    score = polarity_adjusted(score, text, gold, question)
    reason = f"key-fact overlap {overlap:.2f}"
    # A "which" question's answer is the option picked; a figure against the gold's, or the
    # other direction, still counts against it below.
    choice = same_choice(text, gold, question)
    if choice is not None:
        score = max(score, IMPLIED_AGREEMENT) if choice else score * IMPLIED_DISAGREEMENT
        reason += ", picks the gold's option" if choice else ", picks another option or none"
    if opposite_direction(text, gold):
        score *= IMPLIED_DISAGREEMENT
        reason += ", opposite direction"
    missing = [g for g in gold_tokens if g not in found]
    if any(conflicting_number(gold, g, text, tokens, question) for g in missing):
        score *= CONFLICT_FACTOR
        reason += ", conflicting figure"
    stance = relevance_stance(text, gold, question)
    if stance is not None:
        score = max(score, IMPLIED_AGREEMENT) if stance else score * IMPLIED_DISAGREEMENT
        reason += ", same stance on the metric" if stance else ", opposite stance on the metric"
    if not entity_in_focus(text, gold, question):
        score *= IMPLIED_DISAGREEMENT
        reason += ", gold named only in passing"
    if is_refusal(text) and declines(text, score, threshold):
        return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
    label: Label = "correct" if score >= threshold else "incorrect"
    return AnswerJudgement(label=label, score=round(score, 4), reason=reason)


def _judge_numeric_gold(
    text: str, gold_token: NumberToken, question: str | None, rel_tol: float
) -> AnswerJudgement:
    """A numeric gold: the answer must state it as its result.

    Only figures of the asked kind count (a percentage is not a dollar amount); an explicit
    conclusion (``Therefore, … $1,580.6 million``) that states another figure of that kind
    outweighs the gold figure met in the working (of a formula, only what follows its last
    ``=`` is the result).
    """
    kind = asked_kind(question)
    tokens = [t for t in extract_numbers(text) if compatible(t, kind)]
    if not any(number_found(gold_token, [t], rel_tol) for t in tokens):
        return AnswerJudgement(label="incorrect", score=0.0, reason="gold number not stated")
    results = stated_results(text, tokens)
    span = conclusion_span(text, results)
    if span is not None:
        start = text.rfind("=", span[0], span[1]) + 1 or span[0]  # ``A - B = C``: C
        final = [t for t in results if start <= t.start < span[1]]
        if not any(number_found(gold_token, [t], rel_tol) for t in final):
            return AnswerJudgement(
                label="incorrect", score=0.2, reason="conclusion states another figure"
            )
    return AnswerJudgement(label="correct", score=1.0, reason="gold number stated")


def judge_answer(
    answer: str,
    gold: Any,
    question: str | None = None,
    *,
    rel_tol: float | None = None,
    threshold: float = 0.35,
    lm_judge: AnswerJudge | None = None,
) -> AnswerJudgement:
    """Judge ``answer`` against ``gold``: label, score in [0, 1], and the reason.

    ``question`` is optional: gold words that merely repeat the question are not key facts.
    ``lm_judge`` (off by default) is asked about answers the rules call correct or incorrect;
    refusals stay the rules' call.
    """
    verdict = _judge_by_rules(answer, gold, question, rel_tol=rel_tol, threshold=threshold)
    if lm_judge is None or verdict.label == "refusal":
        return verdict
    return _with_lm_opinion(verdict, lm_judge, answer, gold, question, threshold)


def _with_lm_opinion(
    verdict: AnswerJudgement,
    lm_judge: AnswerJudge,
    answer: str,
    gold: Any,
    question: str | None,
    threshold: float,
) -> AnswerJudgement:
    """The LM's yes/no decides the label; the rules' score still orders answers within it."""
    text = as_answer(answer).body
    opinion = lm_judge(question, text, gold_text(gold))
    if opinion is None:
        return verdict
    if opinion:
        score = 0.5 + 0.5 * verdict.score  # at least 0.5: above any threshold in use
        return AnswerJudgement(
            label="correct", score=round(score, 4), reason=verdict.reason + "; LM judge: matches"
        )
    score = threshold * verdict.score * 0.99  # below the threshold
    return AnswerJudgement(
        label="incorrect", score=round(score, 4), reason=verdict.reason + "; LM judge: differs"
    )


def _judge_by_rules(
    answer: str, gold: Any, question: str | None, *, rel_tol: float | None, threshold: float
) -> AnswerJudgement:
    """The deterministic verdict: refusal, numeric gold, ``none`` gold, or textual gold."""
    text = as_answer(answer).body if answer else ""
    if not text.strip():
        return AnswerJudgement(label="refusal", score=0.0, reason="empty answer")
    if is_none_gold(gold_text(gold)):
        return _judge_none_gold(text)
    gold_tokens = gold_numbers(gold)
    tokens = extract_numbers(text)
    found = [
        g
        for g in gold_tokens
        if number_found(g, tokens, TEXT_REL_TOL if rel_tol is None else rel_tol)
    ]
    found += [g for g in changed_figures(gold_tokens, tokens, question) if g not in found]
    refusal = is_refusal(text)
    if is_numeric_gold(gold) and gold_tokens:
        if refusal and (is_self_refusal(text) or not commits(text)):
            return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
        if rel_tol is None:
            rel_tol = ROUNDED_REL_TOL if asks_rounding(question) else TEXT_REL_TOL
        return _judge_numeric_gold(text, gold_tokens[0], question, rel_tol)
    return _judge_text_gold(text, gold_text(gold), question, gold_tokens, tokens, found, threshold)


def answer_correctness(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: ``judge_answer(pred.report/answer, gold.answer).score``."""
    gold_answer = field(gold, "answer", gold)
    return judge_answer(report_text(pred), gold_answer, field(gold, "question")).score
