"""End to end in a real browser: ask with the scripted LM, watch the trace arrive, open the
report, click a citation and read the cited page beside it. Debian's Chromium, headless,
driven by Playwright (whose own browser download needs the internet): ``.ci/run`` installs
it when missing. Its screenshot stays in the test's temporary folder: the README's picture is
of a real run (``scripts/screenshot_report.py``), not of the scripted LM."""

from __future__ import annotations

import pytest
from conftest import SHARED
from scripted_lm import ScriptedLM
from web_helpers import CHROMIUM, LiveServer

import lm.language_models as language_models
from web.app import create_app
from web.settings import WebSettings

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium binary (apt-get install chromium): the browser test drives Debian's",
)


def test_ask_watch_the_trace_open_the_report_and_read_a_cited_page(
    browser, monkeypatch, tmp_path, wissen_home, sample_store, sample_store_path
):
    lm = ScriptedLM(insufficient=lambda s, p: s == "PEP FY2022 Q4" and p.startswith("Drivers"),
                    delay=0.05)  # fmt: skip
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
    pdfs = SHARED / "pdfs"  # the sample's filings as PDFs, where the shared data is laid out
    pdf_dirs = (pdfs,) if pdfs.is_dir() else ()
    app = create_app(WebSettings(store=sample_store_path, track=False, pdf_dirs=pdf_dirs))
    with LiveServer(app) as server:
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.goto(server.url + "/")
        page.fill("#question", QUESTION)
        page.fill("input[name=max_probes]", "2")
        page.click("#ask-button")
        page.wait_for_url(f"{server.url}/runs/*")
        page.wait_for_selector("#trace li[data-kind=plan]", timeout=60_000)  # the trace arrives
        page.wait_for_selector("#report", timeout=120_000)  # the page reloads with the report
        page.wait_for_selector("#trace li[data-kind=report]", state="attached")  # replayed
        kinds = page.eval_on_selector_all("#trace li", "items => items.map(i => i.dataset.kind)")
        assert {"plan", "probes", "search", "draft", "verdict", "report"} <= set(kinds)
        assert page.inner_text("#run-status") == "completed"

        citation = page.locator("#report sup.cites a.cite").first
        uid, figure = citation.get_attribute("data-uid"), citation.get_attribute("data-figure")
        citation.click()
        page.wait_for_selector("#cited-page:not([hidden])")
        (cited,) = sample_store.pages_by_uid([uid])
        assert page.inner_text("#cited-title") == f"{cited.doc_label} p.{cited.page_index + 1}"
        assert page.text_content("#cited-text") == cited.text
        if figure:
            assert page.locator("#cited-text mark").count() >= 1
        assert "active" in (citation.get_attribute("class") or "")
        if pdf_dirs and (pdfs / f"{cited.doc_name}.pdf").exists():  # the page as printed
            page.wait_for_function(
                "() => { const i = document.getElementById('cited-image');"
                " return !i.hidden && i.complete && i.naturalWidth > 0; }"
            )
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=False)
        assert shot.read_bytes().startswith(b"\x89PNG")
        page.close()


def test_hostile_page_text_is_shown_not_run(browser, tmp_path, wissen_home):
    from retrieval.pages import Page
    from retrieval.sqlite.store import SQLiteStore

    hostile = (
        '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> '
        "Purchases of property, plant and equipment (1,234)"
    )
    store = SQLiteStore(tmp_path / "hostile.sqlite")
    page = Page(doc_name="3M_2019_10K", ticker="MMM", company="3M", fy=2019, fq=4,
                doc_type="10-K", page_index=0, text=hostile)  # fmt: skip
    store.upsert_document([page])
    with LiveServer(create_app(WebSettings(store=store.path, track=False))) as server:
        tab = browser.new_page()
        tab.goto(f"{server.url}/pages/{page.uid}?figure=1234")
        assert tab.text_content("#page-text") == hostile
        assert tab.inner_text("#page-text mark") == "1,234"
        assert tab.evaluate("() => window.pwned === undefined")
        tab.goto(f"{server.url}/grid?q=purchases+of+property")
        assert "<script>window.pwned=2</script>" in tab.inner_text("#hits")
        assert tab.evaluate("() => window.pwned === undefined")
        tab.close()
