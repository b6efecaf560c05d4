"""How many stores a company has, read from its filing's table (``programs.store_counts``)."""

from __future__ import annotations

from cited import FilingPage, filing_page
from hypothesis import given
from hypothesis import strategies as st

from domain.cells import SliceRef
from programs.page_answers import page_answer
from programs.store_counts import asks_store_count, counted_total

QUESTION = "How many restaurants did Acme operate at the end of 2031?"
TABLE = (
    "In 2031, the Company opened 1,576 restaurants and closed 1,332 restaurants.\n"
    "Systemwide restaurants at year end\n2031\n2030\n2029\nU.S.\n13,444\n13,438\n13,682\n"
    "International Operated Markets\n10,103\n10,785\n10,560\n"
    "International Developmental Licensed Markets & Corporate\n16,728\n15,808\n14,956\n"
    "Total\n40,275\n40,031\n39,198\nAcme Corporation 2031 Annual Report 20"
)


def _page(text: str, index: int = 20) -> FilingPage:
    return filing_page(text, index, "ACME 10-K FY2031")


def test_the_tables_total_for_the_year_is_the_answer_with_its_parts():
    """McDonald's had been answered with one region's row (10,103), then with the page's
    printed page number ("20 restaurants")."""
    found = counted_total(QUESTION, [_page(TABLE)], 2031)
    assert found is not None
    assert found[1] == (
        "Systemwide restaurants at year end (2031): 40,275¹, of which U.S. 13,444; "
        "International Operated Markets 10,103; International Developmental Licensed "
        "Markets & Corporate 16,728."
    )
    assert counted_total(QUESTION, [_page(TABLE)], 2030)[1].startswith(  # type: ignore[index]
        "Systemwide restaurants at year end (2030): 40,031¹"
    )
    _, answer, by = page_answer(QUESTION, SliceRef(ticker="ACME", fy=2031, fq=4),
                                lambda query, where: [_page(TABLE)])  # fmt: skip
    assert by == "the filing's table" and answer.references.footnotes[0].citation.page_index == 20


def test_no_total_without_the_counted_thing_the_year_or_one_answer():
    assert counted_total("How many stores did Acme operate at the end of 2031?", [_page(TABLE)],
                         2031) is None  # the table counts restaurants  # fmt: skip
    assert counted_total(QUESTION, [_page(TABLE)], 2025) is None  # no such column
    other = TABLE.replace("13,444", "13,445").replace("40,275", "40,276")
    assert counted_total(QUESTION, [_page(TABLE), _page(other, 21)], 2031) is None  # two
    assert counted_total("What was Acme's revenue in 2031?", [_page(TABLE)], 2031) is None
    assert asks_store_count(QUESTION) and not asks_store_count("How many employees?")


@given(st.lists(st.integers(10, 60_000), min_size=2, max_size=5))
def test_any_footed_table_of_stores_gives_its_total(rows):
    lines = ["Stores at year end", "2031", "2030"]
    for n, value in enumerate(rows):
        lines += [f"Region {chr(65 + n)}", f"{value:,}", f"{value + 1:,}"]
    lines += ["Total", f"{sum(rows):,}", f"{sum(rows) + len(rows):,}"]
    found = counted_total("How many stores did Acme have?", [_page("\n".join(lines))], 2031)
    assert found is not None and f"(2031): {sum(rows):,}¹" in found[1]
