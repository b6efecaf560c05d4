"""Questions about a company's parts are answered by code from the filing's breakdown table."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from domain.cells import SliceRef
from programs.figure_questions import asks_beyond_figure
from programs.figures import Figures
from programs.part_tables import PartAsk, read_part_ask
from retrieval.facts.model import Fact
from tests.test_breakdown import SEGMENT_PAGE

PLANE_2022 = SliceRef(ticker="PLANE", fy=2022, fq=4)


@dataclass(frozen=True)
class _Hit:
    uid: str
    page_id: int
    doc_label: str
    page_index: int
    text: str


STATEMENT = _Hit("0123456789ab", 5, "PLANE 10-K FY2022", 54, "Revenue\n2022\n2021\n")
SEGMENTS = _Hit("ba9876543210", 6, "PLANE 10-K FY2022", 61, SEGMENT_PAGE)


def _facts(ref: SliceRef) -> list[Fact]:
    row = dict(uid=STATEMENT.uid, page_id=5, doc_name="PLANE_2022_10K",
               doc_label="PLANE 10-K FY2022", page_index=54, ticker="PLANE", statement="income",
               fq=None, duration="year", unit="USD", label="Total revenues",
               concept="revenue")  # fmt: skip
    return [
        Fact(fy=2022, column="2022", value=66_608e6, **row),
        Fact(fy=2021, column="2021", value=62_286e6, **row),
    ]


@pytest.fixture
def figures():
    searched: list[str] = []

    def search(query: str, ref: SliceRef) -> list[_Hit]:
        searched.append(query)
        return [STATEMENT, SEGMENTS]

    figures = Figures(_facts, pages=search)
    figures.searched = searched  # type: ignore[attr-defined]
    return figures


@pytest.mark.parametrize(
    ("question", "kind", "measure"),
    [
        ("Which segment had the highest revenue in FY2022?", "highest", "revenue"),
        ("Which geographic region had the lowest net income in FY2022?", "lowest", "net income"),
        ("Which business segment had the largest revenue decline?", "declined", "revenue"),
        ("Which segment dragged down growth in 2022?", "declined", "revenue"),
        ("Do any product categories exceed 20% of sales?", "above", "revenue"),
        ("What was operating income by segment in FY2022?", "listed", "operating income"),
        ("How did US sales growth compare with international?", "listed", "revenue"),
        ("Which region had the worst topline performance in 2022?", "slowest", "revenue"),
        ("What are the geographies that PLANE has a presence in?", "listed", "revenue"),
        ("Which regions does PLANE operate in as of FY2022?", "listed", "revenue"),
        ("Which product category grew fastest in FY2021?", "fastest", "revenue"),
        ("What are the major products and services that PLANE sells?", "offered", "revenue"),
        ("What does PLANE sell as of FY2022?", "offered", "revenue"),
        ("Which business contributed the most revenue to PLANE in FY2022?", "highest", "revenue"),
        ("Which of PLANE's revenue lines grew fastest in FY2023?", "fastest", "revenue"),
        ("What was PLANE's largest source of revenue in FY2023?", "highest", "revenue"),
        ("Which revenue stream of PLANE declined in FY2022?", "declined", "revenue"),
        # a segment's profit is its operating income
        ("Which segment was the most profitable in FY2022?", "highest", "operating income"),
        # products ranked by a measure are the parts of what it sells
        ("Which of PLANE's products had the highest net sales in FY2022?", "highest", "revenue"),
        ("Which product grew fastest in FY2022?", "fastest", "revenue"),
        # a share of the largest part names no part's label: the highest, with its share
        ("What share of PLANE's revenue came from its largest segment?", "highest", "revenue"),
        ("What percentage of sales came from the smallest region?", "lowest", "revenue"),
        # the segments themselves, by the revenue each brings
        ("Which segments did PLANE report in FY2020?", "listed", "revenue"),
        ("What are PLANE's reportable segments as of FY2022?", "listed", "revenue"),
    ],
)
def test_a_question_about_parts_is_read_for_its_ask_and_measure(question, kind, measure):
    ask = read_part_ask(question)
    assert ask is not None and (ask.kind, ask.measure) == (kind, measure)


@pytest.mark.parametrize(
    "question",
    [
        "What was revenue in FY2022?",
        "Did PLANE's revenue grow in FY2023?",
        "Which segment is the most capital intensive?",
        "Which business model drives PLANE's revenue?",
        "Excluding the impact of M&A, which segment dragged down revenue growth?",
        "Does PLANE report segments?",
    ],
)
def test_no_part_or_no_measure_is_no_parts_question(question):
    assert read_part_ask(question) is None


def test_the_highest_part_is_chosen_by_code_and_every_part_is_cited(figures):
    question = "Which segment had the highest revenue in FY2022?"
    probe = figures.probe(question, PLANE_2022)
    assert probe is not None and probe.probe_title == "Revenue by part (from the filing's table)"
    answer, figure = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(
        "Commercial Airplanes had the highest revenue: $25,867 million, 38.8% of the total¹˒². "
        "Revenue in FY2022 was $66,608 million², split as: Commercial Airplanes $25,867 million "
        "(38.8%, +32.7% from $19,493 million); Defense, Space & Security $23,162 million"
    )
    assert [f.citation.page_index for f in answer.references.footnotes] == [61, 54]
    assert (figure.title, figure.text) == ("Revenue of Commercial Airplanes", "$25,867 million")
    # the adjusting row is listed, never chosen
    lowest, _ = figures.answer("Which segment had the lowest revenue in FY2022?", PLANE_2022)
    assert lowest.body.startswith("Boeing Capital had the lowest revenue")
    # the whole company's figure is not the answer to a question about its parts
    assert figures.compute(question, PLANE_2022) is None


def test_parts_above_a_share_and_parts_that_declined(figures):
    above, _ = figures.answer(
        "Does PLANE have any segments with more than 30% of its FY2022 revenue?", PLANE_2022
    )
    assert above.body.startswith(
        "Yes: Commercial Airplanes (38.8%), Defense, Space & Security (34.8%) each had more "
        "than 30% of revenue¹˒²."
    )
    fell, figure = figures.answer("Which segments' revenue declined in FY2022?", PLANE_2022)
    assert fell.body.startswith(
        "Revenue declined in Boeing Capital (-26.8%), Defense, Space & Security (-12.7%)¹˒²."
    )
    assert figure.title == "Revenue of Boeing Capital"


def test_no_table_no_answer_and_a_sentence_is_never_searched(figures):
    question = "Which segment had the highest net income in FY2022?"  # no fact, no table
    assert figures.answer(question, PLANE_2022) is None
    before = list(figures.searched)
    figures.answer(
        "Commercial Airplanes revenue by segment was $25,867 million.", PLANE_2022, parts=False
    )
    assert figures.searched == before


def test_a_parts_table_settles_which_part_but_not_why():
    question = "Which segment had the highest revenue in FY2022?"
    assert asks_beyond_figure(question) and not asks_beyond_figure(question, parted=True)
    assert asks_beyond_figure("Which segment grew fastest and why?", parted=True)
    # a ranking by share is the table's; what contributed to a change is a cause
    most = "Which segment contributed most to revenue in FY2022?"
    assert asks_beyond_figure(most) and not asks_beyond_figure(most, parted=True)
    assert asks_beyond_figure("Which segment contributed to the revenue decline?", parted=True)


def test_parts_ranked_by_their_change_when_the_question_asks_how_they_grew(figures):
    fastest, figure = figures.answer("Which segment grew fastest in FY2022?", PLANE_2022)
    assert figure.title == "Revenue of Commercial Airplanes"
    assert fastest.body.startswith(
        "Commercial Airplanes’ revenue grew fastest: +32.7%, from $19,493 million to "
        "$25,867 million¹˒²."
    )
    worst, _ = figures.answer(
        "Which segment had the worst topline performance in FY2022?", PLANE_2022
    )
    assert worst.body.startswith("Boeing Capital’s revenue fell the most: -26.8%")


COUNTRIES = _Hit(
    "c0ffee000001",
    7,
    "PLANE 10-K FY2022",
    79,
    "Net revenues by geography:\n2022\n2021\nU.S.\n30,000\n29,000\nUnited Kingdom\n"
    "16,608\n15,286\nGermany\n12,000\n10,000\nRest of world\n8,000\n8,000\n"
    "Total net revenues\n66,608\n62,286\n",
)


def test_a_question_about_places_reads_a_table_of_places_only():
    def search(query: str, ref: SliceRef) -> list[_Hit]:
        return [SEGMENTS, COUNTRIES]

    figures = Figures(_facts, pages=search)
    question = "Did PLANE's international revenue decline in FY2022?"
    answer, _ = figures.answer(question, PLANE_2022)
    assert "United Kingdom $16,608 million" in answer.body and "Airplanes" not in answer.body
    only_segments = Figures(_facts, pages=lambda query, ref: [SEGMENTS])
    assert only_segments.part_table(question, PLANE_2022) is None


def test_segments_asked_read_a_table_of_segments_before_one_of_countries():
    """The prose above a table of countries may speak of segments ("sold by the CCG and
    DCG operating segments"); its title ("Net revenues by country") says what it lists.
    Asked about segments, a table of segments is read, even one whose heading names no
    kind; a table of places only where its own title calls them segments."""
    countries = replace(
        COUNTRIES,
        text="Most revenue came from products sold by our operating segments.\n"
        + COUNTRIES.text.replace("by geography", "by country"),
    )
    untitled = replace(SEGMENTS, text=SEGMENT_PAGE.replace("Summary of Business Segment Data", ""))
    question = "Which of PLANE's segments dragged down its revenue growth in FY2022?"
    figures = Figures(_facts, pages=lambda query, ref: [countries, untitled])
    answer, _ = figures.answer(question, PLANE_2022)
    assert "Defense, Space & Security" in answer.body and "United Kingdom" not in answer.body
    place_segments = replace(
        COUNTRIES, text=COUNTRIES.text.replace("Net revenues by geography", "Revenues by segment")
    )
    figures = Figures(_facts, pages=lambda query, ref: [untitled, place_segments])
    answer, _ = figures.answer("Which of PLANE's segments had the highest revenue?", PLANE_2022)
    assert answer.body.startswith("U.S. had the highest revenue")


def test_what_a_company_sells_is_its_offerings_by_share_never_its_places():
    question = "What are the major products and services that PLANE sells as of FY2022?"
    figures = Figures(_facts, pages=lambda query, ref: [COUNTRIES, SEGMENTS])
    answer, figure = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(
        "What it sells, by share of revenue: Commercial Airplanes (38.8%), Defense, Space & "
        "Security (34.8%), Global Services (26.4%)"
    )
    assert "United Kingdom" not in answer.body and figure.title == "revenue"
    only_places = Figures(_facts, pages=lambda query, ref: [COUNTRIES])
    assert only_places.part_table(question, PLANE_2022) is None


def test_a_companys_businesses_are_read_from_what_it_sells_before_its_places():
    """A question about "which of its businesses" (like "product categories") asks for
    lines of business: a table of them is read before a table of countries that adds up to
    revenue too, and the countries only when nothing else adds up."""
    question = "Which of PLANE's businesses had the highest revenue in FY2022?"
    assert read_part_ask(question) == PartAsk("highest", "revenue")
    figures = Figures(_facts, pages=lambda query, ref: [COUNTRIES, SEGMENTS])
    answer, _ = figures.answer(question, PLANE_2022)
    assert answer.body.startswith("Commercial Airplanes had the highest revenue")
    assert "United Kingdom" not in answer.body
    only_places = Figures(_facts, pages=lambda query, ref: [COUNTRIES])
    answer, _ = only_places.answer(question, PLANE_2022)
    assert answer.body.startswith("U.S. had the highest revenue")


def test_two_parts_the_question_compares_open_the_answer_with_their_comparison(figures):
    question = (
        "How did PLANE's Commercial Airplanes segment revenue growth compare with its Global "
        "Services segment in FY2022?"
    )
    assert read_part_ask(question) == PartAsk("listed", "revenue")
    answer, figure = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(
        "Commercial Airplanes grew faster than Global Services: +32.7% against +7.9%¹˒². "
        "Revenue in FY2022 was $66,608 million"
    )
    assert figure.verdict.startswith("Commercial Airplanes grew faster")
    # one part named, or none: the list as before, with no comparison
    one, _ = figures.answer(question.replace(" with its Global Services segment", ""), PLANE_2022)
    assert one.body.startswith("Revenue in FY2022 was $66,608 million")


def test_a_part_asked_by_its_label_is_read_from_the_table_that_holds_it(figures):
    """A question such as "How much of revenue came from Global Services?" names a part by
    its label: the answer is that part's amount and share, never the consolidated revenue;
    a part no table holds gets no answer from code."""
    question = "How much of PLANE's FY2022 revenue came from Global Services?"
    assert read_part_ask(question) == PartAsk("named", "revenue")
    answer, figure = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(
        "Global Services: $17,611 million, 26.4% of revenue, +7.9% from $16,328 million¹˒²."
    )
    assert figure.title == "Revenue of Global Services"
    unheld = question.replace("Global Services", "cruise ships")
    assert figures.part_table(unheld, PLANE_2022) is None
    assert figures.answer(unheld, PLANE_2022) is None  # not the consolidated revenue either


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("What were PLANE's Global Services revenues in FY2022?",
         "Global Services: $17,611 million, 26.4% of revenue, +7.9% from $16,328 million¹˒²."),
        # which way it moved, asked of the one part named before the measure
        ("Were PLANE's Global Services revenues higher or lower in FY2022 than a year earlier?",
         "Increased: Global Services’ revenue rose from $16,328 million to $17,611 million "
         "(+7.9%), 26.4% of revenue¹˒²."),
        ("Did PLANE's Global Services revenues decline in FY2022?",
         "No: Global Services’ revenue rose from $16,328 million to $17,611 million (+7.9%)"),
    ],
)  # fmt: skip
def test_a_part_named_before_its_measure_is_that_parts_figure(figures, question, opening):
    assert read_part_ask(question) == PartAsk("named", "revenue")
    answer, figure = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(opening), answer.body
    assert figure.title == "Revenue of Global Services"


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Which of PLANE's segments, Global Services or Boeing Capital, brought in more "
         "revenue in FY2022?", "Global Services had the higher revenue: $17,611 million"),
        ("Which of PLANE's segments, Global Services or Boeing Capital, brought in less "
         "revenue in FY2022?", "Boeing Capital had the lower revenue: $199 million"),
    ],
)  # fmt: skip
def test_a_comparative_between_two_named_parts_chooses_between_them(figures, question, opening):
    """ "Which brought in more?" ranks the parts the question names by size, not by growth,
    and chooses only among them (Commercial Airplanes, larger, is not asked about)."""
    assert read_part_ask(question).kind in ("highest", "lowest")
    answer, _ = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(opening), answer.body


def test_a_catch_all_row_is_listed_but_never_chosen():
    """Intel's "All other" (start-up businesses, restructuring, unallocated costs) is no
    segment: the lowest operating income is a segment's, not its -$3,381 million."""
    from calculator.breakdown import Breakdown, Part
    from programs.part_answers import _verdict

    parts = (
        Part("Data Center Group", 10_571e6),
        Part("Programmable Solutions Group", 260e6),
        Part("All other", -3_381e6),
    )
    breakdown = Breakdown(parts, sum(p.value for p in parts))
    line, chosen = _verdict(PartAsk("lowest", "operating income"), breakdown)
    assert chosen is not None and chosen.label == "Programmable Solutions Group", line


@pytest.mark.parametrize(
    ("segment", "reconciling"),
    [
        ("Corporate & Investment Bank", "Corporate"),  # JPMorgan's
        ("International Developmental Licensed Markets & Corporate", "Corporate and other"),
    ],
)
def test_a_segment_named_corporate_beside_other_words_is_chosen(segment, reconciling):
    """ "Corporate" alone, or with "other" and "expenses", is a reconciling row; beside a
    business's own words it is a segment, and may be the highest."""
    from calculator.breakdown import Breakdown, Part
    from programs.part_answers import _verdict

    parts = (Part("Consumer & Community Banking", 3_000e6), Part(segment, 3_725e6),
             Part(reconciling, 4_000e6))  # fmt: skip
    breakdown = Breakdown(parts, sum(p.value for p in parts))
    line, chosen = _verdict(PartAsk("highest", "net income"), breakdown)
    assert chosen is not None and chosen.label == segment, line


def test_parts_footed_before_reconciling_items_say_so_beside_the_consolidated_figure():
    """Intel's FY2022 segments add up to $63,574 million before $520 million of
    intersegment revenue: the answer gives net revenue, the table's own total and the
    difference, and shares of the table's total."""
    from tests.test_breakdown import RECONCILED_PAGE

    table = _Hit("ba9876543210", 6, "PLANE 10-K FY2022", 61, RECONCILED_PAGE)

    def facts(ref: SliceRef) -> list[Fact]:
        return [replace(f, value=v) for f, v in zip(_facts(ref), (68_954e6, 79_024e6), strict=True)]

    figures = Figures(facts, pages=lambda query, ref: [STATEMENT, table])
    answer, _ = figures.answer("Which segment dragged down PLANE's growth in 2022?", PLANE_2022)
    assert answer.body.startswith(
        "Revenue declined in Client Computing (-22.8%), Data Center and AI (-15.4%)¹˒². "
        "Revenue in FY2022 was $68,954 million²; the table's parts add up to $69,574 million "
        "before reconciling items of -$620 million, split as: Client Computing $31,708 "
        "million (45.6%, -22.8% from $41,067 million)"
    ), answer.body


@pytest.mark.parametrize(
    ("question", "threshold", "opening"),
    [
        ("Was PLANE's Commercial Airplanes revenue more than 30% of its total revenue in FY2022?",
         30.0, "Yes: Commercial Airplanes had 38.8% of revenue, more than 30%¹˒². Revenue in"),
        ("Was PLANE's Commercial Airplanes revenue more than 40% of its total revenue in FY2022?",
         40.0, "No: Commercial Airplanes had 38.8% of revenue, not more than 40%¹˒². Revenue"),
    ],
)  # fmt: skip
def test_a_named_parts_share_is_set_against_the_share_asked(figures, question, threshold, opening):
    """ "Was Oracle's cloud services and license support revenue more than 70% of its total
    revenue?": that part's share, not every part above the share."""
    assert read_part_ask(question) == PartAsk("named", "revenue", threshold, True)
    answer, _ = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(opening), answer.body


def test_a_part_may_be_named_in_four_words():
    from programs.figure_questions import names_a_part

    assert names_a_part("Was Oracle's cloud services and license support revenue above 70%?")
    assert not names_a_part("Was Oracle's total revenue above $40 billion?")


def test_a_label_inside_a_longer_one_named_is_not_named_apart():
    """Oracle's "cloud services and license support revenue" named "Services" too."""
    from calculator.breakdown import Breakdown, Part
    from programs.part_tables import _named

    parts = (
        Part("Cloud services and license support", 30_174e6),
        Part("Hardware", 3_183e6),
        Part("Services", 3_205e6),
    )
    breakdown = Breakdown(parts, sum(p.value for p in parts))
    question = "Was Oracle's cloud services and license support revenue more than 70%?"
    assert [p.label for p in _named(question, breakdown)] == [parts[0].label]
    both = "How did Oracle's hardware and services revenue compare?"
    assert [p.label for p in _named(both, breakdown)] == ["Hardware", "Services"]


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Did the share of PLANE's FY2022 revenue from Global Services increase?",
         "Yes: Global Services’ share of revenue rose from 26.2% in FY2021 to 26.4% in FY2022 "
         "(+0.2 points), as its revenue rose 7.9%¹˒²."),
        ("What percentage of PLANE's FY2022 revenue came from Global Services, and did that "
         "share fall?", "No: Global Services’ share of revenue rose from 26.2%"),
    ],
)  # fmt: skip
def test_a_named_parts_share_moves_apart_from_its_amount(figures, question, opening):
    """Asked whether a part's *share* grew, the answer sets its share in each year side by
    side: a part whose amount rose can still lose share to a whole that rose faster."""
    answer, _ = figures.answer(question, PLANE_2022)
    assert answer.body.startswith(opening), answer.body


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("How much of eBay's FY2022 revenue came from the United States?", "U.S."),
        ("What share of revenue came from the USA?", "U.S."),
        ("Did revenue from the U.K. fall in FY2022?", "United Kingdom"),
    ],
)
def test_a_place_is_named_however_the_question_writes_it(question, label):
    from calculator.breakdown import Breakdown, Part
    from programs.part_tables import _named

    parts = (Part("U.S.", 4_400e6), Part("United Kingdom", 1_200e6), Part("Germany", 900e6))
    breakdown = Breakdown(parts, sum(p.value for p in parts))
    assert [p.label for p in _named(question, breakdown)] == [label]
