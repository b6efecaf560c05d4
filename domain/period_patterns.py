"""The period grammar's vocabulary: the patterns and word tables :mod:`domain.periods` reads
with.

Kept apart from the reading so that each can be read whole: here, what a period may look
like in text (a year, a quarter with its year, a date that closes a quarter, a trend word);
there, how the matches combine into the periods a question asks about.
"""

from __future__ import annotations

import re

FY_PREFIX = r"(?:fy|fiscal(?:\s+year)?)"
FY_WHOLE = re.compile(rf"^\s*{FY_PREFIX}?\s*'?(\d{{4}}|\d{{2}})\s*$", re.IGNORECASE)
FQ_WHOLE = re.compile(r"^\s*(?:q|fq|quarter\s*)?([1-4])\s*$", re.IGNORECASE)

#: "quarter", or the abbreviation "qtr" ("3rd qtr 2023", "the last 4 qtrs").
QUARTER_WORD = r"(?:quarter|qtr)"
#: A year: ``FY2022``, ``FY22``, ``fiscal 2022``, a bare ``2022``, ``CY22`` or ``calendar
#: 2022`` (read as a bare year is), or an apostrophe's ``'22`` / ``’22`` ("sales in '22";
#: not the decade "'90s", a figure "'22%" or a quote's own digits "'22'").
YEAR = (
    rf"(?:\b(?:{FY_PREFIX}|cy|calendar(?:\s+year)?)\s*'?(?:\d{{4}}|\d{{2}})\b"
    r"|(?<![\d$.,])(?:19|20)\d{2}(?![\d%]|[.,]\d)"
    r"|(?<![\w'’])['’]\d{2}(?![\d%'’]|[.,]\d|s\b))"
)
YEAR_RE = re.compile(YEAR, re.IGNORECASE)
RANGE_RE = re.compile(
    rf"(?P<a>{YEAR})\s*(?:-|–|—|to|through|thru|until)\s*(?P<b>{YEAR}|\d{{2}}(?!\d|-\d))",
    re.IGNORECASE,
)
# "since 2019": every full FY from 2019 on. "versus the prior year": each year named and
# the one before it.
SINCE_RE = re.compile(rf"\bsince\s+(?P<y>{YEAR})", re.IGNORECASE)
PRIOR_RE = re.compile(
    r"\b(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b|\byear\s+(?:before|earlier)\b",
    re.IGNORECASE,
)
BETWEEN_RE = re.compile(rf"between\s+(?P<a>{YEAR})\s+and\s+(?P<b>{YEAR})", re.IGNORECASE)
#: A year written as its end: "the end of FY2022", "the close of fiscal 2022", "year-end
#: 2022", "FY2022 year end" (a balance-sheet date, the year's last cell).
YEAR_END_RE = re.compile(
    rf"\b(?:(?:end|close)\s+of\s+(?:the\s+)?|year[- ]end\s+)(?P<y>{YEAR})"
    rf"|(?P<y2>{YEAR})\s+year[- ]end\b",
    re.IGNORECASE,
)
#: ``FY22/23``: one fiscal year across two calendar years (checked to be consecutive).
SPLIT_YEAR_RE = re.compile(rf"(?P<a>{YEAR})\s*/\s*'?(?P<b>\d{{4}}|\d{{2}})(?!\d)", re.IGNORECASE)
QUARTER_RE = re.compile(
    r"\b(?:f?q([1-4])|([1-4])q(?=\s*'?\d{2}\b|\b)|(first|second|third|fourth|1st|2nd|3rd|4th)"
    rf"\s+(?:fiscal\s+)?{QUARTER_WORD})",
    re.IGNORECASE,
)
#: "Q1-Q3 2023", "Q2 through Q4": every quarter between the two.
QUARTER_RANGE_RE = re.compile(r"\bf?q([1-4])\s*(?:-|to|through|thru)\s*f?q([1-4])\b", re.IGNORECASE)
QUARTERLY_RE = re.compile(
    r"quarter|\bqtrs?\b|\bf?q[1-4]\b|\b[1-4]q(?:'?\d{2})?\b|\bdeep\b", re.IGNORECASE
)
_COUNT = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|couple(?:\s+of)?)"
#: "the last three years", "the past 5 fiscal years", "the three most recent fiscal years",
#: "the two latest years", "the last couple of years": the count is group 1 or group 2.
LAST_N_RE = re.compile(
    rf"\b(?:last|past|previous|prior|recent|latest)\s+{_COUNT}\s+(?:fiscal\s+|full\s+)?years?\b"
    rf"|\b{_COUNT}\s+(?:most\s+recent|latest|last|past|previous|prior)\s+"
    r"(?:fiscal\s+|full\s+)?years\b",
    re.IGNORECASE,
)
#: "the last four quarters", "the past 3 fiscal quarters", "the two most recent quarters":
#: a count of quarters back from the latest one filed (group 1 or group 2).
LAST_N_QUARTERS_RE = re.compile(
    rf"\b(?:last|past|previous|prior|recent|latest)\s+{_COUNT}\s+(?:fiscal\s+)?{QUARTER_WORD}s?\b"
    rf"|\b{_COUNT}\s+(?:most\s+recent|latest|last|past|previous|prior)\s+"
    rf"(?:fiscal\s+)?{QUARTER_WORD}s\b",
    re.IGNORECASE,
)
#: "last quarter", "the latest quarter", "the most recent fiscal quarter": the latest one
#: filed, a run of one (not "the last quarter of 2022", its fourth).
LATEST_QUARTER_RE = re.compile(
    rf"\b(?:last|latest|most\s+recent)\s+(?:fiscal\s+)?{QUARTER_WORD}\b(?!\s+of\b)",
    re.IGNORECASE,
)
DEEP_RE = re.compile(
    r"\b(?:quarterly|quarter[- ]by[- ]quarter|each\s+quarter|every\s+quarter|by\s+quarter|"
    r"per\s+quarter|all\s+(?:four\s+)?quarters|deep[- ]dive|in\s+depth)\b",
    re.IGNORECASE,
)
MONTHS = {
    name: n
    for n, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        1,
    )
    for name in names
}  # fmt: skip
MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
DAY = r"\d{1,2}(?:st|nd|rd|th)?"
DATE_RE = re.compile(
    rf"\b(?:(?P<m1>{MONTH})\.?\s+{DAY},?\s+(?:19|20)\d{{2}}"
    rf"|{DAY}\s+(?:of\s+)?(?P<m2>{MONTH})\.?,?\s+(?:19|20)\d{{2}})\b",
    re.IGNORECASE,
)
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
#: Dates written in figures: "6/30/2023" (month first, as US filers write it; a first
#: number over 12 is the day) and ISO "2023-06-30". They are spelled out before anything
#: else is read, so that "2023-06" is not taken for a range of years.
NUMERIC_DATE_RE = re.compile(
    r"(?<![\d/.-])(?:(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>(?:19|20)\d{2})"
    r"|(?P<iy>(?:19|20)\d{2})-(?P<im>\d{1,2})-(?P<id>\d{1,2}))(?![\d/.-])"
)
#: A filing dated by its month alone: "the 8-K filing dated May 2023", "filed in May 2023".
#: Its day is unknown but its quarter is not: it is read as the month's middle day.
DATED_MONTH_RE = re.compile(
    rf"\b(?P<lead>dated|filed(?:\s+(?:in|on))?)\s+(?P<m>{MONTH})\.?,?\s+(?P<y>(?:19|20)\d{{2}})\b",
    re.IGNORECASE,
)
#: "the year ended June 30, 2023": a date that closes a period, not an event in a quarter.
PERIOD_END_RE = re.compile(r"\b(?:ended|ending)\s*$", re.IGNORECASE)
# "Q5", "FQ0", "Q12": a quarter that does not exist (a typo the user should hear about).
BAD_QUARTER_RE = re.compile(r"\bf?q(0|[5-9]|\d{2,})\b", re.IGNORECASE)
# A year written after "FY" / "fiscal" that is no year: "FY20222", "fiscal 202", "FY2O22"
# (a letter O among the digits). Read as no period, it would be answered for the latest.
FY_WRITTEN_RE = re.compile(rf"\b{FY_PREFIX}\s*'?(?P<y>\d[\do]*)\b", re.IGNORECASE)
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "couple": 2, "couple of": 2,
}  # fmt: skip
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
    "last": 4, "final": 4,
}  # fmt: skip


# -- a quarter written with its year ----------------------------------------------------
Y4 = r"(?:19|20)\d{2}"
YY = rf"(?:{Y4}|\d{{2}})"
#: With its year, "the last quarter of 2022" is the fourth ("last quarter" alone is the
#: latest filed: :data:`LATEST_QUARTER_RE`).
ORDINAL = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th|last|final)"
#: Each pattern names the quarter ``q`` (or ``ord``) and the year ``y``; the first that
#: matches a span wins, and the span is blanked before years and quarters are read alone.
QUARTER_WITH_YEAR = [
    re.compile(p, re.IGNORECASE)
    for p in (
        # FY2023Q1, FY23 Q1, FY2023-Q1, fiscal 2023 Q1
        rf"\b{FY_PREFIX}\s*'?(?P<y>{YY})\s*[-/]?\s*f?q(?P<q>[1-4])\b",
        # Q2 FY2024, Q2 of FY2024, Q2 of fiscal 2024, Q2'24, Q22023, Q2 2023, Q2-23
        rf"\bf?q(?P<q>[1-4])\s*(?:(?:of|in)\s+)?(?:{FY_PREFIX}\s*)?[-/']?\s*(?P<y>{YY})(?![\w-])"
        rf"(?![.,]\d|\s*(?:%|percent|million|billion|thousand))",
        # 2Q24, 2Q 2024, 2QFY24
        rf"\b(?P<q>[1-4])q\s*(?:fy\s*)?'?(?P<y>{YY})\b",
        # 2023Q2, 2021 Q1, 2023-Q2
        rf"(?<![\d$.,])(?P<y>{Y4})\s*[-/]?\s*f?q(?P<q>[1-4])\b",
        # second quarter of 2023, third fiscal quarter of fiscal 2023, 2nd quarter FY23
        rf"\b{ORDINAL}\s+(?:fiscal\s+)?{QUARTER_WORD}\s+(?:(?:of|in)\s+)?(?:the\s+)?"
        rf"(?:{FY_PREFIX}\s*)?'?(?P<y>{YY})\b",
    )
]
#: A quarter named by the month it ends, without a day: "the quarter ended March 2023",
#: "the June 2023 quarter", "the September quarter of 2022" (the calendar quarter, as a
#: dated quarter end is read).
MONTH_QUARTER = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:quarter|three[- ]months?|3[- ]months?)\s+(?:ended|ending)\s+(?:in\s+)?"
        rf"(?P<m>{MONTH})\.?,?\s+(?P<y>{Y4})\b",
        rf"\b(?P<m>{MONTH})\.?\s+(?P<y>{Y4})\s+quarter\b",
        rf"\b(?P<m>{MONTH})\.?\s+quarter\s+(?:(?:of|in)\s+)?(?:{FY_PREFIX}\s*)?(?P<y>{Y4})\b",
    )
]
# -- year-to-date and half-year periods: a 10-Q's year-to-date columns ------------------
#: A half with its year ("H1 2023", "1H23"), or the months to date as European filers write
#: them ("6M 2023", "9M23"; not "$9M", a figure, nor "3M", a company).
HALF_WITH_YEAR_RE = re.compile(
    rf"(?<![$\d.,])\b(?:h(?P<h>[12])|(?P<h2>[12])h|(?P<months>[69])m)\s*(?:{FY_PREFIX}\s*)?[-']?\s*"
    rf"(?P<y>{YY})\b",
    re.IGNORECASE,
)
#: (pattern, quarter cell): H1 and the first six months are reported in the Q2 10-Q, nine
#: months in the Q3 10-Q, the second half only in the annual filing.
YEAR_TO_DATE = [
    (re.compile(p, re.IGNORECASE), q)
    for p, q in (
        (
            r"\bh1\b|\b1h\b|\b(?:first|1st)[- ]half\b|\bhalf[- ]year(?:ly)?\b|\binterim\s+period\b",
            2,
        ),
        (r"\b(?:first\s+)?(?:six|6)[- ]months?\b(?=\s+(?:ended|ending|of|to)|\s*$)", 2),
        (r"\bfirst\s+(?:six|6)[- ]months?\b", 2),
        (r"\b(?:first\s+)?(?:nine|9)[- ]months?\b(?=\s+(?:ended|ending|of|to)|\s*$)", 3),
        (r"\bfirst\s+(?:nine|9)[- ]months?\b", 3),
        (r"\bfirst\s+(?:two|2)\s+(?:fiscal\s+)?(?:quarters|qtrs)\b", 2),
        (r"\bfirst\s+(?:three|3)\s+(?:fiscal\s+)?(?:quarters|qtrs)\b", 3),
        (r"\bh2\b|\b2h\b|\b(?:second|2nd)[- ]half\b", 4),
    )
]
#: "TTM", "LTM", "the trailing twelve months", "the last 12 months": the twelve months to the
#: latest quarter filed (not "the twelve months ended December 31, 2022", a fiscal year).
TRAILING_RE = re.compile(
    r"\b(?:ttm|ltm|(?:trailing|last|past|previous)\s+(?:twelve|12)[- ]months?)\b"
    r"(?!\s+(?:ended|ending))",
    re.IGNORECASE,
)
#: "YTD 2023", "year-to-date": the year so far, which the latest filing of the year reports
#: (a 10-Q's year-to-date columns, or the annual filing once the year has closed).
YTD_RE = re.compile(r"\b(?:ytd|year[- ]to[- ]date)\b", re.IGNORECASE)
#: "quarter ended June 30, 2023": the quarter the date closes (a year end names no quarter).
QUARTER_END_RE = re.compile(
    r"\b(?:quarter|three[- ]months?|3[- ]months?|six[- ]months?|6[- ]months?|nine[- ]months?|"
    r"9[- ]months?|period|half[- ]year)\s+(?:ended|ending)\s+(?:on\s+)?$",
    re.IGNORECASE,
)
AS_OF = r"\bas\s+of\s+(?:the\s+)?(?:(?:end|close)\s+of\s+(?:the\s+)?)?"
AS_OF_RE = re.compile(AS_OF, re.IGNORECASE)
AS_OF_END_RE = re.compile(AS_OF + "$", re.IGNORECASE)
TREND_RE = re.compile(
    r"\b(?:improv(?:e|es|ed|ing|ement)|grow(?:s|n|ing|th)?|grew|declin(?:e|es|ed|ing)|"
    r"(?:in|de)creas(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|trend(?:s|ed|ing)?|"
    r"deteriorat(?:e|es|ed|ing)|year[- ]over[- ]year|yoy|y/y|"
    r"expand(?:s|ed|ing)?|expansion|contraction|shr(?:ink|inks|ank|unk|inking)|"
    r"ris(?:e|es|en|ing)|rose|f(?:all|alls|ell|allen|alling)|drop(?:s|ped|ping)?|"
    r"weaken(?:s|ed|ing)?|strengthen(?:s|ed|ing)?|(?:go|goes|went|gone)\s+(?:up|down)|"
    r"(?:compared?|relative)\s+(?:with|to)\s+(?:the\s+)?(?:prior|previous|preceding|last)\s+"
    r"(?:fiscal\s+)?year|"
    r"same\s+(?:quarter|period)\s+(?:of\s+)?(?:last|the\s+(?:prior|previous))\s+year|"
    r"(?:year[- ]ago|prior[- ]year)\s+(?:quarter|period))\b",
    re.IGNORECASE,
)


#: "historically consistent", "its historical trend": a run of years, the three a 10-K's
#: income statement prints when the question gives no count.
HISTORICAL_RE = re.compile(
    r"\bhistorically\b|\bhistorical\s+(?:trend|performance|record|pattern|average)s?\b",
    re.IGNORECASE,
)
HISTORY_YEARS = 3

RECENT_YEARS_RE = re.compile(
    r"\b(?:last|past|previous|prior|recent|latest|over)\s+(?:\w+\s+){0,2}(?:fiscal\s+)?years\b",
    re.IGNORECASE,
)
#: A quarter compared with the quarter before it, not with the year-ago quarter:
#: "quarter over quarter", "QoQ", "sequential growth", "compared with the previous quarter",
#: "up from last quarter". ("The prior-year quarter" and "last quarter" alone, the latest
#: one, are not this.)
SEQUENTIAL_RE = re.compile(
    r"\b(?:quarter[- ]over[- ]quarter|qoq|q/q|sequential(?:ly)?|"
    r"(?:prior|previous|preceding)\s+(?:fiscal\s+)?quarter(?:'s)?|quarter\s+before|"
    r"(?:versus|vs\.?|than|from|since|against|(?:compared?|relative)\s+(?:with|to))\s+"
    r"(?:the\s+)?last\s+quarter)\b",
    re.IGNORECASE,
)
#: A year counted back from the latest one filed (group ``n``: "two years ago"; none: the
#: latest itself, or ``before`` for the one before it). "Last year" and "the most recent
#: fiscal year" name the latest; "the year before last" the one before; "N years ago" counts
#: "a year ago" as the latest. Not a count of years ("the last three years":
#: :data:`LAST_N_RE`), not "the prior year" (the year before a year the question names:
#: :data:`PRIOR_RE`), and not "this year", which may be the year in progress that only
#: quarterly filings report (a question naming no period gets the latest filing).
YEARS_BACK_RE = re.compile(
    r"\b(?P<before>(?:fiscal\s+)?year\s+before\s+last)\b"
    r"|\b(?:(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a)\s+(?:fiscal\s+)?"
    r"years?\s+ago)\b"
    r"|\b(?:last|latest|most\s+recent)\s+(?:(?:full|complete(?:d)?)\s+)?"
    r"(?:fiscal\s+|financial\s+)?year\b(?![-\s]*(?:end\b|to[-\s]+date))",
    re.IGNORECASE,
)


#: A year as a sentence names it ("in 2017 compared to 2016", "fiscal 2022", "FY2023"), not an
#: amount ("$2,019 million", "1,999").
BARE_YEAR_RE = re.compile(r"(?<![\d,.$])(?:19|20)\d\d(?![\d,])")


#: The periods a question may name ("FY2022", "Q2 FY23", "June 30, 2023") and spans of
#: time ("within the next 12 months"): :func:`without_periods` blanks them out.
_PERIODS = (
    NUMERIC_DATE_RE,
    DATE_RE,
    *QUARTER_WITH_YEAR,
    HALF_WITH_YEAR_RE,
    QUARTER_RE,
    YEAR_RE,
    re.compile(r"\b\d{1,2}\s+(?:months?|years?)\b", re.IGNORECASE),
)


def without_periods(question: str) -> str:
    """``question`` with the periods it names blanked out, so that a number left in it is
    a level ("above $1", "more than 40%"), not a year or a span of months."""
    for pattern in _PERIODS:
        question = pattern.sub(" ", question)
    return question
