"""Grid, search and page routes of the web app, over the sample grid and hostile pages."""

from __future__ import annotations

import pymupdf
import pytest
from web_helpers import HOSTILE, client

from retrieval.ingest.pipeline import ingest
from retrieval.pages import Page
from retrieval.search.hybrid import HybridSearcher
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter
from web.settings import WebSettings


@pytest.fixture(scope="module")
def web(sample_store_path):
    with client(WebSettings(store=sample_store_path)) as c:
        yield c


def test_the_grid_page_is_a_ticker_by_period_matrix(web, sample_store):
    html = web.get("/grid").text
    cells = sample_store.cells()
    for cell in cells:
        assert f"ticker={cell.ticker}&amp;fy={cell.fy}&amp;fq={cell.fq}" in html
    assert html.count("<tr><th title=") == len({c.ticker for c in cells})
    matrix = web.get("/api/grid").json()
    assert {(c["ticker"], c["fy"], c["fq"]) for c in matrix["cells"]} == {
        (c.ticker, c.fy, c.fq) for c in cells
    }
    assert matrix["pages"] == sample_store.stats()["pages"]


def test_search_is_research_search_in_the_browser(web, searcher):
    params = {"q": "capital expenditures", "ticker": "mmm", "fy": "FY2018", "k": 5}
    hits = web.get("/api/search", params=params).json()["hits"]
    expected = searcher.search("capital expenditures", GridFilter("MMM", 2018), k=5)
    assert [h["uid"] for h in hits] == [h.uid for h in expected]
    assert all(h["doc_label"] == "MMM 10-K FY2018" for h in hits)
    html = web.get("/grid", params=params).text
    assert f'href="/pages/{expected[0].uid}"' in html and "MMM 10-K FY2018 p." in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"q": "capex", "ticker": "ZZZ"}, "ZZZ is not in the grid; it holds KO, MMM, PEP"),
        ({"q": "capex", "ticker": "KO", "fy": "2031"}, "FY2031 is not in the grid for KO"),
        ({"q": "capex", "fq": "Q7"}, "cannot read a fiscal quarter"),
        ({"q": "capex", "doc_type": "memo"}, "unknown document type"),
        ({"q": "   "}, "the query is empty"),
    ],
)
def test_bad_searches_get_the_cli_messages(web, params, message):
    response = web.get("/api/search", params=params)
    assert response.status_code == 400 and message in response.json()["error"]
    if params["q"].strip():
        page = web.get("/grid", params=params)
        assert page.status_code == 400 and message in page.text


def test_the_page_viewer_marks_the_cited_figure(web, sample_store):
    hit = HybridSearcher(sample_store).search("capital expenditures", GridFilter("MMM", 2018))[0]
    page = web.get(f"/api/pages/{hit.uid}", params={"figure": "1577"}).json()
    assert page["doc_label"] == "MMM 10-K FY2018" and page["page"] == hit.page_index + 1
    assert "".join(s["text"] for s in page["segments"]) == hit.text
    assert {s["text"] for s in page["segments"] if s["mark"]} == {"1,577"}
    assert page["image"] is None  # the sample grid was built from page texts, not PDFs
    html = web.get(f"/pages/{hit.uid}?figure=1,577").text
    assert "<mark>1,577</mark>" in html and "MMM 10-K FY2018 p." in html


@pytest.mark.parametrize(
    "uid", ["000000000000", "..%2F..%2Fetc%2Fpasswd", "ABCDEF123456", "x" * 300]
)
def test_unknown_pages_are_not_found(web, uid):
    assert web.get(f"/api/pages/{uid}").status_code == 404
    assert web.get(f"/pages/{uid}/image.png").status_code == 404


def _hostile_store(path) -> SQLiteStore:
    store = SQLiteStore(path)
    page = Page(doc_name="3M_2019_10K", ticker="MMM", company="3M", fy=2019, fq=4,
                doc_type="10-K", page_index=0, text=HOSTILE)  # fmt: skip
    store.upsert_document([page])
    return store


def test_hostile_page_text_renders_as_text(tmp_path):
    store = _hostile_store(tmp_path / "hostile.sqlite")
    uid = store.document_pages("3M_2019_10K")[0].uid
    with client(WebSettings(store=store.path)) as web:
        html = web.get(f"/pages/{uid}").text
        assert (
            "<script>alert" not in html
            and "<img src=x" not in html
            and "<b onmouseover" not in html
        )
        assert "&lt;script&gt;alert(&#34;page&#34;)&lt;/script&gt;" in html
        assert "onerror=&#34;alert(1)&#34;" in html  # shown, inert
        hits = web.get("/grid", params={"q": "purchases of property"}).text
        assert "<script>alert" not in hits and "&lt;script&gt;" in hits
        data = web.get(f"/api/pages/{uid}").json()
        assert "".join(s["text"] for s in data["segments"]) == HOSTILE  # data, for textContent


def _pdf(path, text: str) -> None:
    with pymupdf.open() as pdf:
        pdf.new_page().insert_text((72, 72), text)
        pdf.save(path)


def test_page_images_come_only_from_the_pdfs_the_grid_was_built_from(tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    _pdf(folder / "3M_2018_10K.pdf", "Purchases of PP&E (1,577)")
    store = SQLiteStore(tmp_path / "grid.sqlite")
    ingest(folder, store)
    uid = store.document_pages("3M_2018_10K")[0].uid
    with client(WebSettings(store=store.path, pdf_dirs=(folder,))) as web:
        page = web.get(f"/api/pages/{uid}").json()
        assert page["image"] == f"/pages/{uid}/image.png"
        image = web.get(page["image"])
        assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    with client(WebSettings(store=store.path)) as web:  # no --pdfs: no image
        assert web.get(f"/api/pages/{uid}").json()["image"] is None
        assert web.get(f"/pages/{uid}/image.png").status_code == 404
    _pdf(folder / "3M_2018_10K.pdf", "A different filing altogether")  # not the page cited
    with client(WebSettings(store=store.path, pdf_dirs=(folder,))) as web:
        assert web.get(f"/api/pages/{uid}").json()["image"] is None
        assert web.get(f"/pages/{uid}/image.png").status_code == 404
