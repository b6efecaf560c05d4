"""Language-model configuration: overrides, keys, the --api-base check, the bundled model.

No test calls a real provider: servers are tiny HTTP servers on 127.0.0.1 started and stopped
here, and the one test that generates text runs the bundled model in-process.
"""

from __future__ import annotations

import json
import pickle
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import dspy
import pytest

from lm import local_engine
from lm.agent_overrides import apply_agent_lms, load_agent_overrides, parse_agent_overrides
from lm.language_models import (
    AGENT_NAMES,
    DEFAULT_LOCAL_MODEL,
    SERVER_KEY_ENV,
    LMConfigError,
    LMSpec,
    LMUnreachableError,
    MissingAPIKeyError,
    build_lm,
    check_lm_reachable,
    default_adapter,
    list_server_models,
    require_api_key,
)

PLANTED = "sk-planted-0123456789abcdef-do-not-leak"

# ── overrides ───────────────────────────────────────────────────────────────────────────────


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agents.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_override_file_gives_the_named_agents_their_model(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[reviewer]\nlm = "openai/gpt-4.1-mini"\ntemperature = 0\nmax_tokens = 800\n'
        '[composer]\nlm = "anthropic/claude-sonnet-4-5"\n',
    )
    base = LMSpec(model="openai/gpt-4.1", timeout=30.0)
    overrides = load_agent_overrides(path, base=base)
    assert set(overrides) == {"reviewer", "composer"}
    reviewer = overrides["reviewer"]
    assert reviewer.model == "openai/gpt-4.1-mini"
    assert reviewer.temperature == 0.0 and isinstance(reviewer.temperature, float)
    assert reviewer.max_tokens == 800
    assert reviewer.timeout == 30.0  # inherited from the base
    assert overrides["composer"].model == "anthropic/claude-sonnet-4-5"


def test_default_table_applies_to_every_agent_and_agents_refine_it() -> None:
    data = {
        "default": {"lm": "openai/gpt-4.1", "max_tokens": 2000},
        "reviewer": {"lm": "openai/gpt-4.1-mini"},
    }
    overrides = parse_agent_overrides(data)
    assert set(overrides) == set(AGENT_NAMES)
    assert overrides["planner"].model == "openai/gpt-4.1"
    assert overrides["reviewer"].model == "openai/gpt-4.1-mini"
    assert overrides["reviewer"].max_tokens == 2000


def test_changing_the_model_drops_an_inherited_server_address() -> None:
    base = LMSpec(model="openai/qwen2.5", api_base="http://127.0.0.1:8000/v1")
    overrides = parse_agent_overrides({"reviewer": {"lm": "openai/gpt-4.1-mini"}}, base=base)
    assert overrides["reviewer"].api_base is None
    kept = parse_agent_overrides({"reviewer": {"max_tokens": 100}}, base=base)
    assert kept["reviewer"].api_base == base.api_base


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[critic]\nlm = "openai/gpt-4.1"\n', "unknown agent"),
        ('[reviewer]\nmodel_name = "x"\n', "unknown setting"),
        ('[reviewer]\nmax_tokens = "many"\n', "max_tokens must be int"),
        ("[reviewer]\ncache = 1\n", "cache must be bool"),
        ('reviewer = "openai/gpt-4.1"\n', "must be a table"),
        ("[reviewer\n", "not valid TOML"),
    ],
)
def test_bad_override_files_are_refused_with_the_reason(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(LMConfigError, match=message):
        load_agent_overrides(_write(tmp_path, text))


def test_a_key_in_the_override_file_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, f'[reviewer]\nlm = "openai/gpt-4.1"\napi_key = "{PLANTED}"\n')
    with pytest.raises(LMConfigError, match="environment variables") as caught:
        load_agent_overrides(path)
    assert PLANTED not in str(caught.value)


def test_a_missing_override_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LMConfigError, match="not found"):
        load_agent_overrides(tmp_path / "nope.toml")


# ── applying LMs to a duck-typed program ────────────────────────────────────────────────────


@dataclass
class _Agent:
    lms: list[Any] = field(default_factory=list)

    def set_lm(self, lm: Any) -> None:
        self.lms.append(lm)


def test_apply_agent_lms_sets_each_agent_and_shares_equal_specs() -> None:
    program = SimpleNamespace(**{name: _Agent() for name in AGENT_NAMES})
    mini = LMSpec(model="openai/gpt-4.1-mini")
    applied = apply_agent_lms(
        program, {"reviewer": mini, "planner": mini, "composer": LMSpec(model="openai/gpt-4.1")}
    )
    assert applied["reviewer"] is applied["planner"]  # one LM object, one history
    assert applied["reviewer"].model == "openai/gpt-4.1-mini"
    assert program.composer.lms[0].model == "openai/gpt-4.1"
    assert program.researcher.lms == []


def test_apply_agent_lms_accepts_built_lms_and_rejects_unknown_agents() -> None:
    program = SimpleNamespace(reviewer=_Agent())
    lm = dspy.LM("openai/gpt-4.1-mini")
    apply_agent_lms(program, {"reviewer": lm})
    assert program.reviewer.lms == [lm]
    with pytest.raises(LMConfigError, match="unknown agent"):
        apply_agent_lms(program, {"critic": lm})
    with pytest.raises(LMConfigError, match="no agent 'composer'"):
        apply_agent_lms(program, {"composer": lm})


# ── keys ────────────────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("model", "env_var"),
    [
        ("openai/gpt-4.1", "OPENAI_API_KEY"),
        ("gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
        ("gemini/gemini-2.5-flash", "GEMINI_API_KEY"),
    ],
)
def test_a_missing_key_names_its_environment_variable(
    monkeypatch: pytest.MonkeyPatch, model: str, env_var: str
) -> None:
    monkeypatch.delenv(env_var, raising=False)
    with pytest.raises(MissingAPIKeyError, match=env_var) as caught:
        check_lm_reachable(LMSpec(model=model))
    assert caught.value.env_var == env_var
    monkeypatch.setenv(env_var, PLANTED)
    check_lm_reachable(LMSpec(model=model))  # set: no network call, no error


def test_keyless_models_need_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", SERVER_KEY_ENV):
        monkeypatch.delenv(var, raising=False)
    require_api_key(LMSpec(model="ollama_chat/llama3.2"))
    require_api_key(LMSpec(model="openai/qwen", api_base="http://127.0.0.1:1/v1"))
    require_api_key(LMSpec())


def test_no_key_is_ever_stored_on_an_lm_or_in_a_saved_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Keys stay in the environment: LM kwargs, dump_state, pickles and saved programs
    never hold one, whichever kind of model is built."""
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", SERVER_KEY_ENV):
        monkeypatch.setenv(var, PLANTED)
    specs = [
        LMSpec(),
        LMSpec(model="openai/gpt-4.1"),
        LMSpec(model="anthropic/claude-sonnet-4-5"),
        LMSpec(model="openai/qwen2.5", api_base="http://127.0.0.1:9/v1"),
    ]
    for spec in specs:
        lm = build_lm(spec)
        assert "api_key" not in lm.kwargs
        assert PLANTED not in repr(lm.kwargs)
        assert PLANTED not in json.dumps(lm.dump_state())
        assert PLANTED.encode() not in pickle.dumps(lm)
        predict = dspy.Predict("question -> answer")
        predict.set_lm(lm)
        assert PLANTED not in json.dumps(predict.dump_state())
        assert PLANTED not in repr(spec)


# ── building ────────────────────────────────────────────────────────────────────────────────


def test_build_lm_routes_each_kind_of_model() -> None:
    local = build_lm(LMSpec(max_tokens=64))
    assert local.model == DEFAULT_LOCAL_MODEL
    assert isinstance(local.engine, local_engine.LlamaCppEngine)
    assert local.kwargs["max_tokens"] == 64

    hosted = build_lm(LMSpec(model="openai/gpt-4.1", timeout=12.0))
    assert hosted.model == "openai/gpt-4.1"
    assert hosted.engine == "auto"  # DSPy's own client
    assert hosted.kwargs["timeout"] == 12.0

    server = build_lm(LMSpec(model="openai/qwen2.5", api_base="http://127.0.0.1:9/v1"))
    assert server.model == "hosted_vllm/qwen2.5"
    assert server.engine == "litellm"
    assert server.kwargs["api_base"] == "http://127.0.0.1:9/v1"

    vllm = build_lm(LMSpec(model="Qwen/Qwen2.5-1.5B-Instruct", api_base="http://127.0.0.1:9/v1"))
    assert vllm.model == "hosted_vllm/Qwen/Qwen2.5-1.5B-Instruct"  # the served id, slash and all

    ollama = build_lm(LMSpec(model="ollama_chat/llama3.2", api_base="http://127.0.0.1:11434"))
    assert ollama.model == "ollama_chat/llama3.2"
    assert ollama.engine == "litellm"


def test_default_adapter_is_json_for_the_local_model() -> None:
    assert isinstance(default_adapter(LMSpec()), dspy.JSONAdapter)
    chat = default_adapter(LMSpec(model="openai/gpt-4.1"))
    assert isinstance(chat, dspy.ChatAdapter) and not isinstance(chat, dspy.JSONAdapter)


def test_a_saved_local_lm_records_the_model_name_not_a_path() -> None:
    lm = build_lm(LMSpec())
    state = lm.dump_state()
    assert state["engine"]["state"] == {"model": "qwen2.5-coder-1.5b-instruct", "n_ctx": 8192}
    restored = dspy.LM.load_state(state, allow_custom_lm_class=True)
    assert isinstance(restored.engine, local_engine.LlamaCppEngine)


def test_local_engine_passes_the_schema_to_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without loading weights: the request DSPy's JSONAdapter builds reaches llama.cpp as
    a chat with the system prompt first and the output schema as a grammar."""
    calls: list[dict[str, Any]] = []

    class FakeLlama:
        def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
            calls.append(kwargs)
            return {
                "id": "c1",
                "choices": [
                    {
                        "message": {"content": '{"answer": "Paris", "confidence": 0.9}'},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5},
            }

    monkeypatch.setattr(
        local_engine, "load_llama", lambda path, n_ctx: (FakeLlama(), threading.Lock())
    )
    monkeypatch.setattr(local_engine.LlamaCppEngine, "model_path", Path("/dev/null"))

    class Capital(dspy.Signature):
        """Name the capital city."""

        country: str = dspy.InputField()
        answer: str = dspy.OutputField()
        confidence: float = dspy.OutputField()

    lm = build_lm(LMSpec(max_tokens=32, cache=False))
    with dspy.context(lm=lm, adapter=default_adapter(LMSpec())):
        result = dspy.Predict(Capital)(country="France")
    assert result.answer == "Paris" and result.confidence == 0.9
    sent = calls[0]
    assert sent["messages"][0]["role"] == "system"
    assert sent["messages"][-1]["role"] == "user" and "France" in sent["messages"][-1]["content"]
    assert sent["max_tokens"] == 32 and sent["temperature"] == 0.0
    schema = sent["response_format"]["schema"]
    assert sent["response_format"]["type"] == "json_object"
    assert schema["required"] == ["answer", "confidence"]
    assert lm.history[-1]["usage"]["completion_tokens"] == 5


def test_a_missing_local_model_file_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(local_engine.MODEL_ENV, str(tmp_path / "absent.gguf"))
    with pytest.raises(local_engine.LocalModelError, match="not found"):
        check_lm_reachable(LMSpec())


# ── --api-base: a tiny OpenAI-compatible server on 127.0.0.1 ────────────────────────────────


@dataclass
class FakeServer:
    base: str
    seen: list[dict[str, Any]]
    server: ThreadingHTTPServer


@pytest.fixture()
def openai_server(request: pytest.FixtureRequest) -> Iterator[FakeServer]:
    """An OpenAI-compatible server: GET /v1/models, POST /v1/chat/completions.

    `request.param` (indirect) may set `models` (ids served) and `status` (for /models).
    """
    options = getattr(request, "param", {}) or {}
    models = options.get("models", ["tiny-model"])
    status = options.get("status", 200)
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, code: int, payload: dict[str, Any]) -> None:
            body = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            seen.append({"method": "GET", "path": self.path, "auth": self.headers["Authorization"]})
            if self.path.rstrip("/").endswith("/models") and status == 200:
                data = [{"id": m, "object": "model", "created": 0, "owned_by": "t"} for m in models]
                self._send(200, {"object": "list", "data": data})
            else:
                self._send(status if status != 200 else 404, {"error": {"message": "no"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(
                {"method": "POST", "path": self.path, "auth": self.headers["Authorization"], **body}
            )
            content = "[[ ## answer ## ]]\nParis\n\n[[ ## completed ## ]]"
            self._send(
                200,
                {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", "tiny-model"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
                },
            )

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield FakeServer(f"http://127.0.0.1:{server.server_address[1]}/v1", seen, server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _dead_base() -> str:
    """An address where nothing listens: a port the OS just handed out and took back."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_live_server_passes_the_check(openai_server: FakeServer) -> None:
    spec = LMSpec(model="openai/tiny-model", api_base=openai_server.base)
    check_lm_reachable(spec)
    assert list_server_models(spec) == ["tiny-model"]
    assert openai_server.seen[0]["path"] == "/v1/models"


def test_a_dead_server_is_a_clear_early_error() -> None:
    base = _dead_base()
    started = time.perf_counter()
    with pytest.raises(LMUnreachableError, match="No server answers at") as caught:
        check_lm_reachable(LMSpec(model="openai/x", api_base=base), timeout=2.0)
    assert base in str(caught.value) and "--api-base" in str(caught.value)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("openai_server", [{"status": 404}], indirect=True)
def test_a_server_that_is_not_openai_compatible_is_named(openai_server: FakeServer) -> None:
    with pytest.raises(LMUnreachableError, match="not an OpenAI-compatible API"):
        check_lm_reachable(LMSpec(model="openai/x", api_base=openai_server.base))


@pytest.mark.parametrize("openai_server", [{"status": 401}], indirect=True)
def test_a_rejected_key_names_the_variable(openai_server: FakeServer) -> None:
    with pytest.raises(LMConfigError, match=SERVER_KEY_ENV):
        check_lm_reachable(LMSpec(model="openai/x", api_base=openai_server.base))


@pytest.mark.parametrize("openai_server", [{"models": ["a", "b"]}], indirect=True)
def test_a_model_the_server_does_not_serve_is_refused(openai_server: FakeServer) -> None:
    with pytest.raises(LMConfigError, match=r"does not serve 'c'.*a, b"):
        check_lm_reachable(LMSpec(model="openai/c", api_base=openai_server.base))
    with pytest.raises(LMConfigError, match="choose one with --lm"):
        check_lm_reachable(LMSpec(api_base=openai_server.base))
    check_lm_reachable(LMSpec(model="b", api_base=openai_server.base))


def test_a_server_call_sends_max_tokens_and_never_the_openai_key(
    openai_server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through LiteLLM: `max_tokens` (which llama.cpp's server honours), the served model
    when --lm is absent, and no OPENAI_API_KEY sent to a third-party server."""
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    monkeypatch.delenv(SERVER_KEY_ENV, raising=False)
    spec = LMSpec(api_base=openai_server.base, max_tokens=50, cache=False, num_retries=0)
    check_lm_reachable(spec)
    lm = build_lm(spec)
    assert lm.model == "hosted_vllm/tiny-model"
    with dspy.context(lm=lm):
        result = dspy.Predict("question -> answer")(question="Capital of France?")
    assert result.answer == "Paris"
    post = next(call for call in openai_server.seen if call["method"] == "POST")
    assert post["path"] == "/v1/chat/completions"
    assert post["max_tokens"] == 50 and "max_completion_tokens" not in post
    assert post["model"] == "tiny-model"
    assert all(PLANTED not in (call["auth"] or "") for call in openai_server.seen)


def test_the_server_key_comes_from_its_environment_variable(
    openai_server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SERVER_KEY_ENV, PLANTED)
    spec = LMSpec(model="tiny-model", api_base=openai_server.base, cache=False, num_retries=0)
    check_lm_reachable(spec)
    lm = build_lm(spec)
    with dspy.context(lm=lm):
        dspy.Predict("question -> answer")(question="q")
    assert {call["auth"] for call in openai_server.seen} == {f"Bearer {PLANTED}"}
    assert PLANTED not in json.dumps(lm.dump_state())


# ── the bundled model, in-process (CI runs this) ────────────────────────────────────────────


@pytest.mark.local_model
def test_bundled_model_answers_a_two_field_signature() -> None:
    """Structure only: a 135M model's answers are not judged, but they must parse."""

    class CompanyYear(dspy.Signature):
        """Name the company and fiscal year the question is about."""

        question: str = dspy.InputField()
        company: str = dspy.OutputField()
        fiscal_year: int = dspy.OutputField()

    spec = LMSpec(model="local/smollm2-135m-instruct", max_tokens=48, cache=False)
    check_lm_reachable(spec)
    lm = build_lm(spec)
    started = time.perf_counter()
    with dspy.context(lm=lm, adapter=default_adapter(spec)):
        result = dspy.Predict(CompanyYear)(question="What was 3M's capital expenditure in FY2018?")
    elapsed = time.perf_counter() - started
    assert isinstance(result.company, str)
    assert isinstance(result.fiscal_year, int)
    assert lm.history[-1]["usage"]["completion_tokens"] > 0
    assert elapsed < 60, f"the bundled model took {elapsed:.0f} s"
