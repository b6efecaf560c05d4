"""Reports as HTML: every superscript links to its page, daggers to Notes, nothing runs."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from web.figures import figure_before, highlight_segments
from web.report_html import render_report

REPORT = """Acme's FY2021 capex was $1,577 million¹ and rose 15% on FY2020.¹˒²†

| metric | ACME FY2021 Q4 |
| --- | ---: |
| capex | $1,577 million¹ |

A marker with no footnote stays text.⁹

**Sources**

¹ ACME 10-K FY2021 p.61 (page_id: 60211, uid: 3f9c2a81d0e4)
² ACME 10-K FY2020 p.58 (page_id: 59870, uid: 7b1e44c0a912)

**Notes**

† Evidence incomplete for ACME FY2021 Q4 – see Probe 2"""

HOSTILE = """Revenue grew.¹ <script>alert(1)</script> <img src=x onerror=alert(2)>
[click](javascript:alert(3)) <a href="#" onclick="alert(4)">x</a> **<b onmouseover=alert(5)>b</b>**

**Sources**

¹ ACME 10-K FY2021 p.1 (page_id: 1, uid: 3f9c2a81d0e4)"""


def test_each_superscript_links_to_the_cited_page_with_its_figure():
    report = render_report(REPORT)
    links = re.findall(
        r'<a class="cite" href="([^"]+)" data-uid="(\w+)" data-cite="(\d)"', report.body_html
    )
    assert links[0] == ("/pages/3f9c2a81d0e4?figure=1%2C577", "3f9c2a81d0e4", "1")
    assert links[1] == (
        "/pages/3f9c2a81d0e4?figure=15",
        "3f9c2a81d0e4",
        "1",
    )  # the sentence's figure
    assert links[2] == ("/pages/7b1e44c0a912?figure=15", "7b1e44c0a912", "2")
    assert len(links) == 4 and "<table>" in report.body_html  # the table's marker too
    assert '¹</a>˒<a class="cite"' in report.body_html  # a group reads as it did: ¹˒²
    assert "stays text.<sup" in report.body_html and ">⁹</sup>" in report.body_html  # unlinked
    assert '<a class="dagger" href="#notes"' in report.body_html
    assert [s.number for s in report.sources] == [1, 2]
    assert report.sources[1].href == "/pages/7b1e44c0a912"
    assert [n.text for n in report.notes] == [
        "† Evidence incomplete for ACME FY2021 Q4 – see Probe 2"
    ]


def test_hostile_model_output_renders_as_text():
    html = render_report(HOSTILE).body_html
    tags = re.findall(r"<[a-z][^>]*>", html)
    assert {re.match(r"<(\w+)", t).group(1) for t in tags} <= {"p", "a", "sup", "strong"}
    assert not [t for t in tags if re.search(r"\son\w+=|javascript:", t)]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # visible, inert
    assert 'href="/pages/3f9c2a81d0e4' in html


def test_figures_are_numbers_not_years_or_periods():
    assert figure_before("capex in FY2022 was $1,577 million") == "1,577"
    assert figure_before("margin was 24.3% in 2021") == "24.3"
    assert figure_before("It rose in 2022 and in Q3") is None
    assert figure_before("see p.61") is None


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="0123456789,. $()%abc\n", max_size=80),
    st.sampled_from(["1,577", "1577", "24.3", "7"]),
)
def test_highlighting_never_changes_the_page_text(text, figure):
    pieces = highlight_segments(text, figure)
    assert "".join(p for p, _ in pieces) == text
    digits = figure.replace(",", "")
    for piece, marked in pieces:
        if marked:
            assert piece.replace(",", "") == digits


def test_a_figure_is_found_with_or_without_separators():
    marked = [
        p
        for p, m in highlight_segments("PP&E (1,577) and 1577 but not 11,577 or 1,577.5", "1577")
        if m
    ]
    assert marked == ["1,577", "1577"]
