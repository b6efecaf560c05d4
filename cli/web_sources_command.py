"""``research read URL`` and ``research news QUERY``: web pages and news as citable sources.

Both print the source records a citation needs (title, publisher, URL, dates, uid); every
failure (a refused address, a timeout, a wrong content type, no provider configured) is
one line on stderr and exit code 2, as bad input is elsewhere. The rules they fetch under
are in ``websources.fetch`` and docs/web-sources.md.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cli.errors import fail, say
from cli.terminal_text import plain
from websources import WebSettings, WebSourceError, news_search, provider_from_settings, read_url
from websources.news import PROVIDERS

console = Console(soft_wrap=True)


def parse_since(text: str, now: datetime | None = None) -> datetime:
    """``--since``: a date (``2024-05-01``), a date and time (``2024-05-01T09:00Z``), or a
    span back from now (``7d``, ``24h``); UTC unless a zone is given."""
    now = now or datetime.now(UTC)
    span = re.fullmatch(r"\s*(\d+)\s*([dhw])\s*", text.lower())
    if span:
        amount, unit = int(span.group(1)), span.group(2)
        return now - timedelta(**{{"d": "days", "h": "hours", "w": "weeks"}[unit]: amount})
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"cannot read --since {text!r}: give a date (2024-05-01) or a span (7d, 24h)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _when(moment: datetime | None) -> str:
    """A date as a citation shows it: the day alone when no time of day is known."""
    if moment is None:
        return "undated"
    if (moment.hour, moment.minute, moment.second) == (0, 0, 0):
        return moment.strftime("%Y-%m-%d")
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def read_command(
    url: Annotated[str, typer.Argument(help="the http(s) URL of a web page")],
    as_json: Annotated[bool, typer.Option("--json", help="print the source as JSON")] = False,
    lines: Annotated[int, typer.Option(min=0, help="lines of text to show")] = 8,
) -> None:
    """Read a web page safely and show it as a citable source (title, publisher, URL, time)."""
    if not url.strip():
        raise fail("give the URL of a web page, e.g. research read https://example.com/page")
    try:
        doc = read_url(url, WebSettings.from_env())
    except WebSourceError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(doc.model_dump_json())
        return
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for label, value in (
        ("title", doc.title),
        ("publisher", doc.publisher),
        ("url", doc.url),
        ("published", _when(doc.published)),
        ("retrieved", _when(doc.retrieved_at)),
        ("uid", doc.uid),
    ):
        table.add_row(label, plain(value))
    console.print(table)
    for note in doc.notes:
        say(f"note: {note}", "yellow")
    shown = [line for line in doc.text.splitlines() if line.strip()][:lines]
    if shown:
        console.print()
        console.print(plain("\n".join(shown)))
        left = len([line for line in doc.text.splitlines() if line.strip()]) - len(shown)
        if left > 0:
            console.print(f"… {left} more lines (--json for the whole text)", style="dim")


def news_command(
    query: Annotated[str, typer.Argument(help="words every item must be about, e.g. '3M capex'")],
    since: Annotated[
        str | None, typer.Option(help="only items published since: 2024-05-01, 7d, 24h")
    ] = None,
    provider: Annotated[
        str, typer.Option(help=f"news provider: {', '.join(PROVIDERS)} (configured by env)")
    ] = "auto",
    limit: Annotated[int | None, typer.Option(min=1, help="most items shown")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print items as JSON lines")] = False,
) -> None:
    """Search news (configured RSS/Atom feeds or a SearXNG instance) as citable sources."""
    if not query.strip():
        raise fail("give a news query, e.g. research news '3M capex'")
    try:
        start = parse_since(since) if since else None
        settings = WebSettings.from_env()
        result = news_search(
            query, start, provider_from_settings(settings, provider), settings, limit
        )
    except (ValueError, WebSourceError) as exc:
        raise fail(str(exc)) from None
    for note in result.notes:
        say(f"note: {note}", "yellow")
    if as_json:
        for item in result.items:
            typer.echo(json.dumps(item.model_dump(mode="json"), ensure_ascii=False))
        return
    if not result.items:
        console.print(plain(f"no news about {query!r} from {result.provider}"))
        return
    # One block per item rather than a table: URLs stay whole (a table folds them) and a
    # narrow terminal still reads well.
    for number, item in enumerate(result.items, 1):
        console.print(
            plain(f"{number:>2}. {item.title}", "bold"),
            plain(f"    {item.publisher} · {_when(item.published)} · uid {item.uid}"),
            plain(f"    {item.url}", "cyan"),
            sep="\n",
        )
    console.print(
        plain(
            f"{len(result.items)} items from {result.provider}, "
            f"retrieved {_when(result.retrieved_at)}"
        )
    )


def register(app: typer.Typer) -> None:
    app.command("read")(read_command)
    app.command("news")(news_command)
