"""Code's checks on one round's draft, in the order they run, and the round's record of them.

A researcher's raw Markdown becomes the probe's answer only through these, each reading
the pages the probe retrieved (never the model's word for them):

1. :func:`programs.drafts.verify_draft`: pasted lines dropped, hit numbers resolved,
   fabricated citations removed, footnotes rewritten from the grid, an amount cited to a
   page that does not print it cited afresh, uncited sentences attributed or dropped,
   misquotes and unsupported numbers dropped;
2. :func:`programs.answer_form.fit_to_question`: the answer's form fitted to its question
   (no echoed question, no stray "Yes," before the answer to a "what" question);
3. :func:`programs.echo_check.uncite_echoes`: a sentence that only restates the question
   keeps its citation only where a cited page says it;
4. :func:`programs.claim_check.check_figures`: a figure the slice's statements hold wins
   over a model's copy of it;
5. :func:`programs.part_check.drop_whole_as_part`: a segment or a geography is not given
   the whole company's figure, nor the company a segment's
   (:func:`programs.part_check.drop_part_as_whole`);
6. :func:`programs.cause_check.drop_misattributed_causes`: a cause a page gives one figure
   is not given to another;
7. :func:`programs.owner_check.drop_numbers_of_other_figures`: nor is a number, and
   :func:`programs.obligation_check.drop_future_as_actual`: an amount its pages give only
   to future payments is no figure of the year;
8. :func:`programs.direction_check.drop_misdirected`: a sentence that says its figure rose
   where its own two numbers fell (or the reverse) goes;
9. :func:`programs.basis_check.drop_unsupported_sequential`: a sentence that calls a figure
   quarter over quarter where its cited pages speak of no such comparison goes;
10. :func:`programs.count_check.drop_miscounted`: a sentence that counts employees, stores,
    segments or customers where its cited pages name no such thing goes;
11. :func:`programs.period_check.drop_later_years`: a sentence whose fiscal years are all
    later than every cited filing's own goes (the question's year on another year's page);
12. :func:`programs.ratio_check.drop_unprinted_ratios`: a ratio that no cited page prints and
    code did not compute goes;
13. :func:`programs.draft_checks.drop_pasted_formulas`: a sentence in the calculator's
    notation (``÷``, ``|cost of revenue|``) goes; the report's Formulas note gives it;
14. :func:`programs.draft_checks.drop_dangling_lead_in`: a last sentence that leads in to
    a list ("… include the following:") goes once the list is gone, as does one that says
    nothing ("The evidence cites¹", a cause of "a combination of factors");
15. :func:`programs.draft_checks.drop_repeats`: a sentence that says again what one before
    it said goes (the same sentence cited to two pages);
16. :func:`programs.page_scale.with_page_scale`: a dollar amount copied from a table "in
    millions" without its scale gets it ("$10,682" -> "$10,682 million");
17. :func:`programs.page_scale.drop_unit_swaps`: a sentence stating as dollars a number its
    pages print only as a percentage goes ("$1.69 million" of a 1.69% rate);
18. :func:`programs.share_check.drop_misstated_shares`: a sentence that states an amount
    as a share of revenue it is not (of the year's revenue or the year before's) goes;
19. :func:`programs.draft_checks.pasted_verdict`: a draft that pasted its evidence is sent
    back by code, not reviewed.

The probe loop (:mod:`programs.probe_loop`) runs a round; this module is what a round
checks, apart so that a new check is added here and counted in the record in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.cells import SliceRef
from programs.answer_form import fit_to_question
from programs.basis_check import drop_unsupported_sequential
from programs.cause_check import drop_misattributed_causes
from programs.claim_check import check_figures
from programs.count_check import drop_miscounted
from programs.direction_check import drop_misdirected
from programs.draft_checks import (
    drop_dangling_lead_in,
    drop_pasted_formulas,
    drop_repeats,
    pasted_verdict,
)
from programs.drafts import WEB_DOC_TYPE, VerifiedDraft, verify_draft
from programs.echo_check import uncite_echoes
from programs.figures import Figures
from programs.obligation_check import drop_future_as_actual
from programs.owner_check import drop_numbers_of_other_figures
from programs.page_scale import drop_unit_swaps, with_page_scale
from programs.part_check import drop_part_as_whole, drop_whole_as_part
from programs.period_check import drop_later_years
from programs.ratio_check import drop_unprinted_ratios
from programs.share_check import drop_misstated_shares
from retrieval.search.tools import EquitySearchTool
from signatures.reviewer import ReviewVerdict
from signatures.synthesiser import Figure


@dataclass
class CheckedDraft:
    """A round's draft after code's checks, and the round's record of what they changed."""

    verified: VerifiedDraft
    #: Code's verdict on a draft that pasted its evidence (None: the reviewer reads it).
    pasted: ReviewVerdict | None
    record: dict[str, Any]


def check_draft(
    raw: str,
    tool: EquitySearchTool,
    probe_question: str,
    slice: SliceRef,
    figure: Figure | None,
    figures: Figures | None,
    computed: Sequence[float] = (),
) -> CheckedDraft:
    """``raw`` checked against the pages ``tool`` retrieved, the slice's statement figure
    ``figure`` (if any), the values code computed for the probe (``computed``: the
    ``wissen_calculate`` results) and the probe's question."""
    verified = verify_draft(raw, tool, probe_question, figure)
    fitted, form_edits = fit_to_question(probe_question, verified.answer)
    read = {uid: hit.text for uid, hit in tool.retrieved.items()}
    fitted, echoes = uncite_echoes(fitted, read, probe_question)
    checked, contradicting = check_figures(fitted, slice, figure, figures)
    checked, whole_as_part = drop_whole_as_part(checked, slice, figures)
    checked, part_as_whole = drop_part_as_whole(checked, read)
    checked, misattributed = drop_misattributed_causes(checked, list(read.values()), probe_question)
    checked, other_figures = drop_numbers_of_other_figures(checked, read, probe_question)
    checked, future_as_actual = drop_future_as_actual(checked, read)
    checked, misdirected = drop_misdirected(checked)
    checked, unsupported_sequential = drop_unsupported_sequential(checked, read)
    checked, miscounted = drop_miscounted(checked, read)
    years = {uid: hit.fy for uid, hit in tool.retrieved.items() if hit.doc_type != WEB_DOC_TYPE}
    checked, later_years = drop_later_years(checked, years)
    known = [*computed, *([figure.value] if figure is not None else [])]
    checked, unprinted_ratios = drop_unprinted_ratios(checked, read, known)
    checked, formulas = drop_pasted_formulas(checked)
    checked, lead_ins = drop_dangling_lead_in(checked)
    checked, repeats = drop_repeats(checked)
    checked, scaled = with_page_scale(checked, read)
    checked, unit_swaps = drop_unit_swaps(checked, read)
    checked, misstated_shares = drop_misstated_shares(checked, slice, figures, probe_question)
    verified = dataclasses.replace(verified, answer=checked)
    answer = verified.answer
    record = {
        "draft": raw,
        "verified_draft": answer.to_markdown(),
        "fabricated_citations": len(verified.fabricated),
        "fabricated": verified.fabricated,
        "dangling_markers": verified.dangling_markers,
        "copied_lines_dropped": verified.copied_lines_dropped,
        "attributed_by_code": verified.attributed_by_code,
        "uncited_numbers_dropped": verified.uncited_numbers_dropped,
        "misquoted_dropped": verified.misquoted_dropped,
        "miscited_uncited": verified.miscited_uncited,
        "uncited_prose_dropped": verified.uncited_prose_dropped,
        "tails_trimmed": verified.tails_trimmed,
        "contradicting_figures_dropped": contradicting,
        "whole_as_part_dropped": whole_as_part,
        "part_as_whole_dropped": part_as_whole,
        "misattributed_causes_dropped": misattributed,
        "numbers_of_other_figures_dropped": other_figures,
        "future_as_actual_dropped": future_as_actual,
        "misdirected_dropped": misdirected,
        "unsupported_sequential_dropped": unsupported_sequential,
        "miscounted_dropped": miscounted,
        "later_years_dropped": later_years,
        "unprinted_ratios_dropped": unprinted_ratios,
        "pasted_formulas_dropped": formulas,
        "dangling_lead_ins_dropped": lead_ins,
        "repeats_dropped": repeats,
        "amounts_scaled": scaled,
        "unit_swaps_dropped": unit_swaps,
        "misstated_shares_dropped": misstated_shares,
        "form_edits": form_edits,
        "echoes_uncited": echoes,
        "citations": [f.citation.uid for f in answer.references.footnotes],
    }
    pasted = pasted_verdict(raw, verified.copied_lines_dropped, answer)
    return CheckedDraft(verified, pasted, record)
