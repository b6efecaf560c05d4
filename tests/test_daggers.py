"""Daggers: placement exactly where flagged slices' data is used, with notes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import cited_answers

from citations import SliceResult, apply_daggers, merge_answers, split_sentences
from citations.markup import DAGGER, CitedAnswer
from domain.cells import SliceRef
from metrics import score_daggers


def slices_from(answers: list[CitedAnswer], flags: list[bool]) -> list[SliceResult]:
    return [
        SliceResult(
            slice=SliceRef(ticker=f"T{i}", fy=2024, fq=1 + i % 4),
            answer=a,
            open_issues=[f"† Probe {i + 1}: insufficient evidence"] if flag else [],
        )
        for i, (a, flag) in enumerate(zip(answers, flags, strict=True))
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(cited_answers(max_sentences=4), min_size=1, max_size=4), st.data())
def test_daggers_exactly_where_flagged_data_is_used(answers, data):
    flags = data.draw(st.lists(st.booleans(), min_size=len(answers), max_size=len(answers)))
    slices = slices_from(answers, flags)
    report, _ = merge_answers(answers)
    daggered = apply_daggers(report, slices)
    flagged_uids = {u for s in slices if s.flagged for u in s.uids()}
    table = daggered.references.by_number()
    for sentence in split_sentences(daggered.body):
        uses_flagged = any(table[n].uid in flagged_uids for n in sentence.markers)
        assert sentence.has_dagger == uses_flagged
    assert apply_daggers(daggered, slices) == daggered  # idempotent
    result = score_daggers(daggered, slices)
    assert (result.precision, result.recall, result.explained) == (1.0, 1.0, 1.0)
    labels = {n.slice_label for n in daggered.dagger_notes}
    assert labels == set(result.slices_used)


def test_dagger_note_format_and_label():
    ko = SliceResult(
        slice=SliceRef(ticker="KO", fy=2024, fq=1),
        answer=CitedAnswer.from_markdown(
            "Sales grew 5%.¹\n\n¹ KO 10-Q FY2024 Q1 p.4 (page_id: 11, uid: aaaaaaaaaaaa)"
        ),
        open_issues=["† Probe 2: insufficient evidence on “What drove sales?” (no segment page)"],
    )
    pep = SliceResult(
        slice=SliceRef(ticker="PEP", fy=2024, fq=1),
        answer=CitedAnswer.from_markdown(
            "Sales grew 2%.¹\n\n¹ PEP 10-Q FY2024 Q1 p.9 (page_id: 12, uid: bbbbbbbbbbbb)"
        ),
    )
    report, _ = merge_answers([ko.answer, pep.answer])
    out = apply_daggers(report, [ko, pep])
    assert out.body == f"Sales grew 5%.¹{DAGGER}\n\nSales grew 2%.²"
    md = out.to_markdown()
    assert md.endswith(
        "**Notes**\n\n† Evidence incomplete for KO FY2024 Q1 – the filing pages found do not "
        "answer “What drove sales?” (no segment page)"
    )
    assert CitedAnswer.from_markdown(md) == out


def test_dagger_metric_penalises_missing_and_spurious():
    md = (
        "KO sales grew 5%.¹ PEP sales grew 2%.²†\n\n"
        "¹ KO 10-Q FY2024 Q1 p.4 (page_id: 11, uid: aaaaaaaaaaaa)\n"
        "² PEP 10-Q FY2024 Q1 p.9 (page_id: 12, uid: bbbbbbbbbbbb)"
    )
    result = score_daggers(md, {"KO FY2024 Q1": {"aaaaaaaaaaaa"}})
    assert result.precision == 0.0 and result.recall == 0.0
    assert result.unexplained_daggers and result.score == 0.0


def test_a_dagger_note_never_points_at_a_section_the_report_lacks():
    from citations.daggers import explain_issue

    assert explain_issue("† Probe 2: insufficient evidence") == "insufficient evidence"
    assert explain_issue("† Probe 1: insufficient evidence on “Q?”") == (
        "the filing pages found do not answer “Q?”"
    )


def test_a_claim_that_states_nothing_cites_nothing():
    from citations.sentences import without_empty_claims

    body = "Sales grew 5%.¹ <br>¹†\n\n| Metric | A |\n| --- | --- |\n| Sales | <br>² |"
    assert without_empty_claims(body) == (
        "Sales grew 5%.¹ \n\n| Metric | A |\n| --- | --- |\n| Sales | – |"
    )


def test_a_sentence_reworded_around_the_same_words_and_numbers_is_said_once():
    from citations.sentences import without_repeats

    code = (
        "ORCL FY2022 Q4: Debt-to-equity does not apply to ORCL: its shareholders' equity was "
        "negative at the end of FY2022, so a ratio to it is not meaningful¹."
    )
    reworded = (
        "The debt-to-equity ratio does not apply to ORCL because its shareholders' equity was "
        "negative at the end of FY2022, so a ratio to it is not meaningful.¹"
    )
    assert without_repeats(f"{code} {reworded}").strip() == code
    # A year, a figure or a clause of its own is news, however many words it shares.
    years = (
        "Gross margin of the company in FY2021 was 68.2% of its net sales¹. "
        "Gross margin of the company in FY2022 was 67.3% of its net sales²."
    )
    assert without_repeats(years) == years
    clause = (
        "Debt-to-equity does not apply to ORCL: its shareholders' equity was negative¹. "
        "Debt-to-equity does not apply to ORCL: its shareholders' equity was negative after "
        "buybacks of $16 billion¹."
    )
    assert without_repeats(clause) == clause
    companies = (
        "3M's net revenue in fiscal year 2022 grew by 5% over the prior year¹. "
        "PepsiCo's net revenue in fiscal year 2022 grew by 5% over the prior year²."
    )
    assert without_repeats(companies) == companies


def test_a_sentence_said_twice_is_said_once_and_table_cells_stay():
    from citations.sentences import without_repeats

    said = "Debt rose.¹ The rise was due to new notes.² The rise was due to new notes.²"
    table = "\n\n| Metric | A | B |\n| --- | --- | --- |\n| Debt | $5¹ | $5¹ |"
    assert without_repeats(said + table) == ("Debt rose.¹ The rise was due to new notes.² " + table)
    assert without_repeats("Debt rose.¹ Debt rose in FY2023.¹") == (
        "Debt rose.¹ Debt rose in FY2023.¹"
    )
