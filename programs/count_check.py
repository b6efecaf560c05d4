"""A count whose cited pages never name what it counts is removed.

Asked "How many employees did Walmart have at the end of FY2023?", the draft wrote "Walmart
had 5,306 employees at the end of FY2023", cited to the 10-K page whose 5,306 is the
period-end unit count (stores); the page says nothing of employees, and Walmart calls them
associates (about 2.1 million, on another page). Digit grounding passes it (5,306 is on the
cited page), and so did the reviewer. A count is a number of things, so a sentence that
counts employees, stores, segments or customers stands only on a cited page that names
such things, in any of the words filings use for them ("associates", "team members";
"units", "locations"). One that does not is removed and counted, as
:mod:`programs.basis_check` removes a comparison its pages do not make.

A count that is one row of a table whose rows add up to its total row is that row's, not
the company's, unless the sentence names the row: asked how many restaurants McDonald's
operated at the end of 2022, the draft gave 10,103, its International Operated Markets'
row, where the table's total is 40,275.

A headcount needs more: filings state it in prose, the number beside its noun ("we
employed approximately 143,000 full-time employees"), so a cited page must print the
number within a few words of a word for staff. Asked Oracle's FY2022 headcount, the draft
wrote "2,786 employees" from the diluted-share table beside "Dilutive effect of employee
stock plans": the page names employees, and an employee stock plan is no headcount.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from calculator.breakdown import table_runs
from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences

#: What a draft counts (its noun, singular and plural) -> the words a page may name it by.
COUNTED: dict[str, tuple[str, ...]] = {
    "employee": (
        "employ",
        "associate",
        "workforce",
        "headcount",
        "team member",
        "staff",
        "personnel",
        "people",
        "colleague",
        "worker",
    ),
    "store": ("store", "unit", "location", "restaurant", "club", "outlet", "shop", "boutique"),
    "segment": ("segment",),
    "customer": ("customer", "client", "member", "subscriber", "account"),
}
_NOUN = "|".join(COUNTED)
#: A number (not a year) and, at most two words after it, what it counts ("5,306
#: employees", "1,355 retail stores", "four reportable segments", "2.1 million customers").
_COUNT = re.compile(
    rf"\b(?P<n>(?!(?:19|20)\d\d\b)\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten)"
    rf"(?:\s+(?:thousand|million))?(?:\s+[a-z-]+){{0,2}}?\s+(?P<noun>{_NOUN})s?\b",
    re.IGNORECASE,
)


def counted_nouns(text: str) -> set[str]:
    """The nouns (keys of :data:`COUNTED`) that ``text`` counts with a number."""
    return {m["noun"].lower() for m in _COUNT.finditer(text)}


#: What a question asks to be counted, by the words it asks with ("How many full-time staff",
#: "how many people does it employ", "how many restaurants"). Narrower than the words a page
#: may name them by: "how many units did it ship" counts no stores, and segments, which
#: filings also call groups and divisions, are left to the reviewer.
ASKED: dict[str, tuple[str, ...]] = {
    "employee": (
        "employ",
        "associate",
        "staff",
        "workforce",
        "headcount",
        "people",
        "personnel",
        "worker",
        "team member",
    ),
    "store": ("store", "restaurant", "location", "outlet", "club", "shop", "boutique"),
    "customer": ("customer", "client", "subscriber"),
}
#: "How many" and the few words after it in which a question names what it counts.
_HOW_MANY = re.compile(r"\bhow\s+many\b(?P<rest>(?:\W+[a-z][\w-]*){1,4})", re.IGNORECASE)


def count_asked(question: str) -> str | None:
    """What ``question`` asks the number of (a key of :data:`COUNTED`), or None."""
    for found in _HOW_MANY.finditer(question):
        rest = " " + " ".join(found["rest"].lower().split())
        for noun, words in ASKED.items():
            if any(f" {word}" in rest for word in words):
                return noun
    return None


def names_counted(text: str, noun: str) -> bool:
    """Whether ``text`` (a page, a draft) names ``noun`` (a key of :data:`COUNTED`) in any
    word for it."""
    lowered = text.lower()
    return any(re.search(rf"\b{re.escape(word)}", lowered) for word in COUNTED[noun])


#: Characters either side of a headcount's number in which a page names staff.
_BESIDE = 80
#: A staff word that modifies a plan, not people counted: "employee stock plans".
_PLAN_AFTER = re.compile(
    r"\w*[\s-]+(?:stock|share|benefit|compensation|retirement|savings|pension|plan|purchase|"
    r"equity|incentive|related|termination|severance|withholding)"
)


def _headcounts(text: str) -> list[str]:
    """The numbers ``text`` counts employees with, commas dropped ("143,000" -> "143000")."""
    return [
        m["n"].replace(",", "").rstrip(".")
        for m in _COUNT.finditer(text)
        if m["noun"].lower() == "employee" and m["n"][0].isdigit()
    ]


def _states_headcount(page: str, number: str) -> bool:
    """Whether ``page`` prints ``number`` within :data:`_BESIDE` characters of a word for
    staff that is not a plan's ("employee stock plans")."""
    text = " ".join(page.split()).lower().replace(",", "")
    for found in re.finditer(rf"(?<![\d.]){re.escape(number)}(?![\d])", text):
        start = max(0, found.start() - _BESIDE)
        near = text[start : found.end() + _BESIDE]
        for word in COUNTED["employee"]:
            for named in re.finditer(rf"\b{re.escape(word)}", near):
                if not _PLAN_AFTER.match(near, named.end()):
                    return True
    return False


#: A table's total row: "Total", "Total restaurants".
_TOTAL_ROW = re.compile(r"^\s*total\b", re.IGNORECASE)


class Table(NamedTuple):
    """A footed table: its heading, its part rows (label, values) and its total's values."""

    heading: str
    parts: list[tuple[str, tuple[float, ...]]]
    total: tuple[float, ...]


def footed_tables(page: str) -> list[Table]:
    """``page``'s tables whose rows (two or more) add up, column by column, to the total row
    printed right after them: each as its heading, its part rows and the total's values."""
    tables: list[Table] = []
    for heading, rows in table_runs(page):
        for end, (label, total) in enumerate(rows):
            if not _TOTAL_ROW.match(label):
                continue
            for start in range(end - 2, -1, -1):
                above = rows[start:end]
                if all(abs(sum(v[c] for _, v in above) - t) < 0.5 for c, t in enumerate(total)):
                    tables.append(Table(heading, above, total))
                    break
    return tables


def part_rows(page: str) -> dict[float, str]:
    """The values of the part rows of ``page``'s footed tables, each with its row's label."""
    return {
        value: name
        for table in footed_tables(page)
        for name, values in table.parts
        for value in values
    }


#: A number and, at most two words after it, a thing counted in any word for it ("10,103
#: restaurants", "1,355 retail locations").
_ANY_COUNT = re.compile(
    r"\b(?P<n>(?!(?:19|20)\d\d\b)\d[\d,]*)(?:\s+[a-z-]+){0,2}?\s+(?:"
    + "|".join(sorted({re.escape(w) for words in COUNTED.values() for w in words}))
    + r")",
    re.IGNORECASE,
)


def _counts_a_part(text: str, pages: list[str]) -> bool:
    """Whether ``text`` counts with a number that is a part's row on a cited page (not its
    total) without naming that part."""
    counted = [float(found["n"].replace(",", "")) for found in _ANY_COUNT.finditer(text)]
    if not counted:
        return False
    lowered = text.lower()
    for parts in map(part_rows, pages):  # each page's tables read once
        labels = [parts[n] for n in counted if n in parts]
        if any(label.lower() not in lowered for label in labels):
            return True
    return False


def drop_miscounted(answer: CitedAnswer, page_texts: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences that count something none of their cited pages
    (``page_texts``: text by page uid) names, or a headcount none of them states, or a
    part's count given as the whole, and how many were removed."""
    wrong = []
    for sentence in split_sentences(answer.body):
        text = MARKER_RE.sub(" ", sentence.text)
        nouns = counted_nouns(text)
        cited = cited_pages(answer, sentence, page_texts, "")
        if not cited or not (nouns or _ANY_COUNT.search(text)):
            continue
        if (
            any(not any(names_counted(page, noun) for page in cited) for noun in nouns)
            or any(not any(_states_headcount(page, n) for page in cited) for n in _headcounts(text))
            or _counts_a_part(text, cited)
        ):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
