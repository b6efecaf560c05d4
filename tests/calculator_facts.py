"""Hand-made statement facts of a made-up company (Contoso) for the calculator tests."""

from __future__ import annotations

from retrieval.facts.model import Fact

DOC = "CONTOSO_2021_10K"


def fact(
    concept: str | None,
    fy: int,
    value: float,
    *,
    statement: str = "income",
    duration: str | None = None,
    page: int = 50,
    doc: str = DOC,
    unit: str = "USD",
    fq: int | None = None,
    label: str | None = None,
) -> Fact:
    """One fact; its page uid is derived from the document and page, as real uids are."""
    if duration is None:
        duration = "instant" if statement == "balance" else "year"
    return Fact(
        uid=f"{abs(hash((doc, page))) % 16**12:012x}",
        page_id=1000 + page,
        doc_name=doc,
        doc_label=f"CTSO 10-K FY{doc.split('_')[1]}",
        page_index=page,
        ticker="CTSO",
        statement=statement,
        label=label or (concept or "Other").replace("_", " ").title(),
        concept=concept,
        fy=fy,
        fq=fq,
        duration=duration,
        column=str(fy),
        value=value,
        unit=unit,
    )


def contoso() -> list[Fact]:
    """Income statement p.50, balance sheet p.52, cash-flow statement p.54 (FY2021 10-K)."""
    m = 1e6
    income = [
        fact("revenue", 2021, 1200 * m),
        fact("revenue", 2020, 1000 * m),
        fact("revenue", 2019, 900 * m),
        fact("cost_of_revenue", 2021, 700 * m),
        fact("cost_of_revenue", 2020, 600 * m),
        fact("operating_income", 2021, 240 * m),
        fact("operating_income", 2020, 150 * m),
        fact("interest_expense", 2021, -20 * m),
        fact("pretax_income", 2021, 220 * m),
        fact("income_tax", 2021, 44 * m),
        fact("net_income", 2021, 176 * m),
        fact("net_income_attributable", 2021, 170 * m),
        fact("diluted_eps", 2021, 1.70, unit="USD/share"),
        fact("diluted_shares", 2021, 100 * m, unit="shares"),
    ]
    balance = [
        fact(c, y, v * m, statement="balance", page=52)
        for c, y, v in (
            ("cash", 2021, 150), ("cash", 2020, 120),
            ("receivables", 2021, 200), ("receivables", 2020, 180),
            ("inventory", 2021, 130), ("inventory", 2020, 110),
            ("current_assets", 2021, 520), ("current_assets", 2020, 450),
            ("ppe_net", 2021, 800), ("ppe_net", 2020, 760),
            ("total_assets", 2021, 2000), ("total_assets", 2020, 1800),
            ("payables", 2021, 90), ("payables", 2020, 70),
            ("current_liabilities", 2021, 400), ("current_liabilities", 2020, 380),
            ("short_term_debt", 2021, 50), ("long_term_debt", 2021, 450),
            ("equity", 2021, 1000), ("equity", 2020, 900),
        )
    ]  # fmt: skip
    cash_flow = [
        fact(c, y, v * m, statement="cash_flow", page=54)
        for c, y, v in (
            ("cfo", 2021, 300), ("cfo", 2020, 260),
            ("dna", 2021, 60), ("dna", 2020, 55),
            ("capex", 2021, -90), ("capex", 2020, -80), ("capex", 2019, -70),
            ("dividends_paid", 2021, -68),
        )
    ]  # fmt: skip
    return income + balance + cash_flow
