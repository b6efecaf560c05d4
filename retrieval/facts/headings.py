"""Which financial statement a page line names, if it is a statement's heading.

Headings are matched with spaces removed and in lower case, because PyMuPDF sometimes
splits words ("Consolidated Statement of Cash Flow s"). Only a line that *is* a heading
counts: a sentence that mentions a statement ("see the Consolidated Statements of
Income"), a notes header ("Notes to Consolidated Financial Statements"), an index entry
or selected data ("... Statements of Operations Data") does not.
"""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")

#: Some word of every heading, checked before any pattern (most lines have none).
_CUES = ("stat", "bal", "fin", "flow", "sheet", "s heet")

#: Statement phrases (spaces removed), most specific first.
_PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (statement, re.compile(pattern))
    for statement, pattern in (
        (
            "comprehensive_income",
            r"statements?of(?:consolidated)?comprehensive(?:income|loss|earnings)",
        ),
        (
            "equity",
            r"statements?of(?:changesin)?(?:consolidated)?(?:total)?"
            r"(?:(?:share|stock)(?:holders|owners)|members|partners)?['’]?s?(?:equity|deficit)",
        ),
        ("cash_flow", r"statements?of(?:consolidated)?cashflows?|cashflowsstatements?"),
        (
            "income",
            r"statements?of(?:consolidated)?(?:income|operations|earnings)|incomestatements?",
        ),
        (
            "balance",
            r"balancesheets?|statements?of(?:consolidated)?financial(?:position|condition)",
        ),
    )
)

#: What may stand before a statement phrase: an optional company name, then "condensed",
#: "consolidated" or "combined" in either order.
_QUALIFIER = re.compile(r"(?:condensed|consolidated|combined|unaudited|\(unaudited\))+$")

#: Words in a prefix that make the line prose or a notes/index header, not a heading.
_PROSE = re.compile(
    r"notes?to|indexto|see|reportof|analysisof|impactof|effectof|reflected|within|inour|"
    r"onthe|tothe|ofthe|inthe|includedin|presentedin|consolidating|proforma|supplemental|"
    r"parentcompany|registrant|item\d|schedule"
)

#: What may follow the phrase: qualifiers, scale notes, a company name. Not "… and" another
#: thing, except comprehensive income or Intel's "… Statements of Income and Other
#: Information", a statement with a few non-GAAP lines under it.
_SUFFIX_NOT = re.compile(
    r"^(?:data|information|analysis|and(?!comprehensive|otherinformation)|for\b|were|are|is)"
)


def heading_statement(line: str) -> str | None:
    """The statement (one of ``model.STATEMENTS``) a heading line names, else None."""
    lowered = line.lower()
    if not any(word in lowered for word in _CUES):
        return None
    key = _SPACES.sub("", lowered)
    if not 8 <= len(key) <= 130:
        return None
    found = None
    for statement, pattern in _PHRASES:
        match = pattern.search(key)
        if match and (found is None or match.start() < found[1].start()):
            found = (statement, match)
    if found is None:
        return None
    statement, match = found
    prefix, suffix = key[: match.start()], key[match.end() :]
    qualifier = _QUALIFIER.search(prefix)
    company = prefix[: qualifier.start()] if qualifier else prefix
    if _PROSE.search(prefix) or len(company) > 60:
        return None
    if company and not qualifier:
        return None  # "...income statement" inside a sentence, not "X Inc. Consolidated ..."
    if (
        not qualifier
        and statement != "balance"
        and not key.startswith(("statement", "income", "cashflow"))
    ):
        return None
    if _SUFFIX_NOT.match(suffix) or len(suffix) > 70:
        return None
    if key.endswith(".") and not key.endswith(("inc.", "co.", "corp.", "ltd.")):
        return None  # a sentence
    return statement
