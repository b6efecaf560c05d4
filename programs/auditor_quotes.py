"""Who audits the company, answered by the signature on the 10-K's auditor's report.

Every 10-K prints the "Report of Independent Registered Public Accounting Firm", signed by
the firm ("/s/ Ernst & Young LLP") and, since 2017, followed by "We have served as the
Company's auditor since 2009." Asked "Who is Apple's independent registered public
accounting firm according to its FY2022 10-K?", the embedded model read that page and
answered "Apple Inc. is Apple's independent registered public accounting firm". The
signature is the answer, so code reads it from the slice's 10-K pages searched for the
question and for the report's own words, and quotes it. Where two firms sign (a company
that changed auditors prints the former one's report on the earlier years), the one that
says it serves as auditor is the answer; where that does not settle it, the research goes
on as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from programs.page_hits import PageHit, cited_to

#: "Who is its auditor?", "Which accounting firm audited …?", "Name the independent
#: registered public accounting firm"; not its audit fees or audit committee.
_ASKS = re.compile(
    r"\b(?:who|which|what|name)\b[^?]*\b(?:auditors?\b(?![’']s\s+(?:opinion|report)|\s+"
    r"(?:opinion|report|fees?))|audit(?:s|ed|ing)?\b(?!\s+(?:fees?|committee|opinion|"
    r"services|report))|(?:independent\s+)?(?:registered\s+)?(?:public\s+)?accounting\s+firm)",
    re.IGNORECASE,
)
#: The report's signature: "/s/ Ernst & Young LLP", "/s/ DELOITTE & TOUCHE LLP".
_SIGNED = re.compile(r"/s/\s*([A-Z][A-Za-z&.,' \n-]{2,60}?(?:LLP|L\.L\.P\.))")
#: The page is the auditor's report (or its consent), not a signature page of officers.
_REPORT = re.compile(
    r"independent\s+registered\s+public\s+accounting\s+firm|auditor\s+since", re.IGNORECASE
)
#: "We have served as the Company's auditor since 2009" ("as Apple Inc.'s auditor").
_SINCE = re.compile(r"served\s+as\s+[^\n]{0,60}?[’']s\s+auditor\s+since\s+(\d{4})", re.IGNORECASE)
#: The report's own words, searched beside the question.
AUDITOR_QUERY = "report of independent registered public accounting firm we have served as auditor"


def asks_auditor(question: str) -> bool:
    """Whether the question asks who the company's auditor is."""
    return _ASKS.search(question) is not None


def quoted_auditor(
    question: str, pages: Sequence[PageHit]
) -> tuple[PageHit, str, str | None] | None:
    """The page of the auditor's report among ``pages``' 10-K pages (in search order), the
    firm that signed it (as printed; in capitals only where no page prints it otherwise) and
    the year it says it has served since; None when the question asks none, no report is
    signed, or the firms that sign differ and the one serving is not said."""
    if not asks_auditor(question):
        return None
    # firm (lower case) -> its report's page, the year it serves since, its name as printed
    signed: dict[str, tuple[PageHit, str | None, str]] = {}
    for page in pages:
        if "10-K" not in page.doc_label or not _REPORT.search(page.text):
            continue
        for match in _SIGNED.finditer(page.text):
            firm = " ".join(match.group(1).split())
            found = _SINCE.search(page.text[match.end() : match.end() + 200])
            since = found.group(1) if found else None
            page_of, since_of, name = signed.get(firm.lower(), (page, since, firm))
            if since_of is None and since is not None:
                page_of, since_of = page, since
            if name.isupper() and not firm.isupper():
                name = firm  # "Deloitte & Touche LLP" where a page prints it so
            signed[firm.lower()] = (page_of, since_of, name)
    serving = [v for v in signed.values() if v[1]] if len(signed) > 1 else list(signed.values())
    if len(serving) != 1:
        return None
    page, since, name = serving[0]
    return page, name, since


def auditor_answer(page: PageHit, firm: str, since: str | None) -> CitedAnswer:
    """The firm named, with the report it signed and the year it says it has served since."""
    served = f", and has served as the company's auditor since {since}" if since else ""
    return cited_to(
        f"{firm}: it signed the report of independent registered public accounting firm in "
        f"the {page.doc_label}{served}¹.",
        page,
    )
