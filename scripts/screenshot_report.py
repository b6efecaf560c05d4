"""Screenshot a real run's report in ``research serve`` with its first citation opened.

    uv run research ask "How did 3M's capital expenditure compare with PepsiCo's in FY2022?"
    uv run python scripts/screenshot_report.py --out docs/images/serve-report.png

Starts ``research serve`` on ``$WISSEN_HOME`` (its grid and its runs), opens the newest
completed run (or ``--run ID``) in Chromium (Debian's ``/usr/bin/chromium``, launched by
Playwright), clicks the report's first citation so the cited page opens beside it, and
saves the view. The picture is of a run the embedded model wrote, never of the scripted LM
the browser tests use.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from serving import ROOT, launch_chromium, research_server

sys.path.insert(0, str(ROOT))


def _newest_completed_run() -> str:
    from runs.run_dir import list_runs

    for run in list_runs():
        if run.get("status") == "completed":
            return run["run_id"]
    raise SystemExit("no completed run: run `research ask` first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs/images/serve-report.png")
    parser.add_argument("--run", help="run id (default: the newest completed run)")
    parser.add_argument("--port", type=int, default=8077)
    parser.add_argument("--pdfs", type=Path, default=ROOT.parent / "shared/financebench/pdfs")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    run_id = args.run or _newest_completed_run()
    command = ["serve", "--port", str(args.port), "--no-track"]
    if args.pdfs.is_dir():
        command += ["--pdfs", str(args.pdfs)]
    with research_server(command, f"http://127.0.0.1:{args.port}/", "research serve"):
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = launch_chromium(p, args.chromium)
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.goto(f"http://127.0.0.1:{args.port}/runs/{run_id}")
            page.wait_for_selector("#report", timeout=60_000)
            page.locator("#report sup.cites a.cite").first.click()
            page.wait_for_selector("#cited-page:not([hidden])")
            if args.pdfs.is_dir():  # the page as printed, when the PDFs are at hand
                page.wait_for_timeout(3000)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out), full_page=False)
            browser.close()
        print(f"saved {args.out} from run {run_id}")


if __name__ == "__main__":
    main()
