"""Whether a business is capital-intensive, settled by code where its capex says so plainly.

"Is eBay a capital-intensive business as of FY2022?" was answered "Yes, eBay is a
capital-intensive business … capital expenditures … were $442 million, which represents
approximately 4.6% of its revenue": the model's yes, beside code's figure that says the
opposite to any analyst. How much capital expenditure makes a business capital-intensive
is read against its industry, so code draws no single line; it settles the plain cases
only. Utilities, telecoms, chip makers and energy producers spend well over a tenth of
their revenue on capital expenditure (Intel 18.3% in FY2020, 39.4% in FY2022);
marketplaces, software houses, retailers and service firms a few percent (eBay 4.6% in
FY2022). So capex at or above :data:`CLEARLY_INTENSIVE` of revenue is a "Yes", below
:data:`CLEARLY_LIGHT` a "No", and between them the judgement stays the model's, beside the
figure, read against the business. The question is researched either way: what the filing
says of its assets is the rest of the answer, and a draft that opens with the other yes/no
than code's is dropped whole (:func:`programs.figure_check.drop_contradicting_in_slice`).
"""

from __future__ import annotations

import re

from programs.answer_form import opens_yes_no

#: Capex as a share of revenue at or above which a business is plainly capital-intensive.
CLEARLY_INTENSIVE = 0.10
#: ... and below which it plainly is not.
CLEARLY_LIGHT = 0.05
#: A question on whether the business is capital-intensive (not "asset-light", not how much).
_ASKS_INTENSITY = re.compile(r"\bcapital[- ]intensive\b|\bcapital\s+intensity\b", re.IGNORECASE)


def intensity_verdict(question: str, formula: str, value: float, text: str) -> str | None:
    """The verdict sentence (no citation marks) for a yes/no question on whether the
    company is capital-intensive, from its capex as a share of revenue (``formula``
    ``capex_to_revenue``, its ``value`` written ``text``); None for another question or
    figure, or a share between the plain cases."""
    if formula != "capex_to_revenue" or not opens_yes_no(question):
        return None
    if not _ASKS_INTENSITY.search(question):
        return None
    if value >= CLEARLY_INTENSIVE:
        return (
            f"Yes: capital-intensive, with capital expenditure of {text} of revenue, over a "
            "tenth of it, as in utilities, telecoms, chip making and energy"
        )
    if value < CLEARLY_LIGHT:
        return (
            f"No: not capital-intensive, with capital expenditure of {text} of revenue, under "
            "a twentieth of it, as in asset-light businesses"
        )
    return None
