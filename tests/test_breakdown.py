"""The parts of a consolidated figure are the rows of a page's table that add up to it."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from calculator.breakdown import amount, find_breakdown

SEGMENT_PAGE = """Summary of Business Segment Data
(Dollars in millions)
Years ended December 31,
2022
2021
2020
Revenues:
Commercial Airplanes
$25,867
$19,493
$16,162
Defense, Space & Security
23,162
26,540
26,257
Global Services
17,611
16,328
15,543
Boeing Capital
199
272
261
Unallocated items, eliminations and other
(231)
(347)
(65)
Total revenues
$66,608
$62,286
$58,158
"""


def _page(rows: list[tuple[str, int, int]]) -> str:
    """A table as PyMuPDF prints it: a label line, then a line per column value."""
    lines = ["Revenue by segment", "(in millions)", "2022", "2021"]
    for label, now, before in rows:
        lines += [label, f"{now:,}", f"{before:,}"]
    lines += ["Total", f"{sum(r[1] for r in rows):,}", f"{sum(r[2] for r in rows):,}"]
    return "\n".join(lines)


def test_the_rows_that_add_up_to_the_figure_are_its_parts_with_the_prior_year():
    found = find_breakdown(SEGMENT_PAGE, 66_608e6, 62_286e6)
    assert found is not None
    assert [p.label for p in found.parts] == [
        "Commercial Airplanes",
        "Defense, Space & Security",
        "Global Services",
        "Boeing Capital",
        "Unallocated items, eliminations and other",
    ]
    assert found.parts[0].value == 25_867e6 and found.parts[0].prior == 19_493e6
    assert round(found.share(found.parts[0]), 3) == 0.388
    assert round(found.change(found.parts[1]) or 0, 3) == -0.127
    assert found.change(found.parts[4]) is None  # no change from a negative prior value
    assert "Revenues:" in found.heading


def test_the_prior_year_is_read_only_where_its_column_adds_up_too():
    found = find_breakdown(SEGMENT_PAGE, 66_608e6, 60_000e6)
    assert found is not None and found.prior_total is None
    assert all(p.prior is None for p in found.parts)


def test_no_breakdown_when_no_rows_add_up_or_the_sum_is_too_small_to_trust():
    assert find_breakdown(SEGMENT_PAGE, 70_000e6) is None
    small = "Table\n2022\n2021\nA\n4\n3\nB\n5\n6\n"
    assert find_breakdown(small, 9e6) is None  # one printed digit each: a sum by chance


def test_a_statements_own_lines_and_a_total_beside_empty_rows_are_not_parts():
    statement = (
        "Income\n2022\n2021\nCost of products sold\n31,089\n29,855\nGross profit\n63,854\n63,920\n"
    )
    assert find_breakdown(statement, 94_943e6) is None
    whole = "Revenue\n2022\n2021\nGAAP net revenue\n63,054\n79,024\nNAND memory business\n—\n—\n"
    assert find_breakdown(whole, 63_054e6) is None


# Activision Blizzard's FY2021 statement of operations data (10-K p.44), as PyMuPDF prints
# it: each amount beside its percentage of revenues.
ATVI_OPERATIONS = """For the Years Ended December 31,
2021
2020
Net revenues
Product sales
$
2,311 
26 % $
2,350 
29 %
In-game, subscription, and other revenues
6,492 
74 
5,736 
71 
Total net revenues
8,803 
100 
8,086 
100 
Costs and expenses
Cost of revenues—product sales:
Product costs
649 
28 
705 
30 
Software royalties, amortization, and intellectual property
licenses
346 
15 
269 
11 
Cost of revenues—in-game, subscription, and other:
Game operations and distribution costs
1,215 
19 
1,131 
20 
Software royalties, amortization, and intellectual property
licenses
107 
2 
155 
3 
Product development
1,337 
15 
1,150 
14 
Sales and marketing
1,025 
12 
1,064 
13 
General and administrative
788 
9 
784 
10 
Restructuring and related costs
77 
1 
94 
1 
Total costs and expenses
5,544 
63 
5,352 
66 
Operating income
3,259 
37 
2,734 
34 
"""


def test_a_sum_off_by_rounding_needs_a_second_column_that_adds_up():
    # 107 + 1,337 + 1,025 + 788 = 3,257 (four expense lines) against operating income of
    # 3,259: within the rows' rounding, but 2020's column (3,153) is not 2,734.
    assert find_breakdown(ATVI_OPERATIONS, 3_259e6, 2_734e6) is None
    assert find_breakdown(ATVI_OPERATIONS, 3_259e6) is None
    revenue = find_breakdown(ATVI_OPERATIONS, 8_803e6, 8_086e6)  # footed exactly, both years
    assert revenue is not None and [p.value for p in revenue.parts] == [2_311e6, 6_492e6]
    rounded = _page([("North", 1_001, 2_000), ("South", 1_001, 2_000)])
    assert find_breakdown(rounded, 2_001e6, 4_000e6) is not None  # the prior year confirms
    assert find_breakdown(rounded, 2_001e6, 3_000e6) is None


def test_amounts_read_as_printed():
    assert amount("$25,867") == 25_867.0
    assert amount("(231)") == -231.0
    assert amount("—") == 0.0
    assert amount("7.2") == 7.2
    assert amount("(a)") is None and amount("NM") is None


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["North", "South", "East", "West", "Retail", "Online", "Parts"]),
            st.integers(1, 40_000),
            st.integers(1, 40_000),
        ),
        min_size=2,
        max_size=6,
        unique_by=lambda r: r[0],
    ).filter(lambda rows: sum(r[1] for r in rows) >= 1000 and sum(r[2] for r in rows) >= 1000)
)
def test_any_table_of_parts_is_read_back_with_its_values(rows):
    total = sum(r[1] for r in rows) * 1e6
    prior = sum(r[2] for r in rows) * 1e6
    found = find_breakdown(_page(rows), total, prior)
    assert found is not None
    assert [(p.label, p.value, p.prior) for p in found.parts] == [
        (label, now * 1e6, before * 1e6) for label, now, before in rows
    ]


@given(
    st.lists(
        st.tuples(st.sampled_from(["North", "South", "East", "West", "Online"]),
                  st.integers(1, 40_000), st.integers(1, 40_000)),
        min_size=2, max_size=5, unique_by=lambda r: r[0],
    ).filter(lambda rows: sum(r[1] for r in rows) >= 1000 and sum(r[2] for r in rows) >= 1000),
    st.sampled_from(["Percentage of total revenue", "% of total net sales",
                     "As a percentage of total revenues"]),
)  # fmt: skip
def test_a_share_printed_under_each_part_does_not_split_the_table(rows, share_label):
    """Adobe's segment note prints each segment's share of revenue on a line of its own
    under it ("Percentage of total revenue | 73% | 73%"); read as a row of another width,
    it had ended the table after its first segment, and no part was found."""
    total, prior = sum(r[1] for r in rows), sum(r[2] for r in rows)
    lines = ["Revenue by segment", "(in millions)", "2022", "2021"]
    for label, now, before in rows:
        lines += [label, f"{now:,}", f"{before:,}"]
        lines += [share_label, f"{round(100 * now / total)} %", f"{round(100 * before / prior)} %"]
    lines += ["Total revenue", f"{total:,}", f"{prior:,}"]
    found = find_breakdown("\n".join(lines), total * 1e6, prior * 1e6)
    assert found is not None
    assert [(p.label, p.value) for p in found.parts] == [(r[0], r[1] * 1e6) for r in rows]


#: A segment note that prints a group's rows under its name and the group's subtotal
#: unlabelled after them (Intel's FY2020 note, cut to its operating income).
GROUPED_PAGE = """Operating income (loss) for each period was as follows:
Years Ended (In Millions)
Dec 26, 2020
Dec 28, 2019
Operating income (loss):
Data Center Group
$ 10,571
$ 10,227
Internet of Things
IOTG
497
1,097
Mobileye
241
245
738
1,342
Programmable Solutions Group
260
318
Client Computing Group
15,129
15,202
All other
(3,381)
(3,878)
Total operating income
$ 23,317
$ 23,211
"""


def test_a_group_printed_with_its_subtotal_is_one_part():
    """The group's own rows are read as one part, its name with its subtotal: a reader asks
    which segment earned most, and IOTG and Mobileye are one segment's lines."""
    found = find_breakdown(GROUPED_PAGE, 23_317e6, 23_211e6)
    assert found is not None
    assert [(p.label, p.value, p.prior) for p in found.parts] == [
        ("Data Center Group", 10_571e6, 10_227e6),
        ("Internet of Things", 738e6, 1_342e6),
        ("Programmable Solutions Group", 260e6, 318e6),
        ("Client Computing Group", 15_129e6, 15_202e6),
        ("All other", -3_381e6, -3_878e6),
    ]


# Intel's FY2022 release (p.10), as PyMuPDF prints it: the segments foot to their own total,
# which a second table reconciles to net revenue (less one segment's intersegment revenue).
RECONCILED_PAGE = """Operating segment revenue:
Dec 31, 2022
Dec 25, 2021
Client Computing
$ 31,708
$ 41,067
Data Center and AI
19,196
22,691
Network and Edge
8,873
7,976
All other
9,797
7,965
Total operating segment revenue
$ 69,574
$ 79,699
Less: intersegment revenue
(620)
(675)
"""


REVENUE = re.compile(r"\brevenues?\b", re.IGNORECASE)


def test_parts_that_foot_to_their_own_total_near_the_consolidated_figure_are_read():
    found = find_breakdown(RECONCILED_PAGE, 68_954e6, 79_024e6, REVENUE)
    assert found is not None
    assert [p.label for p in found.parts][:2] == ["Client Computing", "Data Center and AI"]
    assert (found.total, found.consolidated, found.prior_total) == (69_574e6, 68_954e6, 79_699e6)
    assert found.parts[0].prior == 41_067e6
    assert round(found.share(found.parts[0]), 3) == round(31_708 / 69_574, 3)
    # too far from the consolidated figure to be it before reconciling items
    assert find_breakdown(RECONCILED_PAGE, 68_054e6, 79_024e6, REVENUE) is None
    # a total row that is not the measure's, or no measure given: no footed reading
    assert find_breakdown(RECONCILED_PAGE, 68_954e6, 79_024e6) is None
    income = re.compile(r"\bnet\s+income\b", re.IGNORECASE)
    assert find_breakdown(RECONCILED_PAGE, 68_954e6, 79_024e6, income) is None
    # where the rows add up to the consolidated figure itself, that reading wins
    exact = find_breakdown(RECONCILED_PAGE, 69_574e6, 79_699e6)
    assert exact is not None and exact.consolidated is None
