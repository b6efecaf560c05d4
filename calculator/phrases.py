"""The words questions use for concepts and metrics: data, one place, longest match wins.

Each entry is a regular expression over lower-cased text (word boundaries added) and the
name it stands for: a concept (``capex``) or a metric (``operating_margin``). Plain "net
income" means the income attributable to shareholders, as analysts (and FinanceBench) use it.
"""

from __future__ import annotations

import re
from functools import cache

#: What cash was provided by, as statements print it ("provided by (used in)") and as
#: people put it around their own words: "net cash did 3M provide from its operating
#: activities", "net cash of $5,591 million from operations". Up to four words between,
#: never "cash" alone: that is the balance sheet's cash.
_PROVIDED = (
    r"(?:[\w$.,'’-]+ ){0,4}?(?:provided|provides?|generated|generates?|used|uses?|from|by)"
    r"(?: by| from| in| \(used in\)){0,2} "
    r"(?:its |the |their |our |(?:the )?(?:company|firm)['’]s )?"
)

#: The verbs of "reported a net loss", which asks net income's sign as "loss-making" does
#: (:data:`programs.verdicts` reads the same words for the answer's polarity).
LOSS_VERBS = r"report|reported|post|posted|record|recorded|incur|incurred"
#: "Return to a profit", "back to profitability", "swung to a profit": net income's sign
#: asked after a loss (:mod:`programs.verdicts` and :mod:`programs.series_verdicts` answer it).
RETURN_TO_PROFIT = (
    r"(?:return(?:ed|s)?|back|swung|swing|swings)\s+to\s+(?:a\s+)?(?:net\s+)?profit(?:ability)?"
)

PHRASES: dict[str, tuple[str, ...]] = {
    # concepts
    "revenue": (
        r"(?:total )?(?:net )?revenues?",
        r"(?:total )?(?:net )?sales",
        r"top[- ]line",
    ),
    "cost_of_revenue": (
        r"cogs",
        r"cost of (?:goods |products )?sold",
        r"cost of (?:sales|revenues?)",
        r"cost of products sold",
    ),
    "gross_profit": (r"gross profit",),
    "sga": (r"sg&a", r"selling,? general,? (?:and|&) administrative(?: expenses?)?"),
    "sales_marketing": (r"(?:sales|selling) (?:and|&) marketing(?: expenses?)?",),
    "general_administrative": (r"g&a", r"general (?:and|&) administrative(?: expenses?)?"),
    "rnd": (r"r&d", r"research (?:and|&) development(?: expenses?)?"),
    "operating_expenses": (
        r"(?:total )?operating (?:expenses?|costs?)(?: and expenses)?",
        r"opex",
        r"(?:total )?costs and expenses",
    ),
    "operating_income": (
        r"(?:unadjusted )?operating (?:income|profit|earnings)",
        r"income from operations",
        r"(?:unadjusted )?ebit",  # as analysts use it: operating income
    ),
    "interest_expense": (r"interest expenses?",),
    "pretax_income": (r"pre-?tax income", r"income before (?:income )?taxes"),
    "income_tax": (
        r"(?:income )?tax expense",
        r"provision for income taxes",
        r"income tax(?:es)?(?: expense| provision)?",
    ),
    "net_income": (r"net (?:income|earnings) including non-?controlling interests?",),
    "net_income_attributable": (
        r"net (?:income|earnings|profit)(?: attributable to (?:[\w.&'-]+ ){0,6}?"
        r"(?:shareholders|shareowners|stockholders|common stockholders))?",
        # "Was Intel profitable?", "Did it turn a profit?" ask net income's sign
        r"(?:un)?profitable|loss-making|(?:make|made|turn|turned) a profit",
        # "Did PG&E return to a profit in FY2020?" asks the same sign after a loss
        RETURN_TO_PROFIT,
        # "Did Intel report a net loss?" asks the same sign the other way
        rf"(?:{LOSS_VERBS}) a (?:net )?loss",
    ),
    "net_income_to_common": (
        r"net (?:income|earnings) (?:applicable|available) to common (?:stock|share)holders",
    ),
    "dna": (r"depreciation (?:and|&) amorti[sz]ation", r"d&a", r"depreciation"),
    "capex": (
        r"capital expenditures?",
        r"capex",
        r"capital spending",
        r"purchases? of property,? (?:plant,? )?(?:and|&) equipment",
    ),
    "cfo": (
        rf"(?:net )?cash (?:flows? )?{_PROVIDED}(?:operating activities|operations)",
        r"operating cash flows?",
        r"cash from operations",
    ),
    "cfi": (
        rf"(?:net )?cash (?:flows? )?{_PROVIDED}investing activities",
        r"investing cash flows?",
    ),
    "cff": (
        rf"(?:net )?cash (?:flows? )?{_PROVIDED}financing activities",
        r"financing cash flows?",
    ),
    "dividends_paid": (
        r"(?:total )?(?:cash )?dividends(?: paid(?: out)?)?",
        r"(?<=\ba )(?:cash )?dividend\b(?! (?:payout|yield|per|coverage|ratio))",
    ),
    "buybacks": (
        r"share repurchases?",
        r"(?:share |stock )?buybacks?",
        r"repurchases? of (?:common )?stock",
    ),
    # Cash paid for businesses, as asked of the cash-flow line ("spend on acquisitions");
    # "acquisitions" alone may ask which ones, or set them aside ("excluding M&A").
    "acquisitions": (
        r"(?:cash )?(?:spen[dt]|spending|paid|pay|payments?|outlays?|use[ds]?) (?:on|for) "
        r"(?:business )?acquisitions",
        r"acquisition spending",
        r"acquisitions,? net of cash acquired",
    ),
    # "net cash" is cash less debt, and "net cash provided by …" the cash-flow lines above.
    # Not "uses of cash" or "sources of cash": flows, which a list of items answers.
    "cash": (
        r"cash and (?:cash )?equivalents",
        r"(?<!net )(?<!uses of )(?<!use of )(?<!sources of )(?<!source of )cash(?! flows?)",
    ),
    "cash_and_investments": (
        r"cash(?:,| and) (?:cash equivalents,? )?(?:and )?(?:short[- ]term|marketable) "
        r"(?:investments|securities)",
    ),
    "receivables": (
        r"(?:net )?(?:accounts |trade )?receivables?(?:,? net)?",
        r"(?:net )?a/?r",
    ),
    "inventory": (r"(?:merchandise )?inventor(?:y|ies)(?:,? net)?",),
    "current_assets": (r"(?:total )?current assets",),
    "ppe_net": (
        r"(?:net )?pp&e(?:,? net)?",
        r"(?:net )?ppne",
        # eBay's and Apple's balance sheets print "property and equipment, net", no plant
        r"(?:net )?property,? (?:plant,? )?(?:and|&) equipment(?:,? net)?",
        r"(?:net )?fixed assets",
    ),
    "total_assets": (r"total assets",),
    "payables": (r"(?:accounts |trade )?payables?", r"a/p"),
    "current_liabilities": (r"(?:total )?current liabilities",),
    "short_term_debt": (
        r"short[- ]term (?:debt|borrowings)",
        # what falls due within the year: "debt maturing within the next 12 months"
        r"(?:debt|borrowings) (?:due|maturing|(?:that )?matures?|payable) within (?:the next |"
        r"one |a |the )?(?:fiscal )?(?:year|12 months|twelve months)",
        r"current (?:portion|maturities) of (?:long[- ]term )?debt",
    ),
    "long_term_debt": (r"long[- ]term debt",),
    "total_liabilities": (r"total liabilities",),
    "retained_earnings": (
        r"(?:retained|reinvested|accumulated) earnings",
        r"(?:accumulated|retained) deficit",
        r"earnings reinvested",
    ),
    "equity": (
        r"(?:total )?(?:shareholders'?|stockholders'?|shareowners'?) equity",
        r"total equity",
        r"book value",
    ),
    "diluted_eps": (r"diluted (?:eps|earnings per share)", r"eps", r"earnings per share"),
    "basic_eps": (r"basic (?:eps|earnings per share)",),
    "basic_shares": (r"basic shares(?: outstanding)?", r"weighted[- ]average basic shares"),
    "diluted_shares": (r"diluted shares(?: outstanding)?", r"weighted[- ]average diluted shares"),
    # metrics
    "gross_margin": (r"gross (?:profit )?margin",),
    "operating_margin": (r"operating (?:profit |income )?margin", r"ebit margin"),
    "net_margin": (r"net (?:profit |income )?margin", r"profit margin"),
    "ebitda": (r"(?:unadjusted )?ebitda",),
    "ebitda_margin": (r"(?:unadjusted )?ebitda (?:%|percent|percentage )?\s?margin",),
    "capex_to_revenue": (
        r"(?:capex|capital expenditures?) (?:as (?:a )?(?:%|percent|percentage) of|to) "
        r"(?:total )?(?:net )?revenues?",
        r"capital intensity",
        r"capital[- ]intensive",
    ),
    "free_cash_flow": (r"free cash flows?", r"fcf"),
    "shareholder_returns": (
        r"(?:cash |capital )?return(?:ed|s)? to (?:share|stock)holders",
        r"dividends and (?:share |stock )?(?:buybacks|repurchases)",
        r"(?:share |stock )?(?:buybacks|repurchases) and dividends",
    ),
    "cfo_margin": (r"operating cash flow margin", r"cfo margin"),
    "fcf_margin": (r"free cash flow margin", r"fcf margin"),
    "fcf_conversion": (r"free cash flow conversion", r"fcf conversion"),
    "working_capital": (r"(?:net )?working capital",),
    "current_ratio": (r"current ratio", r"working capital ratio"),
    "quick_ratio": (r"quick ratio", r"acid[- ]test ratio"),
    "operating_cash_flow_ratio": (r"operating cash flow ratio",),
    "inventory_turnover": (
        r"inventory turnover(?: ratio)?",
        # "how many times did Apple sell its inventory": the turnover, not the balance
        r"times (?:[\w'’&.-]+ ){0,4}?(?:sold|sells?|turned over|turns? over) "
        r"(?:its |their |the )?inventor(?:y|ies)",
    ),
    "fixed_asset_turnover": (r"fixed asset turnover(?: ratio)?",),
    "asset_turnover": (r"(?:total )?asset turnover(?: ratio)?",),
    "dio": (
        r"days (?:of |in )?inventory(?: outstanding)?",
        r"dio",
        r"days sales of inventory",
        r"inventory days",
    ),
    "dso": (r"days sales outstanding", r"dso", r"receivables? days"),
    "dpo": (r"days payables? outstanding", r"dpo", r"payables? days"),
    "cash_conversion_cycle": (r"cash conversion cycle", r"ccc"),
    "roa": (r"return on (?:total )?assets", r"roa"),
    "roe": (r"return on (?:(?:shareholders'?|stockholders'?) )?equity", r"roe"),
    "dividend_payout": (r"(?:dividend )?payout ratio",),
    "retention_ratio": (r"retention ratio", r"plowback ratio"),
    "interest_coverage": (r"interest coverage(?: ratio)?", r"times interest earned"),
    "debt_to_equity": (r"debt[- ]to[- ]equity(?: ratio)?", r"d/e ratio"),
    # Debt as a whole, not a kind of it ("debt securities" are investments, "bad debt" a
    # receivable's loss; "long-term debt" is its own, longer phrase).
    "total_debt": (
        r"(?<!bad )(?:total )?debt(?!\s*(?:securities|investments?|issuance|instruments?|"
        r"covenants?|ratings?|[- ]to|/|service|maturit))",
    ),
    "net_debt": (r"net debt",),
    "debt_to_ebitda": (r"(?:total )?debt ?(?:[- ]to[- ]|/) ?(?:unadjusted )?ebitda(?: ratio)?",),
    "net_debt_to_ebitda": (
        r"net debt ?(?:[- ]to[- ]|/) ?(?:unadjusted )?ebitda(?: ratio)?",
        r"net leverage(?: ratio)?",
    ),
    "debt_to_assets": (
        r"(?:total )?debt ?(?:[- ]to[- ]|/) ?(?:total )?assets(?: ratio)?",
        r"debt ratio",
    ),
    "effective_tax_rate": (r"effective (?:income )?tax rate", r"(?:income )?tax rate"),
}

#: Words after a line item or amount that make it another quantity, which no formula here
#: defines: "revenue per employee", "book value per share", "dividends declared per share"
#: (not the dividends paid), "capex intensity", "free cash flow yield", "revenue mix". Read
#: as the item alone, the answer would be a wrong figure, not none.
QUALIFIED = re.compile(
    r"\s+(?:(?:(?:declared|paid)\s+)?per\s+(?!cent\b)[a-z]+|margins?|conversion|yields?|"
    r"multiples?|intensity|days|mix|burn|position)\b"
)
#: Words before a line item that make it another one, a balance no formula here reads:
#: "unearned revenue" and "deferred revenue" are liabilities, not revenue; "accrued
#: interest" is no interest expense. Read as the item alone, the answer would be the wrong
#: statement's figure.
QUALIFIED_BEFORE = re.compile(r"\b(?:unearned|deferred|accrued|prepaid|unbilled)\s+$")
#: An item set against another ("capex to depreciation", "long-term debt over equity"): a
#: ratio no formula here names, when another phrase follows.
AGAINST = re.compile(r"\s+(?:to|over|versus|vs\.?)\s+")

#: Outflows often printed negative (on the cash-flow statement; expenses on income
#: statements that print them in parentheses): a question asking "how much" wants their
#: size, so a formula read from words takes ``abs(...)`` of them.
OUTFLOWS = frozenset(
    {"capex", "dividends_paid", "buybacks", "acquisitions", "interest_expense", "income_tax"}
)


@cache
def compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each phrase as a pattern, in the plural too: "operating margins", "current ratios"
    and "capital expenditures" name what their singulars do ("Compare Coca-Cola and
    PepsiCo operating margins" asks for each company's operating margin)."""
    return tuple(
        (re.compile(rf"(?<![\w&/])(?:{pattern})s?(?![\w&/])"), name)
        for name, patterns in PHRASES.items()
        for pattern in patterns
    )


def longest_phrase(
    text: str, pos: int, extra: tuple[tuple[re.Pattern[str], str], ...] = ()
) -> tuple[int, str] | None:
    """(end, name) of the longest phrase starting at ``pos``; ``extra`` (a question's own
    definitions) is tried first and wins ties."""
    best: tuple[int, str] | None = None
    for pattern, name in (*extra, *compiled()):
        match = pattern.match(text, pos)
        if match and match.end() > pos and (best is None or match.end() > best[0]):
            best = (match.end(), name)
    return best
