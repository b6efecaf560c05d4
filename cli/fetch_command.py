"""``research fetch TICKER``: a company's filings and XBRL facts from SEC EDGAR into the grid.

A thin front end over :mod:`edgar.fetch`: options are checked before anything is opened or
requested (a missing User-Agent or a bad ``--forms`` is exit 2 with nothing written), each
filing gets one line as it finishes, and a failure never undoes a finished filing: every
filing is its own transaction, so the summary's counts are what the grid now holds.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from cli.errors import EXIT_BAD_INPUT, EXIT_FAILED, fail, show_error
from cli.grid_commands import StoreOption, _open_grid
from cli.terminal_text import for_terminal, printable
from domain.periods import MAX_FY, MIN_FY
from edgar.client import USER_AGENT_ENV, EdgarClient, EdgarSettings
from edgar.errors import EdgarError, EdgarInputError
from edgar.fetch import FetchReport, FilingOutcome, fetch_company
from edgar.filings import DEFAULT_FORMS, parse_forms
from edgar.ledger import Ledger, ledger_path_for
from retrieval.open_store import describe_location

console = Console(soft_wrap=True)
progress = Console(stderr=True, soft_wrap=True, highlight=False)


def _line(outcome: FilingOutcome) -> None:
    """One line per filing as it finishes (text from the server is shown inert)."""
    filing = outcome.filing
    what = for_terminal(outcome.label or f"{filing.form} filed {filing.filing_date}")
    where = for_terminal(filing.accession)
    if outcome.status == "fetched":
        progress.print(
            f"[green]fetched[/] {what} ({where}): {outcome.pages} pages, {outcome.facts} facts "
            f"({outcome.xbrl_facts} from XBRL)"
        )
    elif outcome.status == "skipped":
        progress.print(f"[dim]skipped[/] {what} ({where}): already fetched")
    else:
        progress.print(f"[red]failed[/] {what} ({where}): {for_terminal(outcome.reason)}")


def _filings(n: int) -> str:
    return f"{n} filing" if n == 1 else f"{n} filings"


def _summary(report: FetchReport, location: str) -> None:
    fetched, skipped, failed = (report.count(s) for s in ("fetched", "skipped", "failed"))
    console.print(
        f"{report.ticker}: fetched {_filings(fetched)} ({report.pages} pages, {report.facts} "
        f"statement facts, {report.xbrl_facts} from XBRL) into {printable(location)}; "
        f"skipped {skipped} already fetched; failed {failed}",
        highlight=False,
        markup=False,
    )
    agreement = report.agreement
    if agreement.shared:
        console.print(
            f"XBRL and table facts agree on {agreement.agreeing} of {agreement.shared} shared "
            f"line items ({agreement.rate:.1%})",
            highlight=False,
        )
    if fetched:
        console.print(
            "run `research embed` to give the new pages vectors (search reads them by BM25 "
            "meanwhile)",
            highlight=False,
            markup=False,
        )


def fetch_command(
    ticker: Annotated[str, typer.Argument(help="the company's ticker, e.g. MMM")],
    forms: Annotated[
        str, typer.Option(help="forms to fetch, comma-separated: 10-K, 10-Q, 8-K (and /A)")
    ] = ",".join(DEFAULT_FORMS),
    since: Annotated[
        int | None, typer.Option(help="only filings of this fiscal year and later, e.g. 2020")
    ] = None,
    store: StoreOption = None,
    user_agent: Annotated[
        str | None,
        typer.Option(
            "--user-agent",
            help=f'"Your Name you@example.com", as SEC requires (default: ${USER_AGENT_ENV})',
            show_default=False,
        ),
    ] = None,
    refresh: Annotated[
        bool,
        typer.Option(
            help="fetch filings already in the grid again, replacing them (e.g. to restore "
            "XBRL facts after `research facts --rebuild`)"
        ),
    ] = False,
    sec_data_url: Annotated[
        str | None, typer.Option(hidden=True, help="data.sec.gov base URL (tests, mirrors)")
    ] = None,
    sec_www_url: Annotated[
        str | None, typer.Option(hidden=True, help="www.sec.gov base URL (tests, mirrors)")
    ] = None,
) -> None:
    """Fetch a company's filings and XBRL facts from SEC EDGAR into the grid (only new ones)."""
    try:
        chosen_forms = parse_forms(forms)
        settings = EdgarSettings.from_env(user_agent, data_url=sec_data_url, www_url=sec_www_url)
    except EdgarInputError as exc:
        raise fail(str(exc), EXIT_BAD_INPUT) from None
    if since is not None and not MIN_FY <= since <= MAX_FY:
        raise fail(f"--since {since}: expected a fiscal year from {MIN_FY} to {MAX_FY}")
    grid = _open_grid(store, seed_if_empty=False)
    ledger = Ledger(ledger_path_for(grid))
    status = f"fetching {for_terminal(ticker.strip().upper())} from SEC EDGAR…"
    with EdgarClient(settings) as client, progress.status(status):
        try:
            report = fetch_company(
                ticker, grid, client, ledger, chosen_forms, since, on_filing=_line, refresh=refresh
            )
        except EdgarInputError as exc:
            raise fail(str(exc), EXIT_BAD_INPUT) from None
        except EdgarError as exc:
            raise fail(f"{exc} (filings fetched before this are kept)", EXIT_FAILED) from None
    for warning in report.warnings:
        progress.print(f"[yellow]warning[/] {for_terminal(warning)}")
    _summary(report, describe_location(grid))
    if report.stopped:
        show_error(report.stopped)
    if report.count("failed") or report.stopped:
        raise typer.Exit(EXIT_FAILED)


def register(app: typer.Typer) -> None:
    app.command("fetch")(fetch_command)
