"""The EDGAR client's manners: a User-Agent, SEC's rate limit, retries with backoff."""

from __future__ import annotations

import httpx
import pytest

from edgar.client import USER_AGENT_ENV, EdgarClient, EdgarSettings, check_user_agent
from edgar.errors import EdgarHTTPError, EdgarInputError
from edgar.ratelimit import RateLimiter


class FakeClock:
    """A clock that moves only when slept on, so a limiter's waits are exact and instant."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds > 0
        self.now += seconds


def test_no_user_agent_is_refused_with_the_setting_to_use(monkeypatch):
    monkeypatch.delenv(USER_AGENT_ENV, raising=False)
    with pytest.raises(EdgarInputError, match=USER_AGENT_ENV):
        EdgarSettings.from_env(None)


@pytest.mark.parametrize("value", ["python-httpx/0.28", "zed@quux.org", "  ", "Zed Quux"])
def test_a_user_agent_needs_a_name_and_an_e_mail_and_is_not_echoed(value):
    with pytest.raises(EdgarInputError) as raised:
        check_user_agent(value)
    assert not value.strip() or value not in str(raised.value)


def test_the_user_agent_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(USER_AGENT_ENV, "  Jane   Doe jane@example.com ")
    settings = EdgarSettings.from_env(None, data_url="http://127.0.0.1:1/")
    assert settings.user_agent == "Jane Doe jane@example.com"
    assert settings.data_url == "http://127.0.0.1:1" and settings.www_url == "https://www.sec.gov"


def test_the_limiter_never_lets_more_than_ten_requests_into_one_second():
    clock = FakeClock()
    limiter = RateLimiter(10, 1.0, clock=clock, sleep=clock.sleep)
    starts = []
    for i in range(95):
        if i % 7 == 0:
            clock.now += 0.05  # the work between requests
        limiter.acquire()
        starts.append(clock.now)
    for i, start in enumerate(starts):
        in_window = [s for s in starts[i:] if s < start + 1.0 - 1e-6]
        assert len(in_window) <= 10, (start, in_window)
    # and it does not wait more than it must: 95 requests take about 9 seconds
    assert 8.0 <= starts[-1] <= 9.5


def test_the_limiter_does_not_wait_under_the_limit():
    clock = FakeClock()
    limiter = RateLimiter(10, 1.0, clock=clock, sleep=clock.sleep)
    waits = [limiter.acquire() for _ in range(10)]
    assert waits == [0.0] * 10 and clock.now == 0.0
    assert limiter.acquire() == pytest.approx(1.0)


def client_with(handler, sleeps: list[float], attempts: int = 4) -> EdgarClient:
    settings = EdgarSettings(
        user_agent="Jane Doe jane@example.com", data_url="http://edgar.test", attempts=attempts
    )
    clock = FakeClock()
    return EdgarClient(
        settings,
        limiter=RateLimiter(10, 1.0, clock=clock, sleep=clock.sleep),
        sleep=sleeps.append,
        transport=httpx.MockTransport(handler),
    )


def test_server_errors_are_retried_with_exponential_backoff():
    answers = iter([503, 502, 200])
    sleeps: list[float] = []

    def handler(request):
        assert request.headers["User-Agent"] == "Jane Doe jane@example.com"
        status = next(answers)
        return httpx.Response(status, json={"cik": 1} if status == 200 else None)

    with client_with(handler, sleeps) as client:
        assert client.submissions(1) == {"cik": 1}
        assert client.requests == 3
    assert sleeps == [1.0, 2.0]


def test_a_429_retry_after_is_honoured_and_persistent_failure_is_one_error():
    sleeps: list[float] = []

    def handler(request):
        return httpx.Response(429, headers={"Retry-After": "7"})

    with client_with(handler, sleeps, attempts=3) as client, pytest.raises(EdgarHTTPError) as err:
        client.submissions(1)
    assert sleeps == [7.0, 14.0]
    assert err.value.status == 429
    assert str(err.value) == "/submissions/CIK0000000001.json: HTTP 429 after 3 tries"


def test_a_404_is_not_retried_and_missing_company_facts_are_none():
    sleeps: list[float] = []
    with client_with(lambda request: httpx.Response(404), sleeps) as client:
        assert client.company_facts(1) is None
        with pytest.raises(EdgarHTTPError, match="HTTP 404"):
            client.submissions(1)
        assert client.requests == 2 and sleeps == []


def test_timeouts_are_retried_then_reported():
    sleeps: list[float] = []

    def handler(request):
        raise httpx.ReadTimeout("slow", request=request)

    with client_with(handler, sleeps, attempts=2) as client, pytest.raises(EdgarHTTPError) as err:
        client.document(1, "0000000001-24-000001", "a.htm")
    assert "no answer within 30 s after 2 tries" in str(err.value) and err.value.status is None
