"""Company ↔ ticker map: which listed companies the grid can hold.

The bundled map covers the FinanceBench companies (``assets/companies.json``, from
FinanceBench by Patronus AI); ``--companies FILE`` or ``WISSEN_COMPANIES`` points to
another file of the same shape.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from domain.fiscal_calendar import DECEMBER_YEAR_END, check_year_end

BUNDLED_COMPANIES = Path(__file__).parent / "assets" / "companies.json"


@dataclass(frozen=True)
class Company:
    name: str
    ticker: str
    doc_name_prefixes: tuple[str, ...]
    sector: str = ""
    #: Other names the company is asked about by: its registrant name where the map's is a
    #: short form ("Advanced Micro Devices"), former names ("Wal-Mart"), the short forms
    #: analysts write ("Lockheed", "Amex"). A word that is also common English ("Square"
    #: for Block) is left out: a question about square feet is not about Block.
    aliases: tuple[str, ...] = ()
    #: The day its fiscal year ends, MMDD as SEC submissions write it ("0531" for Nike):
    #: a quarter a question dates ("ended November 30, 2023") is read in this calendar.
    fiscal_year_end: str = DECEMBER_YEAR_END


@lru_cache(maxsize=4)
def load_companies(path: str | None = None) -> tuple[Company, ...]:
    """Companies from ``path``, ``$WISSEN_COMPANIES`` or the bundled map."""
    source = Path(path or os.environ.get("WISSEN_COMPANIES") or BUNDLED_COMPANIES)
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or not all(
            isinstance(info, dict) and isinstance(info.get("ticker"), str) for info in raw.values()
        ):
            raise ValueError('expected {"Company name": {"ticker": "TICK", ...}, ...}')
        return tuple(
            Company(
                name=name,
                ticker=info["ticker"].upper(),
                doc_name_prefixes=tuple(info.get("doc_name_prefixes") or [name.upper()]),
                sector=info.get("gics_sector", ""),
                aliases=tuple(info.get("aliases") or ()),
                fiscal_year_end=check_year_end(
                    str(info.get("fiscal_year_end") or DECEMBER_YEAR_END)
                ),
            )
            for name, info in raw.items()
        )
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        # A company map is a file the user named (--companies, $WISSEN_COMPANIES): say which.
        raise ValueError(f"cannot read the company map {source}: {exc}") from None


def company_for_prefix(doc_name: str, companies: tuple[Company, ...]) -> tuple[Company, str]:
    """The company whose file-name prefix starts ``doc_name``, and the rest of the name.

    Longest prefix wins, so ``PG_E_2023_…`` is PG&E, not a company called ``PG``.
    """
    candidates = [
        (prefix, company)
        for company in companies
        for prefix in company.doc_name_prefixes
        if doc_name.upper().startswith(prefix.upper() + "_")
    ]
    if not candidates:
        raise LookupError(f"no known company for document {doc_name!r}")
    prefix, company = max(candidates, key=lambda pc: len(pc[0]))
    return company, doc_name[len(prefix) + 1 :]
