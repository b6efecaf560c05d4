"""Statement facts from a page: the one entry point ingestion and benchmarks call.

A page yields facts only when everything about a number can be read off the page: a
statement heading, a header that places every column in the fiscal calendar, a scale,
and a row with one value per column. Anything less yields no fact for that table,
because a fact that is missing is refused downstream while a misread one is a wrong
number in a report.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from retrieval.facts.columns import HEAD_LINES, columns, page_head, scale_of, share_scale
from retrieval.facts.fiscal import place_columns
from retrieval.facts.headings import heading_statement
from retrieval.facts.layout import Row, Segment, column_count, segments, year_line
from retrieval.facts.model import Fact
from retrieval.facts.note_rows import note_facts
from retrieval.facts.row_facts import row_facts
from retrieval.facts.vocabulary import concept_for, concept_in_section, normalise_label
from retrieval.pages import Page

#: Statements whose tables are read; an equity statement's columns are components
#: (common stock, retained earnings, ...), not periods.
READ_STATEMENTS = ("income", "balance", "cash_flow", "comprehensive_income")

_PER_SHARE = re.compile(
    r"per (?:common |ordinary |diluted |basic )?share|per-share|earnings per|\beps\b|"
    r"per (?:common )?unit",
    re.IGNORECASE,
)
_SHARES = re.compile(
    r"weighted[- ]average|average (?:number of )?(?:common )?shares|shares used|"
    r"number of (?:common )?shares|^(?:basic|diluted) shares|shares outstanding",
    re.IGNORECASE,
)
_SHARE_COUNT = re.compile(
    r"^(?:[^:]*: )?(?:weighted[- ]average|average (?:number of )?(?:common )?shares|shares used|"
    r"number of (?:common )?shares|(?:basic|diluted) shares)",
    re.IGNORECASE,
)
_GENERIC = re.compile(
    r"^(?:total|net|(?:basic|diluted|basic and diluted|assuming dilution)"
    r"(?: (?:net )?(?:income|earnings|loss)(?: ?/? ?\(loss\))?(?: per (?:common )?share)?)?)$",
    re.IGNORECASE,
)
#: Statements of part of a group (guarantors, the parent alone) or of what-ifs: a page
#: headed like this is not the company's own statement, whatever its table says.
_SUPPLEMENTAL = re.compile(
    r"guarant|obligor|parent company|condensed financial information of|registrant|"
    r"deed of cross|pro forma|consolidating|non-gaap|reconciliation",
    re.IGNORECASE,
)
#: A heading that opens the current items: "Current assets:", "Current liabilities:".
_CURRENT_HEADING = re.compile(r"^\s*current\b", re.IGNORECASE)
_NON_CURRENT_HEADING = re.compile(r"\bnon-?current\b|\blong-term\b", re.IGNORECASE)


def _display_label(row: Row) -> str:
    """The row label as printed; a bare "Diluted" or "Total" gets its section in front."""
    label = normalise_label(row.label)
    if row.section and _GENERIC.match(label) and not _PER_SHARE.search(label):
        return f"{row.section.rstrip(' :')}: {row.label}"
    return row.label


def _unit(row: Row, label: str) -> str:
    """A row's unit from its values and label ("Diluted" under "Weighted-average shares:")."""
    if any(v.percent for v in row.values):
        return "%"
    if _SHARE_COUNT.match(label):
        return "shares"  # "Weighted-average shares used to compute net income per share"
    if _PER_SHARE.search(label):
        return "USD/share"
    if _PER_SHARE.search(row.section) and all("." in v.text or v.amount == 0 for v in row.values):
        return "USD/share"  # "Net income attributable to X" under "Earnings per share—basic"
    if _SHARES.search(label):
        return "shares"
    return "USD"


def _concept(label: str, row: Row, statement: str, unit: str) -> str | None:
    """The row's concept; a per-share or share-count row, or one under a bare "Diluted"
    heading, is also read with its section ("Earnings per share—diluted: Net income")."""
    concept = concept_for(normalise_label(label), statement, unit)
    if concept is None and label.endswith(" (total)"):
        concept = concept_for(normalise_label(f"total {label[:-8]}"), statement, unit)
    if concept is None and (unit != "USD" or _GENERIC.match(normalise_label(row.section))):
        concept = concept_for(normalise_label(f"{row.section} {row.label}"), statement, unit)
    return concept


def _supplemental(text: str) -> bool:
    """Whether the lines above the page's first statement heading mark it supplemental."""
    for line in text.split("\n")[:HEAD_LINES]:
        if _SUPPLEMENTAL.search(line):
            return True
        if heading_statement(line):
            return False
    return False


#: A statement's heading block names a company: "PG&E CORPORATION", "Walmart Inc.".
_ENTITY = re.compile(
    r"\b(?:inc|corp|corporation|company|co|llc|ltd|plc|group|holdings|subsidiaries|partnership"
    r"|l\.?p)\b\.?",
    re.IGNORECASE,
)
_ENTITY_LINES = 3
_NAME_CHARS = 60  # a company's name line; prose runs longer
_RUNNING_HEAD = re.compile(r"^(?:table of contents|index|page \d+)$", re.IGNORECASE)


def registrant(text: str) -> str:
    """The company a statement page's heading names: the short lines just above its first
    statement heading, from the first that is a company's name ("PG&E CORPORATION",
    "(DEBTOR-IN-POSSESSION)"), letters and digits only ("pgecorporationdebtorinpossession");
    "" when the page names none there (prose, a running head, nothing above the heading)."""
    lines = [line.strip() for line in text.split("\n") if line.strip()][:HEAD_LINES]
    at = next((i for i, line in enumerate(lines) if heading_statement(line)), 0)
    above: list[str] = []
    for line in reversed(lines[:at]):
        if len(line) > _NAME_CHARS or _RUNNING_HEAD.match(line) or not re.search("[A-Za-z]", line):
            break
        above.insert(0, line)
    above = above[-_ENTITY_LINES:]
    start = next((i for i, line in enumerate(above) if _ENTITY.search(line)), None)
    if start is None:
        return ""
    return re.sub(r"[^a-z0-9]", "", " ".join(above[start:]).lower())


def _split_unlabelled_totals(rows: list[Row], width: int) -> list[Row]:
    """A row with twice the columns is a row then its section's total printed with no
    label (MGM Resorts' revenues): the second half becomes ``"<section> (total)"``."""
    out: list[Row] = []
    for row in rows:
        if width and len(row.values) == 2 * width and row.section:
            out.append(Row(row.label, row.section, row.values[:width], row.statement))
            total = f"{row.section.rstrip(' :')} (total)"
            out.append(Row(total, row.section, row.values[width:], row.statement))
        else:
            out.append(row)
    return out


def facts_from_page(page: Page, page_id: int, default_scale: float | None = None) -> list[Fact]:
    """Every fact printed on ``page``, in row order then column order.

    ``default_scale`` is used for a table whose page states no scale (some filings print
    "(Millions)" on a few statements only); without it such a table yields nothing.
    """
    return _read_page(page, page_id, default_scale)[0]


def _read_page(
    page: Page, page_id: int, default_scale: float | None, carried: str | Segment | None = None
) -> tuple[list[Fact], list[float], bool]:
    """(facts, scales stated on the page, whether a table was left out for want of a scale);
    ``carried``: the statement the page goes on with (:func:`continued_statement`)."""
    found: list[Fact] = []
    stated: list[float] = []
    unscaled = False
    head = page_head(page.text)
    if _supplemental(page.text):
        return found, stated, unscaled
    for segment in segments(page.text, carried):
        if segment.statement not in READ_STATEMENTS:
            continue
        width = column_count(segment)
        cols = columns(segment.header_lines, segment.years, width)
        if cols is None:
            continue
        periods = place_columns(cols, segment.statement, page.doc_type, page.fy, page.fq)
        if periods is None:
            continue
        header = " ".join(segment.header_lines)
        own = scale_of(header) or scale_of(head)
        if own is not None:
            stated.append(own)
        scale = own or default_scale
        if scale is None:
            unscaled = True
            continue
        shares = share_scale(header if scale_of(header) else head, scale)
        place = BalancePlace(segment.header_lines[-1] if segment.header_lines else "")
        for row in _split_unlabelled_totals(segment.rows, width):
            if len(row.values) != width:
                continue  # an empty cell PyMuPDF dropped: the columns cannot be told apart
            if len(cols) < width:
                row = Row(row.label, row.section, row.values[: len(cols)], row.statement)
            facts = _row_facts(page, page_id, segment, row, cols, periods, scale, shares)
            if segment.statement == "balance" and facts:
                concept = place.read(facts[0].label, facts[0].concept, row.section)
                facts = [dataclasses.replace(f, concept=concept) for f in facts]
            found.extend(facts)
    return found, stated, unscaled


class BalancePlace:
    """Where a balance sheet's rows stand, read row by row: among current items under a
    "Current assets:" or "Current liabilities:" heading, among non-current ones after the
    total of current items (until the next such heading, or total assets). A bare "Term
    debt" is placed so (:func:`concept_in_section`), and a current-only concept is none
    only under a heading that says non-current: a sheet whose total assets went unread
    (MGM's) would otherwise read its current liabilities as non-current. The table's last
    header line may be that heading (Intel's "Current assets:" above its first row)."""

    def __init__(self, opening: str = "") -> None:
        self.section = ""
        self.opened_by = ""
        self.after_assets = False
        if _CURRENT_HEADING.search(opening):
            self.section = "current"

    def read(self, label: str, concept: str | None, heading: str) -> str | None:
        """The row's concept as its place reads it; the place after it is kept."""
        if _CURRENT_HEADING.search(heading) and heading != self.opened_by:
            self.section, self.opened_by = "current", heading
        under = self.section == "non_current" and bool(_NON_CURRENT_HEADING.search(heading))
        placed = concept_in_section(concept, label, self.section, under, self.after_assets)
        if concept in ("current_assets", "current_liabilities"):
            self.section = "non_current"
        elif concept == "total_assets":
            self.section, self.after_assets = "", True
        return placed


def _row_facts(page, page_id, segment, row, cols, periods, scale, shares) -> list[Fact]:
    label = _display_label(row)
    unit = _unit(row, label)
    return row_facts(
        page,
        page_id,
        statement=segment.statement,
        label=label,
        concept=_concept(label, row, segment.statement, unit),
        unit=unit,
        cols=cols,
        periods=periods,
        values=row.values,
        multiplier={"USD": scale, "shares": shares}.get(unit, 1.0),
    )


#: A statement's first and last lines, as concepts: a page that read the first and not the
#: last stopped mid-statement (a cash-flow statement before its financing section).
_OPENS = {
    "cash_flow": {"cfo", "cfi"},
    "balance": {"total_assets", "current_assets"},
    "income": {"revenue"},
}
_CLOSES = {
    "cash_flow": {"cff"},
    "balance": {"total_liabilities_and_equity", "equity"},
    "income": {"net_income", "basic_eps", "diluted_eps"},
}


def document_facts(pages: Sequence[Page]) -> list[Fact]:
    """The facts of a document's stored pages (each with its ``page_id``), in page order,
    then the interest expense a note's table prints where no statement does
    (:mod:`retrieval.facts.note_rows`).

    A statement table whose page states no scale takes the scale the document's other
    statement pages state most often. A filing of two registrants (PG&E Corporation and its
    utility, Pacific Gas and Electric Company, file one 10-K) prints each one's statements
    in turn: a statement headed by another company than the one whose same statement came
    first is the second registrant's, and gives no facts (nor does its continuation). Read
    as the company's, the utility's "Common stock dividends paid" ($1,275 million, paid to
    its parent) had been PG&E's dividends in FY2022, a year PG&E Corporation paid none.
    """
    by_page: dict[int, list[Fact]] = {}
    owners: dict[str, str] = {}  # statement -> the company its first page names
    scales: Counter[float] = Counter()
    unscaled: list[Page] = []
    ordered = sorted(pages, key=lambda p: p.page_index)
    carried: dict[int, str | Segment] = {}  # page index -> the statement it goes on with
    before: tuple[Page, list[Fact]] | None = None
    for page in ordered:
        if page.page_id is None:
            raise ValueError(f"{page.doc_name} p.{page.page_index} has no page_id: store it first")
        facts, stated, missing = _read_page(page, page.page_id, None)
        if before is not None and (statement := continued_statement(*before, page)):
            going_on = _read_page(page, page.page_id, None, statement)
            name = statement.statement if isinstance(statement, Segment) else statement
            if {f.concept for f in going_on[0]} & _CLOSES[name]:  # it finishes it
                facts, stated, missing = going_on
                carried[page.page_index] = statement
        if facts and page.page_index not in carried and (company := registrant(page.text)):
            read = {fact.statement for fact in facts}
            if any(owners.setdefault(statement, company) != company for statement in read):
                facts, missing = [], False  # another registrant's: not re-read for a scale
        by_page[page.page_index] = facts
        before = (page, facts)
        scales.update(stated)
        if missing:
            unscaled.append(page)
    usual = scales.most_common(1)[0][0] if scales else None
    if usual is not None:
        for page in unscaled:
            index = page.page_index
            by_page[index] = _read_page(page, page.page_id or 0, usual, carried.get(index))[0]
    read = [fact for page in ordered for fact in by_page[page.page_index]]
    return [*read, *note_facts(ordered, read, usual)]


def continued_statement(
    before: Page, facts_before: Sequence[Fact], page: Page
) -> str | Segment | None:
    """The statement ``page`` goes on with: the one the page before it stopped in the middle
    of (it read the statement's first lines and not its last), when ``page`` names no
    statement of its own. eBay's cash-flow statement runs onto a second page that starts
    "Net cash used in continuing financing activities", headed only by its years: the
    statement's name. PG&E's runs onto one that starts with its next row ("Short-term debt
    matured"), no years above it: the page before's table, whose header and years head
    the rows (:func:`retrieval.facts.layout.segments`). None otherwise: a note's table
    after a finished statement is not the statement's (and a page read so is kept only
    where it reads the statement's last lines: :func:`document_facts`)."""
    if page.page_index != before.page_index + 1 or not facts_before:
        return None
    if segments(page.text) or _supplemental(page.text):
        return None  # a heading of its own, or a schedule the statements do not hold
    statement = facts_before[-1].statement
    read = {f.concept for f in facts_before if f.statement == statement}
    if not (read & _OPENS.get(statement, set())) or read & _CLOSES.get(statement, set()):
        return None
    lines = [line.strip() for line in page.text.split("\n") if line.strip()][:HEAD_LINES]
    if any(year_line(line) for line in lines):
        return statement
    tables = [t for t in segments(before.text) if t.statement == statement and t.years]
    return tables[-1] if tables else None
