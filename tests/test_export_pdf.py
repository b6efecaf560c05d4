"""Exports of a run's report: Markdown headed by its question, date, model and program
version, and a PDF of the report with its Sources (WeasyPrint), checked as a reader would
get it: page 1 rendered to PNG by poppler's ``pdftoppm`` and the PDF's text layer read."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from scripted_lm import ScriptedLM
from typer.testing import CliRunner
from web_helpers import client

import lm.language_models as language_models
from cli.app import app as cli
from web.settings import WebSettings

QUESTION = "What drove Coca-Cola's revenue in FY2020?"


def pango_missing() -> str | None:
    """Why WeasyPrint cannot load here (it needs Pango from the system), or None."""
    try:
        import weasyprint  # noqa: F401
    except OSError as exc:
        return f"no Pango (apt-get install libpango-1.0-0 libpangoft2-1.0-0): {exc}"
    return None


needs_pango = pytest.mark.skipif(pango_missing() is not None, reason=str(pango_missing()))


@pytest.fixture(scope="module")
def asked(tmp_path_factory, sample_store_path):
    """A run made by `research ask` (one probe closing with insufficient evidence), and a
    web client over its WISSEN_HOME."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WISSEN_HOME", str(home))
        lm = ScriptedLM(insufficient=lambda s, p: s.startswith("KO"))
        mp.setattr(language_models, "build_lm", lambda *a, **k: lm)
        mp.setattr(language_models, "check_lm_reachable", lambda *a, **k: None)
        out = home / "record.json"
        args = ["ask", QUESTION, "--store", str(sample_store_path), "--max-probes", "2",
                "--quiet", "--no-track", "--json", str(out)]  # fmt: skip
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        run_id = json.loads(out.read_text())["run_id"]
        with client(WebSettings(store=sample_store_path, track=False)) as web:
            yield web, home, run_id


def test_the_markdown_export_is_headed_by_question_date_model_and_program_version(asked):
    web, home, run_id = asked
    meta = json.loads((home / "runs" / run_id / "meta.json").read_text())
    response = web.get(f"/runs/{run_id}/export.md")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/markdown")
    assert f'filename="{run_id}-report.md"' in response.headers["content-disposition"]
    head, _, body = response.text.partition("\n\n## Answer")
    assert head.splitlines() == [
        f"# {QUESTION}",
        "",
        f"- Date: {meta['started_at'][:16].replace('T', ' ')} UTC",
        f"- Model: {meta['model']}",
        f"- Program version: {meta['program_version']}",
        f"- Run: {run_id} (completed)",
    ]
    report = (home / "runs" / run_id / "report.md").read_text()
    assert "see Probe" not in body and f"do not answer “{QUESTION}”" in body
    sources = report.split("**Sources**")[1].split("**Notes**")[0]
    assert sources in body  # the Sources as the run wrote them


@needs_pango
def test_the_pdf_export_shows_the_report_and_its_sources(asked, tmp_path):
    import pymupdf

    web, home, run_id = asked
    response = web.get(f"/runs/{run_id}/export.pdf")
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    assert f'filename="{run_id}-report.pdf"' in response.headers["content-disposition"]
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(response.content)
    assert response.content.startswith(b"%PDF-")

    report = (home / "runs" / run_id / "report.md").read_text()
    sources = re.findall(r"^[¹²³⁴⁵⁶⁷⁸⁹⁰]+ (.+? p\.\d+) \(page_id", report, re.MULTILINE)
    assert sources
    with pymupdf.open(pdf) as document:
        # Without whitespace: a line may wrap anywhere, "Coca-" at one line's end.
        text = "".join("".join(page.get_text() for page in document).split())
        links = [link for page in document for link in page.get_links()]

    def shown(words: str) -> bool:
        return "".join(words.split()) in text

    assert shown(QUESTION) and shown("Program version:") and shown("Model:")
    assert shown("Sources") and all(shown(source) for source in sources)
    assert shown(f"do not answer “{QUESTION}”")
    # Each superscript is a link to its Source (a dagger to the Notes), inside the PDF.
    targets = {link.get("nameddest") or link.get("name") for link in links}
    assert links and all(link["kind"] in (pymupdf.LINK_NAMED, pymupdf.LINK_GOTO) for link in links)
    assert "source-1" in targets and targets <= {f"source-{n}" for n in range(1, 20)} | {"notes"}

    if shutil.which("pdftoppm") is None:
        pytest.skip("no pdftoppm (apt-get install poppler-utils): the PDF's page not rendered")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "p")],
        check=True,
        timeout=60,
    )
    (png,) = tmp_path.glob("p*.png")
    image = pymupdf.Pixmap(str(png))
    assert image.width > 400 and image.height > 600  # A4 at 60 dpi: 496 x 702
    samples = image.samples
    dark = sum(1 for i in range(0, len(samples), image.n) if samples[i] < 128)
    assert dark > 2_000  # text was drawn, not a blank page
    if shutil.which("pdftotext"):
        layer = subprocess.run(
            ["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        assert "".join(QUESTION.split()) in "".join(layer.split())


@needs_pango
def test_the_pdf_is_made_from_text_only():
    from web.export import _no_fetch

    with pytest.raises(ValueError, match="fetches nothing"):
        _no_fetch().fetch("file:///etc/passwd")


def test_exports_need_a_written_report(asked):
    web, home, _ = asked
    for path in ("export.md", "export.pdf"):
        assert web.get(f"/runs/nope/{path}").status_code == 404
        assert web.get(f"/runs/..%2F..%2Fetc/{path}").status_code == 404
    from runs.run_dir import RunDir

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WISSEN_HOME", str(home))
        RunDir.start("20260101-000000-dddddd", {"question": "Q?"})
        for path in ("export.md", "export.pdf"):
            response = web.get(f"/runs/20260101-000000-dddddd/{path}")
            assert response.status_code == 404 and "has not written" in response.text
