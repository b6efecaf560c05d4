"""A thin client for SEC EDGAR's documented JSON APIs and filing archive, over httpx.

Why not a library (edgartools, sec-edgar-downloader): four endpoints are all ``research
fetch`` needs, and a client whose base URLs are settings lets the tests serve recorded
responses from a local HTTP server, with no network and no mocking of library internals.

SEC's fair-access terms (https://www.sec.gov/os/accessing-edgar-data) are kept here, in
the one place every request passes: a User-Agent naming the requester and an e-mail
address (refused without one), at most 10 requests per second (:class:`RateLimiter`),
and backing off when told to (429, 5xx: retried with exponential backoff, honouring
``Retry-After``).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from edgar.errors import EdgarHTTPError, EdgarInputError
from edgar.ratelimit import RateLimiter

USER_AGENT_ENV = "WISSEN_SEC_USER_AGENT"
DATA_URL_ENV = "WISSEN_SEC_DATA_URL"  # data.sec.gov: submissions, XBRL company facts
WWW_URL_ENV = "WISSEN_SEC_WWW_URL"  # www.sec.gov: the ticker list, the filing archive
DEFAULT_DATA_URL = "https://data.sec.gov"
DEFAULT_WWW_URL = "https://www.sec.gov"

#: Statuses worth another try: SEC's "slow down" and the server's own trouble.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
#: The longest pause a ``Retry-After`` may ask for before the fetch gives up waiting.
MAX_RETRY_AFTER_S = 60.0
_EMAIL = re.compile(r"[^@\s<>]+@[^@\s<>]+\.[A-Za-z]{2,}")


def check_user_agent(value: str | None) -> str:
    """``value`` stripped, if it names someone and gives an e-mail; else EdgarInputError.

    SEC refuses (403) automated requests that do not declare who makes them, so a fetch
    without one would fail on its first request with a message about the server, not
    about the missing setting. The value is never echoed: it holds an e-mail address.
    """
    text = " ".join((value or "").split())
    if not text:
        raise EdgarInputError(
            "SEC EDGAR requires a User-Agent naming you and your e-mail address: set "
            f'{USER_AGENT_ENV}="Your Name you@example.com" or pass --user-agent'
        )
    words = _EMAIL.sub(" ", text).split()
    if not _EMAIL.search(text) or not any(re.search(r"[A-Za-z]", w) for w in words):
        raise EdgarInputError(
            "the SEC User-Agent must hold a name and an e-mail address, "
            'e.g. "Jane Doe jane@example.com" (the value given is not shown)'
        )
    return text


@dataclass(frozen=True)
class EdgarSettings:
    """Where EDGAR is and how to ask it; the defaults are SEC's own servers."""

    user_agent: str
    data_url: str = DEFAULT_DATA_URL
    www_url: str = DEFAULT_WWW_URL
    timeout_s: float = 30.0
    attempts: int = 4  # tries per request, the first included
    backoff_s: float = 1.0  # first pause; doubled after each failed try
    max_requests_per_second: int = 10

    @classmethod
    def from_env(cls, user_agent: str | None = None, **overrides: Any) -> EdgarSettings:
        """Settings from the arguments, else ``$WISSEN_SEC_USER_AGENT`` and the URL
        variables; raises EdgarInputError when no usable User-Agent is found."""
        agent = check_user_agent(user_agent or os.environ.get(USER_AGENT_ENV))
        data_url = overrides.pop("data_url", None) or os.environ.get(DATA_URL_ENV)
        www_url = overrides.pop("www_url", None) or os.environ.get(WWW_URL_ENV)
        return cls(
            user_agent=agent,
            data_url=(data_url or DEFAULT_DATA_URL).rstrip("/"),
            www_url=(www_url or DEFAULT_WWW_URL).rstrip("/"),
            **overrides,
        )


def cik10(cik: int) -> str:
    """A CIK as EDGAR's JSON file names spell it: ten digits, zero-padded."""
    return f"{int(cik):010d}"


class EdgarClient:
    """GET requests to EDGAR with the User-Agent, the rate limit, retries and timeouts."""

    def __init__(
        self,
        settings: EdgarSettings,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self.limiter = limiter or RateLimiter(settings.max_requests_per_second)
        self._sleep = sleep
        self._http = httpx.Client(
            headers={"User-Agent": settings.user_agent, "Accept-Encoding": "gzip, deflate"},
            timeout=httpx.Timeout(settings.timeout_s),
            follow_redirects=True,
            transport=transport,
        )
        self.requests = 0  # requests sent, retries included

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> EdgarClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the endpoints ----------------------------------------------------------------
    def company_tickers(self) -> dict[str, Any]:
        """``company_tickers.json``: ``{"0": {"cik_str": 320193, "ticker": "AAPL", ...}}``."""
        return self.get_json(f"{self.settings.www_url}/files/company_tickers.json")

    def submissions(self, cik: int) -> dict[str, Any]:
        """The company's filing index: names, fiscal year end, recent filings."""
        return self.get_json(f"{self.settings.data_url}/submissions/CIK{cik10(cik)}.json")

    def company_facts(self, cik: int) -> dict[str, Any] | None:
        """Every XBRL fact the company filed, or None when it filed none (404)."""
        url = f"{self.settings.data_url}/api/xbrl/companyfacts/CIK{cik10(cik)}.json"
        try:
            return self.get_json(url)
        except EdgarHTTPError as exc:
            if exc.status == 404:
                return None
            raise

    def document(self, cik: int, accession: str, primary_document: str) -> bytes:
        """A filing's primary document, as stored in the archive."""
        folder = accession.replace("-", "")
        url = f"{self.settings.www_url}/Archives/edgar/data/{int(cik)}/{folder}/{primary_document}"
        return self.get(url).content

    # -- requests ---------------------------------------------------------------------
    def get_json(self, url: str) -> Any:
        response = self.get(url)
        try:
            return response.json()
        except ValueError:
            raise EdgarHTTPError(f"{_path(url)}: the server's answer is not JSON") from None

    def get(self, url: str) -> httpx.Response:
        """``url``'s response, retrying 429, 5xx and dropped connections with backoff."""
        pause = self.settings.backoff_s
        last = ""
        status: int | None = None
        for attempt in range(1, self.settings.attempts + 1):
            self.limiter.acquire()
            self.requests += 1
            try:
                response = self._http.get(url)
            except httpx.TimeoutException:
                last, status = f"no answer within {self.settings.timeout_s:g} s", None
            except httpx.TransportError as exc:
                last, status = f"cannot connect ({type(exc).__name__})", None
            else:
                if response.status_code < 400:
                    return response
                status = response.status_code
                last = f"HTTP {status}"
                if status not in RETRY_STATUSES:
                    raise EdgarHTTPError(_refusal(url, status), status)
                wait = _retry_after(response)
                if wait is not None:
                    pause = max(pause, wait)
            if attempt < self.settings.attempts:
                self._sleep(pause)
                pause *= 2
        raise EdgarHTTPError(f"{_path(url)}: {last} after {self.settings.attempts} tries", status)


def _path(url: str) -> str:
    """The URL's path, for messages: short, and never holding credentials of a host."""
    return httpx.URL(url).path


def _refusal(url: str, status: int) -> str:
    if status == 403:
        return (
            f"{_path(url)}: HTTP 403 (SEC refuses requests without a User-Agent that names "
            "you and an e-mail address, and requesters over 10 requests per second)"
        )
    if status == 404:
        return f"{_path(url)}: HTTP 404 (not found)"
    return f"{_path(url)}: HTTP {status}"


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds a ``Retry-After`` header asks for (capped), if it gives a number."""
    try:
        return min(float(response.headers.get("Retry-After", "")), MAX_RETRY_AFTER_S)
    except ValueError:
        return None
