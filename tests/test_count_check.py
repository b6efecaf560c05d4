"""A count whose cited pages never name what it counts is removed (``programs.count_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from citations.markup import CitedAnswer
from programs.count_check import COUNTED, counted_nouns, drop_miscounted

UNITS = "Unit counts at period end\n5,306\n5,251\nRetail square feet at period end\n697"
PEOPLE = "We employed approximately 2.1 million associates as of January 31, 2031."
PAGES = {"0a1b2c3d4e5f": UNITS, "1b2c3d4e5f60": PEOPLE}


def test_a_count_of_what_its_page_does_not_name_goes():
    answer = cited_answer("Acme had 5,306 employees at the end of FY2031.¹ Sales rose.¹")
    kept, dropped = drop_miscounted(answer, PAGES)
    assert dropped == 1 and kept.body == "Sales rose.¹"


def test_a_count_its_page_names_stays_in_the_pages_own_words():
    stores = cited_answer("Acme operated 5,306 stores at the end of FY2031.¹")  # "Unit counts"
    assert drop_miscounted(stores, PAGES) == (stores, 0)
    people = cited_answer("Acme had about 2.1 million employees.¹", uid="1b2c3d4e5f60")
    assert drop_miscounted(people, PAGES) == (people, 0)  # "employed", "associates"
    uncited = CitedAnswer(body="Acme had 5,306 employees.")  # for the citation checks
    assert drop_miscounted(uncited, PAGES) == (uncited, 0)


def test_years_and_measures_are_not_counts():
    assert counted_nouns("In 2031 the segment grew 4%.") == set()
    assert counted_nouns("Revenue grew 5% on store traffic.") == set()
    assert counted_nouns("Acme reports four reportable segments.") == {"segment"}
    assert counted_nouns("It served 120 million customers.") == {"customer"}


@given(st.sampled_from(sorted(COUNTED)), st.integers(min_value=2, max_value=99_999))
def test_a_count_stands_exactly_when_a_cited_page_names_its_noun(noun, count):
    answer = cited_answer(f"Acme had {count:,} {noun}s at year end.¹")
    for word in COUNTED[noun]:
        page = {"0a1b2c3d4e5f": f"{count:,} {word}s in all"}
        assert drop_miscounted(answer, page) == (answer, 0)
    bare = {"0a1b2c3d4e5f": f"Totals at period end: {count:,}"}
    kept, dropped = drop_miscounted(answer, bare)
    assert dropped == 1 and kept.body == ""


# Oracle's FY2022 diluted-share table and its workforce paragraph (10-K pp. 107 and 16).
SHARES = (
    "Weighted average common shares outstanding 2,730\nDilutive effect of employee stock "
    "plans\n56\n2,786\nDiluted weighted average common shares outstanding"
)
WORKFORCE = (
    "Workforce\nAs of May 31, 2022, we employed approximately 143,000 full-time employees, "
    "of which approximately 48,000 were employed in the U.S."
)


def test_a_headcount_stands_only_where_its_page_states_it_beside_staff():
    plans = cited_answer("Oracle had 2,786 employees as of FY2022.¹")
    assert drop_miscounted(plans, {"0a1b2c3d4e5f": SHARES}) == (CitedAnswer(body=""), 1)
    stated = cited_answer("Oracle had approximately 143,000 employees as of FY2022.¹")
    assert drop_miscounted(stated, {"0a1b2c3d4e5f": WORKFORCE}) == (stated, 0)
    far = f"We had 143,000 at year end.{' Revenue grew on demand.' * 8} Our employees ..."
    assert drop_miscounted(stated, {"0a1b2c3d4e5f": far})[1] == 1


RESTAURANTS = (
    "Systemwide restaurants at year end\n2031\n2030\nU.S.\n13,444\n13,438\n"
    "International Operated Markets\n10,103\n10,785\nInternational Developmental Licensed "
    "Markets & Corporate\n16,728\n15,808\nTotal\n40,275\n40,031"
)


def test_a_part_s_count_given_as_the_whole_goes():
    """McDonald's restaurants at the end of 2022 had been answered with its International
    Operated Markets' row (10,103) of a table whose total is 40,275."""
    pages = {"0a1b2c3d4e5f": RESTAURANTS}
    part = cited_answer("Acme operated 10,103 restaurants at the end of 2031.¹")
    assert drop_miscounted(part, pages)[1] == 1
    for kept in (
        "Acme operated 40,275 restaurants at the end of 2031.¹",  # the total
        "Acme operated 10,103 restaurants in International Operated Markets.¹",  # named
        "Acme operated 13,444 U.S. restaurants.¹",
    ):
        answer = cited_answer(kept)
        assert drop_miscounted(answer, pages) == (answer, 0)


@given(st.lists(st.integers(10, 50_000), min_size=2, max_size=5, unique=True), st.data())
def test_any_row_of_a_footed_count_table_is_a_part(rows, data):
    from programs.count_check import part_rows

    lines = ["Stores at year end", "2031"]
    names = [f"Region {chr(65 + i)}" for i in range(len(rows))]
    for name, value in zip(names, rows, strict=True):
        lines += [name, f"{value:,}"]
    lines += ["Total", f"{sum(rows):,}"]
    parts = part_rows("\n".join(lines))
    picked = data.draw(st.sampled_from(range(len(rows))))
    assert parts[float(rows[picked])] == names[picked]
    assert float(sum(rows)) not in parts or sum(rows) in rows
