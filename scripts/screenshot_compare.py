"""Screenshot MLflow's compare view of the latest ``research optimise`` run's evaluations.

    uv run python scripts/screenshot_compare.py --out docs/images/optimise-compare.png

Starts ``research dashboard`` on the tracking store of ``$WISSEN_HOME``, finds the newest
parent run in the ``wissen-optimise`` experiment and its child runs (``shipped-dev``,
``compiled-dev``, ``shipped-test``, ``compiled-test``), opens MLflow's compare view of
those runs in Chromium (Debian's ``/usr/bin/chromium``, launched by Playwright) and saves
a full-page PNG. The same view is three clicks away in the UI: Experiments →
wissen-optimise → expand the optimise run, tick its four evaluation runs → Compare.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
import urllib.request
from pathlib import Path

from serving import ROOT, launch_chromium, research_server

sys.path.insert(0, str(ROOT))

CHILDREN = ("shipped-dev", "compiled-dev", "shipped-test", "compiled-test")


def _compare_url(port: int) -> str:
    import mlflow

    from runs.tracking import tracking_uri

    client = mlflow.MlflowClient(tracking_uri=tracking_uri())
    experiment = client.get_experiment_by_name("wissen-optimise")
    if experiment is None:
        raise SystemExit("no wissen-optimise experiment: run `research optimise` first")
    runs = client.search_runs([experiment.experiment_id], order_by=["attributes.start_time DESC"])
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    if not parents:
        raise SystemExit("no optimise run in the tracking store")
    parent = parents[0]
    children = {
        r.info.run_name: r.info.run_id
        for r in runs
        if r.data.tags.get("mlflow.parentRunId") == parent.info.run_id
    }
    ids = [children[name] for name in CHILDREN if name in children]
    if len(ids) < 2:
        raise SystemExit(f"the optimise run {parent.info.run_name} has no evaluations to compare")
    query = urllib.parse.urlencode(
        {"runs": json.dumps(ids), "experiments": json.dumps([experiment.experiment_id])}
    )
    return f"http://127.0.0.1:{port}/#/compare-runs?{query}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs/images/optimise-compare.png")
    parser.add_argument("--port", type=int, default=5077)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    health = f"http://127.0.0.1:{args.port}/health"
    with research_server(["dashboard", "--port", str(args.port)], health, "the dashboard"):
        url = _compare_url(args.port)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = launch_chromium(p, args.chromium)
            # Tall enough that the compare view's own scroll area shows its metrics table.
            page = browser.new_page(viewport={"width": 1500, "height": 3400})
            page.goto(url)
            page.wait_for_selector("text=Run details", timeout=60_000)
            page.wait_for_timeout(3000)  # the charts and tables settle
            assistant = page.locator("text=MLflow Assistant")
            if assistant.count():  # a side panel that would hide the table
                page.keyboard.press("Escape")
                close = page.locator("button[aria-label='Close']")
                if close.count():
                    close.first.click()
                page.wait_for_timeout(1000)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            # The plot, the parameters and the first metrics; the artifact panes below are empty.
            clip = {"x": 0, "y": 0, "width": 1500, "height": 1850}
            page.screenshot(path=str(args.out), clip=clip)
            browser.close()
        print(f"saved {args.out} from {url}")


if __name__ == "__main__":
    main()
