"""Grid coordinates from FinanceBench-style file names.

``3M_2018_10K.pdf`` → MMM FY2018 Q4 10-K; ``PEPSICO_2023Q2_10Q.pdf`` → PEP FY2023 Q2;
``PEPSICO_2023_8K_dated-2023-05-05.pdf`` → PEP FY2023 8-K dated 2023-05-05.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.companies import Company, company_for_prefix
from retrieval.pages import normalise_doc_type

_REST = re.compile(
    r"^(?:(?P<fy>\d{4})(?:Q(?P<q>[1-4]))?_)?"
    r"(?P<type>10K_ANNUALREPORT|ANNUALREPORT|10K|10Q|8K|EARNINGS)"
    r"(?:[_-]dated[_-](?P<date>\d{4}-\d{2}-\d{2}))?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DocMeta:
    doc_name: str
    company: str
    ticker: str
    fy: int
    fq: int
    doc_type: str
    doc_date: str | None


def fiscal_quarter(doc_type: str, quarter: int | None, doc_date: str | None) -> int:
    """The grid's FQ cell: annual documents are Q4; an undated-quarter 8-K takes the
    calendar quarter of its date (the best a file name can tell)."""
    if quarter:
        return quarter
    if doc_type in ("10-K", "ANNUAL REPORT"):
        return 4
    if doc_date:
        return (int(doc_date[5:7]) - 1) // 3 + 1
    return 4


def parse_doc_name(doc_name: str, companies: tuple[Company, ...]) -> DocMeta:
    """Metadata for ``doc_name`` (with or without ``.pdf``); ValueError if it can't be read."""
    stem = re.sub(r"\.pdf$", "", doc_name.strip(), flags=re.IGNORECASE)
    try:
        company, rest = company_for_prefix(stem, companies)
    except LookupError as exc:
        raise ValueError(str(exc)) from None
    match = _REST.match(rest)
    if not match:
        raise ValueError(
            f"cannot read {doc_name!r}: expected COMPANY_YYYY_10K, COMPANY_YYYYQn_10Q, "
            "COMPANY_YYYYQn_EARNINGS or COMPANY_YYYY_8K_dated-YYYY-MM-DD"
        )
    doc_type = normalise_doc_type(match["type"].upper())
    doc_date = match["date"]
    if match["fy"]:
        fy = int(match["fy"])
    elif doc_date:
        fy = int(doc_date[:4])
    else:
        raise ValueError(f"cannot read a fiscal year from {doc_name!r}")
    quarter = int(match["q"]) if match["q"] else None
    return DocMeta(
        doc_name=stem,
        company=company.name,
        ticker=company.ticker,
        fy=fy,
        fq=fiscal_quarter(doc_type, quarter, doc_date),
        doc_type=doc_type,
        doc_date=doc_date,
    )
