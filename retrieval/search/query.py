"""Query preprocessing: general rewrites from analyst phrasing to filing language.

Nothing here is tuned to a particular question. It strips answer-format boilerplate
("round to two decimal places", "answer in USD millions") and the sentences that tell the
reader how to answer rather than what to find ("Assume that you are a public equities
analyst.", "Base your judgments on the balance sheet."), reads fiscal-year forms (FY2018,
FY18, fiscal 2018), maps statement names to the headings filings use, expands common
finance abbreviations to the line items that carry them, and notes whether the question
asks for causes ("what drove ...", "why ...") rather than for a figure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textnorm import QUERY_STOPWORDS

#: "If gross margin is not a useful metric for a company like this, then please state that
#: and explain why": the caveat of domain questions on the metric they ask for, in all its
#: wordings ("If the quick ratio is not relevant, explain why"). It names no fact to find,
#: and asks nothing the figure does not answer. "If not, explain why" after a question of
#: its own ("Did revenue grow? If not, explain why.") asks for a cause, and is no caveat.
CAVEAT = (
    r"\bif [^.?;]*?\bnot\b[^.?]*?\b(?:state|say) that\b[^.?]*[.?]?"
    r"|\bif [^.?;]*?\bnot (?:an? )?(?:useful|relevant|meaningful|applicable)\b[^.?]*?"
    r"\b(?:explain|state|say)\b[^.?]*[.?]?"
)
_CAVEAT_RE = re.compile(CAVEAT, re.IGNORECASE)


def without_caveat(question: str) -> str:
    """``question`` without the caveat on its metric: "explain why" there asks for no cause,
    and "useful" or "relevant" there asks for no judgement."""
    return _CAVEAT_RE.sub(" ", question)


_BOILERPLATE = [
    CAVEAT,
    r"give a (?:response|answer) to the question by relying on the details shown in",
    r"(?:please )?(?:round|rounded) (?:your answer |the answer )?to (?:the nearest )?"
    r"(?:\w+ )?(?:decimal places?|decimal|whole number|percent|hundredth|tenth)s?",
    r"answer in (?:usd|us\$|\$)? ?(?:millions|billions|thousands|percent(?:age)?)",
    r"\((?:in )?(?:usd|us\$|\$) ?(?:millions|billions|thousands)\)",
    r"(?:in )?(?:usd|us\$) (?:millions|billions|thousands)",
    r"(?:please )?(?:calculate|compute|answer) (?:what was asked )?by utili[sz]ing "
    r"the line items clearly shown in",
    r"if [^.?]* is not a useful or relevant metric[^.?]*[.?]?",
    r"(?:please )?(?:state|explain) (?:that and )?(?:explain )?why\.?",
    r"using the line items? (?:clearly )?(?:shown|reported) in",
    r"based on (?:the )?(?:information|details) (?:provided|shown) in",
    r"(?:please )?provide (?:a|the) (?:brief |short )?(?:answer|response)",
]

# Statement names as analysts say them → (text for the embedder, headings filings print).
STATEMENTS = {
    "cash flow": (
        r"cash ?flows? statements?|statements? of cash ?flows?",
        "consolidated statements of cash flows",
        ("statements of cash flows", "statement of cash flows", "cash flows statements"),
    ),
    "income": (
        r"income statements?|p&l|profit and loss|statements? of (?:income|operations|earnings)",
        "consolidated statements of income operations earnings",
        (
            "statements of income",
            "statement of income",
            "statements of operations",
            "statement of operations",
            "statements of earnings",
            "statement of earnings",
            "income statements",
        ),
    ),
    "balance sheet": (
        r"balance sheets?|statements? of financial (?:position|condition)",
        "consolidated balance sheets",
        (
            "balance sheets",
            "balance sheet",
            "statements of financial position",
            "statement of financial position",
            "statements of financial condition",
        ),
    ),
}

# Measures and the statement that reports them: a question about gross margin wants the
# income statement even when it does not name it.
_MEASURES = {
    "income": r"gross (?:margin|profit)|operating (?:margin|income|profit)|net margin|ebitda|"
    r"ebit|eps|earnings per share|cogs|cost of (?:goods )?sold|sg&a|r&d|interest expense|"
    r"effective tax rate|net (?:income|earnings)|revenues?|net sales",
    "cash flow": r"capex|capital expenditures?|free cash flows?|fcf|operating activities|"
    r"investing activities|financing activities|cash from operations|dividends paid|"
    r"share repurchases?|buybacks?|d&a|depreciation",
    "balance sheet": r"working capital|current ratio|quick ratio|inventor(?:y|ies)|total assets|"
    r"total liabilities|shareholders'? equity|stockholders'? equity|pp&e|capital[- ]intensive|"
    r"accounts (?:receivable|payable)|goodwill|debt|return on assets|roa|liquidity",
}

# Finance shorthand → the line items that report it.
_GLOSSARY = {
    r"capex|capital expenditures?|capital spending": (
        "capital expenditures purchases of property plant and equipment"
    ),
    r"free cash flows?|fcf": (
        "free cash flow net cash provided by operating activities capital expenditures"
    ),
    r"cogs|cost of (?:goods )?sold": "cost of sales cost of goods sold",
    r"sg&a": "selling general and administrative expenses",
    r"d&a": "depreciation and amortization",
    r"ebitda": "operating income depreciation and amortization",
    r"ebit": "operating income",
    r"eps": "earnings per share",
    r"opex": "operating expenses",
    r"pp&e|ppne": "property plant and equipment",
    r"r&d": "research and development",
    r"roa|return on assets": "net income total assets",
    r"roe|return on equity": "net income total shareholders equity",
    r"working capital": "total current assets total current liabilities",
    r"quick ratio": "cash marketable securities accounts receivable total current liabilities",
    r"current ratio": "total current assets total current liabilities",
    r"dpo|days payable outstanding": "accounts payable cost of sales",
    r"dso|days sales outstanding": "accounts receivable revenue",
    r"inventory turnover": "inventories cost of sales",
    r"dividend payout ratio": "cash dividends declared net income",
    r"gross margin": "gross profit net sales cost of sales",
    r"operating margin": "operating income net sales",
    r"effective tax rate": "effective tax rate provision for income taxes",
    r"fixed asset turnover": "property plant and equipment net revenue",
    r"capital[- ]intensive|capital intensity": "capital expenditures property plant and equipment",
    r"interest coverage": "operating income interest expense",
    r"leverage|debt to equity": "total debt long-term debt shareholders equity",
    r"m&a|acquisitions?": "acquisitions business combinations",
    r"revenues?|top[- ]?line|sales": "revenue net sales total revenues",
    r"net (?:income|earnings|profit)|bottom[- ]?line": "net income net earnings",
    r"segments?": "segment information operating segments",
    r"liquidity": "liquidity capital resources cash equivalents",
    r"headcount|employees|workforce|staff": "employed full-time employees human capital",
    r"guidance|outlook|expect(?:s|ed|ing)?|forecast\w*|anticipat\w*": "outlook guidance expects",
    r"legal (?:battles?|proceedings?|matters?|disputes?)|litigations?|lawsuits?": (
        "legal proceedings litigation"
    ),
    r"geograph(?:y|ies|ic)|regions?|countries": "geographic regions operations",
    r"retirees?|pensions?|postretirement": "pension postretirement benefit plans payments",
    r"ceo|cfo|chief executive|executive officers?": "chief executive officer appointed",
    r"restructuring": "restructuring charges liability",
    r"credit (?:agreement|facility|facilities)|revolver|revolving": (
        "revolving credit agreement facility borrow"
    ),
    r"debt securities|notes due|bonds": "title of each class notes due registered exchange",
    r"dividends?": "dividends declared per share",
    r"impairments?": "impairment charges goodwill",
    r"tax(?:es)?": "income taxes provision",
    r"buybacks?|share repurchases?": "repurchases of common stock treasury",
}

#: A question that asks for causes, answered in a filing's prose (MD&A) rather than by a
#: statement's figures.
_EXPLANATORY = re.compile(
    r"\bwhat (?:\w+ ){0,2}(?:drove|drives|driving|caused|causes|explains?)\b|\bwhy\b|"
    r"\breasons?\b|\bdrivers?\b|\bdriven by\b|\bfactors?\b|\bexplain\b",
    re.IGNORECASE,
)

#: Words of a sentence addressed to the reader about the task: who to be, what to base the
#: answer on, how to give it. Such a sentence names no fact to find.
_INSTRUCTION = re.compile(
    r"\b(?:you|your|yours|(?-i:us)|question|answers?|judg(?:e)?ments?|abilities|perspective|"
    r"standpoint|respond|response|here's|we (?:need|want) to)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[^.?!;:]+[.?!;:]?|[.?!;:]")
#: A leading clause that says where to look before the question itself ("Using the cash
#: flow statement, what ...", "Basing your judgments off of the balance sheet, how ...").
_LEAD = re.compile(
    r"^\s*((?:bas(?:e|ed|ing)|using|according|considering|looking|by drawing|from)\b[^,]*?),"
    r"\s*(?=(?:what|how|which|who|when|where|did|does|do|is|are|has|have|was|were)\b)",
    re.IGNORECASE,
)

_FY = re.compile(
    r"\b(?:fy|fiscal(?: year)?)\s*'?(\d{4}|\d{2})\b|\b(\d{4})\s*fiscal year\b", re.IGNORECASE
)

_TOKEN = re.compile(r"[a-z0-9][a-z0-9&'.\-]*[a-z0-9]|[a-z0-9]")


@dataclass(frozen=True)
class PreparedQuery:
    """A query in the two forms search needs: BM25 terms and text for the embedder."""

    original: str
    dense_text: str
    terms: tuple[str, ...]
    expansions: tuple[str, ...] = ()
    headings: tuple[str, ...] = ()
    explanatory: bool = False  # asks for causes: see ``_EXPLANATORY``


def _expand_fiscal_years(text: str) -> str:
    def repl(m: re.Match) -> str:
        year = m.group(1) or m.group(2)
        if len(year) == 2:
            year = "20" + year
        return f" {year} "

    return _FY.sub(repl, text)


def _names_statement(text: str) -> bool:
    return any(_mentions(text, pattern) for pattern, _, _ in STATEMENTS.values())


def drop_instructions(text: str) -> str:
    """``text`` without its sentences to the reader ("Assume that you are a public equities
    analyst.", "Round your answer to two decimal places.") and without a leading clause
    that only says where to look ("Using the cash flow statement, what ...").

    Their words ("analyst", "perspective", "primarily", "judgments") are rare on filing
    pages, so BM25 weighs them heavily and finds pages that share nothing else with the
    question. A sentence with a question mark is kept whatever it says, and a text without
    one (a search of keywords, an agent's follow-up) is left as it is: instructions come
    around a question. The statement an instruction names is read before this runs, so
    the heading and its expansion are not lost.
    """
    if "?" not in text:
        return text
    kept = []
    for clause in _CLAUSE.findall(text):
        lead = _LEAD.match(clause)
        if lead and (_INSTRUCTION.search(lead.group(1)) or _names_statement(lead.group(1))):
            clause = clause[lead.end() :]
        if "?" not in clause and _INSTRUCTION.search(clause):
            continue
        kept.append(clause)
    return " ".join(kept)


#: A question about what the company is (its industry, its business, what it does):
#: answered where the 10-K's Item 1 opens ("Item 1. Business  Oracle provides products and
#: services that address enterprise information technology environments"), not by a page
#: that says "industry" in passing ("industry-specific hardware offerings").
#: "Primarily operate" alone is no such question ("which region does it primarily operate
#: in?"), nor are "business model" or "line of business" (how it earns, its segments).
_WHAT_IT_IS = re.compile(
    r"\bwhat\s+(?:\w+\s+)?industr(?:y|ies)\b|\b(?:primary|core|main|principal)\s+business\b"
    r"|\bwhat\s+does\s+[\w&.'’ -]{1,40}?\s+do\b",
    re.IGNORECASE,
)
#: Headings are compared without spaces or punctuation (:mod:`retrieval.search.rerank`),
#: so this one heading also reads "Item 1: Business" and "ITEM 1 BUSINESS".
_BUSINESS_HEADING = "item 1. business"


def prepare_query(query: str, drop_words: tuple[str, ...] = ()) -> PreparedQuery:
    """Rewrite ``query`` for the grid. ``drop_words`` (e.g. the locked company's name and
    ticker) are removed from BM25 terms: inside a locked slice they match every page."""
    text = " ".join(query.split())
    for pattern in _BOILERPLATE:
        text = re.sub(pattern, " ", text, flags=re.IGNORECASE)
    text = _expand_fiscal_years(text)
    expansions: list[str] = []
    headings: list[str] = []
    named = [k for k, (pattern, _, _) in STATEMENTS.items() if _mentions(text, pattern)]
    text = drop_instructions(text)  # after reading the statements an instruction names
    implied = [k for k, pattern in _MEASURES.items() if _mentions(text, pattern)]
    for key in named:
        expansions.append(STATEMENTS[key][1])
    # A measure implies its statement's heading, unless the question asks what drove it:
    # the causes of a margin change are told in MD&A, not printed on the statement.
    explanatory = bool(_EXPLANATORY.search(text))
    for key in named or ([] if explanatory else implied):
        headings.extend(STATEMENTS[key][2])
    for pattern, replacement in _GLOSSARY.items():
        if _mentions(text, pattern):
            expansions.append(replacement)
    if _WHAT_IT_IS.search(text):
        headings.append(_BUSINESS_HEADING)
        expansions.append("business general overview provides products and services")
    dense_text = " ".join([text.strip(), *expansions]).strip()
    dropped = {w.lower() for word in drop_words for w in _TOKEN.findall(word.lower())}
    terms: list[str] = []
    for token in _TOKEN.findall(dense_text.lower()):
        token = token.strip(".'-")
        if token.endswith("'s"):
            token = token[:-2]
        if not token or token in QUERY_STOPWORDS or token in dropped or token in terms:
            continue
        terms.append(token)
    return PreparedQuery(
        original=query,
        dense_text=dense_text or query,
        terms=tuple(terms),
        expansions=tuple(expansions),
        headings=tuple(headings),
        explanatory=explanatory,
    )


#: Spellings of one term that the patterns write one way: "cashflow", "capital-intensive".
_SPELLINGS = (
    (re.compile(r"\bcash(?=flows?\b)", re.IGNORECASE), "cash "),
    (re.compile(r"(?<=\w)-(?=\w)"), " "),
)


def _mentions(text: str, pattern: str) -> bool:
    """Whether ``text`` names ``pattern`` as a term, in the singular or plural ("gross
    margins"), however a compound is spelled ("cashflow", "capital-intensive")."""
    for spelling, replacement in _SPELLINGS:
        text = spelling.sub(replacement, text)
    found = re.search(rf"(?<![\w&])(?:{pattern})(?:e?s)?(?![\w&])", text, flags=re.IGNORECASE)
    return found is not None


#: What a reviewer says about a draft rather than about the filing: words that find every
#: page or none ("The draft does not directly answer the probe question; cite the page").
_REVIEW_WORDS = frozenset(
    """
    accurate accurately address addressed again attempt check find look looking more search
    still try addresses answer answered answering answers ask
    asked asks cite cited cites citation citations claim claims clarify clear clearly
    complete confirm correct correctly detail detailed directly draft ensure evidence
    exact exactly explicit explicitly fully include included includes information insufficient
    issue make mention mentioned missing need needed needs probe provide provided provides
    revise rewrite sentence sentences source sources specific specifically statement
    statements' support supported supports verify
    context explain explained explains explanation explanations justification justify
    justified must useful without appear appears every filing filing's number numbers numeric
    page pages primary table tables
    """.split()
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z&'-]*|\d[\d,.]*%?")


def follow_up_query(follow_up: str, asked: str) -> str | None:
    """A reviewer's follow-up as a search query, or None when it names nothing to search.

    A follow-up is an instruction to the researcher ("The draft does not state the FY2022
    segment operating income; find it"), not a query: sent verbatim, its words about the
    draft match every page. The query keeps its content words; when none of them is new
    beside what the probe already asked (``asked``), another search would return the same
    pages, so the follow-up ends the loop instead of starting a round that changes nothing.
    """
    words = [w.strip("'-") for w in _WORD_RE.findall(follow_up)]
    content = [
        w for w in words if w and w.lower() not in QUERY_STOPWORDS | _REVIEW_WORDS and len(w) > 1
    ]
    asked_words = {w.lower().strip("'-") for w in _WORD_RE.findall(asked)}
    if not [w for w in content if w.lower() not in asked_words]:
        return None
    return " ".join(dict.fromkeys(content))
