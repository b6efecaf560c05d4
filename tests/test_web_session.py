"""The web page through a whole session (the issue "The web page holds up for a whole
session"): several questions asked in a row in one tab, two reports exported, citations
that mark what they cite and bring it into view, an unsupported slice that cites nothing
and says what is missing, a visible run from the first second, and an MLflow link that
leads somewhere.

Browser tests drive Debian's Chromium headless through Playwright, as
``tests/test_browser_report.py`` does, and are skipped only when no ``chromium`` binary
exists; the others use FastAPI's test client. Every LM is scripted; nothing leaves the
machine (the "MLflow UI" started on demand is a local ``http.server``).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_export_pdf import needs_pango
from web_helpers import CHROMIUM, LiveServer, client, free_port

import web.mlflow_link as mlflow_link
from web.app import create_app
from web.figures import figure_before, find_marks
from web.report_html import render_report
from web.settings import WebSettings

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium binary (apt-get install chromium): the browser tests drive Debian's",
)

#: A narrative sentence on KO's 10-K FY2020 p.5, near the end of a long page.
NARRATIVE_UID = "c492114cab41"
PASSAGE = (
    "Generally, finished product operations generate higher net operating revenues but lower "
    "gross profit margins than concentrate operations."
)
CLAIM = (
    "Coca-Cola's 10-K says finished product operations generate higher net operating "
    "revenues but lower gross profit margins than concentrate operations."
)
UNRELATED_UID = "157a1b33d593"  # KO 10-K FY2020 p.52: what the empty slice cell cited
MISSING = "What drove Coca-Cola's revenue in FY2020?"
SESSION_QUESTIONS = [
    "How did 3M's capital expenditure compare with PepsiCo's in FY2022?",
    MISSING,
    "What was PepsiCo's net revenue in FY2021?",
]
MORE_QUESTIONS = [
    "What was 3M's capital expenditure in FY2021?",
    "What drove PepsiCo's revenue growth in FY2021?",
]


def footnote(store: Any, number: str, uid: str) -> str:
    (page,) = store.pages_by_uid([uid])
    return (
        f"{number} {page.doc_label} p.{page.page_index + 1} (page_id: {page.page_id}, uid: {uid})"
    )


def unsupported_report(store: Any) -> tuple[str, dict[str, Any]]:
    """A report as a small model left it (a slice cell holding only ``<br>¹†``, a note
    that says "see Probe 1"), and its run record."""
    markdown = "\n".join(
        [
            "## Answer",
            "",
            f"{CLAIM}¹",
            "",
            "## Findings by slice",
            "",
            "### KO FY2020 Q4",
            "",
            f"{CLAIM}¹ <br>²†",
            "",
            "**Sources**",
            "",
            footnote(store, "¹", NARRATIVE_UID),
            footnote(store, "²", UNRELATED_UID),
            "",
            "**Notes**",
            "",
            "† Evidence incomplete for KO FY2020 Q4 – see Probe 1",
            "",
            "**Scope**",
            "",
            "- KO FY2020 Q4: evidence incomplete",
        ]
    )
    record = {
        "question": MISSING,
        "model": "scripted/wissen",
        "program_version": "0123456789",
        "slices": [
            {
                "slice": "KO FY2020 Q4",
                "open_issues": [
                    "† Probe 1: insufficient evidence (reviewer: insufficient evidence)"
                ],
                "citations": [{"number": 1, "citation": {"uid": UNRELATED_UID}}],
                "probes": [
                    {
                        "index": 1,
                        "question": MISSING,
                        "status": "insufficient_evidence",
                        "reason": "reviewer: insufficient evidence",
                    }
                ],
            }
        ],
    }
    return markdown, record


def write_run(run_id: str, markdown: str, record: dict[str, Any]) -> str:
    """A finished run directory holding ``markdown`` and ``record`` (as ``research ask``
    leaves one), under the test's WISSEN_HOME."""
    from runs.run_dir import RunDir

    meta = {k: record[k] for k in ("question", "model", "program_version")}
    run = RunDir.start(run_id, {**meta, "run_id": run_id})
    run.write_results(markdown, json.dumps(record))
    run.update(status="completed", finished_at=run.meta["started_at"])
    return run_id


@pytest.fixture
def fake_ui(monkeypatch, tmp_path):
    """The MLflow UI as a local ``http.server`` (MLflow's own takes 10-30 s to start): its
    address, with every run's MLflow link pointing into it."""
    port = free_port()
    ui = f"http://127.0.0.1:{port}"
    (tmp_path / "ui").mkdir()

    def command(host: str, port: int) -> list[str]:
        return [sys.executable, "-m", "http.server", str(port), "--bind", host,
                "--directory", str(tmp_path / "ui")]  # fmt: skip

    monkeypatch.setattr(mlflow_link, "server_command", command)
    monkeypatch.setattr(
        mlflow_link, "mlflow_run_url", lambda ui, run_id: f"{ui}/#/experiments/1/runs/{run_id}"
    )
    return ui


# -- without a browser ---------------------------------------------------------------------


def test_a_slice_cell_that_states_nothing_cites_nothing_and_its_note_names_what_is_missing(
    sample_store,
):
    markdown, record = unsupported_report(sample_store)
    report = render_report(markdown, record)
    html = report.body_html
    findings = html[html.index("KO FY2020 Q4") :]
    assert "&lt;br" not in html  # the model's <br> is a line break, not text
    assert f'data-uid="{UNRELATED_UID}"' not in html  # the empty cell cites no page
    assert 'no supported finding</em><a class="dagger" href="#notes"' in findings
    assert 'data-notes="note-1"' in findings  # the dagger leads to its slice's note
    (note,) = report.notes
    assert note.text == (
        f"† Evidence incomplete for KO FY2020 Q4: the filing pages found do not answer “{MISSING}”"
    )
    assert "Probe 1" not in note.text
    assert "KO FY2020 Q4: evidence incomplete" in report.extra_html  # the Scope block shows
    # Without the run record there is no question to name: the note stays as written.
    assert render_report(markdown).notes[0].text.endswith("– see Probe 1")


def test_a_narrative_citation_marks_its_sentence_not_the_10_of_10_k(sample_store):
    (page,) = sample_store.pages_by_uid([NARRATIVE_UID])
    assert PASSAGE in page.text, "the sample filing changed: pick another passage"
    assert figure_before(f"{CLAIM} The KO 10-K FY2020 filing discusses it") is None
    html = render_report(unsupported_report(sample_store)[0]).body_html
    assert f'href="/pages/{NARRATIVE_UID}?quote=Coca-Cola%27s+10-K+says+finished' in html
    spans, kind = find_marks(page.text, None, CLAIM)
    assert kind == "sentence" and [page.text[a:b] for a, b in spans] == [PASSAGE]


def test_a_figure_printed_at_another_scale_is_marked_as_grounding_reads_it():
    text = "Consolidated Statement of Cash Flows (in millions)\nCapital spending (4,817) (4,625)"
    spans, kind = find_marks(text, "4.8", "Capital spending was $4.8 billion in FY2021")
    assert kind == "figure" and [text[a:b] for a, b in spans] == ["4,817"]
    spans, kind = find_marks(text, "1,577", "capex was $1,577 million")  # not on the page
    assert (spans, kind) == ([], "")


def test_the_page_api_marks_the_cited_sentence(wissen_home, sample_store_path):
    with client(WebSettings(store=sample_store_path, track=False)) as web:
        page = web.get(f"/api/pages/{NARRATIVE_UID}", params={"quote": CLAIM}).json()
        assert page["marked"] == "sentence"
        assert [s["text"] for s in page["segments"] if s["mark"]] == [PASSAGE]
        html = web.get(f"/pages/{NARRATIVE_UID}", params={"quote": CLAIM}).text
        assert f"<mark>{PASSAGE}</mark>" in html.replace("&#39;", "'")


def test_a_live_run_page_shows_its_first_events_and_an_activity_indicator(
    wissen_home, sample_store_path, install_lm
):
    install_lm(delay=0.3)
    with client(WebSettings(store=sample_store_path, track=False)) as web:
        started = web.post("/ask", json={"question": SESSION_QUESTIONS[2]})
        run_id = started.json()["run_id"]
        html = web.get(f"/runs/{run_id}").text
        assert 'id="activity"' in html and "Planning: reading the question" in html
        # The run's own first events, not page decoration: any follower of the stream sees them.
        kinds = []
        with web.stream("GET", f"/runs/{run_id}/events") as response:
            for line in response.iter_lines():
                if line.startswith("data: "):
                    kinds.append(json.loads(line.removeprefix("data: ")).get("kind"))
        assert kinds[:3] == ["started", "planning", "plan"]
        html = web.get(f"/runs/{run_id}").text
        assert 'id="activity"' not in html and 'id="report"' in html


def test_the_mlflow_link_says_how_to_start_the_ui_and_starts_it(
    wissen_home, sample_store_path, fake_ui
):
    markdown, record = "Revenue grew.", {"question": "Q?", "model": "m", "program_version": "v"}
    run_id = write_run("20260101-000000-aaaaaa", markdown, record)
    with client(WebSettings(store=sample_store_path, track=False, mlflow_ui=fake_ui)) as web:
        down = web.get(f"/runs/{run_id}/dashboard", headers={"accept": "text/html"})
        assert down.status_code == 200 and "uv run research dashboard --port" in down.text
        assert 'id="mlflow-start"' in down.text
        assert web.get("/api/mlflow").json()["running"] is False
        start = web.post("/mlflow/start", data={"run": run_id}, headers={"accept": "text/html"},
                         follow_redirects=False)  # fmt: skip
        assert start.status_code == 303
        deadline = time.monotonic() + 30
        while not web.get("/api/mlflow").json()["running"]:
            assert time.monotonic() < deadline, web.get("/api/mlflow").json()
            time.sleep(0.2)
        up = web.get(f"/runs/{run_id}/dashboard", follow_redirects=False)
        assert up.status_code == 303 and up.headers["location"].startswith(fake_ui)
    assert not mlflow_link.listening(fake_ui)  # it stopped with the server


# -- in the browser ------------------------------------------------------------------------


def in_view(page: Any, selector: str, within: str | None = None) -> bool:
    """Whether the first ``selector`` is inside the window (or the ``within`` box)."""
    return page.evaluate(
        """([selector, within]) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            const b = within ? document.querySelector(within).getBoundingClientRect()
                             : {top: 0, bottom: window.innerHeight};
            return r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
        }""",
        [selector, within],
    )


@needs_chromium
def test_an_unsupported_slice_and_a_narrative_citation_in_the_browser(
    browser, wissen_home, sample_store, sample_store_path
):
    markdown, record = unsupported_report(sample_store)
    run_id = write_run("20260101-000000-bbbbbb", markdown, record)
    with LiveServer(create_app(WebSettings(store=sample_store_path, track=False))) as server:
        tab = browser.new_page(viewport={"width": 1300, "height": 560})
        tab.goto(f"{server.url}/runs/{run_id}")
        report = tab.inner_text("#report")
        assert "<br>" not in report and "no supported finding" in report
        assert tab.locator(f'#report p a.cite[data-uid="{UNRELATED_UID}"]').count() == 0
        note = tab.inner_text("#note-1")
        assert f"do not answer “{MISSING}”" in note and "Probe" not in note
        tab.locator("#report a.dagger").last.click()
        assert "active" in (tab.get_attribute("#note-1", "class") or "")

        # Beside the report: the cited sentence is marked, not a "10", and scrolled to.
        cite = tab.locator(f'#report a.cite[data-uid="{NARRATIVE_UID}"]').first
        cite.click()
        tab.wait_for_selector("#cited-page:not([hidden])")
        assert tab.locator("#cited-text mark").all_inner_texts() == [PASSAGE]
        assert in_view(tab, "#cited-text mark", "#cited-text")
        assert "marked: the cited passage" in tab.inner_text("#cited-meta")

        # The full page view opens on the mark, not at the top of the page.
        tab.goto(server.url + cite.get_attribute("href"))
        assert tab.locator("#page-text mark").all_inner_texts() == [PASSAGE]
        tab.wait_for_function("() => window.scrollY > 0")
        assert in_view(tab, "#page-text mark")
        tab.close()


@needs_chromium
def test_the_mlflow_link_starts_the_ui_from_the_page(
    browser, wissen_home, sample_store_path, fake_ui
):
    run_id = write_run(
        "20260101-000000-cccccc", "Revenue grew.", {"question": "Q?", "model": "m",
                                                     "program_version": "v"}
    )  # fmt: skip
    settings = WebSettings(store=sample_store_path, track=False, mlflow_ui=fake_ui)
    with LiveServer(create_app(settings)) as server:
        tab = browser.new_page()
        tab.goto(f"{server.url}/runs/{run_id}")
        with tab.expect_popup() as opened:
            tab.click("#mlflow-link")
        help_page = opened.value
        help_page.wait_for_selector("#mlflow-down")
        assert help_page.inner_text("#mlflow-command").startswith("uv run research dashboard")
        help_page.click("#mlflow-start")
        help_page.wait_for_url(f"{fake_ui}/**", timeout=30_000)  # the run, in the UI
        assert help_page.url == f"{fake_ui}/#/experiments/1/runs/{run_id}"
        tab.close()
    assert not mlflow_link.listening(fake_ui)


@needs_chromium
@needs_pango
def test_five_questions_two_exports_a_restart_mid_run_and_a_resume_in_one_tab(
    browser, wissen_home, sample_store_path, install_lm, tmp_path
):
    import pymupdf

    # The first run's LM calls are slow enough to watch it; the others' are quick.
    from web.run_control import RunControl

    lm = install_lm(insufficient=lambda s, p: s.startswith("KO"), delay=1.5)
    settings = WebSettings(store=sample_store_path, track=False)
    runs = RunControl(settings.store, settings.max_runs, settings.concurrency, settings.track)
    run_ids = []
    with LiveServer(create_app(settings, runs=runs), runs=runs) as server:
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        tab.goto(server.url + "/")
        for number, question in enumerate(SESSION_QUESTIONS):
            if number:
                tab.click("header nav a[href='/']")  # back to Ask, in the same tab
            tab.fill("#question", question)
            tab.fill("input[name=max_probes]", "2")
            tab.click("#ask-button")
            tab.wait_for_url(f"{server.url}/runs/*")
            if number == 0:
                # At once: the run's first events and what it is doing, with a ticking clock.
                tab.wait_for_selector("#trace li[data-kind=planning]", timeout=15_000)
                kinds = tab.eval_on_selector_all("#trace li", "li => li.map(i => i.dataset.kind)")
                assert kinds[:2] == ["started", "planning"]
                assert tab.is_visible("#activity")
                stage = tab.inner_text("#activity-stage")  # planning, or a step after it
                assert re.match("Plann|Research|Search|Draft|Review|Finished|Writing", stage)
                shown = tab.inner_text("#activity-elapsed")
                tab.wait_for_function(  # the clock ticks
                    "shown => document.getElementById('activity-elapsed').textContent !== shown",
                    arg=shown,
                    timeout=20_000,
                )
                lm.delay = 0.02
            tab.wait_for_selector("#report", timeout=120_000)
            assert tab.inner_text("h1.question") == question
            assert tab.inner_text("#run-status") == "completed"
            run_ids.append(tab.url.rsplit("/", 1)[1])
        assert len(set(run_ids)) == 3
        # The KO run's evidence gap is named, not pointed at a section that is not there.
        tab.goto(f"{server.url}/runs/{run_ids[1]}")
        assert f"do not answer “{MISSING}”" in tab.inner_text("ul.notes")

        # Two exports: the first run as Markdown, the last as PDF.
        tab.goto(f"{server.url}/runs/{run_ids[0]}")
        with tab.expect_download() as download:
            tab.click("#export-md")
        markdown = Path(download.value.path()).read_text()
        assert markdown.startswith(f"# {SESSION_QUESTIONS[0]}\n")
        assert "- Model: local/" in markdown and "- Program version: " in markdown
        assert "**Sources**" in markdown
        tab.goto(f"{server.url}/runs/{run_ids[2]}")
        with tab.expect_download() as download:
            tab.click("#export-pdf")
        pdf = tmp_path / download.value.suggested_filename
        download.value.save_as(pdf)
        with pymupdf.open(pdf) as document:
            text = "".join("".join(p.get_text() for p in document).split())
        assert "".join(SESSION_QUESTIONS[2].split()) in text
        assert "Sources" in text and "PEP10-KFY2021" in text

        # Questions four and five; the server stops while the fifth is still researching.
        for question in MORE_QUESTIONS:
            tab.goto(server.url + "/")
            tab.fill("#question", question)
            tab.fill("input[name=max_probes]", "2")
            tab.click("#ask-button")
            tab.wait_for_url(f"{server.url}/runs/*")
            run_ids.append(tab.url.rsplit("/", 1)[1])
            if question is MORE_QUESTIONS[-1]:
                lm.delay = 1.5
                tab.wait_for_selector("#trace li[data-kind=search]", timeout=60_000)
            else:
                tab.wait_for_selector("#report", timeout=120_000)
        port = server.port
    # Restarted at once on the same port: the stopped run says so and resumes from the page.
    lm.delay = 0.02
    with LiveServer(create_app(WebSettings(store=sample_store_path, track=False)), port) as again:
        tab.goto(f"{again.url}/runs/{run_ids[-1]}")
        assert tab.inner_text("#run-status") == "interrupted"
        tab.click("button:has-text('Resume')")
        tab.wait_for_selector("#report", timeout=120_000)
        assert tab.inner_text("#run-status") == "completed"
        assert tab.inner_text("h1.question") == MORE_QUESTIONS[-1]
        tab.close()
    assert len(set(run_ids)) == 5
