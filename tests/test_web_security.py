"""The web app's gate: token on non-loopback binds, Host and Origin checks, body limits."""

from __future__ import annotations

import pytest
from web_helpers import client

from web.settings import WebSettings, is_loopback, new_token

TOKEN = "t0ken-for-tests-0123456789"


@pytest.fixture(scope="module")
def exposed(sample_store_path):
    with client(WebSettings(host="0.0.0.0", token=TOKEN, store=sample_store_path)) as c:
        yield c


@pytest.fixture(scope="module")
def local(sample_store_path):
    with client(WebSettings(store=sample_store_path)) as c:
        yield c


def test_a_non_loopback_bind_needs_a_token():
    with pytest.raises(ValueError, match="access token is required"):
        WebSettings(host="0.0.0.0")
    with pytest.raises(ValueError, match="at least 16"):
        WebSettings(host="10.1.2.3", token="short")
    with pytest.raises(ValueError, match="use --no-track with --max-runs above 1"):
        WebSettings(max_runs=2)  # MLflow's autolog would mix concurrent runs' traces
    assert WebSettings(max_runs=2, track=False).max_runs == 2
    assert len(new_token()) >= 32 and new_token() != new_token()
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


@pytest.mark.parametrize(
    "path",
    ["/", "/grid", "/api/grid", "/api/search?q=capex", "/runs", "/api/runs", "/static/app.js",
     "/pages/a954433138d9", "/pages/a954433138d9/image.png", "/runs/x/events"],
)  # fmt: skip
def test_every_endpoint_refuses_a_request_without_the_token(exposed, path):
    response = exposed.get(path, headers={"host": "203.0.113.7:8000"})
    assert response.status_code == 401
    assert "access token is required" in response.json()["error"]
    assert exposed.post("/ask", data={"question": "x"}).status_code == 401


def test_a_wrong_token_is_refused_everywhere(exposed):
    assert exposed.get("/grid", headers={"authorization": "Bearer nope"}).status_code == 401
    assert exposed.get("/grid", headers={"cookie": "wissen_token=nope"}).status_code == 401
    assert exposed.get("/grid?token=nope").status_code == 401


def test_the_token_in_the_url_becomes_a_cookie_and_leaves_the_url(sample_store_path):
    settings = WebSettings(host="0.0.0.0", token=TOKEN, store=sample_store_path)
    with client(settings, base_url="http://203.0.113.7:8000") as c:
        first = c.get(f"/grid?token={TOKEN}&ticker=MMM", follow_redirects=False)
        assert first.status_code == 303
        assert first.headers["location"] == "/grid?ticker=MMM"
        cookie = first.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert c.get("/grid").status_code == 200  # the cookie now carries the token
    with client(settings, base_url="http://203.0.113.7:8000") as c:
        bearer = {"authorization": f"Bearer {TOKEN}"}
        assert c.get("/api/grid", headers=bearer).status_code == 200


def test_loopback_binds_answer_only_loopback_host_names(local):
    assert local.get("/api/grid").status_code == 200
    assert local.get("/api/grid", headers={"host": "localhost:8000"}).status_code == 200
    rebound = local.get("/api/grid", headers={"host": "attacker.example:8000"})
    assert rebound.status_code == 421


def test_cross_origin_posts_are_refused(local):
    evil = local.post("/ask", data={"question": "x"}, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403
    opaque = local.post("/ask", data={"question": "x"}, headers={"origin": "null"})
    assert opaque.status_code == 403


def test_request_bodies_are_bounded(local):
    big = {"question": "x" * 70_000}
    assert local.post("/ask", data=big).status_code == 413

    def chunks():
        for _ in range(20):
            yield b"q" * 8192

    assert local.post("/ask", content=chunks()).status_code == 413  # no Content-Length
    long_query = local.get("/api/search", params={"q": "capex " * 200})
    assert long_query.status_code == 400 and "at most 500" in long_query.json()["error"]
